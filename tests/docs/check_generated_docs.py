#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""ctest docs_generated_match: the generated parts of the documentation match
their sources: docs/algorithms.md's thresholds (mul/params_cpu.inc) and the
performance table in README.md and docs/performance.md (the committed
benchmark results). Usage: check_generated_docs.py SOURCE_DIR"""
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
sys.exit(max(subprocess.run(c).returncode for c in checks))
