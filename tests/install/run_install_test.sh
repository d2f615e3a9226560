#!/usr/bin/env bash
# ctest: install the build tree into a scratch prefix, build the example against it, run it.
set -euo pipefail
build=$1 source=$2 pack=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/include/animpack/core/runtime/pack.h"
test -f "$work/prefix/lib/cmake/animpack/animpackConfig.cmake"
test -x "$work/prefix/bin/animpack"
cmake -S "$source" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/example" -j2 > "$work/build.log"
"$work/example/play_pack" "$pack"
