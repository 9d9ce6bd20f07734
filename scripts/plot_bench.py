#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Plots bench_mul JSON: our time / GMP's time against digits, one line per
(algorithm, radix, threads). Needs Debian's python3-matplotlib.

    scripts/plot_bench.py bench/results/cpu/bench_mul.json out.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        data = json.load(f)
    lines = {}
    for row in data["rows"]:
        key = (row["algorithm"], row["radix"], row["threads"])
        lines.setdefault(key, []).append((row["digits"], row["ratio"]))
    fig, ax = plt.subplots(figsize=(9, 6))
    for (algo, radix, threads), pts in sorted(lines.items()):
        pts.sort()
        style = "-" if radix == "decimal" else "--"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o",
                label=f"{algo} {radix} {threads}t")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("decimal digits per operand")
    ax.set_ylabel("time / GMP mpz_mul time (same run)")
    ax.set_title(f"bigmul vs GMP {data.get('gmp', '')} - {data.get('machine', '')}\n"
                 f"commit {data.get('commit', '')}, {data.get('date', '')}", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
