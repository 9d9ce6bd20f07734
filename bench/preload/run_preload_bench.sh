#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# GMP programs without and with LD_PRELOAD=libbigmul_gmp.so, same run, 2 threads:
# writes bench/results/preload.{txt,json} (preload_bench.py says what runs).
#
# usage: bench/preload/run_preload_bench.sh BUILD_DIR [--quick] [--out PREFIX] [--trials N] [--threads N]
# BUILD_DIR: configured with -DBIGMUL_BUILD_BENCH=ON; the targets bigmul_gmp and
# preload_bench are built here first. --quick: small sizes into /tmp/preload_quick.*
set -euo pipefail
build=${1:?usage: run_preload_bench.sh BUILD_DIR [--quick] [--out PREFIX] [--trials N] [--threads N]}
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cmake --build "$build" --target bigmul_gmp preload_bench >/dev/null
exec /usr/bin/python3 "$here/preload_bench.py" --build "$build" "$@"
