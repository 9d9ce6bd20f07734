#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# A/B of the AVX2 engine's radix-16 passes (fft/ntt_avx2_transform.cpp) in
# whole products: the CLI built at BEFORE and AFTER (git archive of each into
# build/ab-avx2quad/, Release, no CUDA, no benches), then
#   BIGMUL_NTT_ENGINE=avx2 bigmul --random D --seed 1 -t --threads T --hex -o /dev/null
# REPS times each, alternating the builds, for D = 10^7, 3 10^7, 10^8,
# 3 10^8 digits and T = 1, 2; prints the median multiply / forward / inverse
# seconds of each and after/before of the multiply (< 1: faster).
#   bash bench/fft/ab_avx2_quad.sh BEFORE AFTER [REPS] > bench/results/ab_avx2_quad.txt
set -euo pipefail
before=${1:?usage: ab_avx2_quad.sh BEFORE AFTER [REPS]}
after=${2:?usage: ab_avx2_quad.sh BEFORE AFTER [REPS]}
reps=${3:-5}
root=$(git rev-parse --show-toplevel)
work="$root/build/ab-avx2quad"
source "$root/scripts/deps.sh" >/dev/null 2>&1 || true

build() {  # $1: commit, $2: name
  local src="$work/$2-src" bld="$work/$2"
  rm -rf "$src" && mkdir -p "$src"
  git -C "$root" archive "$1" | tar -x -C "$src"
  cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIGMUL_CUDA=OFF -DBIGMUL_BUILD_BENCH=OFF \
    -DBIGMUL_BUILD_TESTS=OFF -DBIGMUL_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build "$bld" --target bigmul >/dev/null
}
if [[ -z ${AB_NO_BUILD:-} ]]; then  # AB_NO_BUILD=1: reuse the builds there
  build "$before" before
  build "$after" after
fi

# One run: "multiply forward inverse" seconds.
run() {  # $1: build name, $2: digits, $3: threads
  BIGMUL_NTT_ENGINE=avx2 "$work/$1/bigmul" --random "$2" --seed 1 -t --threads "$3" --hex -o /dev/null 2>&1 |
    awk '/time multiply/ {m = $4} /time   forward/ {f = $4} /time   inverse/ {i = $4} END {print m, f, i}'
}
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "A/B AVX2 radix-16 passes: before $(git -C "$root" rev-parse --short "$before") after $(git -C "$root" rev-parse --short "$after"), $reps runs each, medians (s)"
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-10s %-7s %-9s %-9s %-9s %-9s %-9s %-9s %s\n' digits threads mul_bef fwd_bef inv_bef mul_aft fwd_aft inv_aft after/before
for digits in ${AB_DIGITS:-10000000 30000000 100000000 300000000}; do
  for threads in 1 2; do
    : >"$work/before.t" && : >"$work/after.t"
    for ((r = 0; r < reps; ++r)); do
      run before "$digits" "$threads" >>"$work/before.t"
      run after "$digits" "$threads" >>"$work/after.t"
    done
    read -r mb fb ib <<<"$(for c in 1 2 3; do cut -d' ' -f$c "$work/before.t" | median; done | xargs)"
    read -r ma fa ia <<<"$(for c in 1 2 3; do cut -d' ' -f$c "$work/after.t" | median; done | xargs)"
    printf '%-10s %-7s %-9s %-9s %-9s %-9s %-9s %-9s %.3f\n' "$digits" "$threads" "$mb" "$fb" "$ib" "$ma" "$fa" "$ia" \
      "$(awk -v a="$ma" -v b="$mb" 'BEGIN {print a / b}')"
  done
done
