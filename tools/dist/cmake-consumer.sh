#!/usr/bin/env bash
# A CMake project as a user writes it: find_package(longstraw CONFIG) from an installed PREFIX, linking the
# plain longstraw::longstraw target, builds ffi/examples/demo.c, and the program runs from the build tree
# (CMake's build rpath) and prints what the same demo linked by pkg-config prints.
#
# usage: cmake-consumer.sh ROOT PREFIX WORKDIR VERSION EXPECTED_OUTPUT_FILE
set -euo pipefail
root=$1 prefix=$2 work=$3 version=$4 expected=$5
rm -rf "$work" && mkdir -p "$work"
cat > "$work/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(longstraw_cmake_consumer C)
find_package(longstraw ${version%.*} CONFIG REQUIRED)
add_executable(demo $root/ffi/examples/demo.c)
target_link_libraries(demo PRIVATE longstraw::longstraw)
CMAKE
cmake -S "$work" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
readelf -d "$work/build/demo" | grep -q 'NEEDED.*liblongstraw\.so' \
  || { echo "cmake-consumer: longstraw::longstraw did not link the shared library" >&2; exit 1; }
cmp <("$work/build/demo") "$expected" \
  || { echo "cmake-consumer: the CMake-built demo prints something else than the pkg-config one" >&2; exit 1; }
echo "c: CMake find_package(longstraw) + longstraw::longstraw: builds, links liblongstraw.so, runs as built"
