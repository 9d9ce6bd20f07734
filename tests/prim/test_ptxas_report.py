#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""scripts/ptxas-report.py on a fixed ptxas -v log: entries with and without a
frame line, a device function's properties between entries (not an entry's),
one kernel in two translation units (the larger numbers kept), spilling kernels
first, the spill count; a log without ptxas lines exits 1. Usage: ROOT."""
import importlib.util
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
script = os.path.join(root, "scripts", "ptxas-report.py")
spec = importlib.util.spec_from_file_location("ptxas_report", script)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)

LOG = """[1/3] Building CUDA object prim/a.cu.o
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z4fastPi' for 'sm_90'
ptxas info    : Function properties for _Z4fastPi
ptxas info    : Used 14 registers, used 0 barriers
ptxas info    : Function properties for _Z6helperv
    24 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Compiling entry function '_Z5spillPd' for 'sm_90'
ptxas info    : Function properties for _Z5spillPd
    136 bytes stack frame, 140 bytes spill stores, 96 bytes spill loads
ptxas info    : Used 128 registers, used 1 barriers, 65536 bytes smem
ptxas info    : Compile time = 2.391 ms
[2/3] Building CUDA object fft/b.cu.o
ptxas info    : Compiling entry function '_Z4fastPi' for 'sm_90'
ptxas info    : Function properties for _Z4fastPi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 20 registers, used 1 barriers, 1024 bytes smem
ptxas info    : Compiling entry function '_Z5spillPd' for 'sm_90'
ptxas info    : Function properties for _Z5spillPd
    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 100 registers, used 1 barriers, 4096 bytes smem
"""

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


k = mod.parse(LOG.splitlines())
check(set(k) == {("_Z4fastPi", "sm_90"), ("_Z5spillPd", "sm_90")}, "entries: %s" % sorted(k))
fast, spill = k.get(("_Z4fastPi", "sm_90"), {}), k.get(("_Z5spillPd", "sm_90"), {})
check(fast == {"regs": 20, "spill_st": 0, "spill_ld": 0, "stack": 0, "smem": 1024}, "fast: %s" % fast)
check(spill == {"regs": 128, "spill_st": 140, "spill_ld": 96, "stack": 136, "smem": 65536}, "spill: %s" % spill)
text = mod.report(k, "# header")
lines = text.splitlines()
check(lines[0] == "# header" and "regs" in lines[1], "header lines: %s" % lines[:2])
check(lines[2].split()[:5] == ["128", "140", "96", "136", "65536"] and lines[2].endswith("spill(double*)"),
      "spilling kernel first, demangled: %r" % lines[2])
check(lines[3].endswith("fast(int*)"), "then the others: %r" % lines[3])
check(lines[-1] == "# 2 kernels, 1 spill", "summary: %r" % lines[-1])

with tempfile.TemporaryDirectory() as d:
    log = os.path.join(d, "build.log")
    with open(log, "w") as f:
        f.write(LOG)
    out = os.path.join(d, "report.txt")
    r = subprocess.run([sys.executable, script, "extract", log, out], capture_output=True, text=True)
    check(r.returncode == 0 and open(out).read().count("\n") == 5, "extract: rc %d, %s" % (r.returncode, r.stderr))
    with open(log, "w") as f:
        f.write("[1/1] Building CXX object x.cpp.o\n")
    r = subprocess.run([sys.executable, script, "extract", log, out + "2"], capture_output=True, text=True)
    check(r.returncode == 1 and "no ptxas lines" in r.stderr and not os.path.exists(out + "2"),
          "a log without ptxas lines: rc %d, %r" % (r.returncode, r.stderr))
    r = subprocess.run([sys.executable, script, "bogus"], capture_output=True, text=True)
    check(r.returncode == 2, "usage: rc %d" % r.returncode)

for f in failures:
    print("FAILED:", f)
print("test_ptxas_report: %d problem(s)" % len(failures))
sys.exit(1 if failures else 0)
