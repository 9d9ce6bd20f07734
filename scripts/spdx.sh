#!/usr/bin/env bash
# Puts the licence identifier `SPDX-License-Identifier: LGPL-3.0-or-later` on the
# first line of every source file, as a comment of the file's language
# (C, C++, CUDA: //; CMake, shell, Python: #), after a shebang line if there
# is one. Idempotent: a file that has the identifier in its first three lines
# is left alone.
#   scripts/spdx.sh [FILE|DIR...]           add it (default: the files git tracks)
#   scripts/spdx.sh --check [FILE|DIR...]   list the files without it; exit 1 if any
set -euo pipefail
id="SPDX-License-Identifier: LGPL-3.0-or-later"
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
cd_root=$(cd "$(dirname "$0")/.." && pwd)

# The comment leader for a file, or nothing when it is not a source file.
leader() {
  case "$(basename "$1")" in
    CMakeLists.txt | *.cmake | *.cmake.in | *.sh | *.py | *.pyi) echo "#" ;;
    *.c | *.h | *.cc | *.cpp | *.hpp | *.cu | *.cuh | *.inc | *.hpp.in | *.h.in) echo "//" ;;
    *) ;;
  esac
}

list_files() {
  if [ $# -eq 0 ]; then
    git -C "$cd_root" ls-files -z | while IFS= read -r -d '' f; do printf '%s\0' "$cd_root/$f"; done
  else
    for p in "$@"; do
      if [ -d "$p" ]; then find "$p" -type f -print0; else printf '%s\0' "$p"; fi
    done
  fi
}

missing=0
while IFS= read -r -d '' f; do
  lead=$(leader "$f")
  [ -n "$lead" ] || continue
  [ -f "$f" ] || continue
  if head -n 3 "$f" | grep -q "SPDX-License-Identifier:"; then continue; fi
  if [ "$check" = 1 ]; then
    echo "${f#"$cd_root"/}"
    missing=$((missing + 1))
    continue
  fi
  tmp=$(mktemp "$f.spdx.XXXXXX")
  if head -n 1 "$f" | grep -q '^#!'; then
    { head -n 1 "$f"; echo "$lead $id"; tail -n +2 "$f"; } > "$tmp"
  else
    { echo "$lead $id"; cat "$f"; } > "$tmp"
  fi
  chmod --reference="$f" "$tmp"
  mv "$tmp" "$f"
done < <(list_files "$@")

if [ "$check" = 1 ] && [ "$missing" -gt 0 ]; then
  echo "spdx: $missing file(s) lack '$id' (scripts/spdx.sh adds it)" >&2
  exit 1
fi
exit 0
