#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Runs bigmul's libFuzzer targets (fuzz/): scripts/fuzz.sh [TARGET...] SECONDS
#   TARGET: fuzz_literal fuzz_mul fuzz_div_radix fuzz_cli_args (default: all)
# Configures and builds its own clang build (BUILD_DIR, default build/fuzz:
# ASan + UBSan, tests and benchmarks off, so only the targets and the
# libraries under them), then runs each target for SECONDS starting from the
# committed corpus fuzz/corpus/TARGET (read-only: new inputs go to
# BUILD_DIR/corpus/TARGET). A finding (crash, failed GMP check, leak, timeout)
# is saved under BUILD_DIR/artifacts/TARGET/ and makes the script exit 1.
# Needs Debian's clang and libclang-rt-14-dev.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
all=(fuzz_literal fuzz_mul fuzz_div_radix fuzz_cli_args)
if [[ $# -lt 1 || ! ${!#} =~ ^[0-9]+$ ]]; then
  echo "usage: $0 [TARGET...] SECONDS   (targets: ${all[*]})" >&2
  exit 2
fi
seconds=${!#}
targets=("${@:1:$#-1}")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")
build=${BUILD_DIR:-$root/build/fuzz}
jobs=${JOBS:-2}

CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBIGMUL_FUZZ=ON -DBIGMUL_SANITIZE=address,undefined -DBIGMUL_CUDA=OFF \
  -DBIGMUL_BUILD_TESTS=OFF -DBIGMUL_BUILD_BENCH=OFF >/dev/null
ninja -C "$build" -j "$jobs" "${targets[@]}"

status=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t artifacts=$build/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  seed=()
  [[ -d $root/fuzz/corpus/$t ]] && seed=("$root/fuzz/corpus/$t")
  echo "== $t: ${seconds}s"
  # -timeout: one input may take at most 60 s (a 3000-limb product under ASan takes well under 1 s).
  if ! "$build/fuzz/$t" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -max_len=8192 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "${seed[@]}" 2>"$build/$t.log"; then
    echo "!! $t: finding (log $build/$t.log, input under $artifacts/)" >&2
    grep -E "bigmul fuzz:|ERROR:|SUMMARY:" "$build/$t.log" | head -5 >&2 || true
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|DONE +cov" "$build/$t.log" || true
done
exit $status
