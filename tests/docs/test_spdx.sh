#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# ctest spdx_script: scripts/spdx.sh on copies of a few of the project's files
# (one per comment style, a shebang script among them): --check lists them,
# adding puts the line first (after the shebang) and nothing else changes,
# a second run changes nothing, and --check then passes.
# Usage: test_spdx.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work/tree"
cp "$src/include/bigmul/config.hpp" "$src/cmake/FindGMP.cmake" "$src/scripts/quickstart.sh" \
   "$src/scripts/perf_table.py" "$src/CMakeLists.txt" "$work/tree/"
printf 'not a source file\n' > "$work/tree/notes.txt"
spdx="$src/scripts/spdx.sh"
id="SPDX-License-Identifier: LGPL-3.0-or-later"
fail() { echo "spdx_script: $*" >&2; exit 1; }
# The project's files carry the line already: the copies start without it.
for f in config.hpp FindGMP.cmake quickstart.sh perf_table.py CMakeLists.txt; do
  sed -i "/$id/d" "$work/tree/$f"
  if grep -q SPDX "$work/tree/$f"; then fail "$f still names SPDX after the line was taken out"; fi
done
cp -r "$work/tree" "$work/orig"
if bash "$spdx" --check "$work/tree" > "$work/check1.txt"; then fail "--check passed on files without the line"; fi
[ "$(wc -l < "$work/check1.txt")" = 5 ] || fail "--check listed $(wc -l < "$work/check1.txt") files, expected 5"
bash "$spdx" "$work/tree"
[ "$(head -n 1 "$work/tree/config.hpp")" = "// $id" ] || fail "config.hpp: first line $(head -n 1 "$work/tree/config.hpp")"
[ "$(head -n 1 "$work/tree/FindGMP.cmake")" = "# $id" ] || fail "FindGMP.cmake: wrong first line"
[ "$(head -n 1 "$work/tree/CMakeLists.txt")" = "# $id" ] || fail "CMakeLists.txt: wrong first line"
[ "$(head -n 1 "$work/tree/quickstart.sh")" = "$(head -n 1 "$work/orig/quickstart.sh")" ] || fail "shebang moved"
[ "$(sed -n 2p "$work/tree/quickstart.sh")" = "# $id" ] || fail "quickstart.sh: line 2 is not the identifier"
[ "$(sed -n 2p "$work/tree/perf_table.py")" = "# $id" ] || fail "perf_table.py: line 2 is not the identifier"
[ -x "$work/tree/quickstart.sh" ] || fail "quickstart.sh lost its execute bit"
for f in config.hpp FindGMP.cmake CMakeLists.txt; do
  diff <(tail -n +2 "$work/tree/$f") "$work/orig/$f" > /dev/null || fail "$f: more than one line changed"
done
for f in quickstart.sh perf_table.py; do
  diff <(sed 2d "$work/tree/$f") "$work/orig/$f" > /dev/null || fail "$f: more than one line changed"
done
cmp -s "$work/tree/notes.txt" "$work/orig/notes.txt" || fail "a non-source file was changed"
cp -r "$work/tree" "$work/once"
bash "$spdx" "$work/tree"
diff -r "$work/tree" "$work/once" > /dev/null || fail "a second run changed files"
bash "$spdx" --check "$work/tree" > /dev/null || fail "--check failed after adding"
echo "spdx_script: ok"
