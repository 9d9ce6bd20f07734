#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Plots bench_mul_gpu JSON ([DIEGUEZ18 ch. 7]'s figures re-measured): MData/s against
digits per operand for single (G = 1) and batched products, one line per
variant; the relative L2 round-off (Table 7.2); the fraction of the
memory-bandwidth floor. Needs Debian's python3-matplotlib.

    scripts/plot_bench_gpu.py bench/results/gpu/bench_mul_gpu.json out.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def series(rows, key, batched):
    lines = {}
    for row in rows:
        if "variant" not in row or (row["G"] > 1) != batched or row.get(key, 0) <= 0:
            continue
        lines.setdefault(row["variant"], []).append((row["digits"], row[key]))
    return {k: sorted(v) for k, v in sorted(lines.items())}


def draw(ax, lines, ylabel, title, logy=True):
    for name, pts in lines.items():
        style = "--" if "cufft" in name else "-"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", markersize=3, label=name)
    ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("decimal digits per operand (N)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, ncol=2)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        data = json.load(f)
    # The harness's schema ("benchmarks"); "rows": files written before it.
    rows, ctx = data.get("benchmarks", data.get("rows", [])), data.get("context", {})
    fig, axes = plt.subplots(2, 2, figsize=(13, 10))
    draw(axes[0][0], series(rows, "mdata_per_s", False), "MData/s (result digits)", "single product (G = 1)")
    draw(axes[0][1], series(rows, "mdata_per_s", True), "MData/s (result digits)", "batched, G = 2^24 / (2N)")
    draw(axes[1][0], series(rows, "l2_roundoff", False), "relative L2 round-off",
         "round-off before rounding ([DIEGUEZ18 Table 7.2])")
    draw(axes[1][1], series(rows, "floor_fraction", False), "fraction of the bandwidth floor",
         "memory-bandwidth floor / measured time (single)", logy=False)
    device, peak = ctx.get("gpu_name", ctx.get("device", "")), ctx.get("gpu_peak_gbyte_s", ctx.get("peak_gbs", 0))
    fig.suptitle(f"bench_mul_gpu - {device} ({peak or 0:.0f} GB/s) - "
                 f"commit {ctx.get('commit', '')}, {ctx.get('date', '')}", fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
