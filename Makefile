# longstraw: one Rust core, every language.
#
#   make demo    build what is needed and show placement in every language
#   make test    every language's tests, every example in the docs, then the release artifacts
#                installed outside the repo, and the aarch64 C library and core tests under qemu-aarch64 (what CI runs)
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

.PHONY: all build test demo bench fuzz lint clean
all: build

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

build: build-rust build-c build-python build-node build-go
test: lint test-rust test-c test-go test-python test-node test-docs test-guide test-diff dist-check dist-check-cross-fast
	@echo "make test: every language passed"
demo: demo-rust demo-c demo-go demo-python demo-node
bench: bench-rust bench-callgrind bench-python bench-node bench-go bench-scale

clean:
	$(CARGO) clean
	rm -rf .venv bindings/node/node_modules bindings/node/*.node bindings/go/lib build dist

# Every language's demo wrote the owners of user:0..user:19 over cache-0..cache-9; they must agree.
.PHONY: demo-agree
demo: demo-agree
demo-agree: demo-rust demo-c demo-go demo-python demo-node
	@cd build/demo && for f in placements-*.txt; do \
	  if cmp -s placements-rust.txt $$f; then echo "  $$f: identical to Rust"; \
	  else echo "  $$f: DIFFERS from Rust"; diff placements-rust.txt $$f; exit 1; fi; done
