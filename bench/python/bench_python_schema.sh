#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# ctest bench_python_schema: bench_python.py at tiny sizes writes the harness's
# schema (check_schema.py), with every row and baseline it should have; and
# --filter keeps only the rows it names.
#   bench_python_schema.sh PYTHON BENCH_PYTHON CHECKER MODULE_DIR
set -euo pipefail
py=$1 bench=$2 checker=$3 module_dir=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fast=(--module-dir "$module_dir" --repetitions 1 --min-time 0 --cpython-max 1e4)
"$py" "$bench" "${fast[@]}" --digits 1e3,2e4 --json "$tmp/all.json" >"$tmp/all.log"
"$py" "$checker" --min-rows 8 "$tmp/all.json"
"$py" - "$tmp/all.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {r["name"]: r for r in doc["benchmarks"]}
want = {
    "mul/incl/digits=1000": {"gmpy2", "cpython"}, "mul/excl/digits=1000": {"gmpy2"},
    "to_decimal/digits=1000": {"gmpy2", "gmpy2_incl", "cpython"}, "from_decimal/digits=1000": {"gmpy2", "cpython"},
    "mul/incl/digits=20000": {"gmpy2"}, "to_decimal/digits=20000": {"gmpy2", "gmpy2_incl"},
}
for name, who in want.items():
    got = {k[len("ratio_vs_"):] for k in rows[name] if k.startswith("ratio_vs_")}
    assert got == who, (name, got, who)  # CPython only up to --cpython-max (and 1e5 for str)
assert doc["context"]["program"] == "bench_python" and doc["context"]["gmp_version"][0].isdigit(), doc["context"]
print("bench_python rows ok:", sorted(rows))
PY
"$py" "$bench" "${fast[@]}" --digits 1e3 --filter '^from_decimal/' --json "$tmp/one.json" >"$tmp/one.log"
"$py" -c 'import json, sys; n = [r["name"] for r in json.load(open(sys.argv[1]))["benchmarks"]]; assert n == ["from_decimal/digits=1000"], n' "$tmp/one.json"
echo "bench_python_schema: ok"
