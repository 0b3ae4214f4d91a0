# WebAssembly (wasm32-wasip1): the core with and without its simd128 kernel, under a WASI runtime.
# WebAssembly has no run-time feature detection, so the kernel is the build's choice: a build with
# -C target-feature=+simd128 runs simd128, one without runs the scalar backend.
#
#   make check-wasm      the core builds for wasm32-wasip1 without and with simd128, warning-free (seconds)
#   make test-core-wasm  the core crate's tests (every backend against the scalar oracle, the vectors,
#                        the near-tie tests) built for wasm32-wasip1 without and with simd128, run under
#                        wasmtime (Python, from PyPI into .venv) or, when that is missing, Node's node:wasi
#   make bench-wasm      the batch lookup at n = 4096: native (scalar, SSE2, ...) and both wasm builds under
#                        Node and wasmtime in one run, recorded in bench/results/ (bench/wasm)
.PHONY: check-wasm test-core-wasm bench-wasm
WASM := wasm32-wasip1
# RUSTFLAGS (it overrides every other source of flags; with --target it reaches only the wasm code),
# set or cleared here so that no flags from the environment decide which kernel is built.
WASM_SIMD := env -u CARGO_ENCODED_RUSTFLAGS RUSTFLAGS="-C target-feature=+simd128"
WASM_NOSIMD := env -u CARGO_ENCODED_RUSTFLAGS -u RUSTFLAGS
# Test files are read at their absolute paths (CARGO_MANIFEST_DIR): the runner shows the repo there.
WASM_RUNNER_WASMTIME := $(VENV_PY) $(ROOT)/tools/wasm/run_wasi.py --dir $(ROOT)
WASM_RUNNER_NODE := node --no-warnings $(ROOT)/tools/wasm/run_wasi.mjs --dir $(ROOT)

# wasmtime's wheels cover Linux, macOS and Windows on x86_64 and arm64; elsewhere the install fails
# and Node's node:wasi runs the tests.
$(VENV)/.wasm-deps: tools/wasm/requirements.txt | $(VENV_PY)
	@if $(VENV_PY) -m pip install --quiet -r tools/wasm/requirements.txt; then touch $@; \
	else echo "wasm: WARNING: wasmtime did not install from PyPI; Node's node:wasi runs the wasm32 code instead"; fi

# Picks the runner, or skips saying why; $(1) is the target's name.
define WASM_PICK_RUNNER
if ! rustup target list --installed 2>/dev/null | grep -qx $(WASM); then \
  echo "$(1): SKIPPED: the Rust target $(WASM) is missing (make prereqs adds it)"; exit 0; fi; \
if $(VENV_PY) -c 'import wasmtime' 2>/dev/null; then runner="$(WASM_RUNNER_WASMTIME)"; rname=wasmtime; \
elif node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null; then \
  echo "$(1): WARNING: the wasmtime module does not import (make installs it into .venv from PyPI): running under Node's node:wasi"; \
  runner="$(WASM_RUNNER_NODE)"; rname="Node's node:wasi"; \
else echo "$(1): SKIPPED: no WASI runtime: neither the wasmtime module (make installs it into .venv) nor Node 20+"; exit 0; fi
endef

check-wasm: ## the core (simd128 backend included) builds for wasm32 without warnings, without and with simd128
	@rustup target list --installed 2>/dev/null | grep -qx $(WASM) \
	  || { echo "check-wasm: the Rust target $(WASM) is missing: run make prereqs"; exit 1; }
	$(WASM_NOSIMD) $(CARGO) clippy --quiet -p longstraw --target $(WASM) -- -D warnings
	$(WASM_SIMD) $(CARGO) clippy --quiet -p longstraw --target $(WASM) --target-dir $(ROOT)/target/wasm32-simd128 -- -D warnings

# The scalar build uses the default target dir; the simd128 one its own (its flags rebuild every crate).
# wasm32-wasip1 aborts on a panic, before the test harness prints what it captured: --nocapture shows
# a failing assertion's message (the first failure ends that test file's run).
test-core-wasm: $(VENV)/.wasm-deps ## the core's tests for wasm32, without and with simd128, under wasmtime or Node's WASI
	@$(call WASM_PICK_RUNNER,$@); \
	echo "$@: wasm32-wasip1 without simd128 (scalar backend), under $$rname"; \
	$(WASM_NOSIMD) CARGO_TARGET_WASM32_WASIP1_RUNNER="$$runner" LONGSTRAW_EXPECT_BACKEND=scalar \
	  $(CARGO) test --quiet --release -p longstraw --target $(WASM) -- --nocapture; \
	echo "$@: wasm32-wasip1 with simd128 (simd128 backend against the scalar oracle), under $$rname"; \
	$(WASM_SIMD) CARGO_TARGET_WASM32_WASIP1_RUNNER="$$runner" LONGSTRAW_EXPECT_BACKEND=simd128 \
	  $(CARGO) test --quiet --release -p longstraw --target $(WASM) --target-dir $(ROOT)/target/wasm32-simd128 \
	  -- --nocapture

# Stripped builds (the module sizes are reported), each in its own target dir.
WASM_BENCH_BUILD = CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=symbols \
  $(CARGO) build --quiet --release -p longstraw-bench-wasm --target $(WASM)
WASM_BENCH_ARGS ?= 4096 128 15
bench-wasm: $(VENV)/.wasm-deps ## the simd128 batch against scalar wasm and native SSE2 at n = 4096, recorded (about a minute)
	@$(call WASM_PICK_RUNNER,$@); \
	$(CARGO) build --quiet --release -p longstraw-bench-wasm; \
	$(WASM_NOSIMD) $(WASM_BENCH_BUILD) --target-dir $(ROOT)/target/wasm32-bench-scalar; \
	$(WASM_SIMD) $(WASM_BENCH_BUILD) --target-dir $(ROOT)/target/wasm32-bench-simd128; \
	$(VENV_PY) $(ROOT)/tools/wasm/bench_batch.py --native $(ROOT)/target/release/longstraw-bench-wasm \
	  --scalar $(ROOT)/target/wasm32-bench-scalar/$(WASM)/release/longstraw-bench-wasm.wasm \
	  --simd $(ROOT)/target/wasm32-bench-simd128/$(WASM)/release/longstraw-bench-wasm.wasm $(WASM_BENCH_ARGS) \
	  | $(RECORD) --run wasm-batch --command "make bench-wasm WASM_BENCH_ARGS='$(WASM_BENCH_ARGS)'"
