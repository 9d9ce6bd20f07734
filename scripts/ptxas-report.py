#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""ptxas resource report of every CUDA kernel: registers, spills, stack, shared memory.

  scripts/ptxas-report.py build [BUILD_DIR=build/ptxas] [OUT=bench/results/gpu/ptxas-sm90.txt]
      configures BUILD_DIR with CUDA on and -Xptxas -v, rebuilds the CUDA libraries
      (bigmul_prim, bigmul_carry, bigmul_fft, bigmul_mul: every kernel the library
      ships), keeps the log in BUILD_DIR/ptxas.log and writes the report to OUT
  scripts/ptxas-report.py extract LOG [OUT=-]
      the report from an existing build log (nvcc run with -Xptxas -v)

The report: one line per kernel (entry function) and architecture, sorted with
the spilling ones first: registers, spill stores and loads (bytes), stack frame,
static shared memory, the demangled name; then a count of kernels that spill.
A kernel compiled in several translation units appears once (the largest numbers).
Needs no GPU. Exit 1 when the log has no ptxas lines (not built with -Xptxas -v).
"""
import os
import re
import subprocess
import sys

ENTRY = re.compile(r"ptxas info\s*: Compiling entry function '([^']+)' for '(sm_\w+)'")
PROPS = re.compile(r"ptxas info\s*: Function properties for (\S+)")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"ptxas info\s*: Used (\d+) registers(?:, used \d+ barriers)?(?:, (\d+) bytes smem)?")

LIBS = ["bigmul_prim", "bigmul_carry", "bigmul_fft", "bigmul_mul"]


def parse(lines):
    """{(name, arch): {regs, spill_st, spill_ld, stack, smem}} from ptxas -v output."""
    kernels, entry, props_for = {}, None, None
    for line in lines:
        m = ENTRY.search(line)
        if m:
            entry = (m.group(1), m.group(2))
            kernels.setdefault(entry, {"regs": 0, "spill_st": 0, "spill_ld": 0, "stack": 0, "smem": 0})
            continue
        m = PROPS.search(line)
        if m:
            props_for = m.group(1)
            continue
        m = FRAME.search(line)
        if m and entry and props_for == entry[0]:
            k = kernels[entry]
            k["stack"] = max(k["stack"], int(m.group(1)))
            k["spill_st"] = max(k["spill_st"], int(m.group(2)))
            k["spill_ld"] = max(k["spill_ld"], int(m.group(3)))
            continue
        m = USED.search(line)
        if m and entry:
            k = kernels[entry]
            k["regs"] = max(k["regs"], int(m.group(1)))
            k["smem"] = max(k["smem"], int(m.group(2) or 0))
            entry = None  # the entry's report ends with its register line
    return kernels


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
        return out.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return list(names)


def report(kernels, header):
    keys = sorted(kernels, key=lambda k: (-(kernels[k]["spill_st"] + kernels[k]["spill_ld"]), k[1], k[0]))
    names = demangle([k[0] for k in keys])
    out = [header, "%5s %7s %7s %6s %6s  %-6s %s" % ("regs", "spill_st", "spill_ld", "stack", "smem", "arch", "kernel")]
    for k, name in zip(keys, names):
        v = kernels[k]
        out.append("%5d %8d %8d %6d %6d  %-6s %s" % (v["regs"], v["spill_st"], v["spill_ld"], v["stack"], v["smem"],
                                                    k[1], name))
    spilling = sum(1 for k in keys if kernels[k]["spill_st"] or kernels[k]["spill_ld"])
    out.append("# %d kernels, %d spill" % (len(keys), spilling))
    return "\n".join(out) + "\n"


def write(text, path):
    if path == "-":
        sys.stdout.write(text)
        return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    print("ptxas-report: wrote %s" % path)


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def build(build_dir, out):
    cfg = ["cmake", "-S", ".", "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DBIGMUL_CUDA=ON",
           "-DBIGMUL_BUILD_BENCH=OFF", "-DCMAKE_CUDA_FLAGS=-Xptxas -v"]
    subprocess.run(cfg, check=True, stdout=subprocess.DEVNULL)
    # Clean the CUDA libraries so that every kernel is compiled (and reported) again.
    subprocess.run(["ninja", "-C", build_dir, "-t", "clean"] + LIBS, check=True, stdout=subprocess.DEVNULL)
    log = os.path.join(build_dir, "ptxas.log")
    jobs = os.environ.get("JOBS", "2")
    with open(log, "w") as f:
        r = subprocess.run(["cmake", "--build", build_dir, "-j", jobs, "--target"] + LIBS, stdout=f,
                           stderr=subprocess.STDOUT)
    if r.returncode:
        sys.exit("ptxas-report: the build failed (see %s)" % log)
    return extract(log, out, "build %s of commit %s" % (build_dir, git_commit()))


def extract(log, out, what=None):
    with open(log, errors="replace") as f:
        kernels = parse(f)
    if not kernels:
        sys.exit("ptxas-report: no ptxas lines in %s (was it built with -Xptxas -v?)" % log)
    header = "# ptxas -v resource report (%s); bytes; sorted: spilling kernels first" % (what or log)
    write(report(kernels, header), out)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "build" and len(argv) <= 4:
        return build(argv[2] if len(argv) > 2 else "build/ptxas",
                     argv[3] if len(argv) > 3 else "bench/results/gpu/ptxas-sm90.txt")
    if len(argv) >= 3 and argv[1] == "extract" and len(argv) <= 4:
        return extract(argv[2], argv[3] if len(argv) > 3 else "-")
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
