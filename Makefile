# longstraw: one Rust core, every language.
#
#   make help    every target, one line each (from the `## ` comment on its rule line)
#   make prereqs the system packages and Rust parts the tests need (tools/prereqs.sh; make test runs it)
#   make demo    build what is needed and show placement in every language
#   make test    every language's tests, short Miri and loom runs on the set crate, every example in the
#                docs, then the release artifacts installed outside the repo, and the aarch64 C library and core
#                tests under qemu-aarch64 (what CI runs; make prereqs first)
#   make build   every artifact: Rust libraries, header, .venv Python package, Node addon, Go
#   make guide   the user guide (docs/guide/) into build/guide/; make guide-figures regenerates its pictures
#   make bench   every benchmark BENCHMARKS.md reports, recorded in bench/results/ (slow; not part of test)
#   make dist    release artifacts into dist/ (make dist-check installs and tests them outside the repo)
#   make dist-cross  the same for aarch64 glibc, x86_64 musl, aarch64 musl (make dist-check-cross checks them)
#
# Each language keeps its recipes in its own mk/*.mk file.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
CARGO ?= cargo
export CARGO_TERM_COLOR ?= never
# make builds each tree once per run: incremental caches help only an edit-compile loop, and took a
# quarter of the debug tree.
export CARGO_INCREMENTAL ?= 0
# Build trees that only one check uses (the crates unpacked from their .crate files, the
# ThreadSanitizer, loom and aarch64 builds) are removed when that check is done if CI is set: a CI
# machine keeps nothing between runs, and a full run otherwise writes several GB that its disk may not
# have. Locally they stay, so a second run reuses them.
DISCARD_SCRATCH = $(if $(CI),rm -rf,@:)
# make test's release builds carry no debug info: std's own, linked into every test binary, was 90% of
# each (a 16.9 MB test binary is 1.7 MB without), about 0.9 GB over the release tree. Panic messages keep
# their file and line (they do not come from debug info); make bench and plain cargo builds keep it.
test: export CARGO_PROFILE_RELEASE_STRIP := debuginfo
test: export CARGO_PROFILE_RELEASE_DEBUG := 0

.PHONY: all build test demo bench fuzz lint clean help prereqs
all: build

help: ## every target with one line on what it does
	@echo "make TARGET, where TARGET is one of:"
	@grep -hE '^[a-zA-Z0-9_.-]+:([^=]|$$).*## ' $(MAKEFILE_LIST) \
	  | sed -E 's/^([a-zA-Z0-9_.-]+):.*## (.*)/\1\t\2/' | awk -F'\t' '{ printf "  %-26s %s\n", $$1, $$2 }'

# The one place that installs system packages (apt-get) and Rust toolchain parts; targets only check.
prereqs: ## install what make test needs beyond the language toolchains (tools/prereqs.sh; quiet when all present)
	@bash $(ROOT)/tools/prereqs.sh

# One virtualenv at the repo root for every Python tool and test; each user adds its own requirements.
VENV := $(ROOT)/.venv
VENV_PY := $(VENV)/bin/python
$(VENV_PY):
	python3 -m venv $(VENV)
	$(VENV_PY) -m pip install --quiet --upgrade pip

include mk/rust.mk
include mk/c.mk
include mk/go.mk
include mk/python.mk
include mk/node.mk
include mk/docs.mk
include mk/guide.mk
include mk/bench.mk
include mk/diff.mk
include mk/dist.mk
include mk/cross.mk
include mk/fuzz.mk
include mk/wasm.mk
include mk/wasm-lib.mk
include mk/nginx.mk
include mk/java.mk

build: build-rust build-c build-python build-node build-go ## every artifact: Rust libraries, header, .venv Python package, Node addon, Go
test: prereqs lint test-rust test-miri test-loom test-c test-go test-python test-node test-node-wasm test-node-browser test-java test-kafka test-nginx test-docs test-guide test-diff dist-check dist-check-cross-fast test-core-wasm test-go-wasm test-python-wasm ## what CI runs: every language's tests, the docs' examples, the release artifacts
	@echo "make test: every language passed"
demo: demo-rust demo-c demo-go demo-python demo-node ## build what is needed and show placement in every language
bench: bench-rust bench-callgrind bench-python bench-node bench-go bench-scale ## every benchmark BENCHMARKS.md reports, into bench/results/ (slow; not in test)

clean: ## remove target/, .venv, node_modules, build/, dist/ and the Node wasm and browser builds
	$(CARGO) clean
	rm -rf .venv bindings/node/node_modules bindings/node/*.node bindings/go/lib build dist
	@# What make build-node-wasm copies beside the loader, and make build-node-browser's bundles.
	rm -rf bindings/node/longstraw.wasm32-wasi*.wasm bindings/node/longstraw.wasi.cjs bindings/node/longstraw.wasi-browser.js \
	  bindings/node/wasi-worker.mjs bindings/node/wasi-worker-browser.mjs bindings/node/browser/dist

# Every language's demo wrote the owners of user:0..user:19 over cache-0..cache-9; they must agree.
.PHONY: demo-agree
demo: demo-agree
demo-agree: demo-rust demo-c demo-go demo-python demo-node
	@cd build/demo && for f in placements-*.txt; do \
	  if cmp -s placements-rust.txt $$f; then echo "  $$f: identical to Rust"; \
	  else echo "  $$f: DIFFERS from Rust"; diff placements-rust.txt $$f; exit 1; fi; done
