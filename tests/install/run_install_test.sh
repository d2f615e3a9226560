#!/usr/bin/env bash
# ctest: install the runtime into a scratch prefix, then build a game file (tests/install) and the
# runtime's samples (core/runtime/examples) against it with g++ and with clang (when installed),
# -Wall -Wextra -Wpedantic -Werror, and run them on a pack.
#   run_install_test.sh full BUILD SOURCE PACK     the whole build's install (runtime + CLI)
#   run_install_test.sh alone RUNTIME_SOURCE SOURCE PACK   core/runtime built as a project of its own
set -euo pipefail
mode=$1 tree=$2 source=$3 pack=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
if [ "$mode" = alone ]; then
  # The runtime's own build: only CMake and a C++20 compiler; its tests; its install.
  cmake -S "$tree" -B "$work/runtime" -DCMAKE_BUILD_TYPE=Release > "$work/runtime-configure.log"
  cmake --build "$work/runtime" -j2 > "$work/runtime-build.log"
  ctest --test-dir "$work/runtime" --output-on-failure > "$work/runtime-test.log" || { cat "$work/runtime-test.log"; exit 1; }
  cmake --install "$work/runtime" --prefix "$prefix" > "$work/install.log"
  test ! -e "$prefix/bin/animpack"  # no CLI
  grep -q "ANIMPACK_WITH_CLI OFF" "$prefix/lib/cmake/animpack/animpackConfig.cmake"
else
  cmake --install "$tree" --prefix "$prefix" > "$work/install.log"
  test -x "$prefix/bin/animpack"
fi
# Only the public headers are installed.
test -f "$prefix/include/animpack/pack.h"
test -f "$prefix/include/animpack/player.h"
test -f "$prefix/lib/cmake/animpack/animpackConfig.cmake"
if [ -e "$prefix/include/animpack/core" ] || grep -rlE '#include.*(core/|lanes|intrin)' "$prefix/include"; then
  echo "private headers are installed or reached from a public one" >&2
  exit 1
fi
# The exported target sets no compile option or definition on a game.
if grep -E 'INTERFACE_COMPILE_(OPTIONS|DEFINITIONS)' "$prefix"/lib/cmake/animpack/animpackTargets.cmake; then
  echo "the exported target changes a game's compile flags" >&2
  exit 1
fi
compilers=(g++)
command -v clang++-14 > /dev/null && compilers+=(clang++-14)
command -v clang++ > /dev/null && [ ! "$(command -v clang++-14)" ] && compilers+=(clang++)
for cxx in "${compilers[@]}"; do
  for project in "$source/tests/install" "$source/core/runtime/examples"; do
    dir=$work/$(basename "$project")-$cxx
    cmake -S "$project" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror" > "$dir.configure.log"
    cmake --build "$dir" -j2 > "$dir.build.log" || { cat "$dir.build.log"; exit 1; }
  done
  echo "== $cxx: the game file"
  "$work/install-$cxx/play_pack" "$pack"
  for example in play_and_skin crossfade morph_weights root_motion; do
    echo "== $cxx: $example"
    "$work/examples-$cxx/$example" "$pack"
  done
done
