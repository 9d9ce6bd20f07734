#!/usr/bin/env bash
# Packs what the GPU machine runs into one compressed file that the device
# tool can carry (its limit is 64 MiB; the build folder is ~400 MB):
#   cmake --preset gpu && cmake --build --preset gpu && scripts/gpu-bundle.sh
# writes build/gpu-bundle.tar.xz: every GPU test and benchmark program, the
# GPU tuner and the bigmul command, built with GMP, GoogleTest and libstdc++
# linked statically (the gpu preset); the CUDA libraries come from the GPU
# machine's own toolkit. Then, there: scripts/gpu-check.sh LOGDIR build/gpu-bundle.tar.xz
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gpu}
out=${2:-build/gpu-bundle.tar.xz}
[ -d "$build" ] || { echo "gpu-bundle: no build folder $build (cmake --preset gpu && cmake --build --preset gpu)" >&2; exit 1; }
mapfile -t progs < <(cd "$build" && find . -type f -perm -u+x \( -name 'test_*_gpu' -o -name 'bench_*_gpu' -o -name 'tune_gpu' -o -name bigmul \) | sort)
[ ${#progs[@]} -gt 0 ] || { echo "gpu-bundle: no GPU programs in $build (was it configured with CUDA?)" >&2; exit 1; }
tmp=$out.tmp
tar -C "$build" -cf - "${progs[@]}" | xz -6 -T0 >"$tmp"
mv "$tmp" "$out"
echo "gpu-bundle: $out ($(du -h "$out" | cut -f1)): ${progs[*]}"
