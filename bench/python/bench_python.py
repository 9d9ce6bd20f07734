#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul's Python module against gmpy2 (GMP) and CPython's int, in the same process.

Products of two random N-digit ints, N = 10^3 .. 10^7:
  mul/incl/digits=N      bigmul.mul(a, b) (int in, int out) against int(gmpy2.mpz(a) * gmpy2.mpz(b))
                         ("gmpy2") and CPython's a * b ("cpython");
  mul/excl/digits=N      bigmul.Integer * Integer (binary radix) against mpz * mpz ("gmpy2").
Decimal conversion:
  to_decimal/digits=N    bigmul.to_decimal(n) against gmpy2's digits() of an mpz ("gmpy2"), the same
                         with the int -> mpz conversion ("gmpy2_incl") and str(n) ("cpython");
  from_decimal/digits=N  bigmul.from_decimal(s) against int(gmpy2.mpz(s)) ("gmpy2") and int(s) ("cpython").

The JSON is the harness's schema (bench/common/harness.hpp; bench/common/check_schema.py checks it):
Google Benchmark-compatible "context" (the C++ programs' fields, plus Python's and gmpy2's versions)
and "benchmarks", one row per bigmul measurement with real_time/cpu_time (medians), "digits" and, for
each baseline, "<who>_seconds" and "ratio_vs_<who>" = bigmul's time / the baseline's (below 1:
bigmul is faster). Each time is the median of at least --repetitions runs (3) lasting at least
--min-time seconds (1.0) in all, at most 50 runs. CPython's quadratic str()/int(str) and its
Karatsuba product only run up to --cpython-max digits (str() of 10^6 digits alone takes ~12 s).

Usage: /usr/bin/python3 bench/python/bench_python.py [--module-dir build/release/python]
           [--json bench/results/python_bench.json] [--txt FILE] [--digits 1e3,...] [--threads T]
           [--repetitions N] [--min-time S] [--filter REGEX]
Writes the JSON and, next to it (or --txt), the tables as text.
"""

import argparse
import datetime
import json
import math
import os
import re
import socket
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--module-dir", default=os.path.join(ROOT, "build", "release", "python"),
                   help="folder holding the built bigmul module (default: build/release/python; "
                        "an installed module is used when it has none)")
    p.add_argument("--json", default=os.path.join(ROOT, "bench", "results", "python_bench.json"),
                   help="where the JSON goes (default bench/results/python_bench.json)")
    p.add_argument("--txt", default=None, help="where the tables go (default: the JSON path with .txt)")
    p.add_argument("--digits", default="1e3,1e4,1e5,1e6,1e7", help="comma-separated digit counts")
    p.add_argument("--cpython-max", type=float, default=1e6,
                   help="largest size for CPython's own product (and 1e5 for str()/int(str))")
    p.add_argument("--repetitions", type=int, default=3, help="timed runs per measurement, at least")
    p.add_argument("--min-time", "--budget", dest="min_time", type=float, default=1.0,
                   help="seconds per measurement, at least (--budget: the old name)")
    p.add_argument("--filter", default=None, help="only rows whose name matches (re.search)")
    p.add_argument("--threads", type=int, default=0, help="bigmul threads (0: all cores)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if args.repetitions < 1:
        p.error("--repetitions must be at least 1")
    return args


def measure(fn, min_runs, min_time, max_runs=50):
    """Median wall and process-CPU seconds of fn() over at least min_runs runs and min_time seconds."""
    real, cpu = [], []
    start = time.perf_counter()
    while len(real) < max(min_runs, 1) or (time.perf_counter() - start < min_time and len(real) < max_runs):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        real.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    real.sort()
    cpu.sort()
    return {"real_s": real[len(real) // 2], "cpu_s": cpu[len(cpu) // 2], "iterations": len(real)}


def git_commit():
    """HEAD of the source tree, "(modified)" if tracked files changed (as the C++ harness writes it)."""
    def git(*args):
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "--short", "HEAD")
        return commit + (" (modified)" if git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_info():
    model, flags = "unknown CPU", ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model == "unknown CPU":
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags") and not flags:
                    flags = line
    except OSError:
        pass
    return model, " avx512ifma" in flags


def build_type(module_dir):
    """CMAKE_BUILD_TYPE of the build the module came from (its CMakeCache.txt), else "unknown"."""
    try:
        with open(os.path.join(module_dir, "..", "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    return line.split("=", 1)[1].strip() or "unknown"
    except OSError:
        pass
    return "unknown"


def time_unit(seconds):
    """The unit the C++ harness picks for a time, and its scale."""
    if seconds < 1e-5:
        return "ns", 1e9
    if seconds < 1e-2:
        return "us", 1e6
    if seconds < 10:
        return "ms", 1e3
    return "s", 1.0


def main():
    args = parse_args()
    if os.path.isdir(args.module_dir):
        sys.path.insert(0, args.module_dir)
    import bigmul  # noqa: E402
    import gmpy2  # noqa: E402

    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    import random
    rng = random.Random(args.seed)
    sizes = [int(float(x)) for x in args.digits.split(",")]
    threads = args.threads
    selected = (lambda name: re.search(args.filter, name) is not None) if args.filter else (lambda name: True)
    rows = []
    lines = []

    def emit(line=""):
        print(line, flush=True)
        lines.append(line)

    def timed(fn):
        return measure(fn, args.repetitions, args.min_time)

    def add_row(name, m, digits, baselines):
        """One row: bigmul's measurement m against baselines {who: measurement or None}."""
        unit, scale = time_unit(m["real_s"])
        row = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
               "threads": threads or os.cpu_count(), "iterations": m["iterations"],
               "real_time": m["real_s"] * scale, "cpu_time": m["cpu_s"] * scale, "time_unit": unit,
               "digits": digits}
        for who, b in baselines.items():
            if b is not None:
                row[f"{who}_seconds"] = b["real_s"]
                row[f"ratio_vs_{who}"] = m["real_s"] / b["real_s"]
        rows.append(row)

    cpu, ifma = cpu_info()
    ctx = {
        "program": "bench_python",
        "host_name": socket.gethostname(),
        "cpu_model": cpu,
        "num_cpus": os.cpu_count(),
        "commit": git_commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "gmp_version": gmpy2.mp_version().replace("GMP ", ""),
        "bigmul_version": bigmul.__version__,
        "threads": threads or os.cpu_count(),
        "build_type": build_type(args.module_dir),
        "avx512ifma": ifma,
        "python_version": sys.version.split()[0],
        "python_executable": sys.executable,
        "gmpy2_version": gmpy2.version(),
        "bigmul_module": bigmul.__file__,
        "load_average_start": os.getloadavg()[0],
        "repetitions": args.repetitions,
        "min_time": args.min_time,
    }
    if args.filter:
        ctx["filter"] = args.filter
    emit(f"bench_python: {cpu}, {ctx['num_cpus']} cores, IFMA {ifma}, Python {ctx['python_version']}, "
         f"GMP {ctx['gmp_version']}, gmpy2 {ctx['gmpy2_version']}")
    emit(f"commit {ctx['commit']}, {ctx['date']}, bigmul threads {ctx['threads']}, "
         f"load average at start {ctx['load_average_start']:.2f}; times: medians")
    emit()
    emit("Products of two N-digit ints (ms). incl: int in, int out; excl: bigmul.Integer / gmpy2.mpz operands.")
    emit(f"{'digits':>9} {'bigmul incl':>12} {'gmpy2 incl':>11} {'CPython':>10} {'bigmul excl':>12} "
         f"{'gmpy2 excl':>11} {'gmpy2/bigmul incl':>18} {'CPython/bigmul':>15}")

    def ms(m):
        return f"{m['real_s'] * 1e3:.3f}" if m is not None else "-"

    for d in sizes:
        bits = round(d * 3.321928094887362)
        a = rng.getrandbits(bits) | (1 << (bits - 1))
        b = rng.getrandbits(bits) | (1 << (bits - 1))
        want_incl, want_excl = selected(f"mul/incl/digits={d}"), selected(f"mul/excl/digits={d}")
        if not (want_incl or want_excl):
            continue
        ga, gb = gmpy2.mpz(a), gmpy2.mpz(b)
        A, B = bigmul.Integer(a), bigmul.Integer(b)
        expect = int(ga * gb)
        # A wrong product would make every time meaningless.
        assert bigmul.mul(a, b, threads=threads) == expect and int(A * B) == expect
        t_bm = t_gi = t_py = t_bx = t_gx = None
        if want_incl:
            t_bm = timed(lambda: bigmul.mul(a, b, threads=threads))
            t_gi = timed(lambda: int(gmpy2.mpz(a) * gmpy2.mpz(b)))
            t_py = timed(lambda: a * b) if d <= args.cpython_max else None
            add_row(f"mul/incl/digits={d}", t_bm, d, {"gmpy2": t_gi, "cpython": t_py})
        if want_excl:
            t_bx = timed(lambda: A * B)
            t_gx = timed(lambda: ga * gb)
            add_row(f"mul/excl/digits={d}", t_bx, d, {"gmpy2": t_gx})
        ratio_g = f"{t_gi['real_s'] / t_bm['real_s']:.2f}x" if t_bm else "-"
        ratio_p = f"{t_py['real_s'] / t_bm['real_s']:.1f}x" if t_bm and t_py else "-"
        emit(f"{d:>9} {ms(t_bm):>12} {ms(t_gi):>11} {ms(t_py):>10} {ms(t_bx):>12} {ms(t_gx):>11} "
             f"{ratio_g:>18} {ratio_p:>15}")

    emit()
    emit("Decimal conversion of an N-digit int (ms). to_decimal vs gmpy2 digits() (incl: from the int; excl: "
         "of an mpz) and str(); from_decimal vs gmpy2.mpz(s) and int(s).")
    emit(f"{'digits':>9} {'to_decimal':>11} {'digits incl':>12} {'digits excl':>12} {'str()':>10} "
         f"{'digits/to_decimal':>18} {'from_decimal':>13} {'mpz(s)':>10} {'int(s)':>10} {'mpz/from_dec':>13}")
    str_max = min(args.cpython_max, 1e5)
    for d in sizes:
        bits = round(d * 3.321928094887362)
        n = rng.getrandbits(bits) | (1 << (bits - 1))
        want_to, want_from = selected(f"to_decimal/digits={d}"), selected(f"from_decimal/digits={d}")
        if not (want_to or want_from):
            continue
        g = gmpy2.mpz(n)
        s = g.digits()
        assert bigmul.to_decimal(n) == s and bigmul.from_decimal(s) == n
        t_td = t_gi = t_gx = t_str = t_fd = t_gp = t_int = None
        if want_to:
            t_td = timed(lambda: bigmul.to_decimal(n))
            t_gi = timed(lambda: gmpy2.mpz(n).digits())
            t_gx = timed(lambda: g.digits())
            t_str = timed(lambda: str(n)) if d <= str_max else None
            add_row(f"to_decimal/digits={d}", t_td, d, {"gmpy2": t_gx, "gmpy2_incl": t_gi, "cpython": t_str})
        if want_from:
            t_fd = timed(lambda: bigmul.from_decimal(s))
            t_gp = timed(lambda: int(gmpy2.mpz(s)))
            t_int = timed(lambda: int(s)) if d <= str_max else None
            add_row(f"from_decimal/digits={d}", t_fd, d, {"gmpy2": t_gp, "cpython": t_int})
        r_to = f"{t_gx['real_s'] / t_td['real_s']:.2f}x" if t_td else "-"
        r_from = f"{t_gp['real_s'] / t_fd['real_s']:.2f}x" if t_fd else "-"
        emit(f"{d:>9} {ms(t_td):>11} {ms(t_gi):>12} {ms(t_gx):>12} {ms(t_str):>10} {r_to:>18} "
             f"{ms(t_fd):>13} {ms(t_gp):>10} {ms(t_int):>10} {r_from:>13}")

    ctx["load_average_end"] = os.getloadavg()[0]
    emit()
    emit(f"load average at end {ctx['load_average_end']:.2f}")
    # The targets, where the sizes ran (speedups: the baseline's time / bigmul's).
    by = {r["name"]: r for r in rows}
    r = by.get(f"mul/incl/digits={10**6}")
    if r:
        emit(f"target: 10^6-digit product incl. conversions: {1 / r['ratio_vs_gmpy2']:.2f}x faster than gmpy2 "
             "(target >= 2)")
        if "ratio_vs_cpython" in r:
            emit(f"target: 10^6-digit product incl. conversions: {1 / r['ratio_vs_cpython']:.0f}x faster than "
                 "CPython (target >= 100)")
    r = by.get(f"to_decimal/digits={10**7}")
    if r:
        emit(f"target: decimal string of a 10^7-digit int: {1 / r['ratio_vs_gmpy2']:.2f}x faster than gmpy2 "
             f"digits() ({1 / r['ratio_vs_gmpy2_incl']:.2f}x with its int -> mpz conversion) (target >= 3)")

    for row in rows:  # JSON has no inf/nan (as the C++ harness writes null)
        for k, v in row.items():
            if isinstance(v, float) and not math.isfinite(v):
                row[k] = None
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"context": ctx, "benchmarks": rows}, f, indent=1)
        f.write("\n")
    txt = args.txt or (args.json[:-5] if args.json.endswith(".json") else args.json) + ".txt"
    with open(txt, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"# wrote {args.json} and {txt}")


if __name__ == "__main__":
    main()
