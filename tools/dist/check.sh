#!/usr/bin/env bash
# make dist-check: installs each release artifact in dist/ the way its users would, in fresh directories
# outside the repository, with cargo and rustc off PATH, and runs that language's vector tests against the
# installed copy. Tests and vectors are copied out first, so nothing below reads the source tree.
#
# usage: check.sh [SECTION...] (default: every section; the list is at the end)
# Environment (from mk/dist.mk): ROOT DIST VERSION SONAME TRIPLE NODE_PLATFORM GO_MODULE GO GOMODCACHE.
# DIST_CHECK_KEEP=1 keeps the scratch directory.
set -euo pipefail
: "${ROOT:?}" "${DIST:?}" "${VERSION:?}" "${SONAME:?}" "${TRIPLE:?}" "${NODE_PLATFORM:?}" "${GO_MODULE:?}" "${GO:?}"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/longstraw-dist-check.XXXXXX")
cleanup() {
  if [ "${DIST_CHECK_KEEP:-}" = 1 ]; then echo "dist-check: kept $WORK"; return; fi
  chmod -R u+w "$WORK" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
case "$WORK" in "$ROOT"/*) echo "dist-check: $WORK is inside the repository" >&2; exit 1 ;; esac

passed=0
ok() { passed=$((passed + 1)); echo "dist-check: ok: $*"; }

# Every glibc binary is linked against glibc 2.17 symbols at most (manylinux2014), so it loads on
# Debian 8+, Ubuntu 14.04+ and RHEL 7+.
GLIBC_FLOOR=2.17
needs_glibc_at_most() {
  local newest
  newest=$(objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
  if [ "$(printf '%s\n%s\n' "$newest" "$GLIBC_FLOOR" | sort -V | tail -n 1)" != "$GLIBC_FLOOR" ]; then
    echo "dist-check: $1 needs glibc $newest, newer than $GLIBC_FLOOR" >&2; exit 1
  fi
  echo "dist-check: $(basename "$1") needs glibc $newest at most"
}

mkdir -p "$WORK/tests"
cp -r "$ROOT/tests/vectors" "$WORK/tests/vectors"
# The shared test data beside the vectors (membership fixtures, the validation table).
cp -r "$ROOT/tests/membership" "$ROOT/tests/validation" "$WORK/tests/"
VECTORS=$WORK/tests/vectors
ALL_VECTORS=("$VECTORS/placement-v1.json" "$VECTORS/table-v1.json" "$VECTORS/skeleton-v1.json" "$VECTORS/domains-v1.json")

# No Rust toolchain: its directory leaves PATH, and stubs that fail loudly stand first in case
# another directory has one.
mkdir -p "$WORK/no-rust"
for tool in cargo rustc rustup; do
  printf '#!/bin/sh\necho "dist-check: %s was called, but installed artifacts must not need Rust" >&2\nexit 127\n' "$tool" \
    > "$WORK/no-rust/$tool"
  chmod +x "$WORK/no-rust/$tool"
done
PATH="$WORK/no-rust:$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e '/\.cargo/bin$' -e '/\.rustup' | paste -sd:)"
export PATH
if cargo --version >/dev/null 2>&1 || rustc --version >/dev/null 2>&1; then
  echo "dist-check: cargo or rustc still runs" >&2; exit 1
fi
ok "cargo and rustc are off PATH"
cd "$WORK"

# ---- Python: the wheel from dist/python in a fresh venv; pytest from a copy of the tests ----
check_python() {
  local py=$WORK/python
  python3 -m venv "$py/venv"
  "$py/venv/bin/pip" install --quiet --disable-pip-version-check --no-index --find-links "$DIST/python" longstraw
  "$py/venv/bin/pip" install --quiet --disable-pip-version-check pytest numpy
  local where
  where=$(cd "$WORK" && "$py/venv/bin/python" -c 'import longstraw, os; print(os.path.dirname(longstraw.__file__))')
  case "$where" in "$py/venv/"*) ;; *) echo "dist-check: python imported longstraw from $where" >&2; exit 1 ;; esac
  test "$("$py/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("longstraw"))')" = "$VERSION"
  "$py/venv/bin/python" -m pip show --files longstraw | grep '_longstraw.abi3.so' >/dev/null
  needs_glibc_at_most "$where/_longstraw.abi3.so"
  # dist/python offers the pure wheel too: pip must prefer the native one here, and the native wheel's
  # marker leaves wasmtime out (with --no-index a wrong marker would also fail the install above).
  test -f "$DIST/python/longstraw-$VERSION-py3-none-any.whl"
  if "$py/venv/bin/python" -m pip show wasmtime >/dev/null 2>&1; then
    echo "dist-check: python: the native install pulled in wasmtime" >&2; exit 1
  fi
  ok "python: pip offered the native and the pure wheel picks the native one, without wasmtime"
  # The tests find the vectors at ../../../tests/vectors, as in the repository.
  mkdir -p "$py/bindings/python"
  cp -r "$ROOT/bindings/python/tests" "$py/bindings/python/tests"
  mkdir -p "$py/tests"
  ln -s "$VECTORS" "$py/tests/vectors"
  cp -r "$ROOT/tests/membership" "$py/tests/membership"
  (cd "$py/bindings/python/tests" && "$py/venv/bin/python" -m pytest -q -p no:cacheprovider test_vectors.py test_vectors_scale.py test_cli.py)
  ok "python: wheel installed with pip --no-index, version $VERSION, vector tests and the longstraw console script pass"
}

# ---- Python, portable: the pure wheel alone (as on macOS or Windows), under wasmtime ----
# pip is offered only longstraw-V-py3-none-any.whl and a wasmtime wheel (downloaded from PyPI, as the
# `wasm` extra names it). The installed package must run the wasm backend: no native extension on disk,
# longstraw._wasm and wasmtime loaded by `import longstraw` with LONGSTRAW_PYTHON_BACKEND unset.
# PYTHON_WASM_SUITE=full runs the whole bindings/python/tests (the suite's conftest skips what the
# portable build does not offer), else the vector tests.
# download_wasmtime DIR: this machine's wasmtime wheel, from PyPI, as the `wasm` extra requires it.
download_wasmtime() {
  local req
  req=$(unzip -p "$DIST/python/longstraw-$VERSION-py3-none-any.whl" "longstraw-$VERSION.dist-info/METADATA" \
    | sed -n "s/^Requires-Dist: \(wasmtime[^ ;]*\) *; *extra == [\"']wasm[\"']\$/\1/p")
  [ -n "$req" ] || { echo "dist-check: the pure wheel's metadata has no wasm extra naming wasmtime" >&2; exit 1; }
  python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-deps -d "$1" "$req"
}

check_python_wasm() {
  local py=$WORK/python-wasm pure=$DIST/python/longstraw-$VERSION-py3-none-any.whl
  mkdir -p "$py/offered"
  cp "$pure" "$py/offered/"
  download_wasmtime "$py/offered"
  python3 -m venv "$py/venv"
  # Without the extra, on Linux x86_64 the marker leaves wasmtime out (as it must for the native wheels),
  # and the import says what to install.
  "$py/venv/bin/pip" install --quiet --disable-pip-version-check --no-index --find-links "$py/offered" longstraw
  local said
  said=$(cd "$WORK" && "$py/venv/bin/python" -c 'import longstraw' 2>&1) \
    && { echo "dist-check: python-wasm: import longstraw worked without wasmtime" >&2; exit 1; }
  grep -q 'ImportError: .*pip install "longstraw\[wasm\]"' <<<"$said" \
    || { echo "dist-check: python-wasm: without wasmtime, import longstraw said: $said" >&2; exit 1; }
  "$py/venv/bin/pip" install --quiet --disable-pip-version-check --no-index --find-links "$py/offered" "longstraw[wasm]"
  if "$py/venv/bin/python" -m pip show --files longstraw | grep -E '\.(so|pyd|dylib)$'; then
    echo "dist-check: python-wasm: the pure wheel installed native code" >&2; exit 1
  fi
  (cd "$WORK" && env -u LONGSTRAW_PYTHON_BACKEND "$py/venv/bin/python" - "$py/venv/" "$VERSION" <<'PY')
import importlib.metadata, importlib.util, os, sys
import longstraw
where, version = sys.argv[1], sys.argv[2]
assert longstraw.__file__.startswith(where), f"imported longstraw from {longstraw.__file__}"
assert importlib.util.find_spec("longstraw._longstraw") is None, "a native extension is installed"
import longstraw._wasm
assert longstraw.Rendezvous is longstraw._wasm.Rendezvous and "wasmtime" in sys.modules, "the wasm backend did not load"
wasm = os.path.join(os.path.dirname(longstraw.__file__), "_wasm", "liblongstraw.wasm")
assert os.path.getsize(wasm) > 0
assert importlib.metadata.version("longstraw") == version == longstraw.__version__
r = longstraw.Rendezvous(["cache-a", "cache-b", "cache-c"])
assert r.owner("user:42") == "cache-c", r.owner("user:42")
print(f"dist-check: python-wasm: longstraw {version} runs {wasm} ({longstraw._wasm.TARGET}, backend {longstraw.backend()}) under wasmtime {importlib.metadata.version('wasmtime')}")
PY
  # The console script is installed, and says that the command is in the native wheels only.
  local status=0
  said=$("$py/venv/bin/longstraw" --version 2>&1) || status=$?
  [ "$status" = 1 ] && grep -q 'native wheels' <<<"$said" && grep -q 'cargo install longstraw-cli' <<<"$said" \
    || { echo "dist-check: python-wasm: longstraw --version exited $status saying: $said" >&2; exit 1; }
  ok "python-wasm: the pure wheel alone installs with pip --no-index (longstraw[wasm] + $(basename "$py"/offered/wasmtime-*.whl)), loads the wasm backend (without wasmtime, the ImportError names longstraw[wasm]); its longstraw script says the command is native-only"

  "$py/venv/bin/pip" install --quiet --disable-pip-version-check pytest numpy
  mkdir -p "$py/bindings/python" "$py/tests"
  cp -r "$ROOT/bindings/python/tests" "$py/bindings/python/tests"
  ln -s "$VECTORS" "$py/tests/vectors"
  cp -r "$ROOT/tests/membership" "$ROOT/tests/validation" "$ROOT/tests/spec" "$ROOT/tests/attack" "$py/tests/"
  cp "$ROOT/Cargo.toml" "$py/Cargo.toml"
  if [ "${PYTHON_WASM_SUITE:-}" = full ]; then
    "$py/venv/bin/pip" install --quiet --disable-pip-version-check hypothesis mypy pymemcache xxhash typing_extensions
    (cd "$py/bindings/python/tests" && env -u LONGSTRAW_PYTHON_BACKEND \
      LONGSTRAW_PYRIGHT="$ROOT/tools/typecheck/node_modules/.bin/pyright" \
      "$py/venv/bin/python" -m pytest -q -rs -p no:cacheprovider .)
    ok "python-wasm: the whole bindings/python/tests suite passes against the installed pure wheel"
  else
    (cd "$py/bindings/python/tests" && env -u LONGSTRAW_PYTHON_BACKEND \
      "$py/venv/bin/python" -m pytest -q -p no:cacheprovider test_vectors.py test_vectors_scale.py)
    ok "python-wasm: the vector tests pass against the installed pure wheel"
  fi
}

# ---- Python, lockers: uv locks a project depending on longstraw, offered every file of the version ----
# uv (from PyPI, in a throwaway venv) resolves for every platform at once, so it refuses a version whose
# files declare different dependencies. Offered dist/python and a wasmtime wheel, with no index: the lock
# must list the native wheels, the pure wheel and the sdist, wasmtime under its marker; the locked tree
# for Linux x86_64 and aarch64 leaves wasmtime out, for macOS and Windows it holds it (`uv tree
# --python-platform`); `uv sync` here installs the native wheel.
UV_VERSION=0.13.9
check_python_lock() {
  local u=$WORK/python-lock
  mkdir -p "$u/app" "$u/offered"
  python3 -m venv "$u/uv"
  "$u/uv/bin/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION"
  local uv=$u/uv/bin/uv
  cp "$DIST/python/"* "$u/offered/"
  download_wasmtime "$u/offered"
  cat > "$u/app/pyproject.toml" <<TOML
[project]
name = "app"
version = "0.0.0"
requires-python = ">=3.11"
dependencies = ["longstraw==$VERSION"]

[tool.uv]
no-index = true
find-links = ["$u/offered"]
TOML
  export UV_CACHE_DIR=$u/cache UV_PYTHON_DOWNLOADS=never
  (cd "$u/app" && "$uv" lock --quiet)
  python3 - "$u/app/uv.lock" "$VERSION" <<'PY'
import sys, tomllib
lock = tomllib.load(open(sys.argv[1], "rb"))
version = sys.argv[2]
pkgs = {p["name"]: p for p in lock["package"]}
ls = pkgs["longstraw"]
assert ls["version"] == version, ls["version"]
wheels = [w["url"].rsplit("/", 1)[-1] if "url" in w else w["path"].rsplit("/", 1)[-1] for w in ls.get("wheels", [])]
assert any(w.endswith("-py3-none-any.whl") for w in wheels), wheels
assert any("manylinux" in w for w in wheels), wheels
assert "sdist" in ls, "no sdist in the lock"
deps = {d["name"]: d for d in ls["dependencies"]}
marker = deps["wasmtime"].get("marker", "")
assert "sys_platform != 'linux'" in marker, marker
print(f"dist-check: uv.lock: longstraw {version} with {len(wheels)} wheels and the sdist; wasmtime when {marker}")
PY
  local platform want got
  for platform in x86_64-unknown-linux-gnu:no aarch64-unknown-linux-gnu:no x86_64-apple-darwin:yes \
      aarch64-apple-darwin:yes x86_64-pc-windows-msvc:yes; do
    want=${platform#*:}; platform=${platform%:*}
    if (cd "$u/app" && "$uv" tree --frozen --python-platform "$platform" --python-version 3.11 2>/dev/null \
        | grep -q 'wasmtime v'); then got=yes; else got=no; fi
    [ "$got" = "$want" ] || { echo "dist-check: python-lock: resolved for $platform, wasmtime is '$got', want '$want'" >&2; exit 1; }
  done
  (cd "$u/app" && "$uv" sync --quiet --frozen)
  "$u/app/.venv/bin/python" -c 'import longstraw._longstraw, importlib.util, sys; assert importlib.util.find_spec("wasmtime") is None'
  ok "python-lock: uv lock accepts the version's files; wasmtime only off Linux x86_64/aarch64; uv sync here installs the native wheel"
  unset UV_CACHE_DIR UV_PYTHON_DOWNLOADS
}

# ---- Node: main + platform tarballs in a fresh project; require and import ----
check_node() {
  local app=$WORK/node/app
  mkdir -p "$app/test"
  (cd "$app" && npm init -y >/dev/null &&
    npm install --silent --no-audit --no-fund "$DIST/node/longstraw-$VERSION.tgz" \
      "$DIST/node/longstraw-$NODE_PLATFORM-$VERSION.tgz")
  needs_glibc_at_most "$app/node_modules/longstraw-$NODE_PLATFORM/longstraw.$NODE_PLATFORM.node"
  ! ls "$app"/node_modules/longstraw/*.node 2>/dev/null
  for t in vectors scale; do
    sed -e "s|require('..')|require('longstraw')|" -e "s|import('../index.mjs')|import('longstraw')|" \
      "$ROOT/bindings/node/test/$t.test.js" > "$app/test/$t.test.js"
    if grep -n "'\.\./" "$app/test/$t.test.js"; then echo "dist-check: $t.test.js still reads the source tree" >&2; exit 1; fi
  done
  cp "$ROOT/tools/dist/node-esm.test.mjs" "$app/test/esm.test.mjs"
  (cd "$app" && LONGSTRAW_VECTORS="$VECTORS/placement-v1.json" LONGSTRAW_VECTORS_DIR="$VECTORS" \
    LONGSTRAW_NODE_PLATFORM_PACKAGE="longstraw-$NODE_PLATFORM" node --test test/)
  ok "node: longstraw-$VERSION.tgz + longstraw-$NODE_PLATFORM-$VERSION.tgz installed; require and import pass the vectors"
}

# ---- Node in a browser: main + both wasm packages bundled by esbuild, in headless Chromium ----
# The main package's browser entry (browser.mjs) loads longstraw-wasm32-wasi/longstraw.browser.js on a cross-origin
# isolated page and longstraw-wasm32-wasip1/longstraw.edge.js on any other, so a web project installs all three
# (npm install --cpu=wasm32 longstraw; the tarballs here, as in check_node_wasm). The main package carries no
# .wasm. No Chromium: a failure under CI=true, else a loud skip.
check_node_browser() {
  local app=$WORK/node-browser/app
  mkdir -p "$app"
  (cd "$app" && npm init -y >/dev/null &&
    npm install --silent --no-audit --no-fund --omit=optional "$DIST/node/longstraw-$VERSION.tgz" &&
    npm install --silent --no-audit --no-fund --omit=optional --force "$DIST/node/longstraw-wasm32-wasi-$VERSION.tgz" \
      "$DIST/node/longstraw-wasm32-wasip1-$VERSION.tgz")
  if ls "$app"/node_modules/longstraw/*.wasm 2>/dev/null; then
    echo "dist-check: the main package carries a .wasm (it belongs in the wasm32 packages only)" >&2; exit 1
  fi
  local status=0
  node "$ROOT/tools/dist/node-browser-check.mjs" "$ROOT" "$app" "$VECTORS" || status=$?
  case $status in
    0) ok "node-browser: longstraw-$VERSION.tgz + longstraw-wasm32-wasi-$VERSION.tgz + longstraw-wasm32-wasip1-$VERSION.tgz bundled by esbuild pass the vectors in headless Chromium, isolated page and not" ;;
    77) echo "dist-check: SKIPPED: node-browser (no Chromium; see above)" ;;
    *) exit "$status" ;;
  esac
}

# ---- Node, WebAssembly: main + longstraw-wasm32-wasi where no native package is installed ----
# As on macOS, Windows or any platform without a prebuilt addon: the main package's optional native
# dependencies are left out, so its loader finds no native binary and falls back to the wasm package,
# unforced (LONGSTRAW_NODE_WASM unset). npm installs a cpu "wasm32" package only when asked: from the
# registry as an optional dependency with --cpu=wasm32 (as napi-rs documents for its WASI packages); a
# tarball named on the command line is checked against this machine's cpu, so it needs --force here.
# Then the same where the threaded build cannot start (SharedArrayBuffer removed before the load): the
# loader falls back to longstraw-wasm32-wasip1, whose async calls reject.
check_node_wasm() {
  local app=$WORK/node-wasm/app
  mkdir -p "$app/test"
  (cd "$app" && npm init -y >/dev/null &&
    npm install --silent --no-audit --no-fund --omit=optional "$DIST/node/longstraw-$VERSION.tgz" &&
    npm install --silent --no-audit --no-fund --omit=optional --force "$DIST/node/longstraw-wasm32-wasi-$VERSION.tgz" \
      "$DIST/node/longstraw-wasm32-wasip1-$VERSION.tgz")
  if ls -d "$app"/node_modules/longstraw-linux-* 2>/dev/null; then
    echo "dist-check: a native package was installed next to the wasm one" >&2; exit 1
  fi
  local wasm=$app/node_modules/longstraw-wasm32-wasi/longstraw.wasm32-wasi.wasm
  echo "dist-check: longstraw.wasm32-wasi.wasm is $(stat -c %s "$wasm") bytes"
  (cd "$app" && env -u LONGSTRAW_NODE_WASM -u NAPI_RS_FORCE_WASI node --no-warnings -e "
    const l = require('longstraw')
    if (l.target !== 'wasm32-wasi') throw new Error('loaded ' + l.target + ', not the wasm package')
    if (l.backend() !== 'simd128') throw new Error('the wasm package runs ' + l.backend() + ', not simd128')
    console.log('dist-check: longstraw loaded ' + l.target + ', backend ' + l.backend())")
  sed -e "s|require('..')|require('longstraw')|" "$ROOT/bindings/node/test/vectors.test.js" > "$app/test/vectors.test.js"
  if grep -n "'\.\./" "$app/test/vectors.test.js"; then echo "dist-check: vectors.test.js still reads the source tree" >&2; exit 1; fi
  (cd "$app" && env -u LONGSTRAW_NODE_WASM -u NAPI_RS_FORCE_WASI LONGSTRAW_VECTORS="$VECTORS/placement-v1.json" \
    LONGSTRAW_VECTORS_DIR="$VECTORS" NODE_OPTIONS=--disable-warning=ExperimentalWarning node --test test/)
  ok "node-wasm: longstraw-$VERSION.tgz + longstraw-wasm32-wasi-$VERSION.tgz without a native package; the fallback passes the vectors"
  echo "dist-check: longstraw.wasm32-wasip1.wasm is $(stat -c %s "$app/node_modules/longstraw-wasm32-wasip1/longstraw.wasm32-wasip1.wasm") bytes"
  (cd "$app" && env -u LONGSTRAW_NODE_WASM -u NAPI_RS_FORCE_WASI node --no-warnings -e "
    delete globalThis.SharedArrayBuffer
    const l = require('longstraw')
    if (l.target !== 'wasm32-wasip1') throw new Error('without SharedArrayBuffer loaded ' + l.target + ', not the wasm package without threads')
    const r = new l.Rendezvous(['cache-a', 'cache-b', 'cache-c'])
    if (r.owner('user:42') !== 'cache-c') throw new Error('user:42 -> ' + r.owner('user:42') + ', the README says cache-c')
    l.Rendezvous.tableAsync(['a'], { bits: 4 }).then(() => { console.error('tableAsync resolved'); process.exit(1) }, (e) => {
      if (e.code !== 'ERR_LONGSTRAW_NO_THREADS') { console.error(e); process.exit(1) }
      console.log('dist-check: without SharedArrayBuffer longstraw loaded ' + l.target + ', backend ' + l.backend() + ', tableAsync ' + e.code)
    })")
  ok "node-wasm: without SharedArrayBuffer the loader falls back to longstraw-wasm32-wasip1-$VERSION.tgz"
}

# ---- C: the tarball, through pkg-config (shared and static) and CMake find_package ----
check_c() {
  local c=$WORK/c name=longstraw-$VERSION-$TRIPLE
  mkdir -p "$c/src"
  tar -xzf "$DIST/c/$name.tar.gz" -C "$c"
  local prefix=$c/$name
  cp "$ROOT/tests/c/test_vectors.c" "$ROOT/tests/c/check.h" "$ROOT/tests/c/json_input.h" "$c/src/"
  test "$(readelf -d "$prefix/lib/liblongstraw.so.$VERSION" | sed -n 's/.*soname: \[\(.*\)\]/\1/p')" = "$SONAME"
  test "$(readlink "$prefix/lib/$SONAME")" = "liblongstraw.so.$VERSION"
  test "$(readlink "$prefix/lib/liblongstraw.so")" = "$SONAME"
  needs_glibc_at_most "$prefix/lib/liblongstraw.so.$VERSION"
  ok "c: liblongstraw.so.$VERSION has SONAME $SONAME, symlinks in place"

  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  test "$(pkg-config --modversion longstraw)" = "$VERSION"
  test "$(pkg-config --modversion longstraw-static)" = "$VERSION"
  # shellcheck disable=SC2046
  cc -std=c99 -O1 "$c/src/test_vectors.c" -o "$c/vectors-shared" $(pkg-config --cflags --libs longstraw) -lcjson \
    -Wl,-rpath,"$prefix/lib"
  readelf -d "$c/vectors-shared" | grep "NEEDED.*\[$SONAME\]" >/dev/null
  "$c/vectors-shared" "${ALL_VECTORS[@]}"
  ok "c: pkg-config longstraw: linked $SONAME, vectors pass"
  # shellcheck disable=SC2046
  cc -std=c99 -O1 "$c/src/test_vectors.c" -o "$c/vectors-static" $(pkg-config --cflags --libs longstraw-static) -lcjson
  if ldd "$c/vectors-static" | grep liblongstraw; then echo "dist-check: the static build links liblongstraw.so" >&2; exit 1; fi
  "$c/vectors-static" "${ALL_VECTORS[@]}"
  ok "c: pkg-config longstraw-static: no liblongstraw.so in ldd, vectors pass"
  unset PKG_CONFIG_PATH

  mkdir -p "$c/cmake"
  cat > "$c/cmake/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(longstraw_consumer C)
find_package(longstraw ${VERSION%.*} CONFIG REQUIRED)
find_library(CJSON cjson REQUIRED)
enable_testing()
foreach(kind shared static)
  add_executable(vectors_\${kind} $c/src/test_vectors.c)
  target_link_libraries(vectors_\${kind} PRIVATE longstraw::\${kind} \${CJSON})
  add_test(NAME vectors_\${kind} COMMAND vectors_\${kind} ${ALL_VECTORS[*]})
endforeach()
add_test(NAME static_has_no_shared_library
         COMMAND sh -c "! ldd \$<TARGET_FILE:vectors_static> | grep liblongstraw")
add_test(NAME shared_needs_soname
         COMMAND sh -c "readelf -d \$<TARGET_FILE:vectors_shared> | grep 'NEEDED.*\\\\[$SONAME\\\\]'")
CMAKE
  cmake -S "$c/cmake" -B "$c/cmake/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$c/cmake/build" >/dev/null
  (cd "$c/cmake/build" && ctest --output-on-failure)
  # While the major version is 0, another minor is another ABI.
  local next_minor
  next_minor=$(echo "$VERSION" | awk -F. '{ print $1 "." $2 + 1 }')
  mkdir -p "$c/cmake-next"
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(p C)\nfind_package(longstraw %s CONFIG REQUIRED)\n' "$next_minor" \
    > "$c/cmake-next/CMakeLists.txt"
  if cmake -S "$c/cmake-next" -B "$c/cmake-next/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1; then
    echo "dist-check: find_package(longstraw $next_minor) accepted $VERSION" >&2; exit 1
  fi
  ok "c: CMake find_package(longstraw ${VERSION%.*}): longstraw::shared and ::static pass the vectors; $next_minor is refused"
}

# ---- Go: a fresh module that replaces to the unpacked release module, then one that fetches the zip ----
check_go() {
  local g=$WORK/go
  mkdir -p "$g/app"
  cp -r "$DIST/go/longstraw-go-v$VERSION" "$g/longstraw-go"
  cat > "$g/app/main.go" <<'GO'
package main

import (
	"fmt"

	longstraw "github.com/longstraw/longstraw/bindings/go"
)

func main() {
	r, err := longstraw.New([]string{"cache-a", "cache-b", "cache-c"})
	if err != nil {
		panic(err)
	}
	owner, err := r.Owner("user:42")
	if err != nil {
		panic(err)
	}
	fmt.Println(longstraw.VersionString(), owner)
}
GO
  printf 'module example.com/app\n\ngo 1.22\n\nrequire %s v%s\n\nreplace %s => ../longstraw-go\n' \
    "$GO_MODULE" "$VERSION" "$GO_MODULE" > "$g/app/go.mod"
  cp "$g/longstraw-go/go.sum" "$g/app/go.sum"
  # Third-party modules come from the repo's module cache (no network); nothing sets CGO_*.
  local goenv=(env -u CGO_CFLAGS -u CGO_LDFLAGS GOFLAGS="-mod=mod -modcacherw" GOPROXY=off GOTOOLCHAIN=local
    GOMODCACHE="$GOMODCACHE")
  (cd "$g/app" && "${goenv[@]}" "$GO" build -o app . && ./app | grep "^$VERSION cache-" >/dev/null)
  if ldd "$g/app/app" | grep liblongstraw; then echo "dist-check: the Go program links liblongstraw.so" >&2; exit 1; fi
  (cd "$g/app" && LONGSTRAW_VECTORS_DIR="$VECTORS" "${goenv[@]}" "$GO" test -count=1 "$GO_MODULE")
  ok "go: replace => unpacked release module: builds with no CGO_* variables, static, vector tests pass"

  # The portable build: cgo off, the module's embedded liblongstraw.wasm under wazero. No C compiler is
  # needed, so it also cross-compiles for systems the module has no archive for.
  (cd "$g/app" && "${goenv[@]}" CGO_ENABLED=0 "$GO" build -o app-portable . \
    && ./app-portable | grep "^$VERSION cache-" >/dev/null)
  [ "$(cd "$g/app" && ./app)" = "$(cd "$g/app" && ./app-portable)" ] \
    || { echo "dist-check: go: the cgo and the portable builds disagree" >&2; exit 1; }
  (cd "$g/app" && LONGSTRAW_VECTORS_DIR="$VECTORS" "${goenv[@]}" CGO_ENABLED=0 "$GO" test -count=1 "$GO_MODULE")
  local os_arch
  for os_arch in windows/amd64 darwin/arm64 linux/riscv64; do
    (cd "$g/app" && "${goenv[@]}" CGO_ENABLED=0 GOOS="${os_arch%/*}" GOARCH="${os_arch#*/}" "$GO" build -o /dev/null .) \
      || { echo "dist-check: go: the portable build does not compile for $os_arch" >&2; exit 1; }
  done
  ok "go: CGO_ENABLED=0 (embedded liblongstraw.wasm, wazero): runs, agrees with cgo, the package's tests pass; builds for windows/amd64, darwin/arm64, linux/riscv64"

  # The module zip, served as a module proxy would (GOPROXY=file://), into a fresh module cache.
  mkdir -p "$g/zip-app"
  cp "$g/app/main.go" "$g/zip-app/"
  printf 'module example.com/zipapp\n\ngo 1.22\n\nrequire %s v%s\n' "$GO_MODULE" "$VERSION" > "$g/zip-app/go.mod"
  cp "$g/longstraw-go/go.sum" "$g/zip-app/go.sum"
  (cd "$g/zip-app" && env -u CGO_CFLAGS -u CGO_LDFLAGS GOFLAGS="-mod=mod -modcacherw" GOTOOLCHAIN=local GONOSUMDB="$GO_MODULE" \
    GONOSUMCHECK=1 GOSUMDB=off GOPROXY="file://$DIST/go/proxy,file://$GOMODCACHE/cache/download" \
    GOMODCACHE="$g/modcache" "$GO" build -o app . && ./app | grep "^$VERSION cache-" >/dev/null)
  ok "go: the module zip (GOPROXY=file://dist/go/proxy) downloads, builds and runs"
}

# ---- nginx: the module from its release tarball, unpacked outside the repository, in real nginx ----
check_nginx() {
  local tarball
  tarball=$(find "$DIST/nginx" -name "ngx_http_upstream_longstraw_module-$VERSION-*.tar.gz" 2>/dev/null | head -n 1)
  if [ -z "$tarball" ]; then
    echo "dist-check: nginx: SKIPPED: dist/nginx has no module tarball (nginx-dev was not installed for make dist)"
    return
  fi
  if ! command -v nginx >/dev/null; then
    echo "dist-check: nginx: SKIPPED: nginx is not installed (run make prereqs)"
    return
  fi
  local n=$WORK/nginx
  mkdir -p "$n"
  tar -xzf "$tarball" -C "$n"
  local module
  module=$(find "$n" -name ngx_http_upstream_longstraw_module.so | head -n 1)
  if ldd "$module" | grep liblongstraw; then echo "dist-check: the nginx module links liblongstraw.so" >&2; exit 1; fi
  # The test drives real nginx with the unpacked module; its expected owners come from tests/spec.
  timeout 300 "$ROOT/.venv/bin/python" "$ROOT/integrations/nginx/tests/test_nginx.py" "$module" "$n/work"
  ok "nginx: the released module ($(basename "$tarball")) loads into nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'); placement, failover, reload, keyed, bounded loads"
}

# ---- Java: the jar from dist/java in a fresh Maven project outside the repository ----
check_java() {
  local jar=$DIST/java/longstraw-$VERSION.jar
  if [ ! -f "$jar" ]; then echo "dist-check: java: no $jar (make dist builds it)" >&2; exit 1; fi
  bash "$ROOT/tools/dist/check-java.sh" "$jar" "$VERSION" "$WORK" "$ROOT"
  ok "java: the jar's native library loads from a fresh Maven project; example and JUnit suite pass"
}

# Arguments name sections to run (python python-wasm python-lock node node-wasm node-browser c go java
# nginx); none runs them all.
sections=("$@")
[ ${#sections[@]} -gt 0 ] || sections=(python python-wasm python-lock node node-wasm node-browser c go java nginx)
for section in "${sections[@]}"; do
  case $section in
    python|python-wasm|python-lock|node|node-wasm|node-browser|c|go|java|nginx) "check_${section//-/_}" ;;
    *) echo "dist-check: unknown section $section" >&2; exit 2 ;;
  esac
done
echo "dist-check: $passed passed, 0 failed"
