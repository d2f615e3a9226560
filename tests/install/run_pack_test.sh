#!/usr/bin/env bash
# ctest: install the build tree, generate two projects, build their packs with animpack_add_pack and
# Ninja, touch one source and check that only its pack rebuilds (and nothing when nothing changed).
set -euo pipefail
build=$1 source=$2 model=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/lib/cmake/animpack/AnimpackPack.cmake"
animpack="$work/prefix/bin/animpack"
assets="$work/assets"
mkdir -p "$assets/hero" "$assets/props"
for name in walk run idle; do cp "$model" "$assets/hero/$name.gltf"; done
for name in crate door; do cp "$model" "$assets/props/$name.gltf"; done
"$animpack" project new "$assets/hero.anproj" "$assets/hero" > /dev/null
"$animpack" project new "$assets/props.anproj" "$assets/props" > /dev/null
"$animpack" approve "$assets/hero.anproj" --all -q > /dev/null

cmake -S "$source" -B "$work/game" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" -DGAME_ASSETS="$assets" > "$work/configure.log"
cmake --build "$work/game" > "$work/build1.log"
test -f "$work/game/hero.anpk" && test -f "$work/game/props.anpk" && test -f "$work/game/hero.json"
names=$("$animpack" dump "$work/game/hero.anpk" --json | grep -c '"name": "\(walk\|run\|idle\)"')
[ "$names" = 3 ] || { echo "hero.anpk should hold walk, run and idle"; exit 1; }

# Nothing changed: nothing to do.
cmake --build "$work/game" -- -n > "$work/build2.log"
grep -q "no work to do" "$work/build2.log" || { echo "a second build did work:"; cat "$work/build2.log"; exit 1; }

# One source of the props changed: only props.anpk rebuilds.
sleep 1
touch "$assets/props/door.gltf"
cmake --build "$work/game" -- -v > "$work/build3.log"
grep -q "props.anpk" "$work/build3.log" || { echo "props.anpk did not rebuild:"; cat "$work/build3.log"; exit 1; }
if grep -q -- "-o $work/game/hero.anpk" "$work/build3.log"; then echo "hero.anpk rebuilt without a change:"; cat "$work/build3.log"; exit 1; fi

# A source added to a project reaches the depfile through the project itself.
cp "$model" "$assets/hero/jump.gltf"
"$animpack" project add "$assets/hero.anproj" "$assets/hero/jump.gltf" > /dev/null
if cmake --build "$work/game" > "$work/build4.log" 2>&1; then
  echo "an unapproved clip passed REQUIRE_APPROVED"; cat "$work/build4.log"; exit 1
fi
grep -q "jump: not approved" "$work/build4.log" || { cat "$work/build4.log"; exit 1; }
echo "packs built with Ninja; only the changed pack rebuilt; REQUIRE_APPROVED stopped an unapproved clip"
