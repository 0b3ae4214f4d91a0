# node: the npm package `longstraw` in bindings/node (napi-rs v3).
#
#   make build-node   npm ci (into bindings/node/node_modules) + release addon,
#                     so that require('./bindings/node') works from the repo root
#   make test-node    generated files current + node --test bindings/node/test
#   make demo-node    placements for a demo corpus, and what moves on add/remove
#   make bench-node   owner/topK/batch vs hashring, consistent-hash, JS HRW, jump,
#                     then the same lookups in Rust (the core's share of the time)
#   make regen-node   copy regenerated index.js/index.d.ts over the committed ones
#   make build-node-wasm  the same addon for wasm32-wasip1-threads with simd128 (the package
#                     longstraw-wasm32-wasi), copied next to the loader as napi-rs's local WASI candidate
#   make test-node-wasm   the whole Node test suite against that build, forced through the loader
#                     (LONGSTRAW_NODE_WASM=1); test/target.test.js asserts that wasm32-wasi loaded; then the
#                     build without threads (LONGSTRAW_NODE_WASM=edge, test/edge.test.js)
#   make build-node-browser  the browser bundles (bindings/node/browser/dist): that build's browser loader and
#                     its worker bundled by esbuild (no bare imports left), beside a copy of the .wasm, as the
#                     package longstraw-wasm32-wasi ships them; the main package's browser.mjs loads them on
#                     a cross-origin isolated page
#   make build-node-wasm-edge  the addon for wasm32-wasip1 (no threads, simd128; the package
#                     longstraw-wasm32-wasip1): its Node loader next to longstraw.js (the fallback where the
#                     threaded build cannot start), and its entry for pages that are not cross-origin isolated
#                     and for edge workers (bindings/node/browser/dist-edge: longstraw.edge.js bundled by
#                     esbuild, beside longstraw.wasm32-wasip1.wasm); its ...Async calls reject with
#                     ERR_LONGSTRAW_NO_THREADS
#   make test-node-browser   those entries in headless Chromium (Debian's chromium, driven by playwright-core):
#                     `longstraw` must pick the threaded build on a cross-origin isolated page (the
#                     placement-v1 and keyed-v1 vectors, an async table build) and the build without threads on
#                     a page that is not (the vectors, async calls rejected) and in a Web Worker there;
#                     `longstraw/threads` fails clearly on that page, `longstraw/edge` loads anywhere; fails in
#                     CI (CI=true) without chromium, skips loudly otherwise
.PHONY: build-node test-node demo-node bench-node regen-node check-node-generated node-deps \
        build-node-wasm test-node-wasm bench-node-wasm build-node-browser test-node-browser build-node-wasm-edge

NODE ?= node
NPM ?= npm
NODE_DIR := $(ROOT)/bindings/node
NODE_GEN := $(ROOT)/build/node-gen
NAPI := $(NODE_DIR)/node_modules/.bin/napi

# npm ci only when the lock file changed since the last install.
$(NODE_DIR)/node_modules/.package-lock.json: $(NODE_DIR)/package-lock.json $(NODE_DIR)/package.json
	cd $(NODE_DIR) && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

node-deps: $(NODE_DIR)/node_modules/.package-lock.json

# The loader (index.js) and types (index.d.ts) are generated into build/ and
# compared with the committed copies by check-node-generated; the build never
# rewrites committed files.
build-node: node-deps ## the Node addon
	rm -rf $(NODE_GEN) && mkdir -p $(NODE_GEN)
	cd $(NODE_DIR) && $(NAPI) build --platform --release --js index.js --dts index.d.ts -o $(NODE_GEN)
	cp $(NODE_GEN)/*.node $(NODE_DIR)/
	cd $(ROOT) && $(NODE) -e "const l = require('./bindings/node'); console.log('node: built longstraw addon, backend ' + l.backend())"

check-node-generated: build-node
	@for f in index.js index.d.ts; do \
	  if ! diff -u $(NODE_DIR)/$$f $(NODE_GEN)/$$f; then \
	    echo "node: bindings/node/$$f is not what napi generates from the current source; run 'make regen-node' and commit it" >&2; exit 1; \
	  fi; \
	done
	@echo "node: index.js and index.d.ts are current"

regen-node: build-node ## regenerate the Node binding's generated files
	cp $(NODE_GEN)/index.js $(NODE_GEN)/index.d.ts $(NODE_DIR)/

test-node: check-node-generated typecheck-tools ## the Node tests
	cd $(NODE_DIR) && LONGSTRAW_EXPECT_TARGET=native $(NODE) --test --test-concurrency=1 test/

demo-node: build-node ## the Node demo
	cd $(ROOT) && $(NODE) bindings/node/examples/demo.js

bench-node: build-node ## the Node benchmarks
	{ cd $(ROOT) && $(NODE) bindings/node/bench/bench.js && \
	  echo "## the Rust core alone, same keys and nodes (the floor under the Node numbers)" && \
	  $(CARGO) run --quiet --release -p longstraw-node --example core_floor; } \
	  | $(RECORD) --run node --command 'make bench-node'

# ---- WebAssembly: the addon for wasm32-wasip1-threads (napi-rs + emnapi), with simd128 ----
# WebAssembly has no run-time feature detection, so +simd128 is the build's choice; every runtime Node 18+
# and current browsers ship supports it. The threads target is what async table builds need. Only the
# wasm32 code gets the flag (a target-specific RUSTFLAGS; RUSTFLAGS itself is cleared so that no flags
# from the environment decide the kernel). The Rust target comes from make prereqs.
# RUSTFLAGS, not CARGO_TARGET_<triple>_RUSTFLAGS: napi build --strip sets RUSTFLAGS (adding its link
# argument to what it finds there), and RUSTFLAGS wins over the target's own variable. With --target,
# RUSTFLAGS reaches only the wasm32 code, not build scripts.
NODE_WASM_TRIPLE := wasm32-wasip1-threads
NODE_WASM_GEN := $(ROOT)/build/node-wasm
NODE_WASM_FILES := longstraw.wasi.cjs longstraw.wasi-browser.js wasi-worker.mjs wasi-worker-browser.mjs \
  longstraw.wasm32-wasi.wasm
NODE_WASM_ENV := env -u CARGO_ENCODED_RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS -u CARGO_TARGET_WASM32_WASIP1_THREADS_RUSTFLAGS \
  RUSTFLAGS="-C target-feature=+simd128"
NODE_WASM_NEED_TARGET = rustup target list --installed 2>/dev/null | grep -qx $(NODE_WASM_TRIPLE) \
  || { echo "$@: the Rust target $(NODE_WASM_TRIPLE) is missing: run make prereqs" >&2; exit 1; }

# The loader napi generates for this target is the committed index.js (one loader for every target).
# The module is built with profile wasm-release (Cargo.toml: small first), its Node loader gets the fast
# path of owner() (scripts/wasi-fast-path.js), and wasm-opt shrinks it (WASM_SHRINK, mk/wasm-lib.mk).
NODE_WASM_FINISH = $(NODE) $(NODE_DIR)/scripts/wasi-fast-path.js $(1)/longstraw.wasi.cjs && \
  $(call WASM_SHRINK,$(1)/longstraw.wasm32-wasi.wasm,$(1)/longstraw.wasm32-wasi.wasm)
build-node-wasm: node-deps ## the Node addon for wasm32-wasip1-threads (+simd128), next to the loader
	@$(NODE_WASM_NEED_TARGET)
	rm -rf $(NODE_WASM_GEN) && mkdir -p $(NODE_WASM_GEN)
	cd $(NODE_DIR) && $(NODE_WASM_ENV) $(NAPI) build --platform --profile $(WASM_PROFILE) --target $(NODE_WASM_TRIPLE) \
	  --js index.js --dts index.d.ts -o $(NODE_WASM_GEN)
	@for f in index.js index.d.ts; do diff -u $(NODE_DIR)/$$f $(NODE_WASM_GEN)/$$f \
	  || { echo "node-wasm: $$f differs from what napi generates for $(NODE_WASM_TRIPLE)" >&2; exit 1; }; done
	@$(call NODE_WASM_FINISH,$(NODE_WASM_GEN))
	cd $(NODE_WASM_GEN) && cp $(NODE_WASM_FILES) $(NODE_DIR)/
	cd $(NODE_DIR) && LONGSTRAW_NODE_WASM=1 LONGSTRAW_NODE_WASM_FAST=1 $(NODE) --no-warnings -e \
	  "const l = require('./longstraw.js'); if (l.target !== 'wasm32-wasi' || l.backend() !== 'simd128') throw new Error('built ' + l.target + ' with ' + l.backend()); if (!String(l.Rendezvous.prototype.owner).includes('fastIndex')) throw new Error('the fast path of owner() is not installed'); console.log('node-wasm: built, target ' + l.target + ', backend ' + l.backend() + ', owner() fast path on; module ' + require('node:fs').statSync('longstraw.wasm32-wasi.wasm').size + ' bytes')"

# ExperimentalWarning: Node 20's node:wasi prints one per load (and each test file loads the addon).
# Then the build without threads (test/edge.test.js: the fallback where the threaded build cannot start, and
# every async call rejected), and the target, keyed and prototype-setters tests forced onto it (its async calls reject, so the
# suites that call them run only against the threaded build).
test-node-wasm: build-node-wasm build-node-wasm-edge typecheck-tools ## the whole Node test suite against the WebAssembly build, and the build without threads
	cd $(NODE_DIR) && LONGSTRAW_NODE_WASM=1 LONGSTRAW_EXPECT_TARGET=wasm32-wasi LONGSTRAW_REQUIRE_EDGE=1 \
	  NODE_OPTIONS="$${NODE_OPTIONS:-} --disable-warning=ExperimentalWarning" \
	  $(NODE) --test --test-concurrency=1 test/
	cd $(NODE_DIR) && LONGSTRAW_NODE_WASM=edge LONGSTRAW_EXPECT_TARGET=wasm32-wasip1 \
	  NODE_OPTIONS="$${NODE_OPTIONS:-} --disable-warning=ExperimentalWarning" \
	  $(NODE) --test --test-concurrency=1 test/target.test.js test/keyed.test.js test/prototype-setters.test.js

# The browser entry (package.json "browser"): see bindings/node/browser/index.js and build.mjs.
build-node-browser: build-node-wasm ## the Node package's browser entry: the WebAssembly build bundled for pages
	cd $(NODE_DIR) && $(NODE) browser/build.mjs

# The build without threads, for pages that are not cross-origin isolated (no SharedArrayBuffer) and for edge
# workers: its memory is not shared and it starts no workers. napi-rs links emnapi's basic (single-thread)
# runtime for this target, whose async work would run on the caller's thread: browser/edge.js makes every
# ...Async call reject instead (no-threads.js). The loader napi generates beside it (index.js) is not used:
# longstraw.js loads its Node loader (longstraw.wasip1.cjs, copied next to it here, as napi-rs's candidate is)
# when neither the native addon nor the threads build loads, and edge.js always (`longstraw/edge`).
NODE_WASM_EDGE_TRIPLE := wasm32-wasip1
NODE_WASM_EDGE_GEN := $(ROOT)/build/node-wasm-edge
NODE_WASM_EDGE_FILES := longstraw.wasip1.cjs longstraw.wasm32-wasip1.wasm
NODE_WASM_EDGE_ENV := env -u CARGO_ENCODED_RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS -u CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS \
  RUSTFLAGS="-C target-feature=+simd128"
build-node-wasm-edge: node-deps ## the Node addon for wasm32-wasip1 (no threads, +simd128) and its browser/edge entry
	@rustup target list --installed 2>/dev/null | grep -qx $(NODE_WASM_EDGE_TRIPLE) \
	  || { echo "$@: the Rust target $(NODE_WASM_EDGE_TRIPLE) is missing: run make prereqs" >&2; exit 1; }
	rm -rf $(NODE_WASM_EDGE_GEN) && mkdir -p $(NODE_WASM_EDGE_GEN)
	cd $(NODE_DIR) && $(NODE_WASM_EDGE_ENV) $(NAPI) build --platform --profile $(WASM_PROFILE) --target $(NODE_WASM_EDGE_TRIPLE) \
	  --js index.js --dts index.d.ts -o $(NODE_WASM_EDGE_GEN)
	@$(call WASM_SHRINK,$(NODE_WASM_EDGE_GEN)/longstraw.wasm32-wasip1.wasm,$(NODE_WASM_EDGE_GEN)/longstraw.wasm32-wasip1.wasm)
	cd $(NODE_WASM_EDGE_GEN) && cp $(NODE_WASM_EDGE_FILES) $(NODE_DIR)/
	cd $(NODE_DIR) && $(NODE) browser/build.mjs --edge --from $(NODE_WASM_EDGE_GEN)

test-node-browser: build-node-browser build-node-wasm-edge ## the browser entries in headless Chromium: the vectors, and pages without COOP/COEP
	cd $(NODE_DIR) && $(NODE) test-browser/run.mjs

# Not part of make bench's list: one run of both builds side by side (about half a minute).
bench-node-wasm: build-node build-node-wasm ## owner() and a batch at n = 4096: the WebAssembly build against native, one run, recorded
	cd $(ROOT) && $(NODE) --no-warnings bindings/node/bench/wasm.js \
	  | $(RECORD) --run node-wasm --command 'make bench-node-wasm'
