#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""How cost grows: reads bench_mul's JSON (the scaling/ rows) and writes a PNG
of warm time / (n log2 n) against n (decimal digits), one line per thread
count, cold times dashed, GMP dotted where it ran. Flat lines mean n log n.
Needs python3-matplotlib (Debian).

  plot_scaling.py bench_mul.json OUT.png
"""
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    doc = json.load(open(argv[1]))
    rows = [r for r in doc["benchmarks"] if r["name"].startswith("scaling/")]
    if not rows:
        print(f"{argv[1]}: no scaling/ rows (run bench_mul with --digits)", file=sys.stderr)
        return 1
    per_threads = {}
    for r in rows:
        per_threads.setdefault(int(r["threads"]), []).append(r)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for threads, rs in sorted(per_threads.items()):
        rs.sort(key=lambda r: r["digits"])
        n = [r["digits"] for r in rs]
        nlogn = [d * math.log2(d) for d in n]
        warm = [r["real_time"] * SCALE[r["time_unit"]] for r in rs]
        line, = ax.plot(n, [t / c * 1e9 for t, c in zip(warm, nlogn)], "o-", label=f"bigmul warm, {threads} thr")
        ax.plot(n, [r["cold_seconds"] / c * 1e9 for r, c in zip(rs, nlogn)], "x--", color=line.get_color(),
                label=f"bigmul cold, {threads} thr")
        g = [(d, r["gmp_seconds"] / c * 1e9) for d, r, c in zip(n, rs, nlogn) if "gmp_seconds" in r]
        if g:
            ax.plot([d for d, _ in g], [v for _, v in g], "s:", color=line.get_color(), alpha=0.6,
                    label=f"GMP, {threads} thr process")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (decimal digits per operand)")
    ax.set_ylabel("time / (n log2 n)  [ns]")
    ctx = doc.get("context", {})
    ax.set_title(f"bigmul product cost, {ctx.get('cpu_model', '?')}, commit {ctx.get('commit', '?')}", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=120)
    print(f"wrote {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
