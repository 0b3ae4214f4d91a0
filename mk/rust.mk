# Rust: the core, the set, the ffi library, the vectors generator.
.PHONY: build-rust test-rust demo-rust bench-rust lint vectors-check

build-rust:
	$(CARGO) build --release --workspace

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --quiet

vectors-check:
	$(CARGO) run --quiet -p longstraw-gen-vectors -- --check tests/vectors/placement-v1.json \
		tests/vectors/table-v1.json tests/vectors/skeleton-v1.json tests/vectors/domains-v1.json

test-rust: vectors-check test-spec
	$(CARGO) test --workspace --release

# The independent Python implementation of docs/SPEC.md must reproduce every vector.
.PHONY: test-spec
test-spec: $(VENV)/.spec-deps
	$(VENV_PY) tests/spec/test_spec_reimpl.py

$(VENV)/.spec-deps: tests/spec/requirements.txt | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet -r tests/spec/requirements.txt
	touch $@

demo-rust:
	$(CARGO) run --quiet --release -p longstraw-demo

bench-rust:
	$(CARGO) bench -p longstraw-bench
