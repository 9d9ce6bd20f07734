#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Fails when a file includes a header from a layer above its own.
# Layers, bottom up: prim < fft, carry (peers: neither includes the other)
# < mul < src (with src/arith, src/digits) < dist (MPI; the only includer of
# mpi.h) < cli, python, capi (the C ABI), preload (the GMP interposer). include/bigmul is the
# public API of src: a lower layer may include only the vocabulary headers that
# themselves include nothing of the project (config, error, hd, device, mul);
# tests/, bench/ and fuzz/ may include anything. Usage: check-layers.sh [ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

rank() {  # rank of a layer folder; empty when it is not a layer
  case $1 in
    prim) echo 0 ;; fft|carry) echo 1 ;; mul) echo 2 ;; src|include) echo 3 ;;
    dist) echo 4 ;; cli|python|capi|preload) echo 5 ;; *) echo "" ;;
  esac
}
# Public headers a layer below src may use: they include no project header.
vocabulary="config.hpp error.hpp hd.hpp device.hpp mul.hpp"

fail=0
report() { echo "check-layers: $1" >&2; fail=1; }

for h in $vocabulary; do
  [[ -f include/bigmul/$h ]] || { report "vocabulary header include/bigmul/$h is missing"; continue; }
  if grep -nE '^\s*#\s*include\s*"' "include/bigmul/$h" | grep -vE '"bigmul/('"${vocabulary// /|}"')"' | grep -q .; then
    report "include/bigmul/$h includes a project header that is not vocabulary"
  fi
done

while IFS= read -r -d '' file; do
  layer=${file%%/*}
  [[ $file == dist/app/* ]] && layer=cli  # bigmul-mpi: a command, at the CLI's layer
  own=$(rank "$layer")
  [[ -n $own ]] || continue
  while IFS=: read -r line text; do
    target=$(sed -E 's/^\s*#\s*include\s*[<"]([^>"]+)[>"].*/\1/' <<<"$text")
    case $target in
      ../*|*/../*) report "$file:$line: includes '$target' by a relative path out of its folder"; continue ;;
      */*) ;;
      *) continue ;;  # same folder, or a system header
    esac
    top=${target%%/*}
    if [[ $top == bigmul ]]; then
      [[ $layer == include ]] && continue
      h=${target#bigmul/}
      if (( own < 3 )) && [[ " $vocabulary " != *" $h "* ]]; then
        report "$file:$line: layer $layer includes the public API header $target (above it)"
      fi
      continue
    fi
    if [[ $layer == include ]]; then  # installed alone: nothing internal
      [[ -d $top ]] && report "$file:$line: public header includes internal $target"
      continue
    fi
    theirs=$(rank "$top")
    [[ -n $theirs ]] || continue  # system or third-party header (sys/, gtest/, ...)
    [[ -d $top ]] || continue
    if (( theirs > own )) || { (( theirs == own )) && [[ $top != "$layer" ]] && [[ $own -ne 3 ]]; }; then
      report "$file:$line: layer $layer includes $target (layer $top is not below it)"
    fi
  done < <(grep -nE '^\s*#\s*include\s*[<"][^>"]+[>"]' "$file" | cut -d: -f1,2- || true)
done < <(find prim fft carry mul src dist cli python include -type f \
           \( -name '*.hpp' -o -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name '*.inc' \) -print0)

# MPI stays in dist/ (and its public header): the rest builds without it.
while IFS= read -r hit; do
  case $hit in dist/*|include/bigmul/mpi.hpp:*) ;; *) report "$hit: only dist/ includes mpi.h" ;; esac
done < <(grep -rnE '^\s*#\s*include\s*[<"]mpi\.h[>"]' prim fft carry mul src dist cli python include 2>/dev/null || true)

if (( fail )); then
  echo "check-layers: FAILED (layers: prim < fft, carry < mul < src < dist < cli, python)" >&2
  exit 1
fi
echo "check-layers: ok"
