#!/usr/bin/env bash
# Lays out the C/C++ release (or `make install`) under PREFIX:
#   include/longstraw.h
#   lib/liblongstraw.so.X.Y.Z, lib/liblongstraw.so.<soname suffix> -> it, lib/liblongstraw.so -> soname
#   lib/liblongstraw.a
#   lib/pkgconfig/longstraw.pc (shared), lib/pkgconfig/longstraw-static.pc (names the archive)
#   lib/cmake/longstraw/longstraw-config.cmake, longstraw-config-version.cmake
# The .pc and CMake files find their prefix relative to themselves, so the tree can be unpacked anywhere.
#
# usage: stage-c.sh ROOT LIBDIR PREFIX VERSION SONAME "NATIVE_STATIC_LIBS"
set -euo pipefail
root=$1 libdir=$2 prefix=$3 version=$4 soname=$5 native=$6

so=$libdir/liblongstraw.so
a=$libdir/liblongstraw.a
real=liblongstraw.so.$version
got=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$got" = "$soname" ] || { echo "stage-c: $so has SONAME '$got', expected '$soname'" >&2; exit 1; }

install -d "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/longstraw"
install -m 644 "$root/include/longstraw.h" "$prefix/include/"
install -m 755 "$so" "$prefix/lib/$real"
ln -sfn "$real" "$prefix/lib/$soname"
ln -sfn "$soname" "$prefix/lib/liblongstraw.so"
install -m 644 "$a" "$prefix/lib/liblongstraw.a"

# One .pc cannot force static linking while the .so sits beside the .a, so the
# static flavour names the archive itself.
pc_head() {
  printf 'prefix=${pcfiledir}/../..\nexec_prefix=${prefix}\nlibdir=${exec_prefix}/lib\nincludedir=${prefix}/include\n\n'
}
{
  pc_head
  printf 'Name: longstraw\nDescription: Rendezvous (HRW) hashing with a frozen placement, shared by every language (shared library)\n'
  printf 'Version: %s\nCflags: -I${includedir}\nLibs: -L${libdir} -llongstraw\nLibs.private: %s\n' "$version" "$native"
} > "$prefix/lib/pkgconfig/longstraw.pc"
{
  pc_head
  printf 'Name: longstraw-static\nDescription: Rendezvous (HRW) hashing with a frozen placement, shared by every language (static archive)\n'
  printf 'Version: %s\nCflags: -I${includedir}\nLibs: ${libdir}/liblongstraw.a %s\n' "$version" "$native"
} > "$prefix/lib/pkgconfig/longstraw-static.pc"

# CMake wants the libraries as a list of names, without -l.
cmake_libs=$(printf '%s\n' $native | sed -n 's/^-l//p' | paste -sd ';')
major=${version%%.*}
sed -e "s|@VERSION@|$version|g" -e "s|@REAL@|$real|g" -e "s|@SONAME@|$soname|g" \
    -e "s|@NATIVE_LIBS@|$cmake_libs|g" \
    "$root/tools/dist/longstraw-config.cmake.in" > "$prefix/lib/cmake/longstraw/longstraw-config.cmake"
sed -e "s|@VERSION@|$version|g" -e "s|@MAJOR@|$major|g" \
    "$root/tools/dist/longstraw-config-version.cmake.in" > "$prefix/lib/cmake/longstraw/longstraw-config-version.cmake"
