# node: filled in by its issue.
.PHONY: build-node test-node demo-node bench-node
build-node:
	@echo "node: not built yet"
test-node:
	@echo "node: no tests yet"
demo-node:
	@echo "node: no demo yet"
bench-node:
	@echo "node: no benchmarks yet"
