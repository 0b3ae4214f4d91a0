# C and C++: liblongstraw (ffi/), include/longstraw.h, tests/c/, the C demo.
#
#   make build-c     release liblongstraw.{so,a}; header up to date and clean as C99 and C++11
#   make test-c      header check, Rust-side ffi tests, exported symbols, C tests (plain, valgrind
#                    memcheck, ASan+UBSan, TSan with an instrumented library), C++ example, install
#   make demo-c      the demo corpus placed from C, compared line by line with Rust
#   make header      regenerate include/longstraw.h with the pinned cbindgen
#   make install PREFIX=/usr/local   header, liblongstraw.so.0.N (SONAME) + symlinks, .a, .pc files, CMake package
.PHONY: build-c test-c demo-c bench-c header header-check install c-deps c-lib c-rust-tests c-header-compile \
        c-symbols c-tests c-valgrind c-sanitizers c-tsan c-cpp c-install-check

CBINDGEN_VERSION := 0.29.4
CBINDGEN := $(ROOT)/build/tools/bin/cbindgen
C_TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(ROOT)/target)
C_LIBDIR := $(C_TARGET_DIR)/release
C_BUILD := $(ROOT)/build/c
CC ?= cc
CXX ?= c++
C_WARN := -Wall -Wextra -Werror -pedantic
C_FLAGS := -std=c99 $(C_WARN) -O1 -g -I$(ROOT)/include -I$(ROOT)/tests/c
C_LINK := -L$(C_LIBDIR) -llongstraw -Wl,-rpath,$(C_LIBDIR)
C_STATIC := $(C_LIBDIR)/liblongstraw.a -lpthread -ldl -lm
CARGO_VERSION = $(shell sed -n 's/^version = "\(.*\)"/\1/p' $(ROOT)/Cargo.toml | head -n 1)
VECTORS := $(ROOT)/tests/vectors/placement-v1.json
SCALE_VECTORS := $(addprefix $(ROOT)/tests/vectors/,table-v1.json skeleton-v1.json domains-v1.json table-balanced-v1.json keyed-v1.json table-balanced-caps-v1.json)
VALGRIND := valgrind -q --error-exitcode=99 --suppressions=$(ROOT)/tests/c/valgrind.supp --leak-check=full --show-leak-kinds=definite,indirect,possible \
            --errors-for-leak-kinds=definite,indirect,possible
PREFIX ?= /usr/local

# The pinned cbindgen, installed into the repo (build/tools) on first use.
$(CBINDGEN):
	$(CARGO) install cbindgen --version $(CBINDGEN_VERSION) --locked --root $(ROOT)/build/tools --quiet

header: $(CBINDGEN) ## regenerate include/longstraw.h with cbindgen
	@$(CBINDGEN) --version | grep -qx 'cbindgen $(CBINDGEN_VERSION)' || \
	  { echo "build/tools/bin/cbindgen is not $(CBINDGEN_VERSION); rm -rf build/tools and retry"; exit 1; }
	cd $(ROOT) && $(CBINDGEN) --quiet --config ffi/cbindgen.toml --crate longstraw-ffi --output include/longstraw.h ffi
	cp $(ROOT)/include/longstraw.h $(ROOT)/bindings/go/include/longstraw.h

header-check: header ## the committed header equals what cbindgen generates
	@cd $(ROOT) && git diff --exit-code -- include/longstraw.h bindings/go/include/longstraw.h || \
	  { echo "include/longstraw.h (or the Go module's copy) is stale: commit the regenerated header"; exit 1; }
	@echo "c: include/longstraw.h is up to date"

# The ffi crate's own tests: panic boundary, code mapping, versions tied to Cargo.toml.
c-rust-tests:
	$(CARGO) test --quiet --release -p longstraw-ffi

c-lib:
	$(CARGO) build --release -p longstraw-c

# The header alone, as C99 and C++11, with every warning an error.
c-header-compile:
	@mkdir -p $(C_BUILD)
	printf '#include "longstraw.h"\nint main(void) { return LONGSTRAW_VERSION_NUMBER < 0; }\n' > $(C_BUILD)/header.c
	$(CC) -std=c99 $(C_WARN) -I$(ROOT)/include -fsyntax-only $(C_BUILD)/header.c
	$(CXX) -std=c++11 $(C_WARN) -I$(ROOT)/include -fsyntax-only -x c++ $(C_BUILD)/header.c
	@echo "c: longstraw.h compiles cleanly as C99 and C++11"

build-c: c-lib header-check c-header-compile ## the C library (liblongstraw.so/.a) and the header, checked as C99 and C++11

# System packages the C tests need (make prereqs installs them).
c-deps:
	@if [ ! -f /usr/include/cjson/cJSON.h ] || ! command -v valgrind >/dev/null || ! command -v pkg-config >/dev/null; then \
	  echo "c: libcjson-dev, valgrind or pkg-config is missing: run make prereqs"; exit 1; \
	fi

c-symbols: c-lib
	@bad=$$(nm -D --defined-only $(C_LIBDIR)/liblongstraw.so | awk '{print $$3}' | grep -v '^longstraw_' || true); \
	if [ -n "$$bad" ]; then echo "c: liblongstraw.so exports symbols without the longstraw_ prefix:"; echo "$$bad"; exit 1; fi; \
	echo "c: liblongstraw.so exports $$(nm -D --defined-only $(C_LIBDIR)/liblongstraw.so | grep -c ' longstraw_') symbols, all longstraw_*"

$(C_BUILD)/%: $(ROOT)/tests/c/%.c $(ROOT)/tests/c/check.h $(ROOT)/tests/c/json_input.h $(ROOT)/include/longstraw.h c-lib
	@mkdir -p $(C_BUILD)
	$(CC) $(C_FLAGS) $< -o $@ $(C_LINK) -lcjson -lpthread -lm

C_TESTS := $(C_BUILD)/test_api $(C_BUILD)/test_vectors $(C_BUILD)/test_threads $(C_BUILD)/test_validation \
	$(C_BUILD)/test_edges \
	$(C_BUILD)/test_membership \
	$(C_BUILD)/test_bounded \
	$(C_BUILD)/test_vectors_bounded \
	$(C_BUILD)/test_keyed_save \
	$(C_BUILD)/test_fifo_secret \
	$(C_BUILD)/test_options

c-tests: c-deps $(C_TESTS)
	@test -f $(VECTORS) || { echo "c: $(VECTORS) is missing"; exit 1; }
	$(C_BUILD)/test_api $(CARGO_VERSION)
	$(C_BUILD)/test_vectors $(VECTORS) $(SCALE_VECTORS)
	$(C_BUILD)/test_threads 3000
	$(C_BUILD)/test_validation $(ROOT)/tests/validation/rules.json
	$(C_BUILD)/test_edges $(ROOT)/tests/vectors/placement-v1-edges.json
	@mkdir -p $(C_BUILD)/scratch && $(C_BUILD)/test_membership $(ROOT) $(C_BUILD)/scratch
	$(C_BUILD)/test_bounded 20000
	$(C_BUILD)/test_vectors_bounded $(ROOT)/tests/vectors/bounded-v1.json
	@rm -rf $(C_BUILD)/scratch-keyed && mkdir -p $(C_BUILD)/scratch-keyed && $(C_BUILD)/test_keyed_save $(C_BUILD)/scratch-keyed
	@rm -rf $(C_BUILD)/scratch-fifo && mkdir -p $(C_BUILD)/scratch-fifo && $(C_BUILD)/test_fifo_secret $(C_BUILD)/scratch-fifo
	@rm -rf $(C_BUILD)/scratch-options && mkdir -p $(C_BUILD)/scratch-options && $(C_BUILD)/test_options $(C_BUILD)/scratch-options

c-valgrind: c-deps $(C_TESTS)
	$(VALGRIND) $(C_BUILD)/test_api $(CARGO_VERSION)
	$(VALGRIND) $(C_BUILD)/test_vectors $(VECTORS) $(SCALE_VECTORS)
	$(VALGRIND) $(C_BUILD)/test_threads 200
	$(VALGRIND) $(C_BUILD)/test_validation $(ROOT)/tests/validation/rules.json
	$(VALGRIND) $(C_BUILD)/test_edges $(ROOT)/tests/vectors/placement-v1-edges.json
	@mkdir -p $(C_BUILD)/scratch && $(VALGRIND) $(C_BUILD)/test_membership $(ROOT) $(C_BUILD)/scratch
	$(VALGRIND) $(C_BUILD)/test_bounded 500
	@rm -rf $(C_BUILD)/scratch-keyed && mkdir -p $(C_BUILD)/scratch-keyed && $(VALGRIND) $(C_BUILD)/test_keyed_save $(C_BUILD)/scratch-keyed
	@rm -rf $(C_BUILD)/scratch-fifo && mkdir -p $(C_BUILD)/scratch-fifo && $(VALGRIND) $(C_BUILD)/test_fifo_secret $(C_BUILD)/scratch-fifo
	@rm -rf $(C_BUILD)/scratch-options && mkdir -p $(C_BUILD)/scratch-options && $(VALGRIND) $(C_BUILD)/test_options $(C_BUILD)/scratch-options
	@echo "c: valgrind memcheck: 0 errors, 0 leaks"

c-sanitizers: c-deps c-lib
	@mkdir -p $(C_BUILD)/asan
	for t in test_api test_vectors test_threads test_validation test_edges test_membership test_bounded test_keyed_save test_fifo_secret test_options; do \
	  $(CC) $(C_FLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	    $(ROOT)/tests/c/$$t.c -o $(C_BUILD)/asan/$$t $(C_LINK) -lcjson -lpthread -lm; \
	done
	$(C_BUILD)/asan/test_api $(CARGO_VERSION)
	$(C_BUILD)/asan/test_vectors $(VECTORS) $(SCALE_VECTORS)
	$(C_BUILD)/asan/test_threads 1000
	$(C_BUILD)/asan/test_validation $(ROOT)/tests/validation/rules.json
	$(C_BUILD)/asan/test_edges $(ROOT)/tests/vectors/placement-v1-edges.json
	@mkdir -p $(C_BUILD)/scratch && $(C_BUILD)/asan/test_membership $(ROOT) $(C_BUILD)/scratch
	$(C_BUILD)/asan/test_bounded 5000
	@rm -rf $(C_BUILD)/scratch-keyed && mkdir -p $(C_BUILD)/scratch-keyed && $(C_BUILD)/asan/test_keyed_save $(C_BUILD)/scratch-keyed
	@rm -rf $(C_BUILD)/scratch-fifo && mkdir -p $(C_BUILD)/scratch-fifo && $(C_BUILD)/asan/test_fifo_secret $(C_BUILD)/scratch-fifo
	@rm -rf $(C_BUILD)/scratch-options && mkdir -p $(C_BUILD)/scratch-options && $(C_BUILD)/asan/test_options $(C_BUILD)/scratch-options
	@echo "c: ASan + UBSan: clean"

# ThreadSanitizer needs the library instrumented too, which takes a nightly
# rustc (-Zsanitizer); its runtime comes from the nightly toolchain because
# the system gcc's libtsan lacks symbols newer LLVM emits. std is rebuilt with
# the sanitizer (-Zbuild-std, from the rust-src that Miri also needs): std's
# precompiled Arc ends its last drop with an atomic fence, which TSan does not
# model, and a build of std for TSan uses an acquire load there instead. So no
# race is suppressed; a suppression by std's symbol names broke when a nightly
# renamed them.
TSAN_TARGET := $(ROOT)/build/tsan-target
TSAN_TRIPLE := $(shell rustc -vV 2>/dev/null | sed -n 's/^host: //p')
c-tsan:
	@if ! rustc +nightly --version >/dev/null 2>&1; then \
	  echo "c: SKIPPED ThreadSanitizer: no nightly Rust toolchain (rustup toolchain install nightly)"; exit 0; fi; \
	rt=$$(ls $$(rustc +nightly --print sysroot)/lib/rustlib/$(TSAN_TRIPLE)/lib/librustc-nightly_rt.tsan.a 2>/dev/null); \
	if [ -z "$$rt" ]; then echo "c: SKIPPED ThreadSanitizer: nightly has no TSan runtime for $(TSAN_TRIPLE)"; exit 0; fi; \
	set -x; \
	RUSTFLAGS="-Zsanitizer=thread -Cunsafe-allow-abi-mismatch=sanitizer" CARGO_TARGET_DIR=$(TSAN_TARGET) \
	  $(CARGO) +nightly build --quiet --release -Zbuild-std --target $(TSAN_TRIPLE) -p longstraw-c; \
	mkdir -p $(C_BUILD)/tsan; \
	$(CC) $(C_FLAGS) -fsanitize=thread -c $(ROOT)/tests/c/test_threads.c -o $(C_BUILD)/tsan/test_threads.o; \
	$(CC) $(C_BUILD)/tsan/test_threads.o -o $(C_BUILD)/tsan/test_threads \
	  $(TSAN_TARGET)/$(TSAN_TRIPLE)/release/liblongstraw.a -Wl,--whole-archive $$rt -Wl,--no-whole-archive \
	  -lpthread -ldl -lm -lrt -lstdc++; \
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" $(C_BUILD)/tsan/test_threads 1000; \
	set +x; echo "c: ThreadSanitizer (library and test instrumented): no data races"
	$(DISCARD_SCRATCH) $(TSAN_TARGET)

c-cpp: c-lib
	@mkdir -p $(C_BUILD)
	$(CXX) -std=c++11 $(C_WARN) -O1 -I$(ROOT)/include $(ROOT)/ffi/examples/example.cpp -o $(C_BUILD)/example_cpp $(C_LINK)
	$(C_BUILD)/example_cpp

# Installs into a scratch prefix and builds the demo against it with pkg-config.
c-install-check: c-lib
	rm -rf $(C_BUILD)/prefix
	$(MAKE) --no-print-directory -f $(ROOT)/Makefile install PREFIX=$(C_BUILD)/prefix >/dev/null
	PKG_CONFIG_PATH=$(C_BUILD)/prefix/lib/pkgconfig pkg-config --modversion longstraw | grep -qx '$(CARGO_VERSION)'
	$(CC) -std=c99 $(C_WARN) $(ROOT)/ffi/examples/demo.c -o $(C_BUILD)/demo_installed \
	  $$(PKG_CONFIG_PATH=$(C_BUILD)/prefix/lib/pkgconfig pkg-config --cflags --libs longstraw) \
	  -Wl,-rpath,$(C_BUILD)/prefix/lib
	$(C_BUILD)/demo_installed | head -n 2
	$(CC) -std=c99 $(C_WARN) $(ROOT)/ffi/examples/demo.c -o $(C_BUILD)/demo_installed_static \
	  $$(PKG_CONFIG_PATH=$(C_BUILD)/prefix/lib/pkgconfig pkg-config --cflags --libs longstraw-static)
	! ldd $(C_BUILD)/demo_installed_static | grep -q liblongstraw
	cmp <($(C_BUILD)/demo_installed) <($(C_BUILD)/demo_installed_static)
	$(C_BUILD)/demo_installed > $(C_BUILD)/demo_installed.out
	bash $(ROOT)/tools/dist/cmake-consumer.sh $(ROOT) $(C_BUILD)/prefix $(C_BUILD)/cmake-consumer $(CARGO_VERSION) $(C_BUILD)/demo_installed.out
	@echo "c: make install + pkg-config: OK"

test-c: build-c c-rust-tests c-symbols c-tests c-valgrind c-sanitizers c-tsan c-cpp c-install-check ## the C tests: vectors, valgrind, sanitizers, ThreadSanitizer, C++, install check
	@echo "c: all tests passed"

# The release build of the library (mk/dist.mk), in the release tarball's layout: versioned .so
# with its SONAME and symlinks, .a, longstraw.pc and longstraw-static.pc, a CMake package.
install: DIST_TRIPLES = $(DIST_HOST)
install: dist-c-lib ## install the C library, header, pkg-config and CMake files under PREFIX
	$(ROOT)/tools/dist/stage-c.sh $(ROOT) $(DIST_BUILD)/lib/$(DIST_HOST) $(abspath $(PREFIX)) $(CARGO_VERSION) \
	  $(DIST_SONAME) "$$(cat $(DIST_BUILD)/lib/$(DIST_HOST)/native-static-libs.txt)"

demo-c: c-lib ## the C demo
	@mkdir -p $(C_BUILD)
	@$(CC) $(C_FLAGS) $(ROOT)/ffi/examples/demo.c -o $(C_BUILD)/demo $(C_LINK)
	@$(CARGO) run --quiet --release -p longstraw-ffi --example corpus > $(C_BUILD)/demo-rust.txt
	@echo "longstraw demo (C, through include/longstraw.h):"
	@$(C_BUILD)/demo | tee $(C_BUILD)/demo-c.txt | sed 's/^/  /'
	@diff $(C_BUILD)/demo-rust.txt $(C_BUILD)/demo-c.txt >/dev/null && \
	  echo "  C placements identical to Rust's: $$(wc -l < $(C_BUILD)/demo-c.txt) lines" || \
	  { echo "  C placements DIFFER from Rust's:"; diff $(C_BUILD)/demo-rust.txt $(C_BUILD)/demo-c.txt; exit 1; }

bench-c: c-lib ## the C benchmark: owner through the C ABI (ffi/examples/owner_cost.c)
	@mkdir -p $(C_BUILD)
	$(CC) -std=c99 $(C_WARN) -O2 -I$(ROOT)/include $(ROOT)/ffi/examples/owner_cost.c -o $(C_BUILD)/owner_cost $(C_LINK)
	$(C_BUILD)/owner_cost
