#!/usr/bin/env bash
# GPU checks in one go (design.md s10), on a machine with a GPU and a build
# folder made elsewhere (this script never builds):
#   scripts/gpu-check.sh LOGDIR [BUILD_DIR]      (or env BUILD_DIR; default build/release)
# Steps: every GPU test program (ctest -L gpu); compute-sanitizer memcheck and
# racecheck over each GPU test program (the large-size tests filtered out:
# under the sanitizers they would take hours); every GPU benchmark (JSON into
# LOGDIR); the GPU tuner (LOGDIR/params_sm90.inc, to commit as
# mul/cuda/params_sm90.inc). STEPS="tests sanitize bench tune" (the default)
# picks steps, so a run can be split over several calls; SANITIZE_TIMEOUT
# (seconds, default 240) bounds each sanitizer run.
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
steps=" ${STEPS:-tests sanitize bench tune} "
want() { [[ $steps == *" $1 "* ]]; }
san_timeout=${SANITIZE_TIMEOUT:-240}
san_filter='-*Large*:*TransformLengthBoundaries*:*HeavySweep*:*BatchedProductsMatchSingleOnes*'

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

want tests && step "ctest -L gpu" "$logdir/ctest-gpu.log" ctest --test-dir "$build" -L gpu --output-on-failure

# GPU test programs: every executable named test_*_gpu in the build tree.
mapfile -t gpu_tests < <(find "$build" -type f -perm -u+x -name 'test_*_gpu' | sort)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
want sanitize && for t in "${gpu_tests[@]}"; do
  n=$(basename "$t")
  for tool in memcheck racecheck; do
    step "compute-sanitizer $tool $n" "$logdir/$tool-$n.log" \
      timeout "$san_timeout" "$sanitizer" --tool "$tool" --error-exitcode 1 "$t" --gtest_filter="$san_filter"
  done
done
[ ${#gpu_tests[@]} -gt 0 ] || { echo "no GPU test programs found" >>"$summary"; status=1; }

# GPU benchmarks: every executable named bench_*_gpu; each takes the JSON path first.
mapfile -t gpu_benches < <(find "$build" -type f -perm -u+x -name 'bench_*_gpu' | sort)
want bench && for b in "${gpu_benches[@]}"; do
  n=$(basename "$b")
  step "benchmark $n" "$logdir/$n.log" "$b" "$logdir/$n.json"
done
tuner=$(find "$build" -type f -perm -u+x -name tune_gpu | head -1)
if want tune && [ -n "$tuner" ]; then
  step "tune_gpu" "$logdir/tune_gpu.log" "$tuner" "$logdir/params_sm90.inc"
fi

echo "overall: $([ $status = 0 ] && echo PASS || echo FAIL)" >>"$summary"
cat "$summary"
exit $status
