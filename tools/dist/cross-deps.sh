#!/usr/bin/env bash
# What the cross checks need. The system packages and Rust targets come from tools/prereqs.sh (make
# prereqs; --cross for the full set): this script only checks for them, and stops naming that script
# when one is missing. It fetches and unpacks the data the full checks use (Debian's cJSON source and
# arm64 package contents, into OUT), and stops with the failing command's output when a fetch fails:
#   fast  the aarch64 glibc C check: Rust's aarch64 target, qemu-user, the aarch64 cross compiler and
#         Debian's arm64 libcjson (the C vector program reads JSON with it)
#   full  the above, plus the musl targets, musl-gcc (musl-tools), the cJSON source (Debian's source
#         package: the musl programs compile it, as no musl build of libcjson exists in Debian), and
#         aarch64 roots unpacked from Debian's arm64 packages for qemu-aarch64 -L: musl's loader and
#         libc, Python 3.11 and Node.js 18 (installing python3:arm64 or nodejs:arm64 would replace the
#         host's, so their packages are unpacked into directories instead)
#
# usage: cross-deps.sh fast|full OUT   (OUT: where the cJSON source and the roots go)
set -euo pipefail
mode=$1 out=$2

prereqs="make prereqs"
[ "$mode" = fast ] || prereqs="tools/prereqs.sh --cross"
need_rust_target() {
  rustup target list --installed | grep -qx "$1" \
    || { echo "cross-deps: the Rust target $1 is missing: run $prereqs" >&2; exit 1; }
}
apt_install() {
  echo "cross-deps: missing Debian packages among: $*: run $prereqs" >&2
  exit 1
}
# Runs a fetch with its output in a log; on failure shows the log and stops.
quiet() {
  local log
  log=$(mktemp)
  if "$@" >"$log" 2>&1; then rm -f "$log"; return 0; fi
  echo "cross-deps: FAILED: $*" >&2
  tail -n 40 "$log" | sed 's/^/  | /' >&2
  rm -f "$log"
  exit 1
}

need_rust_target aarch64-unknown-linux-gnu
if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null \
  || [ ! -e /usr/lib/aarch64-linux-gnu/libcjson.so ]; then
  apt_install qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross libcjson-dev:arm64
fi
[ "$mode" = full ] || exit 0

need_rust_target x86_64-unknown-linux-musl
need_rust_target aarch64-unknown-linux-musl
if ! command -v musl-gcc >/dev/null || ! command -v dpkg-source >/dev/null; then apt_install musl-tools dpkg-dev; fi
mkdir -p "$out"

# cJSON: Debian's source package, with Debian's patches applied by dpkg-source.
if [ ! -f "$out/cjson/cJSON.h" ]; then
  if ! apt-get source --print-uris cjson >/dev/null 2>&1; then
    echo "cross-deps: apt has no deb-src entries (for Debian's cJSON source): run $prereqs" >&2
    exit 1
  fi
  tmp=$(mktemp -d)
  (cd "$tmp" && quiet apt-get source --download-only cjson && quiet dpkg-source -x ./*.dsc src)
  mkdir -p "$out/cjson/include/cjson"
  cp "$tmp/src/cJSON.c" "$tmp/src/cJSON.h" "$out/cjson/"
  cp "$tmp/src/cJSON.h" "$out/cjson/include/cjson/"
  cp "$tmp/src/LICENSE" "$out/cjson/"
  rm -rf "$tmp"
fi

# Unpacks Debian arm64 packages (not installed: dpkg -x) into a root for qemu-aarch64 -L.
unpack_root() {
  local root=$1; shift
  [ -f "$root/.done" ] && return
  local tmp
  tmp=$(mktemp -d)
  dpkg --print-foreign-architectures | grep -qx arm64 || apt_install "$@"
  (cd "$tmp" && quiet apt-get download "$@")
  rm -rf "$root" && mkdir -p "$root"
  for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$root"; done
  rm -rf "$tmp"
  touch "$root/.done"
}
unpack_root "$out/root-arm64-musl" musl:arm64
unpack_root "$out/root-arm64-python" libc6:arm64 python3.11-minimal:arm64 libpython3.11-minimal:arm64 \
  libpython3.11-stdlib:arm64 zlib1g:arm64 libexpat1:arm64 libffi8:arm64 libssl3:arm64 media-types
unpack_root "$out/root-arm64-node" libc6:arm64 libgcc-s1:arm64 libstdc++6:arm64 nodejs:arm64 libnode108:arm64 \
  libbrotli1:arm64 libc-ares2:arm64 libicu72:arm64 libnghttp2-14:arm64 libssl3:arm64 libuv1:arm64 zlib1g:arm64 \
  node-cjs-module-lexer node-acorn node-undici
