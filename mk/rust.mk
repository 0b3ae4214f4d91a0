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
		tests/vectors/table-v1.json tests/vectors/skeleton-v1.json tests/vectors/domains-v1.json \
		tests/vectors/placement-v1-edges.json tests/vectors/table-balanced-v1.json tests/vectors/keyed-v1.json \
		tests/vectors/table-balanced-caps-v1.json

test-rust: vectors-check test-spec check-aarch64
	$(CARGO) test --workspace --release

# The independent Python implementation of docs/SPEC.md must reproduce every vector.
.PHONY: test-spec
test-spec: $(VENV)/.spec-deps
	$(VENV_PY) tests/spec/test_spec_reimpl.py
	$(VENV_PY) tests/spec/test_spec_edges.py
	$(VENV_PY) tests/spec/test_spec_balanced.py
	$(VENV_PY) tests/spec/test_spec_balanced_caps.py
	$(VENV_PY) tests/spec/test_spec_balanced_scope.py
	$(VENV_PY) tests/spec/test_spec_keyed.py
	$(VENV_PY) tests/spec/test_spec_bounded.py

$(VENV)/.spec-deps: tests/spec/requirements.txt | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet -r tests/spec/requirements.txt
	touch $@

demo-rust:
	$(CARGO) run --quiet --release -p longstraw-demo

# Criterion benchmarks of every backend and the peer crates (a few minutes),
# then a markdown summary with ratios. BENCH_ARGS narrows it, e.g. BENCH_ARGS=single/plain.
BENCH_ARGS ?=
bench-rust:
	$(CARGO) bench -p longstraw-bench --bench placement -- --warm-up-time 1 --measurement-time 2 $(if $(BENCH_ARGS),'$(BENCH_ARGS)') \
	  | $(RECORD) --run rust --command "make bench-rust BENCH_ARGS='$(BENCH_ARGS)'"
	python3 bench/report.py "$${CARGO_TARGET_DIR:-$(ROOT)/target}/criterion"

# Instructions per node-score under callgrind (scalar, sse2, avx2: valgrind has no AVX-512).
.PHONY: bench-callgrind
bench-callgrind:
	@command -v valgrind >/dev/null || [ "$$(id -u)" != 0 ] || apt-get install -y -qq valgrind; \
	if command -v valgrind >/dev/null; then bench/callgrind.sh | $(RECORD) --run callgrind --command 'make bench-callgrind'; \
	else echo "bench-callgrind: SKIPPED: valgrind missing and not root to install it"; fi

# ---- aarch64 (NEON) ----
AARCH64 := aarch64-unknown-linux-gnu

# CI: the core (with its NEON backend) must build for aarch64.
.PHONY: check-aarch64 test-aarch64
check-aarch64:
	@rustup target list --installed 2>/dev/null | grep -qx $(AARCH64) || rustup target add $(AARCH64)
	$(CARGO) check --quiet -p longstraw --target $(AARCH64)

# The core's tests (NEON differential harness, golden vectors) under qemu-user.
test-aarch64: check-aarch64
	@if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross; \
		fi; \
	fi; \
	if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then \
		echo "test-aarch64: SKIPPED: qemu-user / gcc-aarch64-linux-gnu missing and not root to install them"; \
	else \
		CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
		CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
		$(CARGO) test -p longstraw --release --target $(AARCH64); \
	fi

# ---- fuzzing: mk/fuzz.mk ----
