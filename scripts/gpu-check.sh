#!/usr/bin/env bash
# GPU checks in one go (design.md s10), on a machine with a GPU and programs
# built elsewhere (this script never builds):
#   scripts/gpu-check.sh LOGDIR [BUILD]   BUILD: a build folder (default
#   build/release, or env BUILD_DIR) or the bundle scripts/gpu-bundle.sh makes
#   (build/gpu-bundle.tar.xz), unpacked into LOGDIR/../bigmul-bundle.
# Steps: every GPU test program (run directly: ctest files hold this machine's
# absolute paths); the bigmul command on the GPU; compute-sanitizer memcheck and
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

if [ -f "$build" ]; then  # a bundle
  unpack=$(dirname "$logdir")/bigmul-bundle
  rm -rf "$unpack" && mkdir -p "$unpack"
  if ! tar -C "$unpack" -xJf "$build"; then
    echo "cannot unpack $build" >>"$summary"
    cat "$summary"
    exit 1
  fi
  echo "bundle: $build -> $unpack" >>"$summary"
  build=$unpack
fi
# The CUDA libraries the programs link (libcudart, libcufft) come from this
# machine's toolkit; where the loader does not know them, find them.
for lib in libcudart.so.13 libcufft.so.12; do
  if ! ldconfig -p 2>/dev/null | grep -q "$lib"; then
    found=$(find /usr/local /opt /usr/lib -name "$lib" 2>/dev/null | head -1)
    if [ -n "$found" ]; then
      LD_LIBRARY_PATH=$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
      echo "loader: $lib from $(dirname "$found")" >>"$summary"
    fi
  fi
done
export LD_LIBRARY_PATH
if [ ! -d "$build" ]; then
  echo "no build folder $build" >>"$summary"
  cat "$summary"
  exit 1
fi

# GPU test programs: every executable named test_*_gpu in the build tree.
mapfile -t gpu_tests < <(find "$build" -type f -perm -u+x -name 'test_*_gpu' | sort)
if want tests; then
  for t in "${gpu_tests[@]}"; do
    n=$(basename "$t")
    step "test $n" "$logdir/test-$n.log" "$t" --gtest_output="json:$logdir/test-$n.json"
  done
  # The command on the GPU: random operands, checked against GMP.
  cli=$(find "$build" -type f -perm -u+x -name bigmul | head -1)
  quiet_cli() { "$cli" "$@" >/dev/null; }  # the product itself is not kept; stderr (-v -t) is
  if [ -n "$cli" ]; then
    step "bigmul --backend cuda fft_real 10^6 digits" "$logdir/cli-fft.log" \
      quiet_cli --backend cuda -v -t --verify --random 1000000
    step "bigmul --backend cuda cufft 10^6 digits" "$logdir/cli-cufft.log" \
      quiet_cli --backend cuda --fft-engine cufft -v -t --verify --random 1000000
    step "bigmul --backend cuda tiled 2*10^4 digits" "$logdir/cli-tiled.log" \
      quiet_cli --backend cuda --algorithm tiled -v -t --verify --random 20000
    step "bigmul --backend auto 10^7 digits" "$logdir/cli-auto.log" \
      quiet_cli -v -t --verify --random 10000000
  fi
fi
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
