#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""A/B table of two bench_mul --json runs (before, after): one row per
benchmark name present in both, real_time after / before.

usage: ab_compare.py BEFORE.json AFTER.json OUT_STEM
writes OUT_STEM.txt (fixed columns) and OUT_STEM.md (a Markdown table)."""
import json
import sys


def rows(path):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") == "iteration":
            out[b["run_name"]] = b
    return doc.get("context", {}), out


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: ab_compare.py BEFORE.json AFTER.json OUT_STEM")
    ctx_a, a = rows(argv[1])
    ctx_b, b = rows(argv[2])
    names = [n for n in a if n in b]
    if not names:
        sys.exit(f"ab_compare.py: {argv[1]} and {argv[2]} share no benchmark names")
    head = (f"# A/B bench_mul: before {ctx_a.get('commit', '?')} after {ctx_b.get('commit', '?')}"
            f"  {ctx_b.get('cpu_model', '?')}  after/before of real_time (< 1: faster)")
    cols = ("name", "unit", "before", "after", "after/before")
    table = []
    for n in names:
        ta, tb = a[n]["real_time"], b[n]["real_time"]
        table.append((n, b[n].get("time_unit", ""), f"{ta:.6g}", f"{tb:.6g}", f"{tb / ta:.3f}"))
    ratios = [float(r[4]) for r in table]
    geo = 1.0
    for r in ratios:
        geo *= r
    geo **= 1.0 / len(ratios)
    tail = f"geometric mean after/before {geo:.3f} over {len(ratios)} rows; worst {max(ratios):.3f}"
    with open(argv[3] + ".txt", "w") as f:
        f.write(head + "\n")
        f.write(f"{cols[0]:<44} {cols[1]:>4} {cols[2]:>12} {cols[3]:>12} {cols[4]:>12}\n")
        for r in table:
            f.write(f"{r[0]:<44} {r[1]:>4} {r[2]:>12} {r[3]:>12} {r[4]:>12}\n")
        f.write(tail + "\n")
    with open(argv[3] + ".md", "w") as f:
        f.write(head.lstrip("# ") + "\n\n| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n")
        for r in table:
            f.write("| " + " | ".join(r) + " |\n")
        f.write("\n" + tail + "\n")


if __name__ == "__main__":
    main(sys.argv)
