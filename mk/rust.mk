# Rust: the core, the set, the ffi library, the vectors generator.
.PHONY: build-rust test-rust demo-rust bench-rust lint vectors-check

build-rust: ## the Rust workspace, release
	$(CARGO) build --release --workspace

lint: ## cargo fmt --check, clippy -D warnings, rustdoc -D warnings
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --quiet

vectors-check: ## the frozen vector files equal what gen-vectors computes
	$(CARGO) run --quiet -p longstraw-gen-vectors -- --check tests/vectors/placement-v1.json \
		tests/vectors/table-v1.json tests/vectors/skeleton-v1.json tests/vectors/domains-v1.json \
		tests/vectors/placement-v1-edges.json tests/vectors/table-balanced-v1.json tests/vectors/keyed-v1.json \
		tests/vectors/table-balanced-caps-v1.json

test-rust: vectors-check test-spec check-aarch64 check-wasm ## every crate's tests, the vectors, the independent spec implementation
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

demo-rust: ## the Rust demo
	$(CARGO) run --quiet --release -p longstraw-demo

# Criterion benchmarks of every backend and the peer crates (a few minutes),
# then a markdown summary with ratios. BENCH_ARGS narrows it, e.g. BENCH_ARGS=single/plain.
BENCH_ARGS ?=
bench-rust: ## Criterion benchmarks of every backend and the peer crates (minutes)
	$(CARGO) bench -p longstraw-bench --bench placement -- --warm-up-time 1 --measurement-time 2 $(if $(BENCH_ARGS),'$(BENCH_ARGS)') \
	  | $(RECORD) --run rust --command "make bench-rust BENCH_ARGS='$(BENCH_ARGS)'"
	python3 bench/report.py "$${CARGO_TARGET_DIR:-$(ROOT)/target}/criterion"

# Instructions per node-score under callgrind (scalar, sse2, avx2: valgrind has no AVX-512).
.PHONY: bench-callgrind
bench-callgrind: ## instructions per node-score under callgrind
	@if command -v valgrind >/dev/null; then bench/callgrind.sh | $(RECORD) --run callgrind --command 'make bench-callgrind'; \
	else echo "bench-callgrind: SKIPPED: valgrind is missing (make prereqs installs it)"; fi

# ---- aarch64 (NEON) ----
AARCH64 := aarch64-unknown-linux-gnu

# CI: the core (with its NEON backend) must build for aarch64.
.PHONY: check-aarch64 test-aarch64
check-aarch64: ## the core (NEON backend included) builds for aarch64
	@rustup target list --installed 2>/dev/null | grep -qx $(AARCH64) \
	  || { echo "check-aarch64: the Rust target $(AARCH64) is missing: run make prereqs"; exit 1; }
	$(CARGO) check --quiet -p longstraw --target $(AARCH64)

# The core's tests (NEON differential harness, golden vectors) under qemu-user.
test-aarch64: check-aarch64 ## the core's tests under qemu-aarch64, dynamically linked
	@if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then \
		echo "test-aarch64: SKIPPED: qemu-user / gcc-aarch64-linux-gnu are missing (make prereqs installs them)"; \
	else \
		CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
		CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
		$(CARGO) test -p longstraw --release --target $(AARCH64); \
	fi

# ---- fuzzing: mk/fuzz.mk ----

# ---- Miri and loom: the set crate's unsafe code and its lock-free counters ----
# Miri interprets the set's tests and fails on undefined behaviour: the id columns' uncounted Arc copies
# (set/src/mapped_id.rs), the copy-on-write columns and sharded id map that snapshots share
# (column.rs, shared_map.rs), the leases' uncounted pointers to their counters (bounded.rs), and data
# races between threads. set/tests/miri.rs drives them through adds, removes and weight changes while
# snapshots and leases are held; make test runs it at small sizes, test-miri-full at the native sizes
# (maps split into shards) plus every unit test of the crate, under Stacked and then Tree Borrows.
.PHONY: test-miri test-miri-full test-loom test-loom-full
MIRI_CARGO ?= cargo +nightly
MIRI_CHECK = @$(MIRI_CARGO) miri --version >/dev/null 2>&1 \
  || { echo "$@: no nightly Rust toolchain with Miri: run make prereqs"; exit 1; }
test-miri: ## the set's unsafe code under Miri while snapshots and leases are held (small sizes, ~1 min)
	$(MIRI_CHECK)
	$(MIRI_CARGO) miri test --quiet -p longstraw-set --test miri
	$(MIRI_CARGO) miri test --quiet -p longstraw-set --lib column::
test-miri-full: ## test-miri at full sizes, every set unit test, Stacked and Tree Borrows (slow)
	$(MIRI_CHECK)
	MIRI_FULL=1 MIRIFLAGS="-Zmiri-env-forward=MIRI_FULL" $(MIRI_CARGO) miri test -p longstraw-set --test miri --lib
	MIRI_FULL=1 MIRIFLAGS="-Zmiri-env-forward=MIRI_FULL -Zmiri-tree-borrows" \
	  $(MIRI_CARGO) miri test -p longstraw-set --test miri --lib

# loom runs set/tests/loom.rs under every interleaving of 2-3 threads (acquire and release racing each
# other and an add, remove or weight change), with the counters, locks and published state of
# set/src/bounded.rs swapped for loom's (--cfg loom). Its own target dir: the flag rebuilds everything.
# make test bounds the preemptions per execution at 2 (a debug build: quicker to compile, and the ~3,500
# executions take seconds); test-loom-full at 4 (a release build; about 125,000 executions).
LOOM = RUSTFLAGS="--cfg loom" CARGO_PROFILE_DEV_OPT_LEVEL=1 CARGO_PROFILE_DEV_DEBUG=line-tables-only $(CARGO) test -p longstraw-set --test loom --target-dir $(ROOT)/target/loom
test-loom: ## the bounded-load counters under every interleaving loom explores, 2 preemptions (~1 min)
	LOOM_MAX_PREEMPTIONS=2 $(LOOM)
	$(DISCARD_SCRATCH) $(ROOT)/target/loom
test-loom-full: ## test-loom with 4 preemptions per execution (a few minutes)
	LOOM_MAX_PREEMPTIONS=4 $(LOOM) --release
