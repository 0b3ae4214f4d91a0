# python: filled in by its issue.
.PHONY: build-python test-python demo-python bench-python
build-python:
	@echo "python: not built yet"
test-python:
	@echo "python: no tests yet"
demo-python:
	@echo "python: no demo yet"
bench-python:
	@echo "python: no benchmarks yet"
