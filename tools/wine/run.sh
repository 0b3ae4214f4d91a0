#!/usr/bin/env bash
# Runs a Windows (amd64) program under wine, in a throwaway wine prefix, for tests only:
#
#   tools/wine/run.sh PREFIX PROGRAM.exe [ARGS...]
#
# PREFIX (a folder under build/) is created on first use, without a display or any question
# (wineboot -i), and gets the test-only bcryptprimitives.dll that this folder builds (see
# bcryptprimitives.c: Go 1.22 and later need it, and Debian bookworm's wine 8.0 lacks it). Debian's
# wine64 package installs the loader as /usr/lib/wine/wine64 (the wine package adds /usr/bin/wine);
# either works. Wine prints nothing of its own (WINEDEBUG=-all); the program's exit status is this
# script's. Exits 3, saying so, when wine or the MinGW compiler is missing.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: tools/wine/run.sh PREFIX PROGRAM.exe [ARGS...]" >&2; exit 2; }
prefix=$(mkdir -p "$1" && cd "$1" && pwd); shift
here=$(cd "$(dirname "$0")" && pwd)

wine=""
for w in /usr/lib/wine/wine64 "$(command -v wine64 || true)" "$(command -v wine || true)"; do
  if [ -n "$w" ] && [ -x "$w" ]; then wine=$w; break; fi
done
[ -n "$wine" ] || { echo "wine: not installed (Debian's wine64; make prereqs)" >&2; exit 3; }
cc=x86_64-w64-mingw32-gcc
command -v $cc >/dev/null || { echo "wine: $cc is missing (Debian's gcc-mingw-w64-x86-64; make prereqs)" >&2; exit 3; }

export WINEPREFIX=$prefix WINEDEBUG=-all WINEARCH=win64
unset DISPLAY WAYLAND_DISPLAY
if [ ! -f "$prefix/system.reg" ]; then
  echo "wine: creating the prefix $prefix (wineboot -i)" >&2
  "$wine" wineboot -i >/dev/null 2>&1
fi
dll=$prefix/drive_c/windows/system32/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ] || [ "$here/bcryptprimitives.def" -nt "$dll" ]; then
  $cc -O2 -Wall -Wextra -Werror -shared -nostdlib -Wl,--entry,DllMain -o "$dll.tmp" \
    "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32 -lkernel32
  mv "$dll.tmp" "$dll"
fi
exec "$wine" "$@"
