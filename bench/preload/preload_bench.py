#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Whole GMP programs without and with LD_PRELOAD=libbigmul_gmp.so, in the same
run, alternating: a C program (mpz_mul, mpz_get_str, mpz_set_str, a
1000-digit mpz_mul loop), gmpy2's a*b and str(a), Ruby's
(3**n * 7**m).to_s.size and PARI/GP printing 1000000!. Every pair of runs must
print the same result (hashes compared). Writes OUT.txt and OUT.json (the
bench harness's schema: real_time is with the preload, gmp_seconds without).

  preload_bench.py --build BUILD_DIR [--quick] [--out PREFIX] [--threads N] [--trials N]
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def fail(msg):
    print(f"preload_bench: {msg}", file=sys.stderr)
    sys.exit(1)


def processor():
    model, family, model_no, flags = "unknown", "?", "?", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                k, v = k.strip(), v.strip()
                if k == "model name" and model == "unknown":
                    model = v
                elif k == "cpu family" and family == "?":
                    family = v
                elif k == "model" and model_no == "?":
                    model_no = v
                elif k == "flags" and not flags:
                    flags = set(v.split())
    except OSError:
        pass
    return {"cpu_model": model, "cpu_family": family, "cpu_model_number": model_no,
            "ifma": "avx512ifma" in flags, "avx2": "avx2" in flags}


def commit():
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def gmp_version():
    out = subprocess.run(["/usr/bin/python3", "-c", "import gmpy2; print(gmpy2.mp_version())"], capture_output=True,
                         text=True)
    m = re.search(r"(\d+\.\d+\.\d+)", out.stdout)
    return m.group(1) if m else "unknown"


def bigmul_version(build):
    """The Version: line of the build's bigmul.pc (what the build was configured as)."""
    try:
        with open(os.path.join(build, "bigmul.pc")) as f:
            for line in f:
                if line.startswith("Version:"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def taken_counts(stderr):
    """BIGMUL_GMP_VERBOSE's report: calls bigmul took per interposed function."""
    counts = {}
    for m in re.finditer(r"^libbigmul_gmp: (mpn_\w+): (\d+) taken by bigmul, (\d+) passed to GMP, (\d+) fell back",
                         stderr, re.M):
        counts[m.group(1)] = {"taken": int(m.group(2)), "passed": int(m.group(3)), "fell_back": int(m.group(4))}
    return counts


class Runner:
    def __init__(self, lib, threads):
        self.lib, self.threads = lib, threads

    def run(self, cmd, preload, stdin=None):
        """(wall seconds, stdout bytes, stderr text) of one process."""
        env = dict(os.environ, BIGMUL_THREADS=str(self.threads))
        env.pop("LD_PRELOAD", None)
        if preload:
            env.update(LD_PRELOAD=self.lib, BIGMUL_GMP_VERBOSE="1")
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin else None, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
        out, err = p.communicate(stdin.encode() if stdin else None)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            fail(f"{' '.join(cmd[:3])} {'with' if preload else 'without'} the preload exited with "
                 f"{p.returncode}: {err.decode(errors='replace').strip()[-300:]}")
        return wall, out, err.decode(errors="replace")


def measure(runner, name, cmd, trials, parse, stdin=None):
    """Alternates runs without and with the preload; `parse(stdout)` gives
    (seconds, repeats, result key). Returns one row."""
    plain, pre, keys, counts, reps = [], [], set(), {}, 0
    for _ in range(trials):
        for preload in (False, True):
            wall, out, err = runner.run(cmd, preload, stdin)
            seconds, repeats, key = parse(wall, out)
            (pre if preload else plain).append(seconds)
            keys.add(key)
            if preload:
                counts, reps = taken_counts(err), repeats
    g, b = statistics.median(plain), statistics.median(pre)
    row = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": trials, "repetition_index": 0,
           "threads": runner.threads, "iterations": max(1, reps), "real_time": b, "cpu_time": b, "time_unit": "s",
           "gmp_seconds": g, "ratio_vs_gmp": b / g, "speedup": g / b, "identical": len(keys) == 1,
           "preload_calls": counts}
    taken = sum(c["taken"] for c in counts.values())
    print(f"{name:34s} {g:12.5g} {b:12.5g} {g / b:8.2f}x  {'yes' if len(keys) == 1 else 'NO'}  {taken}", flush=True)
    if len(keys) != 1:
        fail(f"{name}: the runs without and with the preload printed different results")
    return row


def c_parse(wall, out):
    op, digits, seconds, reps, checksum = out.decode().split()
    return float(seconds), int(reps), checksum


def whole_parse(wall, out):
    return wall, 1, hashlib.sha256(out).hexdigest()


def gmpy2_parse(wall, out):
    seconds, reps, key = out.decode().split()
    return float(seconds), int(reps), key


GMPY2 = r"""
import sys, time, hashlib, statistics, gmpy2
op, digits, min_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rs = gmpy2.random_state(20261129)
bits = int(digits * 3.321928094887362)
a = gmpy2.mpz_urandomb(rs, bits).bit_set(bits - 1)
b = gmpy2.mpz_urandomb(rs, bits).bit_set(bits - 1)
t, start = [], time.perf_counter()
while not t or (time.perf_counter() - start < min_s and len(t) < 1000):
    t0 = time.perf_counter()
    r = a * b if op == "mul" else str(a)
    t.append(time.perf_counter() - t0)
key = hashlib.sha256(r.encode() if op == "str" else gmpy2.to_binary(r)).hexdigest()[:16]
print(statistics.median(t), len(t), key)
"""


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="build folder with libbigmul_gmp.so and bench/preload/preload_bench")
    ap.add_argument("--quick", action="store_true", help="small sizes, one trial: checks the script, times nothing")
    ap.add_argument("--out", help="output prefix (default bench/results/preload; --quick: /tmp/preload_quick)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--trials", type=int, help="runs without and with the preload per workload (default 3, quick 1)")
    args = ap.parse_args(argv)
    lib = os.path.abspath(os.path.join(args.build, "libbigmul_gmp.so"))
    bench = os.path.abspath(os.path.join(args.build, "bench", "preload", "preload_bench"))
    for path, what in ((lib, "bigmul_gmp"), (bench, "preload_bench")):
        if not os.path.exists(path):
            fail(f"no {path}: build it with cmake -B {args.build} -DBIGMUL_BUILD_BENCH=ON && "
                 f"cmake --build {args.build} --target {what}")
    out = args.out or ("/tmp/preload_quick" if args.quick else os.path.join(ROOT, "bench", "results", "preload"))
    trials = args.trials or (1 if args.quick else 3)
    q = args.quick
    runner = Runner(lib, args.threads)
    cpu = processor()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    ctx = {"program": "run_preload_bench.sh", "host_name": socket.gethostname(), "cpu_model": cpu["cpu_model"],
           "cpu_family": cpu["cpu_family"], "cpu_model_number": cpu["cpu_model_number"], "ifma": cpu["ifma"],
           "avx2": cpu["avx2"], "num_cpus": os.cpu_count(), "commit": commit(), "date": date,
           "gmp_version": gmp_version(), "bigmul_version": bigmul_version(args.build), "threads": args.threads,
           "build_type": "Release", "quick": q, "trials": trials,
           "ratio": "real_time: with LD_PRELOAD=libbigmul_gmp.so; gmp_seconds: the same program without it, same run, "
                    "alternating, medians; speedup = gmp_seconds / real_time; C and gmpy2 rows time the operation "
                    "inside the process (cpu_time = real_time, not measured), program rows the whole process"}
    header = (f"# bigmul preload bench  {cpu['cpu_model']} (family {cpu['cpu_family']} model "
              f"{cpu['cpu_model_number']}, IFMA {'yes' if cpu['ifma'] else 'no'}, AVX2 "
              f"{'yes' if cpu['avx2'] else 'no'})  {args.threads} threads  commit {ctx['commit']}  {date}  "
              f"GMP {ctx['gmp_version']}{'  QUICK (sizes too small to mean anything)' if q else ''}")
    print(header)
    print(f"{'workload':34s} {'gmp_s':>12s} {'preload_s':>12s} {'speedup':>9s}  same  bigmul_calls", flush=True)
    rows = []
    tens = [4, 5] if q else [5, 6, 7, 8]
    for op, exps in (("mul", tens), ("get_str", tens), ("set_str", [4, 5] if q else [6, 7])):
        for e in exps:
            min_s = 0.05 if q else (1.0 if e < 8 else 0.0)
            rows.append(measure(runner, f"c/mpz_{op}/1e{e}", [bench, op, str(10 ** e), str(min_s)],
                                1 if e >= 8 else trials, c_parse))
    rows.append(measure(runner, "c/mpz_mul_loop/1000_digits", [bench, "small", "1000", "0.2" if q else "1.0"],
                        max(trials, 1 if q else 5), c_parse))
    py = "/usr/bin/python3"
    if subprocess.run([py, "-c", "import gmpy2"], capture_output=True).returncode == 0:
        for op in ("mul", "str"):
            for e in ([4, 5] if q else [6, 7]):
                rows.append(measure(runner, f"gmpy2/{'a*b' if op == 'mul' else 'str(a)'}/1e{e}",
                                    [py, "-c", GMPY2, op, str(10 ** e), "0.05" if q else "1.0"], trials, gmpy2_parse))
    else:
        print("# gmpy2: skipped, python3-gmpy2 is not installed")
    n, m = (12000, 6000) if q else (12000000, 6000000)
    if shutil.which("ruby"):
        rows.append(measure(runner, f"ruby/(3**{n}*7**{m}).to_s.size", ["ruby", "-e", f"p((3**{n} * 7**{m}).to_s.size)"],
                            trials, whole_parse))
    else:
        print("# ruby: skipped, not installed")
    f = 20000 if q else 1000000
    if shutil.which("gp"):
        rows.append(measure(runner, f"gp/print({f}!)", ["gp", "-q", "-f", "-D", "parisize=1000000000"], trials,
                            whole_parse, stdin=f"print({f}!);\nquit\n"))
    else:
        print("# gp: skipped, pari-gp is not installed")
    doc = {"context": ctx, "benchmarks": rows}
    with open(out + ".json", "w") as fj:
        json.dump(doc, fj, indent=1)
    with open(out + ".txt", "w") as ft:
        ft.write(header + "\n")
        ft.write(f"{'workload':34s} {'gmp_s':>12s} {'preload_s':>12s} {'speedup':>9s}  same  bigmul_calls\n")
        for r in rows:
            taken = sum(c["taken"] for c in r["preload_calls"].values())
            ft.write(f"{r['name']:34s} {r['gmp_seconds']:12.5g} {r['real_time']:12.5g} {r['speedup']:8.2f}x  "
                     f"{'yes' if r['identical'] else 'NO':4s}  {taken}\n")
    print(f"# wrote {out}.txt and {out}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
