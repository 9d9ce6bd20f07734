#!/usr/bin/env bash
# GPU checks in one go (design.md s10), on a machine with a GPU and a build
# folder made elsewhere (this script never builds):
#   scripts/gpu-check.sh LOGDIR [BUILD_DIR]      (or env BUILD_DIR; default build/release)
# Steps: every GPU test program (ctest -L gpu); compute-sanitizer memcheck and
# racecheck over each GPU test program; every GPU benchmark (JSON into LOGDIR).
# Every step runs even when an earlier one fails; the exit status is non-zero
# if any failed. LOGDIR/summary.txt has device, commit, date and step results.
set -u
cd "$(dirname "$0")/.."
logdir=${1:?usage: scripts/gpu-check.sh LOGDIR [BUILD_DIR]}
build=${2:-${BUILD_DIR:-build/release}}
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
summary=$logdir/summary.txt
status=0

{
  echo "date:   $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (dirty)')"
  echo "build:  $build"
  echo "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi failed')"
} >"$summary"

step() {  # step NAME LOGFILE COMMAND...
  local name=$1 log=$2
  shift 2
  local t0=$SECONDS
  "$@" >"$log" 2>&1
  local rc=$?
  printf '%-48s %s (%ds) %s\n' "$name" "$([ $rc = 0 ] && echo PASS || echo "FAIL rc=$rc")" $((SECONDS - t0)) \
    "$(basename "$log")" >>"$summary"
  [ $rc = 0 ] || status=1
}

if [ ! -d "$build" ]; then
  echo "no build folder $build" >>"$summary"
  cat "$summary"
  exit 1
fi

step "ctest -L gpu" "$logdir/ctest-gpu.log" ctest --test-dir "$build" -L gpu --output-on-failure

# GPU test programs: every executable named test_*_gpu in the build tree.
mapfile -t gpu_tests < <(find "$build" -type f -perm -u+x -name 'test_*_gpu' | sort)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in "${gpu_tests[@]}"; do
  n=$(basename "$t")
  for tool in memcheck racecheck; do
    step "compute-sanitizer $tool $n" "$logdir/$tool-$n.log" \
      "$sanitizer" --tool "$tool" --error-exitcode 1 "$t"
  done
done
[ ${#gpu_tests[@]} -gt 0 ] || { echo "no GPU test programs found" >>"$summary"; status=1; }

# GPU benchmarks: every executable named bench_*_gpu; each takes the JSON path first.
mapfile -t gpu_benches < <(find "$build" -type f -perm -u+x -name 'bench_*_gpu' | sort)
for b in "${gpu_benches[@]}"; do
  n=$(basename "$b")
  step "benchmark $n" "$logdir/$n.log" "$b" "$logdir/$n.json"
done

echo "overall: $([ $status = 0 ] && echo PASS || echo FAIL)" >>"$summary"
cat "$summary"
exit $status
