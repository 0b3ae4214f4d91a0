#!/usr/bin/env bash
# make dist-check-cross: the aarch64 glibc, x86_64 musl and aarch64 musl release artifacts, outside the
# repository, under qemu-user (no binfmt needed: every foreign program runs as `qemu-aarch64 -L ROOT`)
# and musl's loader:
#   c-aarch64-gnu  the tarball's ELF headers (machine, SONAME, glibc floor); a C program built with the
#                  aarch64 cross compiler through pkg-config longstraw (shared) and longstraw-static,
#                  each reading placement-v1.json (every case) under qemu-aarch64
#   c-musl         the same for both musl tarballs: no glibc symbol, needs only musl's libc.so; the
#                  program built with musl-gcc (x86_64, run natively by /lib/ld-musl-x86_64.so.1) and
#                  zig cc (aarch64, run under qemu-aarch64 with Debian's arm64 musl), shared and fully
#                  static
#   python         every cross wheel: tags, auditwheel, ELF headers; the aarch64 glibc wheel installed
#                  into Debian's arm64 Python 3.11 and its vector tests run under qemu-aarch64
#   node           every platform package: package.json os/cpu/libc, ELF headers; the main package's
#                  optionalDependencies name them all; the main package with linux-arm64-gnu in Debian's
#                  arm64 Node.js 18 under qemu-aarch64, its placement vector test
#   go             the release module's tests cross-compiled for linux/arm64 (linked statically) and run
#                  under qemu-aarch64
#
# usage: check-cross.sh all|SECTION...
# Environment (from mk/cross.mk): ROOT DIST VERSION SONAME GO GOMODCACHE DEPS VENV PLATFORMS.
set -euo pipefail
: "${ROOT:?}" "${DIST:?}" "${VERSION:?}" "${SONAME:?}" "${GO:?}" "${GOMODCACHE:?}" "${DEPS:?}" "${VENV:?}" "${PLATFORMS:?}"
sections=("$@")
[ "${sections[*]}" = all ] && sections=(c-aarch64-gnu c-musl python node go)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/longstraw-dist-check-cross.XXXXXX")
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
passed=0
ok() { passed=$((passed + 1)); echo "dist-check-cross: ok: $*"; }
fail() { echo "dist-check-cross: FAILED: $*" >&2; exit 1; }
GNU_ROOT=/usr/aarch64-linux-gnu
MUSL_ARM64_ROOT=$DEPS/root-arm64-musl
PYTHON_ARM64_ROOT=$DEPS/root-arm64-python
CJSON=$DEPS/cjson
ZIG=("$VENV/bin/python" -m ziglang)

mkdir -p "$WORK/tests" "$WORK/src"
cp -r "$ROOT/tests/vectors" "$WORK/tests/vectors"
# The shared test data beside the vectors (membership fixtures, the validation table) for the Go tests.
cp -r "$ROOT/tests/membership" "$ROOT/tests/validation" "$WORK/tests/"
VECTORS=$WORK/tests/vectors
# Emulation is slow (the table and skeleton files build 2^16-row tables), so the aarch64 programs read
# placement-v1.json, every case; the x86_64 glibc artifacts read all four files in dist-check.
PLACEMENT=$VECTORS/placement-v1.json
cp "$ROOT/tests/c/test_vectors.c" "$ROOT/tests/c/check.h" "$ROOT/tests/c/json_input.h" "$WORK/src/"

# The ELF facts every cross binary is checked for.
elf_machine() { readelf -h "$1" | sed -n 's/^ *Machine: *//p'; }
elf_needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | paste -sd' '; }
want_machine() { # FILE aarch64|x86_64
  local want; case $2 in aarch64) want=AArch64 ;; x86_64) want='Advanced Micro Devices X86-64' ;; esac
  [ "$(elf_machine "$1")" = "$want" ] || fail "$1 is $(elf_machine "$1"), want $want"
}
glibc_newest() { objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1; }
want_glibc_floor() {
  local newest; newest=$(glibc_newest "$1")
  [ "$(printf '%s\n2.17\n' "$newest" | sort -V | tail -n 1)" = 2.17 ] || fail "$1 needs glibc $newest (> 2.17)"
}
# musl: no versioned glibc symbol, and the only library it needs is musl's libc under Alpine's name
# (tools/dist/musl-libc-needed.sh).
want_musl() { # FILE ARCH
  if objdump -T "$1" | grep -q 'GLIBC_'; then fail "$1 (musl) has glibc symbol versions"; fi
  local needed; needed=$(elf_needed "$1")
  [ "$needed" = "libc.musl-$2.so.1" ] || fail "$1 (musl) needs [$needed], want only libc.musl-$2.so.1"
}
arch_of() { echo "${1%%-*}"; }

# ---- C ----
unpack_c() { # TRIPLE -> prints the prefix
  local name=longstraw-$VERSION-$1
  tar -xzf "$DIST/c/$name.tar.gz" -C "$WORK"
  echo "$WORK/$name"
}
check_c_so() { # PREFIX TRIPLE
  local so=$1/lib/liblongstraw.so.$VERSION
  want_machine "$so" "$(arch_of "$2")"
  [ "$(readelf -d "$so" | sed -n 's/.*soname: \[\(.*\)\]/\1/p')" = "$SONAME" ] || fail "$so: SONAME"
  case $2 in
    *-musl) want_musl "$so" "$(arch_of "$2")"; ok "c $2: $(basename "$so"): $(elf_machine "$so"), SONAME $SONAME, needs [$(elf_needed "$so")], no glibc symbol" ;;
    *) want_glibc_floor "$so"; ok "c $2: $(basename "$so"): $(elf_machine "$so"), SONAME $SONAME, needs glibc $(glibc_newest "$so") at most" ;;
  esac
}

check_c_aarch64_gnu() {
  local t=aarch64-unknown-linux-gnu prefix
  prefix=$(unpack_c $t)
  check_c_so "$prefix" $t
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  # shellcheck disable=SC2046
  aarch64-linux-gnu-gcc -std=c99 -O1 "$WORK/src/test_vectors.c" -o "$WORK/gnu-shared" \
    $(pkg-config --cflags --libs longstraw) -lcjson -Wl,-rpath,"$prefix/lib"
  readelf -d "$WORK/gnu-shared" | grep -q "NEEDED.*\[$SONAME\]" || fail "the shared program does not need $SONAME"
  qemu-aarch64 -L "$GNU_ROOT" "$WORK/gnu-shared" "$PLACEMENT"
  ok "c $t: program through pkg-config longstraw: vectors pass under qemu-aarch64"
  # shellcheck disable=SC2046
  aarch64-linux-gnu-gcc -std=c99 -O1 "$WORK/src/test_vectors.c" -o "$WORK/gnu-static" \
    $(pkg-config --cflags --libs longstraw-static) -lcjson
  if readelf -d "$WORK/gnu-static" | grep liblongstraw; then fail "the static program needs liblongstraw.so"; fi
  qemu-aarch64 -L "$GNU_ROOT" "$WORK/gnu-static" "$PLACEMENT"
  ok "c $t: program through pkg-config longstraw-static: no liblongstraw.so needed, vectors pass under qemu-aarch64"
  unset PKG_CONFIG_PATH
}

# The musl archive's link line names -lunwind (as rustc prints for crt-static musl: a static libunwind
# such as LLVM's). Here the Rust toolchain's own musl copy of LLVM's libunwind.a provides it.
rust_self_contained() { echo "$(rustc --print sysroot)/lib/rustlib/$1/lib/self-contained"; }
check_c_musl_one() { # TRIPLE
  local t=$1 arch prefix cc run=() out=$WORK/$1
  arch=$(arch_of "$t")
  prefix=$(unpack_c "$t")
  check_c_so "$prefix" "$t"
  mkdir -p "$out"
  case $arch in
    x86_64) cc=(musl-gcc) ;;
    aarch64) cc=("${ZIG[@]}" cc -target aarch64-linux-musl); run=(qemu-aarch64 -L "$MUSL_ARM64_ROOT") ;;
  esac
  local how="${cc[*]}"; how=${how##*/}
  # The .so needs libc.musl-ARCH.so.1 (Alpine's name); the linker finds it here to check the link.
  # (zig's linker does not look for it, and ignores -rpath-link.)
  local alpine_names=$WORK/alpine-names-$arch link_names=()
  if [ "$arch" = x86_64 ]; then
    mkdir -p "$alpine_names" && ln -sf /usr/lib/x86_64-linux-musl/libc.so "$alpine_names/libc.musl-$arch.so.1"
    link_names=(-Wl,-rpath-link,"$alpine_names")
  fi
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  # shellcheck disable=SC2046
  "${cc[@]}" -std=c99 -O1 -I"$CJSON/include" "$WORK/src/test_vectors.c" "$CJSON/cJSON.c" -o "$out/shared" \
    $(pkg-config --cflags --libs longstraw) -Wl,-rpath,"$prefix/lib" "${link_names[@]}"
  local interp
  interp=$(readelf -l "$out/shared" | sed -n 's/.*program interpreter: \(.*\)]/\1/p')
  [ "$interp" = "/lib/ld-musl-$arch.so.1" ] || fail "$out/shared is loaded by $interp, not musl's loader"
  readelf -d "$out/shared" | grep -q "NEEDED.*\[$SONAME\]" || fail "the musl shared program does not need $SONAME"
  "${run[@]}" "$out/shared" "$PLACEMENT"
  ok "c $t: program ($how) through pkg-config longstraw, loaded by $interp: vectors pass${run:+ under qemu-aarch64}"
  # shellcheck disable=SC2046
  "${cc[@]}" -static -std=c99 -O1 -I"$CJSON/include" "$WORK/src/test_vectors.c" "$CJSON/cJSON.c" -o "$out/static" \
    -L"$(rust_self_contained "$t")" $(pkg-config --cflags --libs longstraw-static)
  if readelf -l "$out/static" | grep -q 'program interpreter'; then fail "$out/static is not fully static"; fi
  "${run[@]}" "$out/static" "$PLACEMENT"
  ok "c $t: fully static program ($how -static) through pkg-config longstraw-static ($(pkg-config --libs longstraw-static | sed 's|.*/||')): vectors pass${run:+ under qemu-aarch64}"
  unset PKG_CONFIG_PATH
}
check_c_musl() {
  check_c_musl_one x86_64-unknown-linux-musl
  check_c_musl_one aarch64-unknown-linux-musl
}

# ---- Python ----
wheel_platform() { # TRIPLE -> the wheel's platform tag
  local arch; arch=$(arch_of "$1")
  case $1 in
    *-gnu) echo "manylinux_2_17_$arch.manylinux2014_$arch" ;;
    *-musl) echo "musllinux_1_2_$arch" ;;
  esac
}
check_python() {
  local t w arch tags
  for t in aarch64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
    arch=$(arch_of "$t")
    w=$(ls "$DIST"/python/longstraw-"$VERSION"-cp*-abi3-*.whl | grep -F "$arch" | grep -F "$(wheel_platform "$t" | cut -d. -f1)" || true)
    [ "$(echo "$w" | grep -c .)" = 1 ] || fail "want one $t wheel in $DIST/python, found [$w]"
    local dir=$WORK/wheel-$t
    mkdir -p "$dir" && (cd "$dir" && "$VENV/bin/python" -m zipfile -e "$w" .)
    tags=$(sed -n 's/^Tag: //p' "$dir"/longstraw-"$VERSION".dist-info/WHEEL | sort | paste -sd' ')
    local want_tags
    want_tags=$(wheel_platform "$t" | tr . '\n' | sed 's/^/cp311-abi3-/' | sort | paste -sd' ')
    [ "$tags" = "$want_tags" ] || fail "$w: tags [$tags], want [$want_tags]"
    # The musl wheels were repacked after their extension's libc name was changed: RECORD must match.
    "$VENV/bin/python" - "$dir" <<'PY' || fail "$w: RECORD does not match the files"
import base64, csv, hashlib, pathlib, sys
root = pathlib.Path(sys.argv[1])
record = next(root.glob("*.dist-info/RECORD"))
for name, digest, size in csv.reader(record.read_text().splitlines()):
    if not digest:
        continue
    data = (root / name).read_bytes()
    got = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert got == digest and int(size) == len(data), name
PY
    local so=$dir/longstraw/_longstraw.abi3.so
    want_machine "$so" "$arch"
    local needed; needed=$(elf_needed "$so")
    case $t in
      *-musl) want_musl "$so" "$arch" ;;
      *) want_glibc_floor "$so"; case " $needed " in *libpython*) fail "$so needs libpython" ;; esac ;;
    esac
    local policy
    policy=$("$VENV/bin/auditwheel" show "$w" 2>/dev/null | tr '\n' ' ' | tr -s ' ' | sed -n 's/.*consistent with the following platform tag: "\([^"]*\)".*/\1/p')
    [ "$policy" = "$(wheel_platform "$t" | cut -d. -f1)" ] || fail "$w: auditwheel says [$policy]"
    ok "python $t: $(basename "$w"): RECORD matches, tags [$tags], auditwheel: $policy, _longstraw.abi3.so $(elf_machine "$so") needs [$needed]"
  done
  check_python_aarch64_run
}

# Debian's arm64 Python 3.11 (unpacked by cross-deps.sh) imports the wheel's extension under
# qemu-aarch64 and runs the binding's placement vector test (pytest and its dependencies, resolved by
# pip for an aarch64 CPython 3.11, are unpacked beside the extension: that Python has no pip).
check_python_aarch64_run() {
  local t=aarch64-unknown-linux-gnu py=$WORK/py-arm64
  mkdir -p "$py/site" "$py/bindings/python" "$py/tests"
  (cd "$py/site" && "$VENV/bin/python" -m zipfile -e "$(ls "$DIST"/python/longstraw-"$VERSION"-*manylinux*aarch64*.whl)" .)
  "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --platform manylinux2014_aarch64 --python-version 3.11 --implementation cp -d "$py/wheels" pytest >/dev/null
  for w in "$py"/wheels/*.whl; do (cd "$py/site" && "$VENV/bin/python" -m zipfile -e "$w" .); done
  cp -r "$ROOT/bindings/python/tests" "$py/bindings/python/tests"
  ln -s "$VECTORS" "$py/tests/vectors"
  local python=("qemu-aarch64" -L "$PYTHON_ARM64_ROOT" "$PYTHON_ARM64_ROOT/usr/bin/python3.11")
  local got
  got=$(cd "$py" && PYTHONPATH="$py/site" "${python[@]}" -c \
    'import platform, longstraw; print(platform.machine(), longstraw.__version__, longstraw.__file__)')
  case "$got" in "aarch64 $VERSION $py/site/"*) ;; *) fail "aarch64 python imported: $got" ;; esac
  (cd "$py/bindings/python/tests" && PYTHONPATH="$py/site" "${python[@]}" -m pytest -q -p no:cacheprovider test_vectors.py)
  ok "python $t: the wheel's extension loads in Debian's arm64 Python 3.11 under qemu-aarch64; test_vectors.py (placement-v1, every case) passes"
}

# ---- Node ----
check_node() {
  local t platform arch tgz dir main=$WORK/node-main
  mkdir -p "$main" && tar -xzf "$DIST/node/longstraw-$VERSION.tgz" -C "$main"
  for t in aarch64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
    platform=$(awk -v t="$t" '$1 == t { print $2 }' "$PLATFORMS")
    arch=$(arch_of "$t")
    tgz=$DIST/node/longstraw-$platform-$VERSION.tgz
    dir=$WORK/node-$platform && mkdir -p "$dir" && tar -xzf "$tgz" -C "$dir"
    local want_cpu want_libc
    case $arch in x86_64) want_cpu=x64 ;; aarch64) want_cpu=arm64 ;; esac
    case $t in *-musl) want_libc=musl ;; *) want_libc=glibc ;; esac
    local fields
    fields=$(node -e '
      const p = require(process.argv[1]);
      console.log([p.name, p.version, p.os.join(","), p.cpu.join(","), p.libc.join(","), p.main].join(" "))' \
      "$dir/package/package.json")
    [ "$fields" = "longstraw-$platform $VERSION linux $want_cpu $want_libc longstraw.$platform.node" ] \
      || fail "$tgz: package.json name/version/os/cpu/libc/main are [$fields]"
    local bin=$dir/package/longstraw.$platform.node
    want_machine "$bin" "$arch"
    case $t in *-musl) want_musl "$bin" "$arch" ;; *) want_glibc_floor "$bin" ;; esac
    node -e '
      const [main, name, version] = process.argv.slice(1)
      if (require(main).optionalDependencies[name] !== version) process.exit(1)' \
      "$main/package/package.json" "longstraw-$platform" "$VERSION" \
      || fail "the main package's optionalDependencies lack longstraw-$platform@$VERSION"
    ok "node $t: longstraw-$platform-$VERSION.tgz: os linux, cpu $want_cpu, libc $want_libc; $(basename "$bin") $(elf_machine "$bin") needs [$(elf_needed "$bin")]; in the main package's optionalDependencies"
  done
  check_node_aarch64_run
}

# Debian's arm64 Node.js 18 (unpacked by cross-deps.sh) loads the main package, which picks
# longstraw-linux-arm64-gnu by itself, and runs the binding's placement vector test under qemu-aarch64.
check_node_aarch64_run() {
  local app=$WORK/node-arm64-app root=$DEPS/root-arm64-node
  mkdir -p "$app/node_modules/longstraw" "$app/node_modules/longstraw-linux-arm64-gnu" "$app/test"
  tar -xzf "$DIST/node/longstraw-$VERSION.tgz" -C "$app/node_modules/longstraw" --strip-components=1
  tar -xzf "$DIST/node/longstraw-linux-arm64-gnu-$VERSION.tgz" -C "$app/node_modules/longstraw-linux-arm64-gnu" --strip-components=1
  sed -e "s|require('..')|require('longstraw')|" "$ROOT/bindings/node/test/vectors.test.js" > "$app/test/vectors.test.js"
  if grep -n "'\.\./" "$app/test/vectors.test.js"; then fail "vectors.test.js still reads the source tree"; fi
  local node=(qemu-aarch64 -L "$root" "$root/usr/bin/node")
  local got
  got=$(cd "$app" && "${node[@]}" -e '
    const l = require("longstraw"); const r = new l.Rendezvous(["a", "b"])
    console.log(process.arch, process.version, require.resolve("longstraw-linux-arm64-gnu"), r.owner("k") !== undefined)')
  case "$got" in "arm64 v"*" $app/node_modules/longstraw-linux-arm64-gnu/"*" true") ;; *) fail "arm64 node loaded: $got" ;; esac
  # Run directly, not with --test: the test runner would start a child node, which needs binfmt_misc.
  local log=$WORK/node-arm64.log
  (cd "$app" && LONGSTRAW_VECTORS="$VECTORS/placement-v1.json" "${node[@]}" test/vectors.test.js > "$log" 2>&1) \
    || { cat "$log"; fail "vectors.test.js under arm64 node"; }
  grep -E '^# (pass|fail) ' "$log" | paste -sd' '
  grep -qx '# fail 0' "$log" && ! grep -qx '# pass 0' "$log" || { cat "$log"; fail "vectors.test.js under arm64 node"; }
  ok "node aarch64-unknown-linux-gnu: Debian's arm64 Node.js $(echo "$got" | cut -d' ' -f2) under qemu-aarch64 loads the main package + longstraw-linux-arm64-gnu; vectors.test.js passes"
}

# ---- Go ----
# Under Debian's qemu-user 7.2 a dynamically linked cgo binary hangs at startup, before main: a cgo
# "hello" that needs nothing from longstraw hangs too, while the same program linked statically, and a
# pure Go one, run (golang/go#70329 reports Go hanging under qemu-user). So the emulated test binary is
# linked statically (-extldflags=-static). The module's cgo line names -lgcc_s, which has no static
# archive, so libgcc_eh.a (the static unwinder) stands in for it through -L.
# TestOutOfMemoryIsAnErrorUnderALimit re-executes the test binary as a child: without binfmt_misc the
# kernel cannot run an aarch64 child, so that one test is skipped here (it runs natively in make test).
GO_CROSS_SKIP=TestOutOfMemoryIsAnErrorUnderALimit
check_go() {
  cp -r "$DIST/go/longstraw-go-v$VERSION" "$WORK/longstraw-go"
  test -f "$WORK/longstraw-go/lib/linux_arm64/liblongstraw.a"
  if ls "$WORK/longstraw-go/lib" | grep -v -e '^linux_amd64$' -e '^linux_arm64$'; then
    fail "the Go module ships archives other than linux_amd64 and linux_arm64"
  fi
  mkdir -p "$WORK/gcc_s"
  ln -s "$(aarch64-linux-gnu-gcc -print-file-name=libgcc_eh.a)" "$WORK/gcc_s/libgcc_s.a"
  (cd "$WORK/longstraw-go" && env -u CGO_CFLAGS -u CGO_LDFLAGS GOOS=linux GOARCH=arm64 CGO_ENABLED=1 \
    CC=aarch64-linux-gnu-gcc GOFLAGS="-mod=mod -modcacherw" GOPROXY=off GOTOOLCHAIN=local GOMODCACHE="$GOMODCACHE" \
    "$GO" test -c -ldflags="-extldflags '-static -L$WORK/gcc_s'" -o "$WORK/longstraw.test" . 2> "$WORK/go-link.log") \
    || { cat "$WORK/go-link.log"; fail "go test -c for linux/arm64"; }
  want_machine "$WORK/longstraw.test" aarch64
  local log=$WORK/go-test.log
  # qemu-user passes SIGTERM to the guest, which can ignore it: only SIGKILL ends a hung run.
  (cd "$WORK/longstraw-go" && LONGSTRAW_VECTORS_DIR="$VECTORS" timeout -s KILL 900 \
    qemu-aarch64 "$WORK/longstraw.test" -test.count=1 -test.v -test.skip "$GO_CROSS_SKIP" > "$log" 2>&1) \
    || { cat "$log"; fail "the linux/arm64 Go tests under qemu-aarch64"; }
  tail -n 1 "$log"
  local npass nvec
  npass=$(grep -c '^--- PASS' "$log")
  nvec=$(grep -c '^--- PASS: Test.*Vectors' "$log")
  [ "$nvec" -ge 5 ] || fail "only $nvec vector tests passed"
  echo "dist-check-cross: SKIPPED go $GO_CROSS_SKIP under qemu-aarch64 (it re-executes the test binary; no binfmt_misc here)"
  ok "go linux/arm64: the release module's tests, statically linked, pass under qemu-aarch64 ($npass passed, $nvec of them vector tests)"
}

for s in "${sections[@]}"; do
  case $s in
    c-aarch64-gnu) check_c_aarch64_gnu ;;
    c-musl) check_c_musl ;;
    python) check_python ;;
    node) check_node ;;
    go) check_go ;;
    *) fail "unknown section $s" ;;
  esac
done
echo "dist-check-cross: $passed passed, 0 failed"
