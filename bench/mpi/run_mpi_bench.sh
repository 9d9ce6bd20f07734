#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Writes bench/results/mpi.{txt,json}: the distributed product (bench_mpi) at
# 10^7, 3 10^7 and 10^8 decimal digits (or DIGITS_LIST) for P = 1, 2, 4 ranks
# of one thread and P = 1 with 2 threads, and the single-process bigmul::mul
# of the same operands with 1 and 2 threads, each size in its own process
# (bench_mpi --single) so that its peak memory is its own. On a 2-core
# machine P = 4 has more ranks than cores: it shows the method's overheads,
# not a speed-up.
# Usage: bench/mpi/run_mpi_bench.sh BUILD_DIR [DIGITS_LIST]   (from the repository root)
set -euo pipefail
build=${1:?usage: run_mpi_bench.sh BUILD_DIR [DIGITS_LIST]}
digits=${2:-10000000,30000000,100000000}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${MPI_BENCH_OUT:-$root/bench/results}  # MPI_BENCH_OUT: elsewhere (the script's own check)
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
launch() {  # launch P THREADS [bench_mpi options]
  local p=$1 t=$2; shift 2
  mpiexec --quiet -n "$p" --oversubscribe --bind-to none "$build/bench_mpi" --threads "$t" --reps 3 "$@" |
    tee -a "$rows"
}
for d in ${digits//,/ }; do
  launch 1 1 --digits "$d" --single
  launch 1 2 --digits "$d" --single
done
launch 1 1 --digits "$digits"
launch 1 2 --digits "$digits"
launch 2 1 --digits "$digits"
launch 4 1 --digits "$digits"
python3 - "$rows" "$out/mpi.json" "$out/mpi.txt" "$(git -C "$root" rev-parse --short HEAD)" "$@" <<'PY'
import json, platform, sys, datetime, subprocess
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
ctx = {"commit": sys.argv[4], "date": datetime.datetime.utcnow().isoformat() + "Z", "cpu": cpu,
       "cores": subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip(),
       "command": "bench/mpi/run_mpi_bench.sh " + " ".join(sys.argv[5:])}
json.dump({"context": ctx, "rows": rows}, open(sys.argv[2], "w"), indent=1)
single = {(r["digits"], r["threads"]): r for r in rows if r.get("single")}
rows_d = [r for r in rows if not r.get("single")]
p1 = {r["digits"]: r["seconds_median"] for r in rows_d if r["ranks"] == 1 and r["threads"] == 1}
with open(sys.argv[3], "w") as f:
    f.write(f"# bench_mpi at {ctx['commit']} on {cpu} ({ctx['cores']} cores), {ctx['date']}\n")
    f.write("# seconds: median of 3 (slowest rank); /single: over bigmul::mul in one process, same threads,\n")
    f.write("# both with the modular check (mod 2^61 - 1; the default of both commands);\n")
    f.write("# a2a: bytes leaving all ranks over all all-to-alls; rss: peak of the largest rank;\n")
    f.write("# single rss: the single-process product's own peak (its own process, 1 thread), rss/single their ratio\n")
    f.write(f"{'digits':>11} {'P':>2} {'thr':>3} {'seconds':>9} {'/single':>8} {'/P=1':>6} {'a2a MB':>9} {'a2a s':>7} "
            f"{'planned MB':>10} {'rss MB':>8} {'single rss MB':>13} {'rss/single':>10}\n")
    for r in rows_d:
        s = single.get((r["digits"], r["threads"])) or single.get((r["digits"], 1)) or {}
        t1 = s.get("single_process_seconds", 0)
        srss = (single.get((r["digits"], 1)) or {}).get("single_peak_rss", 0)
        a2a_b = sum(x["bytes"] for x in r["exchanges"]) / 1e6
        a2a_s = sum(x["seconds"] for x in r["exchanges"])
        f.write(f"{r['digits']:>11} {r['ranks']:>2} {r['threads']:>3} {r['seconds_median']:>9.3f} "
                f"{r['seconds_median'] / t1 if t1 else 0:>8.2f} {r['seconds_median'] / p1[r['digits']]:>6.2f} "
                f"{a2a_b:>9.1f} {a2a_s:>7.3f} {r['planned_bytes_max_rank'] / 1e6:>10.1f} {r['peak_rss_max_rank'] / 1e6:>8.1f} "
                f"{srss / 1e6:>13.1f} {r['peak_rss_max_rank'] / srss if srss else 0:>10.2f}\n")
    for (d, t), s in sorted(single.items()):
        f.write(f"# single process {d} digits, {t} thread(s): {s['single_process_seconds']:.3f} s, "
                f"peak rss {s['single_peak_rss'] / 1e6:.1f} MB\n")
print(open(sys.argv[3]).read())
PY
