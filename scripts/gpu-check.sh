#!/usr/bin/env bash
# The GPU check, on a machine with a GPU, over programs built elsewhere (this
# script never builds):
#   scripts/gpu-check.sh OUTDIR [BUILD]
# BUILD: the bundle scripts/gpu-bundle.sh makes (build/gpu-bundle.tar.xz,
# unpacked under /tmp) or a build folder (default build/release, or BUILD_DIR).
#
# It cannot pass without a GPU: a preflight runs first (nvidia-smi, then the
# bundled gpu_preflight program, which makes a CUDA context and runs a kernel);
# without a usable GPU the check prints ONE line "gpu-check: no usable GPU:
# <reason>" and exits 1 at once. Every step runs with BIGMUL_REQUIRE_GPU=1, so
# a GPU test that finds no GPU fails instead of skipping, and any skipped test
# counts as a failure here.
#
# Output: exactly two files in OUTDIR, summary.txt (device, versions, ldd of
# every program, one line per step with gtest counts) and logs.tar.xz (every
# log, gtest JSON, benchmark JSON and the tuner's params_sm90.inc), together
# well under 16 MiB; the work folder lives under /tmp, never under OUTDIR.
#
# Environment:
#   STEPS     steps in the order to run them (default "tests sanitize bench tune"):
#             tests     every GPU test program in full, then the bigmul command
#                       on the GPU with --verify
#             sanitize  compute-sanitizer memcheck and racecheck over a small-size
#                       filter of each GPU test program (table below)
#             bench     every GPU benchmark (its JSON into the archive)
#             tune      tune_gpu (params_sm90.inc into the archive)
#             profile   Nsight Compute (ncu, SpeedOfLight and launch sections,
#                       CSV) over one product of 2^22 digits, in-house FFT and
#                       cuFFT pipeline: each kernel's time, DRAM and SM
#                       throughput, for the HBM-floor gap (not in the default)
#   PROGRAMS  only these programs (basenames, e.g. "test_fft_gpu"); default all
#   TOOLS     sanitizer tools (default "memcheck racecheck")
#   BUDGET    seconds for the whole run (default 540, inside the device tool's
#             10-minute command limit); a step gets at most what is left less
#             a reserve for packing the logs, and steps past it are NOT RUN
#             (which fails the check)
#   STEP_TIMEOUT  seconds at most for one step (default 300)
set -u -o pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: scripts/gpu-check.sh OUTDIR [BUNDLE.tar.xz | BUILD_DIR]"
out=${1:?$usage}
src=${2:-${BUILD_DIR:-$repo/build/release}}
steps=${STEPS:-tests sanitize bench tune}
programs=" ${PROGRAMS:-} "
tools=${TOOLS:-memcheck racecheck}
budget=${BUDGET:-540}
step_timeout=${STEP_TIMEOUT:-300}
reserve=25  # seconds kept for packing the logs
start=$SECONDS
export BIGMUL_REQUIRE_GPU=1

# compute-sanitizer filters: small sizes only (the full programs run under
# "tests"). ctest gpu_check_refuses_without_gpu checks that every pattern here
# still names a test (gtest --gtest_list_tests needs no GPU).
declare -A san_filter=(
  [test_prim_gpu]='PrimGpu.InclusiveAndExclusiveScanBothAlgorithms:PrimGpu.NonCommutativeScansCarryAndMatrix:PrimGpu.ReduceCommutativeAndOrdered:PrimGpu.CopyIf:PrimGpu.BatchedSmallSort'
  [test_carry_gpu]='CarryGpu.MatchesTwoPhaseCpu:CarryGpu.BatchedEqualsSeparateCalls:CarryGpu.InvalidBaseIsAnError'
  [test_fft_gpu]='FftGpu.PlanOrderMapsFrequencies:FftGpu.LoadStoreFunctors:FftGpu.ComplexPointwiseExactConvolution:FftGpu.CufftAdapterReportsErrors:FftGpu.InvalidSizesThrow'
  [test_mul_kernels_gpu]='MulKernelsGpu.ZeroLimbs:MulKernelsGpu.ResidueMatchesCpu:MulKernelsGpu.BatchedModularCheckFlagsTheWrongProduct:MulKernelsGpu.TiledConvolutionSmallSweep:MulKernelsGpu.TiledProductsSmallMatchGmp:MulKernelsGpu.BalancedProductsMatchGmp'
  [test_montgomery_gpu]='MontgomeryGpu.RefusesBadSizes:MontgomeryGpu.ModMulMatchesGmp'
  [test_mul_gpu]='Gpu/GpuAlgorithmTest.UnbalancedOneAndSquares/*:GpuTest.OversizedCoefficientsAreRetried:GpuTest.DeviceApiTwoPhaseAndErrors:GpuTest.TilePairAtomicVariant'
)
# Benchmark arguments besides --json FILE: sizes that fit the window.
declare -A bench_args=(
  [bench_prim_gpu]='--max-log2 28'
  [bench_fft_gpu]='--max-log2 23'
  [bench_mul_gpu]='--max-log2 23'
)

mkdir -p "$out" || { echo "gpu-check: cannot make $out"; exit 1; }
out=$(cd "$out" && pwd)
summary=$out/summary.txt
archive=$out/logs.tar.xz
rm -f "$summary" "$archive"
work=$(mktemp -d /tmp/bigmul-gpu-check.XXXXXX) || { echo "gpu-check: cannot make a folder under /tmp"; exit 1; }
logs=$work/logs
mkdir -p "$logs"
trap 'rm -rf "$work"' EXIT

header() {
  echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  # The device machine's copy of the tree can lag the bundle (its git state
  # is the session's start); the bundle's own commit is the "bundle:" line.
  echo "checkout: $(git -C "$repo" rev-parse HEAD 2>/dev/null || echo 'no git here')$(git -C "$repo" diff --quiet 2>/dev/null || echo ' (dirty or no git)')"
  echo "build:   $src"
  echo "steps:   $steps${PROGRAMS:+ (programs: $PROGRAMS)}"
}

# One line, exit 1: the check never gets past a failed preflight.
refuse() {
  local line="gpu-check: no usable GPU: $*"
  { header; echo "$line"; echo "overall: FAIL (refused at the preflight; nothing ran)"; } >"$summary"
  echo "$line"
  exit 1
}

# Seconds a step may take now: the smaller of its own limit and what is left.
allowance() {
  local left=$((budget - (SECONDS - start) - reserve))
  local want=${1:-$step_timeout}
  [ "$left" -lt "$want" ] && want=$left
  echo "$want"
}

# --- preflight ------------------------------------------------------------------
[ -e "$src" ] || refuse "no bundle or build folder at $src"
command -v nvidia-smi >/dev/null 2>&1 || refuse "nvidia-smi not found (no NVIDIA driver on this machine)"
timeout 60 nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
rc=$?
[ $rc = 0 ] || refuse "nvidia-smi failed (rc $rc): $(grep -m1 . "$logs/nvidia-smi.txt" | cut -c1-200)"

if [ -f "$src" ]; then  # a bundle
  build=$work/bundle
  mkdir -p "$build"
  timeout 300 tar -C "$build" -xJf "$src" >"$logs/unpack.log" 2>&1 ||
    refuse "cannot unpack $src: $(grep -m1 . "$logs/unpack.log")"
else
  build=$(cd "$src" && pwd)
fi
# The programs stamp their output with the commit they were built from (the
# bundle's), not with whatever git says on this machine.
if [ -f "$build/BUNDLE_INFO" ]; then
  BIGMUL_BUILD_COMMIT=$(awk '$1 == "commit" { c = substr($2, 1, 7); if ($3 != "") c = c " (dirty)"; print c }' "$build/BUNDLE_INFO")
  export BIGMUL_BUILD_COMMIT
fi
preflight=$(find "$build" -type f -perm -u+x -name gpu_preflight | head -1)
[ -n "$preflight" ] || refuse "no gpu_preflight program in $src (a build configured without CUDA?)"

# The CUDA libraries the programs load (cuFFT; the runtime is linked in) come
# from this machine's toolkit, never from a Python environment's copies
# (site-packages/nvidia/...), which LD_LIBRARY_PATH may name on such machines.
python_path='site-packages|dist-packages|/\.venv/|/venv/|/conda'
clean=
IFS=: read -r -a parts <<<"${LD_LIBRARY_PATH:-}"
for d in "${parts[@]}"; do
  [ -n "$d" ] && ! [[ $d =~ $python_path ]] && clean=${clean:+$clean:}$d
done
export LD_LIBRARY_PATH=$clean
# (a build folder's tests/install holds the install ctest's copy of bigmul: skipped)
mapfile -t progs < <(find "$build" -path "$build/tests/install" -prune -o -type f -perm -u+x \( -name 'test_*_gpu' \
  -o -name 'bench_*_gpu' -o -name tune_gpu -o -name bigmul -o -name gpu_preflight \) -print | sort)
loader_notes=()
# Libraries to place: those not found and those the loader would take from a
# Python environment; the toolkit under /usr/local/cuda* comes first.
for lib in $(for p in "${progs[@]}"; do
  ldd "$p" 2>/dev/null | awk -v py="$python_path" '$2 == "=>" && ($3 == "not" || $3 ~ py) {print $1}'
done | sort -u); do
  found=
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib \
           /usr/local/cuda-*/targets/x86_64-linux/lib /usr/local/cuda-*/lib64; do
    [ -e "$d/$lib" ] && { found=$d; break; }
  done
  if [ -z "$found" ]; then
    hit=$(find /usr/local /opt /usr/lib -name "$lib" 2>/dev/null | grep -Ev "$python_path" | head -1)
    [ -n "$hit" ] && found=$(dirname "$hit")
  fi
  if [ -n "$found" ]; then
    LD_LIBRARY_PATH=$found${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    loader_notes+=("loader:  $lib from $found")
  else
    loader_notes+=("loader:  $lib NOT FOUND outside Python environments")
  fi
done
export LD_LIBRARY_PATH
# cuFFT is opened on first use (dlopen of the SONAME the build saw), so ldd does
# not list it: name the toolkit's copy in BIGMUL_CUFFT_LIBRARY unless the
# loader's cache already knows it; never a Python environment's copy.
if [ -z "${BIGMUL_CUFFT_LIBRARY:-}" ] && ! ldconfig -p 2>/dev/null | grep -q 'libcufft\.so\.12 '; then
  hit=
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib \
           /usr/local/cuda-*/targets/x86_64-linux/lib /usr/local/cuda-*/lib64; do
    [ -e "$d/libcufft.so.12" ] && { hit=$d/libcufft.so.12; break; }
  done
  [ -n "$hit" ] || hit=$(find /usr/local /opt /usr/lib -name 'libcufft.so.[0-9]*' 2>/dev/null | grep -Ev "$python_path" | sort | head -1)
  if [ -n "$hit" ]; then
    export BIGMUL_CUFFT_LIBRARY=$hit
    loader_notes+=("loader:  cuFFT (dlopen) from $hit (BIGMUL_CUFFT_LIBRARY)")
  else
    loader_notes+=("loader:  cuFFT NOT FOUND outside Python environments (the cufft steps will fail)")
  fi
else
  loader_notes+=("loader:  cuFFT (dlopen) ${BIGMUL_CUFFT_LIBRARY:-libcufft.so.12, in the loader cache}")
fi

timeout 60 "$preflight" >"$logs/gpu_preflight.txt" 2>&1
rc=$?
if [ $rc != 0 ]; then
  reason=$(grep -m1 -i 'no usable GPU' "$logs/gpu_preflight.txt" | sed 's/^gpu_preflight: no usable GPU: //')
  [ -n "$reason" ] || reason="gpu_preflight failed (rc $rc): $(tail -n1 "$logs/gpu_preflight.txt" | cut -c1-200)"
  refuse "$reason"
fi

# --- the summary's head: device, versions, what each program loads ----------------
status=0
{
  header
  echo "tmp:     $work (bundle and logs; removed at exit)"
  echo "preflight: $(tail -n1 "$logs/gpu_preflight.txt")"
  echo "nvidia-smi:"
  sed -n '1,12p' "$logs/nvidia-smi.txt" | sed 's/^/  /'
  [ -f "$build/BUNDLE_INFO" ] && sed 's/^/bundle:  /' "$build/BUNDLE_INFO"
  for n in "${loader_notes[@]}"; do echo "$n"; done
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH}"
  echo "ldd (libraries each program loads, besides libc/libm/libgcc/ld.so/vdso):"
} >"$summary"
for p in "${progs[@]}"; do
  libs=$(ldd "$p" 2>&1 | grep -Ev 'linux-vdso|ld-linux|libc\.so|libm\.so|libgcc_s|libdl\.so|librt\.so|libpthread' |
    awk '/not a dynamic executable/ { print "(static)"; next }
         { if ($2 == "=>") printf "%s=>%s ", $1, $3; else printf "%s ", $1 }')
  echo "  $(basename "$p"): ${libs:-(none)}" >>"$summary"
  if grep -Eq "$python_path|not found" <<<"$libs"; then
    echo "  ^ FAIL: a library is missing or comes from a Python environment" >>"$summary"
    status=1
  fi
done
[ -f "$logs/unpack.log" ] && [ ! -s "$logs/unpack.log" ] && rm -f "$logs/unpack.log"
echo "steps (gtest counts from --gtest_output=json; under this check a skip is a failure):" >>"$summary"

# --- steps ----------------------------------------------------------------------
want_prog() { [ "$programs" = "  " ] || [[ $programs == *" $1 "* ]]; }

steps_done=0
result_line() {  # NAME RESULT SECONDS DETAIL
  steps_done=$((steps_done + 1))
  printf '%-58s %-14s %5ss  %s\n' "$1" "$2" "$3" "$4" >>"$summary"
}

# gtest counts from its JSON (grep/awk only: the GPU machine may lack jq and
# python3): run = tests that ran, failed = tests with a failures list, skipped =
# "result": "SKIPPED". Prints "run passed failed skipped", or nothing.
gtest_counts() {
  [ -s "$1" ] || return 0
  local run failed skipped
  run=$(grep -c '"status": "RUN"' "$1")
  failed=$(grep -c '"failures": \[' "$1")
  skipped=$(grep -c '"result": "SKIPPED"' "$1")
  echo "$run $((run - failed - skipped)) $failed $skipped"
}

# timed_run NAME LOG LIMIT COMMAND...: runs COMMAND (output to LOG) under what
# is left of the budget, at most LIMIT s; sets the caller's t (the allowance),
# t0 and rc. With under 10 s left it reports NAME as NOT RUN, fails the check
# and returns 1.
timed_run() {
  local name=$1 log=$2 limit=$3
  shift 3
  t=$(allowance "$limit")
  if [ "$t" -lt 10 ]; then
    result_line "$name" "NOT RUN" 0 "out of time (BUDGET=$budget s)"
    status=1
    return 1
  fi
  t0=$SECONDS
  timeout -k 10 "$t" "$@" >"$log" 2>&1
  rc=$?
  return 0
}

# gtest_step NAME LOG JSON LIMIT COMMAND...: runs a gtest program (directly or
# under a sanitizer); passes only with exit 0, a JSON with at least one test
# run, no failure and no skip.
gtest_step() {
  local name=$1 log=$2 json=$3 limit=$4
  shift 4
  local t t0 rc
  timed_run "$name" "$log" "$limit" "$@" || return
  local verdict=PASS detail
  local counts
  counts=$(gtest_counts "$json")
  if [ -z "$counts" ]; then
    # No JSON (a crash or a timeout): count what the log shows.
    local ok fl sk
    ok=$(grep -c '^\[       OK \]' "$log")
    fl=$(grep -c '^\[  FAILED  \] [A-Za-z].*(' "$log")
    sk=$(grep -c '^\[  SKIPPED \] [A-Za-z].*(' "$log")
    counts="$((ok + fl + sk)) $ok $fl $sk"
    detail="no JSON (from the log): "
  fi
  read -r run passed failed skipped <<<"$counts"
  detail="${detail:-}run $run passed $passed failed $failed skipped $skipped"
  local sanitizer_summary
  sanitizer_summary=$(grep -m1 -o 'ERROR SUMMARY: [0-9]* error[s]*' "$log")
  [ -n "$sanitizer_summary" ] && detail="$detail; $sanitizer_summary"
  [ $rc = 124 ] || [ $rc = 137 ] && detail="$detail; TIMED OUT after ${t}s"
  if [ $rc != 0 ] || [ "$run" = 0 ] || [ "$failed" != 0 ] || [ "$skipped" != 0 ]; then
    verdict="FAIL rc=$rc"
    status=1
  fi
  result_line "$name" "$verdict" $((SECONDS - t0)) "$detail"
}

# plain_step NAME LOG LIMIT COMMAND...: passes with exit 0 (and, when the
# variable expect is set, a log line matching it).
plain_step() {
  local name=$1 log=$2 limit=$3
  shift 3
  local t t0 rc
  timed_run "$name" "$log" "$limit" "$@" || return
  local detail=
  [ $rc = 124 ] || [ $rc = 137 ] && detail="TIMED OUT after ${t}s"
  if [ $rc = 0 ] && [ -n "${expect:-}" ] && ! grep -Eq "$expect" "$log"; then
    rc=99
    detail="exit 0 but no line matching '$expect':"
  fi
  if [ $rc = 0 ]; then
    result_line "$name" PASS $((SECONDS - t0)) "$(basename "$log")"
  else
    result_line "$name" "FAIL rc=$rc" $((SECONDS - t0)) "$detail $(tail -n1 "$log" | cut -c1-120)"
    status=1
  fi
}

# Test programs bottom-up through the layers (a fault low down shows first;
# the longest, test_mul_gpu, comes last), then any other.
order="test_prim_gpu test_carry_gpu test_fft_gpu test_mul_kernels_gpu test_montgomery_gpu test_mul_gpu"
mapfile -t gpu_tests < <(printf '%s\n' "${progs[@]}" | grep '/test_[^/]*_gpu$' |
  awk -v order="$order" 'BEGIN { n = split(order, o, " "); for (i = 1; i <= n; ++i) rank[o[i]] = i }
    { b = $0; sub(/.*\//, "", b); print (b in rank ? rank[b] : 99) "\t" $0 }' | sort -n | cut -f2)
mapfile -t gpu_benches < <(printf '%s\n' "${progs[@]}" | grep '/bench_[^/]*_gpu$')
tuner=$(printf '%s\n' "${progs[@]}" | grep '/tune_gpu$' | head -1)
cli=$(printf '%s\n' "${progs[@]}" | grep '/bigmul$' | head -1)
[ ${#gpu_tests[@]} -gt 0 ] || { echo "no GPU test programs in the build: FAIL" >>"$summary"; status=1; }

run_tests() {
  for t in "${gpu_tests[@]}"; do
    local n
    n=$(basename "$t")
    want_prog "$n" || continue
    gtest_step "test $n" "$logs/test-$n.log" "$logs/test-$n.json" "$step_timeout" \
      "$t" --gtest_output="json:$logs/test-$n.json"
  done
  want_prog bigmul || return 0
  if [ -z "$cli" ]; then
    result_line "bigmul command" FAIL 0 "not in the build"
    status=1
    return
  fi
  # The command on the GPU: random operands, checked against GMP (--verify).
  # (the product itself goes to /dev/null; stderr, with -v -t, is the log;
  # each must say it multiplied on the GPU: auto may not quietly use the CPU)
  local expect='algorithm .* on the GPU'
  plain_step "bigmul --backend cuda fft_real 10^6 digits" "$logs/cli-fft.log" 120 \
    bash -c '"$0" "$@" >/dev/null' "$cli" --backend cuda -v -t --verify --random 1000000
  plain_step "bigmul --backend cuda cufft 10^6 digits" "$logs/cli-cufft.log" 120 \
    bash -c '"$0" "$@" >/dev/null' "$cli" --backend cuda --fft-engine cufft -v -t --verify --random 1000000
  plain_step "bigmul --backend cuda tiled 2*10^4 digits" "$logs/cli-tiled.log" 120 \
    bash -c '"$0" "$@" >/dev/null' "$cli" --backend cuda --algorithm tiled -v -t --verify --random 20000
  # auto: 3*10^7 digits (3.2*10^6 limbs in all) is past any host crossover
  # tune_gpu can write (it stops at 2^21 limbs), so this must go to the GPU.
  plain_step "bigmul --backend auto 3*10^7 digits" "$logs/cli-auto.log" 180 \
    bash -c '"$0" "$@" >/dev/null' "$cli" -v -t --verify --random 30000000
}

run_sanitize() {
  local sanitizer
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
  if [ -z "$sanitizer" ]; then
    result_line "compute-sanitizer" FAIL 0 "not found (PATH, /usr/local/cuda/bin)"
    status=1
    return
  fi
  # Runs still to go. Each run may use the time left less 30 s for every run
  # after it: racecheck times differ 50-fold between programs (3 s to 149 s
  # on the H100, 2026-11-24), so an even share starved the slow ones while
  # the fast ones handed back time too late.
  local togo=0 ntools
  ntools=$(wc -w <<<"$tools")
  for t in "${gpu_tests[@]}"; do want_prog "$(basename "$t")" && togo=$((togo + ntools)); done
  for t in "${gpu_tests[@]}"; do
    local n
    n=$(basename "$t")
    want_prog "$n" || continue
    local filter=${san_filter[$n]:-}
    if [ -z "$filter" ]; then
      result_line "compute-sanitizer $n" FAIL 0 "no filter for it in gpu-check.sh's table"
      status=1
      togo=$((togo - ntools))
      continue
    fi
    for tool in $tools; do
      local share=$((budget - (SECONDS - start) - reserve - 30 * (togo > 1 ? togo - 1 : 0)))
      [ "$share" -lt 30 ] && share=30
      [ "$share" -gt "$step_timeout" ] && share=$step_timeout
      togo=$((togo - 1))
      # --report-api-errors no: some tests provoke CUDA errors on purpose and
      # check the codes themselves; the sanitizer's own findings still fail.
      gtest_step "compute-sanitizer $tool $n" "$logs/$tool-$n.log" "$logs/$tool-$n.json" "$share" \
        "$sanitizer" --tool "$tool" --error-exitcode 1 --print-limit 50 --report-api-errors no \
        "$t" --gtest_filter="$filter" --gtest_output="json:$logs/$tool-$n.json"
    done
  done
}

run_bench() {
  for b in "${gpu_benches[@]}"; do
    local n
    n=$(basename "$b")
    want_prog "$n" || continue
    # shellcheck disable=SC2086  # the table's arguments split on purpose
    plain_step "benchmark $n" "$logs/$n.log" "$step_timeout" "$b" --json "$logs/$n.json" ${bench_args[$n]:-}
  done
}

# One single product per engine under ncu: every kernel of the pipeline with
# its duration and the share of peak DRAM and SM throughput it reached (the
# first H100 run measured the whole pipeline at ~10 % of the bandwidth floor;
# this says which kernels to fuse or fix). --clock-control none: the clocks
# the card runs at, as the benchmarks see them.
run_profile() {
  want_prog bench_mul_gpu || return 0
  local ncu bench
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  bench=$(printf '%s\n' "${gpu_benches[@]}" | grep '/bench_mul_gpu$' | head -1)
  if [ -z "$ncu" ] || [ -z "$bench" ]; then
    result_line "ncu profile" FAIL 0 "${ncu:+bench_mul_gpu not in the build}${ncu:-ncu not found (PATH, /usr/local/cuda/bin, /opt/nvidia)}"
    status=1
    return
  fi
  for v in real_f64_inhouse real_f64_cufft; do
    plain_step "ncu $v, 2^22 digits, G = 1" "$logs/ncu-$v.csv" "$step_timeout" \
      "$ncu" --csv --clock-control none --section SpeedOfLight --section LaunchStats --launch-count 60 \
      "$bench" --filter "^mul/$v/digits=4194304/G=1\$" --repetitions 1 --min-time 0
  done
}

run_tune() {
  want_prog tune_gpu || return 0
  if [ -z "$tuner" ]; then
    result_line "tune_gpu" FAIL 0 "not in the build"
    status=1
    return
  fi
  plain_step "tune_gpu (params_sm90.inc in the archive)" "$logs/tune_gpu.log" "$step_timeout" \
    "$tuner" "$logs/params_sm90.inc" --log "$logs/tune_gpu.txt"
}

for p in $programs; do  # a misspelt name would quietly select nothing
  printf '%s\n' "${progs[@]}" | grep -q "/$p\$" ||
    { echo "PROGRAMS names $p, which is not in the build: FAIL" >>"$summary"; status=1; }
done
for s in $steps; do
  case $s in
    tests) run_tests ;;
    sanitize) run_sanitize ;;
    bench) run_bench ;;
    tune) run_tune ;;
    profile) run_profile ;;
    *) echo "unknown step '$s' (tests sanitize bench tune profile): FAIL" >>"$summary"; status=1 ;;
  esac
done

if [ $steps_done = 0 ]; then
  echo "no step ran (STEPS='$steps', PROGRAMS='${PROGRAMS:-}'): FAIL" >>"$summary"
  status=1
fi

# --- pack: one archive, every file in it capped so it stays far under 16 MiB ----------
for f in "$logs"/*; do
  size=$(stat -c %s "$f")
  if [ "$size" -gt $((4 << 20)) ]; then
    { head -c $((1 << 20)) "$f"; printf '\n... [%s bytes cut by gpu-check.sh] ...\n' "$((size - (3 << 20)))"
      tail -c $((2 << 20)) "$f"; } >"$f.cut" && mv "$f.cut" "$f"
  fi
done
if ! (cd "$work" && timeout 60 tar -cf - logs | xz -6 >"$archive"); then
  echo "packing the logs failed: FAIL" >>"$summary"
  status=1
fi
asize=$(stat -c %s "$archive" 2>/dev/null || echo 0)
if [ "$asize" -gt $((15 << 20)) ]; then
  echo "logs.tar.xz is $asize bytes, over 15 MiB: removed: FAIL" >>"$summary"
  rm -f "$archive"
  status=1
fi
echo "archive: logs.tar.xz ($asize bytes); took $((SECONDS - start)) s of BUDGET=$budget s" >>"$summary"
echo "overall: $([ $status = 0 ] && echo PASS || echo FAIL)" >>"$summary"
cat "$summary"
exit $status
