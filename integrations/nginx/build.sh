#!/usr/bin/env bash
# Builds ngx_http_upstream_longstraw_module.so against the nginx whose sources
# and configure flags Debian's nginx-dev installs (/usr/share/nginx/src), or
# against another nginx source tree:
#
#   integrations/nginx/build.sh [OUT_DIR]
#   NGINX_SRC=/path/to/nginx-1.26.2 NGINX_CONFIGURE_FLAGS="--with-compat" integrations/nginx/build.sh
#
# A dynamic module is tied to the nginx version (and, without --with-compat,
# to its configure flags): build it with the same version as the nginx that
# loads it. liblongstraw is linked in statically (target/release/liblongstraw.a),
# so the module needs no liblongstraw.so at run time.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/build/nginx}
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=${NGINX_SRC:-/usr/share/nginx/src}

if [ ! -x "$src/configure" ]; then
  echo "nginx: no nginx sources at $src (install nginx-dev with make prereqs, or set NGINX_SRC)" >&2
  exit 1
fi
if [ -n "${NGINX_CONFIGURE_FLAGS:-}" ]; then
  read -r -a flags <<<"$NGINX_CONFIGURE_FLAGS"
elif [ -f "$src/conf_flags" ]; then
  # Debian's file defines NGX_CONF_FLAGS, the flags its nginx was built with.
  # shellcheck disable=SC1091
  . "$src/conf_flags"
  flags=("${NGX_CONF_FLAGS[@]}")
else
  flags=(--with-compat)
fi

cargo build --quiet --release -p longstraw-c --manifest-path "$root/Cargo.toml"

work="$out/nginx-src"
rm -rf "$work"
mkdir -p "$work"
cp -r "$src/." "$work/"
cd "$work"
# LONGSTRAW_NGINX_CFLAGS adds compiler flags, such as -DNGX_HTTP_UPSTREAM_LONGSTRAW_TIMING=1 for the
# timed build that measures the cost of a peer choice (make bench-nginx-cost).
if [ -n "${LONGSTRAW_NGINX_CFLAGS:-}" ]; then flags+=("--with-cc-opt=$LONGSTRAW_NGINX_CFLAGS"); fi
LONGSTRAW_INCLUDE="$root/include" LONGSTRAW_LIB="${LONGSTRAW_LIB:-$root/target/release/liblongstraw.a}" \
  ./configure "${flags[@]}" --add-dynamic-module="$here" >"$out/configure.log" 2>&1 ||
  { tail -n 30 "$out/configure.log" >&2; exit 1; }
make -j2 -f objs/Makefile modules >"$out/make.log" 2>&1 || { grep -E 'error|warning' "$out/make.log" | head -n 40 >&2; exit 1; }
cp objs/ngx_http_upstream_longstraw_module.so "$out/"
strip --strip-debug "$out/ngx_http_upstream_longstraw_module.so"
echo "nginx: built $out/ngx_http_upstream_longstraw_module.so"
