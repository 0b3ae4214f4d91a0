#!/usr/bin/env bash
# Installs what `make test` needs beyond Rust, Python, Node.js and Go themselves: the Debian packages
# and the Rust toolchain parts. The one place that installs anything: make targets only check, and fail
# (or skip, saying so) naming `make prereqs` when something is missing.
#
#   tools/prereqs.sh          what make test needs (make prereqs runs this; .ci/run through make test)
#   tools/prereqs.sh --cross  also what make dist-cross and make dist-check-cross need (musl targets,
#                             musl-gcc, dpkg-source and deb-src entries for Debian's cJSON source)
#   tools/prereqs.sh --check  installs nothing; lists what is missing and fails if anything is
#
# Idempotent, and silent when everything is present. Debian packages go through apt-get as root (or
# sudo -n when that works); Rust parts through rustup.
set -euo pipefail

cross=0 check=0
for arg in "$@"; do
  case $arg in
    --cross) cross=1 ;;
    --check) check=1 ;;
    *) echo "usage: tools/prereqs.sh [--cross] [--check]" >&2; exit 2 ;;
  esac
done

# Debian packages, and what needs each:
#   libcjson-dev pkg-config valgrind     the C tests (make test-c)
#   memcached                            the pymemcache integration test (make test-python)
#   redis-server                         the Node Redis test and example (make test-node)
#   qemu-user gcc-aarch64-linux-gnu      the aarch64 checks under qemu-aarch64 (make dist-check-cross-fast,
#   libc6-dev-arm64-cross libcjson-dev:arm64     make test-core-aarch64)
#   nginx-dev nginx haproxy              the nginx module: its build, its tests and the side-by-side with
#                                        HAProxy (make test-nginx, make bench-nginx)
#   chromium                             the Node WebAssembly build in a real headless browser, driven by
#                                        playwright-core (an npm devDependency: make node-deps), which downloads
#                                        no browser (make test-node-browser, the docs runner's js browser blocks)
#   binaryen                             wasm-opt, which shrinks the WebAssembly builds (make wasm-lib,
#                                        make build-node-wasm, make dist); without it they build unoptimised
debs=(libcjson-dev pkg-config valgrind memcached redis-server nginx-dev nginx haproxy
  qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross libcjson-dev:arm64 chromium binaryen)
# --cross, for what make test does not run:
#   musl-tools dpkg-dev                  make dist-cross / dist-check-cross: musl-gcc, and dpkg-source for
#                                        Debian's cJSON source
#   wine64 gcc-mingw-w64-x86-64          the Go package's Windows test binaries under wine (make
#                                        test-go-wasm-cross, test-go-wasm-windows); MinGW builds the
#                                        test-only bcryptprimitives.dll that Go's runtime needs there
#                                        (tools/wine/bcryptprimitives.c). About 1.1 GB installed.
cross_debs=(musl-tools dpkg-dev wine64 gcc-mingw-w64-x86-64)
# Rust targets: aarch64 (check-aarch64, test-core-aarch64); wasm32-wasip1 (test-core-wasm, bench-wasm);
# wasm32-wasip1-threads (the Node addon's WebAssembly build: build-node-wasm, test-node-wasm, dist-node);
# the musl ones for dist-cross.
targets=(aarch64-unknown-linux-gnu wasm32-wasip1 wasm32-wasip1-threads)
cross_targets=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl)
if [ $cross = 1 ]; then debs+=("${cross_debs[@]}"); targets+=("${cross_targets[@]}"); fi

say() { echo "prereqs: $*" >&2; }
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"
  else say "not root (and no passwordless sudo): run as root to install: $*"; exit 1
  fi
}
# PKG or PKG:ARCH; a bare name means the native architecture (or an Architecture: all package).
installed() {
  local name=${1%%:*} arch=${1#*:}
  [ "$arch" != "$1" ] || arch=$(dpkg --print-architecture)
  dpkg-query -W -f='${Architecture} ${Status}\n' "$name" 2>/dev/null | grep -Eqx "($arch|all) install ok installed"
}

missing=()
if ! command -v dpkg-query >/dev/null; then
  say "no dpkg-query: not a Debian-like system; install the equivalents of: ${debs[*]}"
  [ $check = 1 ] && exit 1
else
  for p in "${debs[@]}"; do installed "$p" || missing+=("$p"); done
fi
need_arm64=0
case " ${missing[*]-} " in *:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 || need_arm64=1 ;; esac
# dist-check-cross compiles Debian's cJSON source for musl: apt needs deb-src entries to fetch it.
need_src=0
if [ $cross = 1 ] && ! apt-get source --print-uris cjson >/dev/null 2>&1; then need_src=1; fi

missing_targets=()
if command -v rustup >/dev/null; then
  have=$(rustup target list --installed)
  for t in "${targets[@]}"; do grep -qx "$t" <<<"$have" || missing_targets+=("$t"); done
  # make test-miri: Miri on a nightly toolchain; make c-tsan: std's source (rust-src), which it rebuilds
  # with ThreadSanitizer (-Zbuild-std).
  nightly_miri=0
  rustup run nightly cargo miri --version >/dev/null 2>&1 || nightly_miri=1
  [ -d "$(rustup run nightly rustc --print sysroot 2>/dev/null)/lib/rustlib/src/rust/library" ] || nightly_miri=1
else
  say "no rustup: install Rust with rustup (https://rustup.rs), then run this again"
  exit 1
fi

# The Java binding's Maven dependencies and plugins (make test-java runs Maven offline), fetched
# into ~/.m2 once per bindings/java/pom.xml by make java-deps; needs mvn and JDK 25.
root=$(cd "$(dirname "$0")/.." && pwd)
java_stamp="$HOME/.m2/longstraw-java-deps-$(sha256sum "$root/bindings/java/pom.xml" | cut -c1-16)"
if [ ! -f "$java_stamp" ]; then
  command -v mvn >/dev/null || { say "no mvn: install Maven and JDK 25 (make test-java needs them)"; exit 1; }
  if [ $check = 1 ]; then
    say "missing: the Java binding's Maven dependencies (make java-deps)"; exit 1
  fi
  say "fetching the Java binding's Maven dependencies (make java-deps)"
  make -s -C "$root" java-deps >/dev/null || { say "make java-deps failed (Maven Central unreachable?)"; exit 1; }
  mkdir -p "$HOME/.m2" && touch "$java_stamp"
fi

if [ ${#missing[@]} = 0 ] && [ ${#missing_targets[@]} = 0 ] && [ $nightly_miri = 0 ] && [ $need_src = 0 ]; then
  exit 0
fi
if [ $check = 1 ]; then
  [ ${#missing[@]} = 0 ] || say "missing Debian packages: ${missing[*]}"
  [ ${#missing_targets[@]} = 0 ] || say "missing Rust targets: ${missing_targets[*]}"
  [ $nightly_miri = 0 ] || say "missing: a nightly Rust toolchain with Miri and rust-src"
  [ $need_src = 0 ] || say "missing: apt deb-src entries (for Debian's cJSON source)"
  say "run: make prereqs$([ $cross = 1 ] && echo ' (tools/prereqs.sh --cross)')"
  exit 1
fi

if [ $need_arm64 = 1 ]; then say "adding the arm64 architecture to dpkg"; as_root dpkg --add-architecture arm64; fi
if [ $need_src = 1 ]; then
  say "adding deb-src entries for the archives apt already uses"
  src=/etc/apt/sources.list.d/debian.sources
  [ -f "$src" ] || { say "no $src: add deb-src entries by hand"; exit 1; }
  sed 's/^Types: deb$/Types: deb-src/' "$src" | as_root tee /etc/apt/sources.list.d/longstraw-deb-src.sources >/dev/null
fi
if [ ${#missing[@]} != 0 ] || [ $need_src = 1 ]; then
  say "installing ${missing[*]-}"
  as_root apt-get update -qq
  if [ ${#missing[@]} != 0 ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    # The downloaded .deb files are not needed once installed (hundreds of MB on a fresh machine).
    as_root apt-get clean
  fi
fi
for t in ${missing_targets[@]+"${missing_targets[@]}"}; do say "adding Rust target $t"; rustup target add "$t"; done
if [ $nightly_miri = 1 ]; then
  say "installing a nightly Rust toolchain with Miri"
  rustup toolchain install nightly --profile minimal --component miri,rust-src
  rustup component add --toolchain nightly miri rust-src
  cargo +nightly miri setup >/dev/null
fi
