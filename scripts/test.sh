#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Runs bigmul's test suite: the fast tests of the release build, the fast
# tests again under ASan + UBSan, then each libFuzzer target for 30 s from the
# committed corpus (FUZZ_SECONDS). BIGMUL_TEST_HEAVY=1 adds the long sweeps
# (not in CI); SKIP_SANITIZE=1 skips the sanitizer pass, SKIP_FUZZ=1 the fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
jobs=$(nproc)
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
if [ "${BIGMUL_TEST_HEAVY:-0}" != 0 ]; then
  ctest --test-dir build/release --output-on-failure -j "$jobs"
else
  ctest --preset release -j "$jobs"
fi
# On an AVX-512 IFMA processor the dispatcher never picks the AVX2 NTT: run the
# product, arithmetic, integer, GMP-bridge, CLI and fixed-factor tests again with it
# forced (the fixed-factor tests named *EveryEngine run every engine themselves).
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then
  BIGMUL_NTT_ENGINE=avx2 ctest --preset release -j "$jobs" -R '^(Exact/|Mul|Ntt|Montgomery|Modular|Division|Radix|Integer|GmpBridge|Boost|Cli|python_module|FixedFactor\.(MillionDigitsThreads|BatchesSpreadAndSplit|ConcurrentCallers|IntegerOverloads))'
fi
if [ "${SKIP_SANITIZE:-0}" = 0 ]; then
  cmake --preset sanitize >/dev/null
  cmake --build --preset sanitize -j "$jobs"
  ctest --preset sanitize -j "$jobs"
fi
if [ "${SKIP_FUZZ:-0}" = 0 ]; then
  bash scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
fi
