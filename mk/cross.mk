# Cross targets: aarch64 glibc, x86_64 musl and aarch64 musl, built with zig on this x86_64
# machine and checked under qemu-user and musl (tools/dist/check-cross.sh says how each is checked).
#
#   make dist-cross             every artifact of make dist for every triple in tools/dist/platforms.tsv:
#                               C tarballs, abi3 wheels, npm platform packages, the Go module (glibc only)
#   make dist-check-cross       checks them all (C vectors under qemu-aarch64 and musl, ELF headers and
#                               package metadata, the aarch64 wheel and Go tests under qemu-aarch64)
#   make dist-check-cross-fast  the aarch64 glibc C tarball only, its vector program (shared and static)
#                               under qemu-aarch64, and the core's own tests on aarch64 (test-core-aarch64):
#                               the part make test runs
#   make test-core-aarch64      the core crate's tests (every backend, NEON included, against the scalar
#                               oracle; the vectors; near-ties) built for aarch64 and run under qemu-aarch64
.PHONY: dist-cross dist-check-cross dist-check-cross-fast dist-cross-deps dist-cross-deps-fast test-core-aarch64
DIST_CROSS_TRIPLES := $(shell awk '!/^\#/ && NF { print $$1 }' $(ROOT)/tools/dist/platforms.tsv)
DIST_CROSS_DEPS := $(DIST_BUILD)/cross

dist-cross-deps-fast:
	bash $(ROOT)/tools/dist/cross-deps.sh fast $(DIST_CROSS_DEPS)
dist-cross-deps:
	bash $(ROOT)/tools/dist/cross-deps.sh full $(DIST_CROSS_DEPS)

dist-cross: dist-cross-deps version-check ## make dist for every triple of tools/dist/platforms.tsv (slow)
	@$(MAKE) --no-print-directory dist-c dist-go dist-python dist-node DIST_TRIPLES="$(DIST_CROSS_TRIPLES)"
	@$(MAKE) --no-print-directory dist-java-jar
	@$(MAKE) --no-print-directory dist-sums

DIST_CROSS_ENV = ROOT=$(ROOT) DIST=$(DIST) VERSION=$(DIST_VERSION) SONAME=$(DIST_SONAME) GO=$(GO) \
  GOMODCACHE=$(ROOT)/build/go/mod DEPS=$(DIST_CROSS_DEPS) VENV=$(VENV) PLATFORMS=$(DIST_PLATFORMS)
dist-check-cross: dist-cross test-core-aarch64 ## check every cross artifact under qemu-aarch64 and musl (slow)
	$(DIST_CROSS_ENV) bash $(ROOT)/tools/dist/check-cross.sh all

# Linked statically: under Debian's qemu-user 7.2 a dynamically linked glibc program hangs when it starts a
# thread, and the test harness starts one per test (the Go check below links statically for the same reason).
test-core-aarch64: dist-cross-deps-fast ## the core's tests built for aarch64, run under qemu-aarch64
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static" \
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=qemu-aarch64 \
	$(CARGO) test --release -p longstraw --target aarch64-unknown-linux-gnu --target-dir $(ROOT)/target/aarch64-static
	$(DISCARD_SCRATCH) $(ROOT)/target/aarch64-static

dist-check-cross-fast: dist-cross-deps-fast test-core-aarch64 ## the aarch64 glibc C tarball and core tests under qemu-aarch64 (in make test)
	@$(MAKE) --no-print-directory dist-c DIST_TRIPLES=aarch64-unknown-linux-gnu
	$(DIST_CROSS_ENV) bash $(ROOT)/tools/dist/check-cross.sh c-aarch64-gnu
