#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Checks bench JSON files against the harness's schema (bench/common/harness.hpp):
Google Benchmark-compatible ("context" and "benchmarks"), our context block,
and per row name, run_type, iterations, real_time, cpu_time, time_unit; every
ratio_vs_<who> has its <who>_seconds. Exit 1 with one line per problem.

  check_schema.py FILE.json... [--min-rows N]
"""
import json
import math
import sys

CONTEXT_KEYS = ["host_name", "cpu_model", "num_cpus", "commit", "date", "gmp_version", "bigmul_version",
                "threads", "build_type"]
ROW_KEYS = {"name": str, "run_type": str, "iterations": int, "real_time": (int, float), "cpu_time": (int, float),
            "time_unit": str}
UNITS = {"ns", "us", "ms", "s"}


def check(path, min_rows):
    problems = []
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return [f"{path}: not readable JSON ({e})"]
    if not isinstance(doc, dict):
        return [f"{path}: top level is not an object"]
    ctx, rows = doc.get("context"), doc.get("benchmarks")
    if not isinstance(ctx, dict):
        problems.append(f"{path}: no \"context\" object")
        ctx = {}
    for k in CONTEXT_KEYS:
        if k not in ctx or ctx[k] in ("", None):
            problems.append(f"{path}: context has no {k}")
    for k in ("num_cpus", "threads"):
        v = ctx.get(k)
        if v is not None and not (isinstance(v, int) or (isinstance(v, str) and v.isdigit())):
            problems.append(f"{path}: context {k} = {v!r} is not a count")
    date = ctx.get("date", "")
    if isinstance(date, str) and not (len(date) >= 19 and date[4] == "-" and date[10] == "T"):
        problems.append(f"{path}: context date {date!r} is not ISO 8601")
    if not isinstance(rows, list):
        return problems + [f"{path}: no \"benchmarks\" array"]
    if len(rows) < min_rows:
        problems.append(f"{path}: {len(rows)} rows, expected at least {min_rows}")
    for i, r in enumerate(rows):
        where = f"{path}: row {i} ({r.get('name', '?') if isinstance(r, dict) else '?'})"
        if not isinstance(r, dict):
            problems.append(f"{where}: not an object")
            continue
        for k, t in ROW_KEYS.items():
            if k not in r:
                problems.append(f"{where}: no {k}")
            elif not isinstance(r[k], t) or isinstance(r[k], bool):
                problems.append(f"{where}: {k} = {r[k]!r} has the wrong type")
        if r.get("run_type") not in ("iteration", "aggregate"):
            problems.append(f"{where}: run_type {r.get('run_type')!r}")
        if r.get("time_unit") not in UNITS:
            problems.append(f"{where}: time_unit {r.get('time_unit')!r}")
        for k in ("real_time", "cpu_time"):
            v = r.get(k)
            if isinstance(v, (int, float)) and (math.isnan(v) or v < 0):
                problems.append(f"{where}: {k} = {v}")
        if r.get("run_type") == "iteration" and isinstance(r.get("iterations"), int) and r["iterations"] < 1 \
                and not r.get("error_occurred"):
            problems.append(f"{where}: iterations {r['iterations']}")
        for k, v in r.items():
            if k.startswith("ratio_vs_"):
                who = k[len("ratio_vs_"):]
                if not isinstance(v, (int, float)) or isinstance(v, bool) or not v > 0:
                    problems.append(f"{where}: {k} = {v!r} is not a positive number")
                if f"{who}_seconds" not in r:
                    problems.append(f"{where}: {k} without {who}_seconds")
    return problems


def main(argv):
    min_rows = 1
    files = []
    it = iter(argv[1:])
    for a in it:
        if a == "--min-rows":
            min_rows = int(next(it))
        else:
            files.append(a)
    if not files:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    problems = [p for f in files for p in check(f, min_rows)]
    for p in problems:
        print(p)
    if not problems:
        print(f"schema ok: {', '.join(files)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
