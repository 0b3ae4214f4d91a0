# Fuzzing (outside `make test`, which replays the corpus instead):
#
#   make fuzz          every target for FUZZ_SECONDS (60) each, under AddressSanitizer when nightly Rust is
#                      installed; new inputs go to fuzz/corpus/<target>/, minimised with `cargo fuzz cmin`
#                      afterwards (edges only, -use_counters=0: keeping every hit-count bucket made the corpus
#                      4x larger for no new edge); executions per target are printed and kept in
#                      build/fuzz/<target>.log
#   make fuzz FUZZ_TARGETS="ffi packed" FUZZ_SECONDS=600
#   make fuzz-replay   every corpus file through its check, plus a short seeded run per target (plain
#                      `cargo test`, also part of `make test` through test-rust)
#   make fuzz-coverage line and region coverage of the library code each corpus reaches (`cargo fuzz
#                      coverage`, nightly llvm-tools; the checks in tests/fuzz and std are left out),
#                      one TOTAL line per target, reports in build/fuzz/<target>.cov.txt
#
# The checks live in tests/fuzz (crate longstraw-fuzz-checks); fuzz/fuzz_targets/*.rs only call them.
# A crash leaves its input in fuzz/artifacts/<target>/: copy it into fuzz/corpus/<target>/ once fixed, so
# that `cargo test` replays it forever.
.PHONY: fuzz fuzz-replay fuzz-coverage

FUZZ_TOOLS := $(ROOT)/build/tools
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= set tables packed ffi membership backends bounded keyed ffi_bounded
FUZZ_LOGS := $(ROOT)/build/fuzz

fuzz: ## every fuzz target for FUZZ_SECONDS each (nightly: AddressSanitizer)
	@test -x $(FUZZ_TOOLS)/bin/cargo-fuzz || $(CARGO) install --locked --quiet cargo-fuzz --root $(FUZZ_TOOLS)
	@mkdir -p $(FUZZ_LOGS)
	@if rustc +nightly --version >/dev/null 2>&1; then toolchain=+nightly; san=address; \
	else toolchain=; san=none; echo "fuzz: no nightly Rust: running WITHOUT AddressSanitizer (rustup toolchain install nightly)"; fi; \
	cd fuzz && export PATH="$(FUZZ_TOOLS)/bin:$$PATH"; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p corpus/$$t; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s (-s $$san)"; \
	  $(CARGO) $$toolchain fuzz run -s $$san $$t -- -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    > $(FUZZ_LOGS)/$$t.log 2>&1 || { tail -n 60 $(FUZZ_LOGS)/$$t.log; echo "fuzz: $$t FAILED (input in fuzz/artifacts/$$t/)"; exit 1; }; \
	  $(CARGO) $$toolchain fuzz cmin -s $$san $$t -- -use_counters=0 > $(FUZZ_LOGS)/$$t.cmin.log 2>&1 || { tail -n 20 $(FUZZ_LOGS)/$$t.cmin.log; exit 1; }; \
	  echo "fuzz: $$t: $$(grep -o 'stat::number_of_executed_units: [0-9]*' $(FUZZ_LOGS)/$$t.log | grep -o '[0-9]*$$') executions," \
	    "$$(grep -o 'cov: [0-9]*' $(FUZZ_LOGS)/$$t.log | tail -n 1) edges, corpus $$(ls corpus/$$t | wc -l) files"; \
	done; \
	echo "fuzz: corpus size $$(du -sh corpus | cut -f1)"
	$(MAKE) --no-print-directory fuzz-replay

fuzz-replay: ## every fuzz corpus file through its check (in make test)
	$(CARGO) test --release -p longstraw-fuzz-checks

# Coverage counts the library crates only: the checks, the targets and std would inflate it.
FUZZ_COV_IGNORE := '(/\.cargo/|/rustc/|/tests/fuzz/src/|/fuzz/fuzz_targets/)'
FUZZ_LLVM_BIN = $(shell rustc +nightly --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin

fuzz-coverage: ## line and region coverage each fuzz corpus reaches
	@test -x $(FUZZ_TOOLS)/bin/cargo-fuzz || $(CARGO) install --locked --quiet cargo-fuzz --root $(FUZZ_TOOLS)
	@rustup component list --toolchain nightly --installed | grep -q '^llvm-tools' \
	  || rustup component add llvm-tools-preview --toolchain nightly
	@mkdir -p $(FUZZ_LOGS)
	@cd fuzz && export PATH="$(FUZZ_TOOLS)/bin:$$PATH"; \
	for t in $(FUZZ_TARGETS); do \
	  $(CARGO) +nightly fuzz coverage $$t corpus/$$t > $(FUZZ_LOGS)/$$t.cov.log 2>&1 || { tail -n 20 $(FUZZ_LOGS)/$$t.cov.log; exit 1; }; \
	  $(FUZZ_LLVM_BIN)/llvm-cov report target/x86_64-unknown-linux-gnu/coverage/x86_64-unknown-linux-gnu/release/$$t \
	    -instr-profile=coverage/$$t/coverage.profdata -ignore-filename-regex=$(FUZZ_COV_IGNORE) > $(FUZZ_LOGS)/$$t.cov.txt; \
	  echo "fuzz-coverage: $$t: $$(grep '^TOTAL' $(FUZZ_LOGS)/$$t.cov.txt)"; \
	done; \
	echo "fuzz-coverage: columns are regions, missed, cover, functions, missed, executed, lines, missed, cover, branches, missed, cover"
