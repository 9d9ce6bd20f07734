#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Packs what the GPU machine runs into one compressed file that the device
# tool can carry (its limit is 64 MiB; the build folder is ~400 MB):
#   cmake --preset gpu && cmake --build --preset gpu && scripts/gpu-bundle.sh
# writes build/gpu-bundle.tar.xz: every GPU test and benchmark program, the
# GPU tuner, the bigmul command and gpu_preflight (the check's first step),
# built with GMP, GoogleTest, libstdc++ and the CUDA runtime linked statically
# (the gpu preset); cuFFT comes from the GPU machine's own toolkit. BUNDLE_INFO
# in it names the commit it was built from. The device tool carries at most
# 64 MiB with the working tree, so a bundle past 48 MiB is refused. Then, there:
#   scripts/gpu-check.sh OUTDIR build/gpu-bundle.tar.xz   (docs/gpu-check.md)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gpu}
out=${2:-build/gpu-bundle.tar.xz}
[ -d "$build" ] || { echo "gpu-bundle: no build folder $build (cmake --preset gpu && cmake --build --preset gpu)" >&2; exit 1; }
# (install_test: the install ctest's prefix holds a second bigmul; not ours to carry)
mapfile -t progs < <(cd "$build" && find . -path ./tests/install -prune -o -type f -perm -u+x \( -name 'test_*_gpu' \
  -o -name 'bench_*_gpu' -o -name 'tune_gpu' -o -name bigmul -o -name gpu_preflight \) -print | sort)
[ ${#progs[@]} -gt 0 ] || { echo "gpu-bundle: no GPU programs in $build (was it configured with CUDA?)" >&2; exit 1; }
# Two programs of one name: a stale one left behind by a target that moved
# (bench/mul/tune_gpu once shadowed bench/tune/tune_gpu, and gpu-check.sh
# takes the first). Refuse rather than carry the wrong one.
dups=$(printf '%s\n' "${progs[@]}" | xargs -n1 basename | sort | uniq -d)
if [ -n "$dups" ]; then
  for d in $dups; do
    echo "gpu-bundle: two programs named $d in $build: $(printf '%s\n' "${progs[@]}" | grep "/$d\$" | tr '\n' ' ')" >&2
  done
  echo "gpu-bundle: remove the stale one (or rebuild from an empty build folder)" >&2
  exit 1
fi
printf '%s\n' "${progs[@]}" | grep -q '/gpu_preflight$' ||
  { echo "gpu-bundle: no gpu_preflight in $build (cmake --build --preset gpu builds it)" >&2; exit 1; }
for p in "${progs[@]}"; do  # the runtime is linked in: a program asking for libcudart is a stale build
  if ldd "$build/$p" 2>/dev/null | grep -q 'libcudart\.so'; then
    echo "gpu-bundle: $p loads libcudart.so (expected the static runtime; rebuild)" >&2
    exit 1
  fi
done
{
  echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (dirty)')"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) from $build"
} >"$build/BUNDLE_INFO"
tmp=$out.tmp
tar -C "$build" -cf - BUNDLE_INFO "${progs[@]}" | xz -6 -T0 >"$tmp"
size=$(stat -c %s "$tmp")
if [ "$size" -gt $((48 << 20)) ]; then
  rm -f "$tmp"
  echo "gpu-bundle: the bundle would be $size bytes, over 48 MiB (the device tool carries 64 MiB in all)" >&2
  exit 1
fi
mv "$tmp" "$out"
echo "gpu-bundle: $out ($(du -h "$out" | cut -f1)): ${progs[*]}"
echo "gpu-bundle: on the GPU machine (device tool run, carry [\"$out\"], timeout_s 570; docs/gpu-check.md):"
echo "  bash scripts/gpu-check.sh \"\$OUT\" $out"
