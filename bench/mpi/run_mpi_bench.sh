#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Writes bench/results/mpi.{txt,json}: the distributed product (bench_mpi) at
# 10^7, 3 10^7 and 10^8 decimal digits for P = 1, 2, 4 ranks of one thread
# (P = 1 also times the single-process bigmul::mul of the same operands),
# plus P = 1 with 2 threads. On a 2-core machine P = 4 has more ranks than
# cores: it shows the method's overheads, not a speed-up.
# Usage: bench/mpi/run_mpi_bench.sh BUILD_DIR [DIGITS_LIST]   (from the repository root)
set -euo pipefail
build=${1:?usage: run_mpi_bench.sh BUILD_DIR [DIGITS_LIST]}
digits=${2:-10000000,30000000,100000000}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/bench/results
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
launch() {  # launch P THREADS [--baseline]
  local p=$1 t=$2; shift 2
  mpiexec --quiet -n "$p" --oversubscribe --bind-to none "$build/bench_mpi" --digits "$digits" --threads "$t" --reps 3 "$@" |
    tee -a "$rows"
}
launch 1 1 --baseline
launch 1 2 --baseline
launch 2 1
launch 4 1
python3 - "$rows" "$out/mpi.json" "$out/mpi.txt" "$(git -C "$root" rev-parse --short HEAD)" "$@" <<'PY'
import json, platform, sys, datetime, subprocess
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
ctx = {"commit": sys.argv[4], "date": datetime.datetime.utcnow().isoformat() + "Z", "cpu": cpu,
       "cores": subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip(),
       "command": "bench/mpi/run_mpi_bench.sh " + " ".join(sys.argv[5:])}
json.dump({"context": ctx, "rows": rows}, open(sys.argv[2], "w"), indent=1)
base = {(r["digits"], r["threads"]): r["single_process_seconds"] for r in rows if r["ranks"] == 1}
p1 = {r["digits"]: r["seconds_median"] for r in rows if r["ranks"] == 1 and r["threads"] == 1}
with open(sys.argv[3], "w") as f:
    f.write(f"# bench_mpi at {ctx['commit']} on {cpu} ({ctx['cores']} cores), {ctx['date']}\n")
    f.write("# seconds: median of 3 (slowest rank); single: bigmul::mul in one process, same threads;\n")
    f.write("# a2a: bytes leaving all ranks over all all-to-alls; rss: peak of the largest rank\n")
    f.write(f"{'digits':>11} {'P':>2} {'thr':>3} {'seconds':>9} {'/single':>8} {'/P=1':>6} {'a2a MB':>9} {'a2a s':>7} {'planned MB':>10} {'rss MB':>8}\n")
    for r in rows:
        single = base.get((r["digits"], r["threads"]), 0) or base.get((r["digits"], 1), 0)
        a2a_b = sum(x["bytes"] for x in r["exchanges"]) / 1e6
        a2a_s = sum(x["seconds"] for x in r["exchanges"])
        f.write(f"{r['digits']:>11} {r['ranks']:>2} {r['threads']:>3} {r['seconds_median']:>9.3f} "
                f"{r['seconds_median'] / single if single else 0:>8.2f} {r['seconds_median'] / p1[r['digits']]:>6.2f} "
                f"{a2a_b:>9.1f} {a2a_s:>7.3f} {r['planned_bytes_max_rank'] / 1e6:>10.1f} {r['peak_rss_max_rank'] / 1e6:>8.1f}\n")
print(open(sys.argv[3]).read())
PY
