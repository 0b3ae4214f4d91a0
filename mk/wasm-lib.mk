# The C ABI compiled to WebAssembly: liblongstraw.wasm, for hosts that run it in a runtime written in
# their own language (Go without cgo under wazero; Python under wasmtime).
#
#   make wasm-lib      liblongstraw.wasm (wasm32-wasip1, simd128, profile wasm-release) into
#                      target/wasm32-wasip1/wasm-release/, and optimised by wasm-opt into
#                      bindings/go/internal/wasmabi/ (go:embed; not committed)
#   make test-go-wasm  the wazero runner's tests with CGO_ENABLED=0: the placement and keyed vectors, errors,
#                      a trap that replaces its instance, many goroutines under -race
#   make dist-wasm     dist/liblongstraw.wasm (the same build as wasm-lib)
#
# wasm32-wasip1, not wasm32-unknown-unknown: WASI preview 1 is what wazero and wasmtime provide, and it
# gives the module the environment the host chooses (LONGSTRAW_BACKEND, a secret named by secret.env) and
# random numbers; the host gives it no directory, so the module does no file I/O (the file exports say so).
# It is built as a library (cdylib) with no _start: the host instantiates it and calls the exports.
.PHONY: wasm-lib test-go-wasm dist-wasm

# Every WebAssembly module (this one, the Node addon's) is built with the Cargo profile wasm-release:
# opt-level "s", fat LTO, one codegen unit, panic = "abort", stripped (names and debug info). Against
# opt-level 3 it is smaller and its lookups measured as fast (see the profile's note in Cargo.toml).
WASM_PROFILE := wasm-release
# $(call WASM_SHRINK,IN,OUT): wasm-opt (Debian's binaryen; make prereqs installs it) optimises module IN
# for size into OUT (IN and OUT may be the same file). The features are those the Rust targets use
# (wasm-opt rejects the module's SIMD and atomics without them, and must not add others). Without
# wasm-opt, OUT is a copy of IN, larger, and the build says so loudly; where CI is set (every CI service
# sets it), a missing wasm-opt fails the build instead.
WASM_OPT ?= wasm-opt
WASM_OPT_FLAGS ?= -Oz --enable-simd --enable-threads --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
  --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue
WASM_SHRINK = if command -v $(WASM_OPT) >/dev/null; then \
    before=$$(stat -c %s $(1)) && $(WASM_OPT) $(WASM_OPT_FLAGS) $(1) -o $(2).opt && mv $(2).opt $(2) && \
    echo "wasm-opt -Oz: $(2): $$before -> $$(stat -c %s $(2)) bytes"; \
  elif [ -n "$${CI:-}" ]; then echo "wasm-opt is missing (Debian's binaryen): run make prereqs" >&2; exit 1; \
  else [ $(1) -ef $(2) ] || cp $(1) $(2); \
    echo "*** WARNING: wasm-opt is missing (Debian's binaryen; make prereqs installs it): $(2) is NOT optimised and is larger than a release. ***" >&2; fi
WASM_LIB := $(ROOT)/target/$(WASM)/$(WASM_PROFILE)/longstraw.wasm
WASM_GO_EMBED := $(GO_DIR)/internal/wasmabi/liblongstraw.wasm
WASM_GO_ENV := cd $(GO_DIR) && GOMODCACHE=$(ROOT)/build/go/mod GOFLAGS=-modcacherw GOTOOLCHAIN=local CGO_ENABLED=0

wasm-lib: ## liblongstraw.wasm: the C ABI for wasm32-wasip1 with simd128 (and its copy for the Go runner)
	@rustup target list --installed 2>/dev/null | grep -qx $(WASM) \
	  || { echo "wasm-lib: the Rust target $(WASM) is missing: run make prereqs"; exit 1; }
	$(WASM_SIMD) $(CARGO) build --quiet --profile $(WASM_PROFILE) -p longstraw-c --target $(WASM)
	@$(call WASM_SHRINK,$(WASM_LIB),$(WASM_GO_EMBED))
	@echo "wasm-lib: $(WASM_GO_EMBED): $$(stat -c %s $(WASM_GO_EMBED)) bytes (from $(WASM_LIB))"

# The Go package embeds the module, so `go build ./...` needs it: every Go build makes it first.
go-lib: wasm-lib

# The whole Go module's tests (the public package over the wazero runner, and the runner's own) with cgo
# off. -race needs cgo for the race runtime only (go refuses -race with CGO_ENABLED=0), so that run keeps
# cgo on and selects the portable path with the longstraw_wasm build tag: no C of ours is linked.
test-go-wasm: wasm-lib ## the Go package's whole test suite with cgo off (wazero), and -race under many goroutines
	@test -f $(VECTORS) || { echo "go: $(VECTORS) is missing"; exit 1; }
	$(WASM_GO_ENV) $(GO) vet ./...
	$(WASM_GO_ENV) $(GO) test -count=1 ./...
	$(WASM_GO_ENV) CGO_ENABLED=1 $(GO) test -count=1 -race -tags longstraw_wasm ./...
	cd $(GO_DIR)/integrations && GOMODCACHE=$(ROOT)/build/go/mod GOFLAGS=-modcacherw GOTOOLCHAIN=local CGO_ENABLED=0 $(GO) test -count=1 ./...
	@echo "go-wasm: all tests passed (CGO_ENABLED=0, -race with -tags longstraw_wasm, integrations)"

dist-wasm: ## dist/liblongstraw.wasm, the release build of the C ABI for wasm32-wasip1 with simd128
	@mkdir -p $(DIST)
	$(WASM_SIMD) $(CARGO) build --quiet --profile $(WASM_PROFILE) -p longstraw-c --target $(WASM)
	@$(call WASM_SHRINK,$(C_TARGET_DIR)/$(WASM)/$(WASM_PROFILE)/longstraw.wasm,$(DIST)/liblongstraw.wasm)
	@echo "dist: $(DIST)/liblongstraw.wasm: $$(stat -c %s $(DIST)/liblongstraw.wasm) bytes"

.PHONY: bench-go-wasm
bench-go-wasm: wasm-lib go-lib ## Owner (n = 1, 10, 100) and a 4096-key batch: the wazero runner against cgo, recorded
	$(GO_ENV) $(GO) run ./internal/wasmabi/wasmbench | $(RECORD) --run go-wasm --command 'make bench-go-wasm'

# The Go package's test binary and the runner's, cross-compiled with cgo off: linux/arm64 run under
# qemu-aarch64, windows/amd64 (with the integrations module's) under wine (Debian's wine64, 8.0).
# Not in make test (a few minutes under emulation; make test-go-wasm-windows is the Windows half alone).
# The out-of-memory test re-runs its own binary under an address-space limit, which an emulated binary
# cannot do, so it is skipped on arm64; on Windows it is skipped by name (no RLIMIT_AS), as are the FIFO
# tests (no FIFOs), with the reason printed.
# Under wine the Windows binaries run in a throwaway prefix, build/wine/prefix (about 700 MB, made once, no
# display), with a test-only bcryptprimitives.dll built by MinGW (tools/wine/: Go's runtime needs its
# ProcessPrng, which wine 8.0 lacks). Without wine the Windows binaries are built, not run, and the target
# says so; where CI is set (every CI service sets it), a missing wine fails the target instead.
GO_WINE_PREFIX := $(ROOT)/build/wine/prefix
GO_WINE := $(ROOT)/tools/wine/run.sh $(GO_WINE_PREFIX)
GO_WINE_FOUND = $(firstword $(wildcard /usr/lib/wine/wine64) $(shell command -v wine64 wine 2>/dev/null))
.PHONY: test-go-wasm-cross test-go-wasm-windows
test-go-wasm-cross: wasm-lib test-go-wasm-windows ## the Go package's tests (cgo off) built for linux/arm64 (run under qemu-aarch64) and windows/amd64 (wine)
	@mkdir -p $(ROOT)/build/go-wasm
	$(WASM_GO_ENV) GOOS=linux GOARCH=arm64 $(GO) test -c -o $(ROOT)/build/go-wasm/longstraw-linux-arm64 .
	$(WASM_GO_ENV) GOOS=linux GOARCH=arm64 $(GO) test -c -o $(ROOT)/build/go-wasm/wasmabi-linux-arm64 ./internal/wasmabi/
	cd $(GO_DIR) && qemu-aarch64 $(ROOT)/build/go-wasm/longstraw-linux-arm64 -test.count=1 -test.short -test.skip "^TestOutOfMemoryIsAnErrorUnderALimit$$"
	cd $(GO_DIR)/internal/wasmabi && qemu-aarch64 $(ROOT)/build/go-wasm/wasmabi-linux-arm64 -test.count=1

# The Windows half alone (about 80 s of tests under wine, once the prefix exists).
test-go-wasm-windows: wasm-lib ## the Go package's, the runner's and the go-redis integration's tests (cgo off) for windows/amd64, under wine
	@mkdir -p $(ROOT)/build/go-wasm
	$(WASM_GO_ENV) GOOS=windows GOARCH=amd64 $(GO) test -c -o $(ROOT)/build/go-wasm/longstraw-windows-amd64.exe .
	$(WASM_GO_ENV) GOOS=windows GOARCH=amd64 $(GO) test -c -o $(ROOT)/build/go-wasm/wasmabi-windows-amd64.exe ./internal/wasmabi/
	cd $(GO_DIR)/integrations && GOMODCACHE=$(ROOT)/build/go/mod GOFLAGS=-modcacherw GOTOOLCHAIN=local CGO_ENABLED=0 GOOS=windows GOARCH=amd64 \
	  $(GO) test -c -o $(ROOT)/build/go-wasm/goredis-windows-amd64.exe ./goredis/
	@if [ -n "$(GO_WINE_FOUND)" ]; then \
	  set -e; \
	  echo "test-go-wasm-windows: windows/amd64 under $(GO_WINE_FOUND)"; \
	  cd $(GO_DIR) && $(GO_WINE) $(ROOT)/build/go-wasm/longstraw-windows-amd64.exe -test.count=1; \
	  cd $(GO_DIR)/internal/wasmabi && $(GO_WINE) $(ROOT)/build/go-wasm/wasmabi-windows-amd64.exe -test.count=1; \
	  cd $(GO_DIR)/integrations/goredis && $(GO_WINE) $(ROOT)/build/go-wasm/goredis-windows-amd64.exe -test.count=1; \
	elif [ -n "$${CI:-}" ]; then echo "test-go-wasm-windows: wine is missing (Debian's wine64): run tools/prereqs.sh --cross" >&2; exit 1; \
	else echo "*** test-go-wasm-windows: wine is not installed (Debian's wine64; tools/prereqs.sh --cross installs it): the windows/amd64 test binaries were built, NOT run ***" >&2; fi

# The pure-Python package (longstraw/_wasm, run under wasmtime) carries the same module, copied into
# the package like Go's go:embed copy (not committed). WASM_PY_COPY is where the packaging reads it.
.PHONY: wasm-lib-python
WASM_PY_COPY := $(ROOT)/bindings/python/python/longstraw/_wasm/liblongstraw.wasm
wasm-lib-python: wasm-lib ## liblongstraw.wasm copied into the Python package (longstraw/_wasm/)
	cp $(WASM_GO_EMBED) $(WASM_PY_COPY)
	@echo "wasm-lib-python: $(WASM_PY_COPY): $$(stat -c %s $(WASM_PY_COPY)) bytes"

# The whole Python suite against the WebAssembly backend, in a venv of its own with wasmtime and no
# native extension: the package's pure-Python sources and the .wasm are copied into a folder on
# PYTHONPATH (PY_WASM_SITE). The run first asserts that the wasm backend is the one loaded; tests about
# the native extension only are skipped with their reason (tests/conftest.py, WASM_SKIPS).
# wasmtime comes from PyPI (pip, into that venv, when the site is made: test-diff's python-wasm column
# uses it too). Where pip cannot install it (no wheel for this platform, no registry), test-python-wasm
# is skipped loudly, saying why; where CI is set (every CI service sets it), it fails instead.
.PHONY: test-python-wasm python-wasm-site
PY_WASM_VENV := $(ROOT)/build/python-wasm-venv
PY_WASM_SITE := $(ROOT)/build/python-wasm/site
PY_WASM_DEPS := pytest hypothesis numpy mypy pymemcache xxhash typing_extensions
PY_WASM_ENV := PYTHONPATH=$(PY_WASM_SITE) LONGSTRAW_PYTHON_BACKEND=wasm
PY_WASM_PIP := $(PY_WASM_VENV)/bin/python -m pip install --quiet --disable-pip-version-check

$(PY_WASM_VENV)/.deps: $(ROOT)/mk/wasm-lib.mk
	python3 -m venv $(PY_WASM_VENV)
	$(PY_WASM_PIP) $(PY_WASM_DEPS)
	touch $@

python-wasm-site: wasm-lib-python $(PY_WASM_VENV)/.deps
	@$(PY_WASM_VENV)/bin/python -c 'import wasmtime' 2>/dev/null || $(PY_WASM_PIP) wasmtime || true
	rm -rf $(PY_WASM_SITE) && mkdir -p $(PY_WASM_SITE)
	cp -r $(ROOT)/bindings/python/python/longstraw $(PY_WASM_SITE)/
	find $(PY_WASM_SITE) -name '_longstraw*.so' -o -name '_longstraw*.pyd' -o -name __pycache__ | xargs rm -rf

test-python-wasm: python-wasm-site ## the whole Python suite against the WebAssembly backend (wasmtime)
	@if ! $(PY_WASM_VENV)/bin/python -c 'import wasmtime' 2>/dev/null; then \
	  if [ -n "$${CI:-}" ]; then echo "test-python-wasm: wasmtime (PyPI) could not be installed into $(PY_WASM_VENV)" >&2; exit 1; fi; \
	  echo "*** test-python-wasm: SKIPPED: wasmtime (PyPI) could not be installed into $(PY_WASM_VENV) (see pip's message above) ***" >&2; \
	  exit 0; fi; \
	set -ex; cd $(ROOT)/bindings/python; \
	$(PY_WASM_ENV) $(PY_WASM_VENV)/bin/python -c \
	  'import longstraw, longstraw._wasm as w; assert longstraw.Rendezvous is w.Rendezvous, "the native extension loaded"; print("test-python-wasm: backend", w.TARGET, longstraw.backend())'; \
	$(PY_WASM_ENV) $(PY_WASM_VENV)/bin/python -m pytest tests -q -rs -p no:cacheprovider

# owner() at n = 10 and 100 and batches of keys, the wasm backend against the native extension in one
# process (the .venv package, built with the .wasm copied in), recorded by bench/record.py.
# PY_WASM_BENCH_BEFORE=DIR (a folder holding another copy of the _wasm package with its .wasm, e.g.
# main's) adds that copy as a column measured side by side, recorded as the run python-wasm-before-after.
.PHONY: bench-python-wasm
bench-python-wasm: wasm-lib-python build-python ## the Python wasm backend against the native extension, recorded
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check wasmtime
	$(VENV_PY) $(ROOT)/bindings/python/bench/wasm_bench.py $(if $(PY_WASM_BENCH_BEFORE),--before $(PY_WASM_BENCH_BEFORE)) \
	  | $(RECORD) --run python-wasm$(if $(PY_WASM_BENCH_BEFORE),-before-after) --command 'make bench-python-wasm$(if $(PY_WASM_BENCH_BEFORE), PY_WASM_BENCH_BEFORE=...)'
