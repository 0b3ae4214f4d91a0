# node: the npm package `longstraw` in bindings/node (napi-rs v3).
#
#   make build-node   npm ci (into bindings/node/node_modules) + release addon,
#                     so that require('./bindings/node') works from the repo root
#   make test-node    generated files current + node --test bindings/node/test
#   make demo-node    placements for a demo corpus, and what moves on add/remove
#   make bench-node   owner/topK/batch vs hashring, consistent-hash, JS HRW, jump,
#                     then the same lookups in Rust (the core's share of the time)
#   make regen-node   copy regenerated index.js/index.d.ts over the committed ones
.PHONY: build-node test-node demo-node bench-node regen-node check-node-generated node-deps

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
	cd $(NODE_DIR) && $(NODE) --test --test-concurrency=1 test/

demo-node: build-node ## the Node demo
	cd $(ROOT) && $(NODE) bindings/node/examples/demo.js

bench-node: build-node ## the Node benchmarks
	{ cd $(ROOT) && $(NODE) bindings/node/bench/bench.js && \
	  echo "## the Rust core alone, same keys and nodes (the floor under the Node numbers)" && \
	  $(CARGO) run --quiet --release -p longstraw-node --example core_floor; } \
	  | $(RECORD) --run node --command 'make bench-node'
