#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# ctest bench_schema: four bench programs (the harness's own rows, the
# fork-per-size scaling rows, the Google Benchmark adapter, the small-product
# rows) at tiny sizes,
# each file checked by check_schema.py; and the checker must reject a file
# in the old schema (a check that cannot fail checks nothing).
#   bench_schema.sh CHECKER BENCH_MUL BENCH_ARITH BENCH_NTT BENCH_SMALL
set -euo pipefail
checker=$1 bench_mul=$2 bench_arith=$3 bench_ntt=$4 bench_small=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fast=(--min-time 0.001 --repetitions 1)
"$bench_mul" --max-digits 1000 --radix binary --algorithms karatsuba,ntt --digits 1e4 --threads 1,2 \
  "${fast[@]}" --json "$tmp/mul.json" >"$tmp/mul.log"
"$bench_arith" --max-digits 1000 --div-max-digits 1000 "${fast[@]}" --json "$tmp/arith.json" >"$tmp/arith.log"
"$bench_ntt" --filter 'round_trip<.*ntt_plan>/10/1/1$' "${fast[@]}" --json "$tmp/ntt.json" >"$tmp/ntt.log"
python3 "$checker" --min-rows 2 "$tmp/mul.json" "$tmp/arith.json"
python3 "$checker" --min-rows 1 "$tmp/ntt.json"
"$bench_small" --quick --max-limbs 8 --json "$tmp/small.json" >"$tmp/small.log"
python3 "$checker" --min-rows 8 "$tmp/small.json"
# The scaling rows carry what issue 19 asks for.
python3 - "$tmp/mul.json" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["benchmarks"] if r["name"].startswith("scaling/")]
assert {r["threads"] for r in rows} == {1, 2}, rows
for r in rows:
    for k in ("cold_seconds", "warm_seconds", "peak_heap_bytes", "peak_rss_bytes", "ratio_vs_gmp", "digits",
              "cold_user_seconds", "cold_system_seconds", "cold_page_faults", "warm_user_seconds",
              "cold_over_warm_user"):
        assert k in r, (r["name"], k)
    assert r["peak_rss_bytes"] > 0 and r["cold_seconds"] > 0, r
    # CPU times count in clock ticks at these sizes: only their sign is known.
    assert min(r["cold_user_seconds"], r["cold_system_seconds"], r["cold_page_faults"], r["warm_user_seconds"]) >= 0, r
print("scaling rows ok:", [r["name"] for r in rows])
PY
echo '{"benchmark": "bench_mul", "rows": [{"digits": 1000, "seconds": 1e-6}]}' >"$tmp/old.json"
if python3 "$checker" "$tmp/old.json" >"$tmp/old.log"; then
  echo "check_schema.py accepted a file in the old schema"
  exit 1
fi
echo "bench_schema: ok"
