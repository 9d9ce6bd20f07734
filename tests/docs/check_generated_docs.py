#!/usr/bin/env python3
"""ctest docs_generated_match: the generated parts of the documentation match
their sources: docs/algorithms.md's thresholds (mul/params_cpu.inc) and the
performance table in README.md and docs/performance.md (the committed
benchmark results). Usage: check_generated_docs.py SOURCE_DIR"""
import subprocess
import sys

root = sys.argv[1]
checks = [
    [sys.executable, root + "/scripts/gen_algorithms_doc.py", "--root", root, "--check"],
    [sys.executable, root + "/scripts/perf_table.py", "--root", root, "--check", "README.md", "docs/performance.md"],
]
sys.exit(max(subprocess.run(c).returncode for c in checks))
