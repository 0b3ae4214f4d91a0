# c: filled in by its issue.
.PHONY: build-c test-c demo-c bench-c
build-c:
	@echo "c: not built yet"
test-c:
	@echo "c: no tests yet"
demo-c:
	@echo "c: no demo yet"
bench-c:
	@echo "c: no benchmarks yet"
