#!/usr/bin/env bash
# zig links musl binaries against a libc.so stub whose SONAME is "libc.so", so they need [libc.so].
# musl's loader resolves any libc.* name to itself, so they run; but Alpine's own builds, and the
# musllinux policy auditwheel checks, name musl's libc libc.musl-<arch>.so.1. This renames the
# dependency to that, and fails unless it is then the only one.
#
# usage: musl-libc-needed.sh PATCHELF ARCH FILE...
set -euo pipefail
patchelf=$1 arch=$2; shift 2
want=libc.musl-$arch.so.1
for f in "$@"; do
  needed=$("$patchelf" --print-needed "$f" | paste -sd' ')
  case " $needed " in *" libc.so "*) "$patchelf" --replace-needed libc.so "$want" "$f" ;; esac
  needed=$("$patchelf" --print-needed "$f" | paste -sd' ')
  [ "$needed" = "$want" ] || { echo "musl-libc-needed: $f needs [$needed], want [$want]" >&2; exit 1; }
done
