#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""ctest docs_generated_match: the generated parts of the documentation match
their sources: docs/algorithms.md's thresholds (mul/params_cpu.inc) and the
performance tables in README.md and docs/performance.md (the committed
benchmark results; docs/performance.md's per-engine tables too). Usage: check_generated_docs.py SOURCE_DIR"""
import re
import subprocess
import sys

root = sys.argv[1]
# The results file the README's table names (its note says which file made it).
m = re.search(r"\(`(bench/results/[^`]+\.json)`, written by", open(root + "/README.md").read())
if not m:
    sys.exit("docs_generated_match: README.md's performance table names no results file")
checks = [
    [sys.executable, root + "/scripts/gen_algorithms_doc.py", "--root", root, "--check"],
    [sys.executable, root + "/scripts/perf_table.py", m.group(1), "--root", root, "--check", "README.md",
     "docs/performance.md"],
]
# Per-engine tables (scripts/perf_table.py --engine E) in docs/performance.md,
# each against the results file its own note names.
perf = open(root + "/docs/performance.md").read()
for e, body in re.findall(r"<!-- BEGIN perf-table (\w+):.*?-->(.*?)<!-- END perf-table \1 -->", perf, re.S):
    f = re.search(r"\(`(bench/results/[^`]+\.json)`, written by", body)
    if not f:
        sys.exit("docs_generated_match: docs/performance.md's %s table names no results file" % e)
    checks.append([sys.executable, root + "/scripts/perf_table.py", f.group(1), "--root", root, "--engine", e,
                   "--check", "docs/performance.md"])
sys.exit(max(subprocess.run(c).returncode for c in checks))
