# go: filled in by its issue.
.PHONY: build-go test-go demo-go bench-go
build-go:
	@echo "go: not built yet"
test-go:
	@echo "go: no tests yet"
demo-go:
	@echo "go: no demo yet"
bench-go:
	@echo "go: no benchmarks yet"
