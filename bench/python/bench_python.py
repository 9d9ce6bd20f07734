#!/usr/bin/env python3
"""bigmul's Python module against CPython's int and gmpy2 (GMP).

Products of two random N-digit ints, N = 10^3 .. 10^7:
  conversions included: bigmul.mul(a, b) (int in, int out) against
  int(gmpy2.mpz(a) * gmpy2.mpz(b)) and CPython's a * b;
  conversions excluded: bigmul.Integer * Integer (binary radix) against mpz * mpz.
Decimal conversion: bigmul.to_decimal(n) against gmpy2's digits() (with and without
the int -> mpz conversion) and str(n); bigmul.from_decimal(s) against gmpy2.mpz(s)
and int(s).

Each time is the best of several runs (at least 3, more while the total stays under
--budget seconds). CPython's quadratic str()/int(str) and Karatsuba products are only
run up to --cpython-max digits (str() of 10^6 digits alone takes ~12 s).

Usage: bench/python/bench_python.py [--module-dir build/release/python] [--out bench/results/python_bench]
Writes OUT.json (machine, commit, date, every row) and OUT.txt (the tables).
"""

import argparse
import datetime
import json
import os
import platform
import random
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--module-dir", default=os.path.join(ROOT, "build", "release", "python"),
                   help="folder holding the built bigmul module (default: build/release/python; "
                        "an installed module is used when it has none)")
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "python_bench"),
                   help="output path without extension (.json and .txt are written)")
    p.add_argument("--digits", default="1e3,1e4,1e5,1e6,1e7", help="comma-separated digit counts")
    p.add_argument("--cpython-max", type=float, default=1e6,
                   help="largest size for CPython's own product (and 1e5 for str()/int(str))")
    p.add_argument("--budget", type=float, default=1.0, help="seconds of repeats per measurement")
    p.add_argument("--threads", type=int, default=0, help="bigmul threads (0: all cores)")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


def best_time(fn, budget):
    """Best wall time of fn() over at least 3 runs, more while under `budget` seconds (at most 50)."""
    times = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < budget and len(times) < 50):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), len(times)


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine():
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((ln for ln in f if ln.startswith("flags")), "")
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "avx512ifma": " avx512ifma" in flags,
        "os": platform.platform(),
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
    }


def main():
    args = parse_args()
    if os.path.isdir(args.module_dir):
        sys.path.insert(0, args.module_dir)
    import bigmul  # noqa: E402
    import gmpy2  # noqa: E402

    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    rng = random.Random(args.seed)
    sizes = [int(float(x)) for x in args.digits.split(",")]
    threads = args.threads
    rows = []
    lines = []

    def emit(line=""):
        print(line, flush=True)
        lines.append(line)

    info = {
        "machine": machine(),
        "commit": git("rev-parse", "--short", "HEAD"),
        "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average_start": os.getloadavg(),
        "bigmul_module": bigmul.__file__,
        "bigmul_version": bigmul.__version__,
        "gmpy2": gmpy2.version(),
        "gmp": gmpy2.mp_version(),
        "threads": threads or os.cpu_count(),
        "method": "best of >= 3 runs; random operands with all digits significant",
    }
    m = info["machine"]
    emit(f"bench_python: {m['cpu']}, {m['cores']} cores, IFMA {m['avx512ifma']}, Python {m['python']}, "
         f"{info['gmp']}, gmpy2 {info['gmpy2']}")
    emit(f"commit {info['commit']}{' (dirty tree)' if info['dirty'] else ''}, {info['date']}, "
         f"bigmul threads {info['threads']}, load average at start {info['load_average_start'][0]:.2f}")
    emit()
    emit("Products of two N-digit ints (ms). incl: int in, int out; excl: bigmul.Integer / gmpy2.mpz operands.")
    emit(f"{'digits':>9} {'bigmul incl':>12} {'gmpy2 incl':>11} {'CPython':>10} {'bigmul excl':>12} "
         f"{'gmpy2 excl':>11} {'gmpy2/bigmul incl':>18} {'CPython/bigmul':>15}")

    def ms(t):
        return f"{t * 1e3:.3f}" if t is not None else "-"

    for d in sizes:
        bits = round(d * 3.321928094887362)
        a = rng.getrandbits(bits) | (1 << (bits - 1))
        b = rng.getrandbits(bits) | (1 << (bits - 1))
        ga, gb = gmpy2.mpz(a), gmpy2.mpz(b)
        A, B = bigmul.Integer(a), bigmul.Integer(b)
        expect = int(ga * gb)
        assert bigmul.mul(a, b) == expect and int(A * B) == expect
        t_bm, n_bm = best_time(lambda: bigmul.mul(a, b, threads=threads), args.budget)
        t_gi, _ = best_time(lambda: int(gmpy2.mpz(a) * gmpy2.mpz(b)), args.budget)
        t_py = best_time(lambda: a * b, args.budget)[0] if d <= args.cpython_max else None
        t_bx, _ = best_time(lambda: A * B, args.budget)
        t_gx, _ = best_time(lambda: ga * gb, args.budget)
        row = {"kind": "mul", "digits": d, "bigmul_incl_s": t_bm, "gmpy2_incl_s": t_gi, "cpython_s": t_py,
               "bigmul_excl_s": t_bx, "gmpy2_excl_s": t_gx, "runs": n_bm}
        rows.append(row)
        emit(f"{d:>9} {ms(t_bm):>12} {ms(t_gi):>11} {ms(t_py):>10} {ms(t_bx):>12} {ms(t_gx):>11} "
             f"{t_gi / t_bm:>17.2f}x {(f'{t_py / t_bm:.1f}x' if t_py else '-'):>15}")

    emit()
    emit("Decimal conversion of an N-digit int (ms). to_decimal vs gmpy2 digits() (incl: from the int; excl: "
         "of an mpz) and str(); from_decimal vs gmpy2.mpz(s) and int(s).")
    emit(f"{'digits':>9} {'to_decimal':>11} {'digits incl':>12} {'digits excl':>12} {'str()':>10} "
         f"{'digits/to_decimal':>18} {'from_decimal':>13} {'mpz(s)':>10} {'int(s)':>10} {'mpz/from_dec':>13}")
    str_max = min(args.cpython_max, 1e5)
    for d in sizes:
        bits = round(d * 3.321928094887362)
        n = rng.getrandbits(bits) | (1 << (bits - 1))
        g = gmpy2.mpz(n)
        s = g.digits()
        assert bigmul.to_decimal(n) == s and bigmul.from_decimal(s) == n
        t_td, _ = best_time(lambda: bigmul.to_decimal(n), args.budget)
        t_gi, _ = best_time(lambda: gmpy2.mpz(n).digits(), args.budget)
        t_gx, _ = best_time(lambda: g.digits(), args.budget)
        t_str = best_time(lambda: str(n), args.budget)[0] if d <= str_max else None
        t_fd, _ = best_time(lambda: bigmul.from_decimal(s), args.budget)
        t_gp, _ = best_time(lambda: int(gmpy2.mpz(s)), args.budget)
        t_int = best_time(lambda: int(s), args.budget)[0] if d <= str_max else None
        rows.append({"kind": "decimal", "digits": d, "to_decimal_s": t_td, "gmpy2_digits_incl_s": t_gi,
                     "gmpy2_digits_excl_s": t_gx, "str_s": t_str, "from_decimal_s": t_fd,
                     "gmpy2_mpz_from_str_s": t_gp, "int_from_str_s": t_int})
        emit(f"{d:>9} {ms(t_td):>11} {ms(t_gi):>12} {ms(t_gx):>12} {ms(t_str):>10} {t_gx / t_td:>17.2f}x "
             f"{ms(t_fd):>13} {ms(t_gp):>10} {ms(t_int):>10} {t_gp / t_fd:>12.2f}x")

    info["load_average_end"] = os.getloadavg()
    emit()
    emit(f"load average at end {info['load_average_end'][0]:.2f}")
    # The targets, where the sizes ran.
    by = {(r["kind"], r["digits"]): r for r in rows}
    targets = []
    if ("mul", 10**6) in by:
        r = by[("mul", 10**6)]
        targets.append(f"10^6-digit product incl. conversions: {r['gmpy2_incl_s'] / r['bigmul_incl_s']:.2f}x "
                       "faster than gmpy2 (target >= 2)")
        if r["cpython_s"]:
            targets.append(f"10^6-digit product incl. conversions: {r['cpython_s'] / r['bigmul_incl_s']:.0f}x "
                           "faster than CPython (target >= 100)")
    if ("decimal", 10**7) in by:
        r = by[("decimal", 10**7)]
        targets.append(f"decimal string of a 10^7-digit int: {r['gmpy2_digits_excl_s'] / r['to_decimal_s']:.2f}x "
                       f"faster than gmpy2 digits() ({r['gmpy2_digits_incl_s'] / r['to_decimal_s']:.2f}x with "
                       "its int -> mpz conversion) (target >= 3)")
    for t in targets:
        emit("target: " + t)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out + ".json", "w") as f:
        json.dump({"info": info, "rows": rows, "targets": targets}, f, indent=1)
        f.write("\n")
    with open(args.out + ".txt", "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
