# Documentation that cannot drift.
#
#   make test-docs        every fenced code block in every *.md runs (tools/doctest/run_docs.py: Python,
#                         Node CJS and ESM, Go, C, Java on JDK 25; Rust through rustdoc), shown outputs
#                         checked; then the performance-number lint (tools/doctest/perf_lint.py)
#   make docs-examples    the code blocks only
.PHONY: test-docs docs-examples docs-rustdoc typecheck-tools

# The pinned type checkers (pyright, tsc) the Python and Node tests run over user-style programs.
TYPECHECK_DIR := $(ROOT)/tools/typecheck
$(TYPECHECK_DIR)/node_modules/.package-lock.json: $(TYPECHECK_DIR)/package.json $(TYPECHECK_DIR)/package-lock.json
	cd $(TYPECHECK_DIR) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@
typecheck-tools: $(TYPECHECK_DIR)/node_modules/.package-lock.json

docs-examples: build-python build-node build-node-browser build-node-wasm-edge go-lib c-lib build-java
	python3 $(ROOT)/tools/doctest/test_doc_tools.py
	$(CARGO) build --quiet --release -p longstraw-cli
	python3 $(ROOT)/tools/doctest/run_docs.py --python $(VENV_PY) --node $(NODE) --go $(GO) \
	  --java $(JAVA_HOME)/bin/java

# The rust blocks of the docs are doctests: set/README.md of longstraw-set (set/src/readme_doctests.rs), the
# repository's other docs of the unpublished longstraw-bench (bench/src/readme_doctests.rs).
docs-rustdoc:
	$(CARGO) test --quiet --release --doc -p longstraw-set -p longstraw-bench

# Every performance number in the docs has a key in bench/results/*.json and agrees with it.
.PHONY: docs-perf-lint
docs-perf-lint:
	python3 $(ROOT)/tools/doctest/perf_lint.py

test-docs: docs-examples docs-rustdoc docs-perf-lint ## every code example in the README and docs runs; rustdoc; the performance-claims lint
	@echo "docs: every example ran; every performance number has its results key"
