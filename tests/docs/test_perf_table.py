#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""ctest perf_table_columns: scripts/perf_table.py on synthetic results files:
no FLINT columns without FLINT times; FLINT 3 columns, with the right ratios,
from bench_mul-style `flint` rows and from bench_flint's rows (the processor's
engine picked). Usage: test_perf_table.py SOURCE_DIR"""
import importlib.util
import sys

spec = importlib.util.spec_from_file_location("perf_table", sys.argv[1] + "/scripts/perf_table.py")
pt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pt)
ctx = {"date": "2026-01-01T00:00:00Z", "cpu_model": "Test CPU", "num_cpus": 2, "gmp_version": "6.2.1",
       "bigmul_version": "0.1.0", "commit": "abc1234", "ntt_engine": "avx2", "program": "bench_mul"}


def row(name, seconds, **counters):
    return dict(name=name, real_time=seconds * 1e6, time_unit="us", **counters)


def expect(cond, what, text):
    if not cond:
        sys.exit("perf_table_columns: %s\n%s" % (what, text))


plain = {"context": ctx, "benchmarks": [row("auto/binary/1000000/threads:1", 0.002, gmp_seconds=0.010),
                                         row("auto/binary/1000000/threads:2", 0.001, gmp_seconds=0.010)]}
t = pt.table(plain, "x.json")
expect("FLINT 3," not in t and "5.00× faster" in t and "10.00× faster" in t and "No FLINT 3 rows" in t,
       "plain bench_mul file", t)

with_flint = dict(plain, benchmarks=plain["benchmarks"] + [row("flint/binary/1000000/threads:1", 0.004)])
t = pt.table(with_flint, "x.json")
expect("FLINT 3, 1 thread" in t and "FLINT 3, 2 threads" in t and "2.00× faster" in t and "No FLINT" not in t,
       "bench_mul file with flint rows", t)

bench_flint = {"context": dict(ctx, program="bench_flint"), "benchmarks": [
    row("flint/1000000/threads:1/ifma", 0.001, gmp_seconds=0.010, flint_seconds=0.003),
    row("flint/1000000/threads:1/avx2", 0.002, gmp_seconds=0.010, flint_seconds=0.003),
    row("flint/10000000/threads:1/avx2", 0.02, flint_seconds=0.03)]}
t = pt.table(bench_flint, "y.json")
expect("FLINT 3, 1 thread" in t and "1.50× faster" in t and "5.00× faster" in t and "| 10^7 | binary | — |" in t,
       "bench_flint file (avx2 engine, GMP missing at 10^7)", t)
bench_flint["benchmarks"][0].update(peak_heap_bytes=3e6, flint_peak_heap_bytes=6e6)
bench_flint["benchmarks"][1].update(peak_heap_bytes=4e6, flint_peak_heap_bytes=6e6)
t = pt.table(dict(bench_flint, context=dict(ctx, program="bench_flint", ntt_engine="ifma")), "y.json", "avx2")
expect(t.startswith(pt.markers("avx2")[0]) and t.endswith(pt.markers("avx2")[1]) and "| 4 MB | 6 MB |" in t
       and "1.50× faster" in t and "BIGMUL_NTT_ENGINE=avx2" in t and "| 10^7 |" in t,
       "bench_flint file, --engine avx2 on an ifma processor (its rows, heap columns, its own markers)", t)
page = "a\n" + pt.markers("avx2")[0] + "\nSTALE\n" + pt.markers("avx2")[1] + "\nb\n" + pt.BEGIN + "\nkeep\n" + pt.END
new_page = pt.splice(page, t, "page", "avx2")
expect("keep" in new_page and "STALE" not in new_page and "| 4 MB | 6 MB |" in new_page,
       "splicing the avx2 table leaves the default table alone", new_page)
print("perf_table_columns: ok")
