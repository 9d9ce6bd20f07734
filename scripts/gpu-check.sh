#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The GPU check, on a machine with a GPU, over programs built elsewhere (this
# script never builds). One command, one device lease (docs/gpu-check.md):
#   scripts/gpu-check.sh OUTDIR [BUNDLE.tar.xz | BUILD_DIR]
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
# Steps, most valuable first, so that a cut (BUDGET) loses least. Expected
# minutes on the H100 (bench/results/gpu/, 2026-11-24; fast tier, see
# docs/gpu-check.md for how each was estimated):
#   preflight  nvidia-smi, clocks and power, unpack, gpu_preflight    0.1
#   tests      each GPU test program, the tier's gtest filter          1.4
#   cli        bigmul --verify on the GPU: 10^6 digits in-house and
#              cuFFT, tiled 2*10^4, backend auto 10^7, two-pass 10^7   0.3
#   bench      bench_mul_gpu and bench_fft_gpu to 2^23 digits/points,
#              bench_prim_gpu to 2^28 elements, 3 repetitions          1.2
#   tune       tune_gpu: params_<device>.inc into the archive          0.3
#   memcheck   compute-sanitizer memcheck, small filters               0.7
#   racecheck  compute-sanitizer racecheck, smaller filters            2.0
#   profile    Nsight Compute speed of light, one 2^22-digit product
#              per FFT engine (UNAVAILABLE where ncu cannot count)     1.5
#   then nvidia-smi's clocks and power again, and the packing (0.1).
#   In all about 7.5 minutes; BUDGET (510 s) cuts whatever runs over.
#
# Output: exactly two files in OUTDIR, summary.txt (device, versions, clocks
# and power before and after, ldd of every program, one line per step with
# gtest counts and its time against its cap, the command that re-runs what
# was cut) and logs.tar.xz (every log, gtest JSON, benchmark JSON, the tuned
# table, ncu CSV), together well under 16 MiB; the work folder lives under
# /tmp, never under OUTDIR.
#
# Environment:
#   TIER      fast (default: fits one lease) or full (every test, the larger
#             sanitizer filters; needs about three leases, split by STEPS)
#   STEPS     steps to run, in this order (default "tests cli bench tune
#             memcheck racecheck profile"; "sanitize" = memcheck racecheck)
#   PROGRAMS  only these programs (basenames, e.g. "test_fft_gpu bigmul");
#             default all
#   BUDGET    seconds for the whole run (default 510: with the packing, under
#             9 minutes); a step gets at most what is left less RESERVE, and
#             steps past it are NOT RUN (which fails the check)
#   RESERVE   seconds kept for the clocks, the packing and the summary (25)
#   MIN_STEP  a step with fewer seconds than this left is NOT RUN (10)
#   CAPS      per-step caps overriding the table below, e.g.
#             "tests/test_fft_gpu=120 racecheck/test_mul_gpu=90"
set -u -o pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: scripts/gpu-check.sh OUTDIR [BUNDLE.tar.xz | BUILD_DIR]"
out=${1:?$usage}
src=${2:-${BUILD_DIR:-$repo/build/release}}
tier=${TIER:-fast}
steps=${STEPS:-tests cli bench tune memcheck racecheck profile}
steps=${steps//sanitize/memcheck racecheck}
programs=" ${PROGRAMS:-} "
budget=${BUDGET:-510}
reserve=${RESERVE:-25}
min_step=${MIN_STEP:-10}
start=$SECONDS
export BIGMUL_REQUIRE_GPU=1

# --- the tables -------------------------------------------------------------------
# gtest filters, fast tier: every test but the heavy ones (H100 seconds):
# ComplexLargestSizes 52, ComplexBatched 33, TiledProductsMatchGmp 48 and three
# of the four decimal LargeProducts (16-19 each). Kept on purpose: the wrapped
# passes (GpuTest.WrappedPassesMatchGmp) and a real-FFT decimal product
# (LargeProducts/fft_real_inhouse_decimal), and issue 37's new kernels' tests (phase
# record, packed scan, radix sort, partitioned merge sort, single-pass split and carry, carry and join
# in one pass, graph passes, the FFT's product tail, pipelined passes, two-pass limits). ctest gpu_check_dry_run
# checks that every pattern names a test and that fast_keep stays selected.
declare -A fast_filter=(
  [test_prim_gpu]='*'
  [test_carry_gpu]='*'
  [test_fft_gpu]='-FftGpu.ComplexLargestSizes:FftGpu.ComplexBatched'
  [test_mul_kernels_gpu]='-MulKernelsGpu.TiledProductsMatchGmp'
  [test_montgomery_gpu]='*'
  [test_mul_gpu]='-Gpu/GpuAlgorithmTest.LargeProducts/fft_complex_inhouse_decimal:Gpu/GpuAlgorithmTest.LargeProducts/fft_complex_cufft_decimal:Gpu/GpuAlgorithmTest.LargeProducts/fft_real_cufft_decimal'
)
# shellcheck disable=SC2034  # read by ctest gpu_check_dry_run
declare -A fast_keep=(
  [test_mul_gpu]='GpuTest.WrappedPassesMatchGmp Gpu/GpuAlgorithmTest.LargeProducts/fft_real_inhouse_decimal GpuTest.TimedPassLeavesPhasesAndShape'
  [test_prim_gpu]='PrimGpu.PackedLookbackScan PrimGpu.RadixSortMatchesStdSort PrimGpu.SortsMatchCpuMergeSort'
  [test_fft_gpu]='FftGpu.PipelinedPassesMatchPlainBitForBit FftGpu.TwoPassLimits'
  [test_mul_kernels_gpu]='MulKernelsGpu.SplitBalancedFusedMatchesCpu MulKernelsGpu.FusedCarryMatchesMultiPass MulKernelsGpu.FusedPassesMatchGmp MulKernelsGpu.GraphPassesMatchGmp MulKernelsGpu.CarryJoinMatchesCpu MulKernelsGpu.CarryJoinPassGuardAndOverlap MulKernelsGpu.FusedTailMatchesGmp MulKernelsGpu.FusedTailSmallMatchesGmp MulKernelsGpu.TwoPassLimitsMatchGmp'
)
# memcheck filters: small sizes only (the full programs run under "tests").
# The full tier runs racecheck over these too.
declare -A memcheck_filter=(
  [test_prim_gpu]='PrimGpu.InclusiveAndExclusiveScanBothAlgorithms:PrimGpu.NonCommutativeScansCarryAndMatrix:PrimGpu.ReduceCommutativeAndOrdered:PrimGpu.CopyIf:PrimGpu.BatchedSmallSort'
  [test_carry_gpu]='CarryGpu.MatchesTwoPhaseCpu:CarryGpu.BatchedEqualsSeparateCalls:CarryGpu.InvalidBaseIsAnError'
  [test_fft_gpu]='FftGpu.PlanOrderMapsFrequencies:FftGpu.LoadStoreFunctors:FftGpu.ComplexPointwiseExactConvolution:FftGpu.CufftAdapterReportsErrors:FftGpu.InvalidSizesThrow'
  [test_mul_kernels_gpu]='MulKernelsGpu.ZeroLimbs:MulKernelsGpu.ResidueMatchesCpu:MulKernelsGpu.BatchedModularCheckFlagsTheWrongProduct:MulKernelsGpu.TiledConvolutionSmallSweep:MulKernelsGpu.TiledProductsSmallMatchGmp:MulKernelsGpu.BalancedProductsMatchGmp:MulKernelsGpu.SplitBalancedFusedSmallMatchesCpu:MulKernelsGpu.FusedCarrySmallMatchesMultiPass:MulKernelsGpu.CarryJoinSmallMatchesCpu:MulKernelsGpu.FusedTailSmallMatchesGmp'
  [test_montgomery_gpu]='MontgomeryGpu.RefusesBadSizes:MontgomeryGpu.ModMulMatchesGmp'
  [test_mul_gpu]='Gpu/GpuAlgorithmTest.UnbalancedOneAndSquares/*:GpuTest.OversizedCoefficientsAreRetried:GpuTest.DeviceApiTwoPhaseAndErrors:GpuTest.TilePairAtomicVariant'
)
# racecheck filters, fast tier: racecheck runs far slower than memcheck (the
# H100 logs under bench/results/gpu/), so its slowest cases (LoadStoreFunctors,
# BatchedEqualsSeparateCalls, BatchedModularCheckFlagsTheWrongProduct,
# OversizedCoefficientsAreRetried, UnbalancedOneAndSquares) are left out; one
# case per kernel family stays.
declare -A racecheck_filter=(
  [test_prim_gpu]='PrimGpu.InclusiveAndExclusiveScanBothAlgorithms:PrimGpu.NonCommutativeScansCarryAndMatrix:PrimGpu.ReduceCommutativeAndOrdered:PrimGpu.CopyIf:PrimGpu.BatchedSmallSort'
  [test_carry_gpu]='CarryGpu.MatchesTwoPhaseCpu:CarryGpu.InvalidBaseIsAnError'
  [test_fft_gpu]='FftGpu.PlanOrderMapsFrequencies:FftGpu.ComplexPointwiseExactConvolution:FftGpu.CufftAdapterReportsErrors:FftGpu.InvalidSizesThrow'
  [test_mul_kernels_gpu]='MulKernelsGpu.ZeroLimbs:MulKernelsGpu.ResidueMatchesCpu:MulKernelsGpu.TiledConvolutionSmallSweep:MulKernelsGpu.TiledProductsSmallMatchGmp:MulKernelsGpu.BalancedProductsMatchGmp:MulKernelsGpu.SplitBalancedFusedSmallMatchesCpu:MulKernelsGpu.FusedCarrySmallMatchesMultiPass:MulKernelsGpu.CarryJoinSmallMatchesCpu:MulKernelsGpu.FusedTailSmallMatchesGmp'
  [test_montgomery_gpu]='MontgomeryGpu.RefusesBadSizes:MontgomeryGpu.ModMulMatchesGmp'
  [test_mul_gpu]='Gpu/GpuAlgorithmTest.UnbalancedOneAndSquares/tiled_inhouse_decimal:Gpu/GpuAlgorithmTest.UnbalancedOneAndSquares/fft_real_inhouse_decimal:Gpu/GpuAlgorithmTest.UnbalancedOneAndSquares/fft_complex_inhouse_binary:Gpu/GpuAlgorithmTest.UnbalancedOneAndSquares/fft_real_cufft_binary:GpuTest.DeviceApiTwoPhaseAndErrors:GpuTest.TilePairAtomicVariant'
)
# Benchmark arguments besides --json FILE.
declare -A bench_args=(
  [bench_mul_gpu]='--max-log2 23 --repetitions 3'
  [bench_fft_gpu]='--max-log2 23 --repetitions 3'
  [bench_prim_gpu]='--max-log2 28 --repetitions 3'
)
# Caps in seconds, per step: 2-4 times the H100's time (fast tier), so that a
# hung step costs its cap, not the lease. The full tier's own are below.
declare -A cap=(
  [preflight/nvidia-smi]=30 [preflight/unpack]=60 [preflight/gpu_preflight]=60
  [tests/test_prim_gpu]=45 [tests/test_carry_gpu]=30 [tests/test_fft_gpu]=120
  [tests/test_mul_kernels_gpu]=110 [tests/test_montgomery_gpu]=30 [tests/test_mul_gpu]=90
  [cli/fft]=60 [cli/fused]=60 [cli/tail]=60 [cli/two_pass]=60 [cli/cufft]=60 [cli/tiled]=60 [cli/auto]=90
  [bench/bench_mul_gpu]=120 [bench/bench_fft_gpu]=90 [bench/bench_prim_gpu]=90
  [tune/tune_gpu]=60
  [memcheck/test_prim_gpu]=30 [memcheck/test_carry_gpu]=30 [memcheck/test_fft_gpu]=45
  [memcheck/test_mul_kernels_gpu]=80 [memcheck/test_montgomery_gpu]=30 [memcheck/test_mul_gpu]=45
  [racecheck/test_prim_gpu]=45 [racecheck/test_carry_gpu]=30 [racecheck/test_fft_gpu]=90
  [racecheck/test_mul_kernels_gpu]=90 [racecheck/test_montgomery_gpu]=30 [racecheck/test_mul_gpu]=90
  [profile/real_f64_inhouse]=90 [profile/real_f64_cufft]=90
)
case $tier in
  fast) ;;
  full)
    # Every test; racecheck over the memcheck filters; caps past the H100's
    # longest runs (racecheck test_mul_kernels_gpu did not finish in 208 s).
    for p in "${!fast_filter[@]}"; do fast_filter[$p]='*'; done
    for p in "${!memcheck_filter[@]}"; do racecheck_filter[$p]=${memcheck_filter[$p]}; done
    cap[tests/test_fft_gpu]=300 cap[tests/test_mul_kernels_gpu]=180 cap[tests/test_mul_gpu]=240
    for p in "${!memcheck_filter[@]}"; do cap[memcheck/$p]=150 cap[racecheck/$p]=300; done
    ;;
  *) echo "gpu-check: TIER must be fast or full (got '$tier')" >&2; exit 2 ;;
esac
for kv in ${CAPS:-}; do
  [[ $kv =~ ^([a-z_]+/[a-z0-9_-]+)=([0-9]+)$ ]] && [ -n "${cap[${BASH_REMATCH[1]}]:-}" ] ||
    { echo "gpu-check: CAPS entry '$kv' is not STEP/NAME=SECONDS for a step of the table" >&2; exit 2; }
  cap[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
done
for s in $steps; do
  case $s in tests|cli|bench|tune|memcheck|racecheck|profile) ;;
    *) echo "gpu-check: unknown step '$s' (tests cli bench tune memcheck racecheck profile sanitize)" >&2; exit 2 ;;
  esac
done

# --- the work folder, the summary, the refusal ---------------------------------------
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
  echo "tier:    $tier; steps: $steps${PROGRAMS:+ (programs: $PROGRAMS)}; BUDGET=$budget s"
  echo "kernel:  $(uname -r) (4.4.0: gVisor, where compute-sanitizer and ncu cannot reach the GPU)"
}

# One line, exit 1: the check never gets past a failed preflight.
refuse() {
  local line="gpu-check: no usable GPU: $*"
  { header; echo "$line"; echo "overall: FAIL (refused at the preflight; nothing ran)"; } >"$summary"
  echo "$line"
  exit 1
}

# Seconds a step may take now: the smaller of its cap and what is left.
allowance() {
  local left=$((budget - (SECONDS - start) - reserve))
  local want=$1
  [ "$left" -lt "$want" ] && want=$left
  echo "$want"
}

# nvidia-smi's clocks, power and temperature, one CSV line (read-only queries).
clocks_line() {
  timeout 30 nvidia-smi --query-gpu=pstate,temperature.gpu,power.draw,power.limit,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader 2>&1 | head -n 1
}
clocks_log() {
  timeout 30 nvidia-smi -q -d CLOCK,POWER,PERFORMANCE,TEMPERATURE >"$logs/clocks-$1.txt" 2>&1
}

# --- preflight ------------------------------------------------------------------
[ -e "$src" ] || refuse "no bundle or build folder at $src"
command -v nvidia-smi >/dev/null 2>&1 || refuse "nvidia-smi not found (no NVIDIA driver on this machine)"
timeout "${cap[preflight/nvidia-smi]}" nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
rc=$?
[ $rc = 0 ] || refuse "nvidia-smi failed (rc $rc): $(grep -m1 . "$logs/nvidia-smi.txt" | cut -c1-200)"
clocks_before=$(clocks_line)
clocks_log before

if [ -f "$src" ]; then  # a bundle
  build=$work/bundle
  mkdir -p "$build"
  timeout "${cap[preflight/unpack]}" tar -C "$build" -xJf "$src" >"$logs/unpack.log" 2>&1 ||
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

timeout "${cap[preflight/gpu_preflight]}" "$preflight" >"$logs/gpu_preflight.txt" 2>&1
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
  echo "preflight: $(tail -n1 "$logs/gpu_preflight.txt") ($((SECONDS - start)) s)"
  echo "nvidia-smi:"
  sed -n '1,12p' "$logs/nvidia-smi.txt" | sed 's/^/  /'
  echo "clocks before (pstate, temperature, power draw, power limit, SM, memory, max SM, max memory): $clocks_before"
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
echo "steps (gtest counts from --gtest_output=json; under this check a skip is a failure; time of cap):" >>"$summary"

# --- step machinery ----------------------------------------------------------------
want_prog() { [ "$programs" = "  " ] || [[ $programs == *" $1 "* ]]; }

steps_done=0
cut_steps=() cut_progs=() failed_steps=() failed_progs=()
# result_line NAME RESULT SECONDS CAP DETAIL
result_line() {
  steps_done=$((steps_done + 1))
  printf '%-50s %-14s %4ss of %4ss  %s\n' "$1" "$2" "$3" "$4" "$5" >>"$summary"
}
# note_cut / note_failed STEP PROGRAM: for the re-run lines at the end.
note_cut() { cut_steps+=("$1"); cut_progs+=("$2"); }
note_failed() { failed_steps+=("$1"); failed_progs+=("$2"); }

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

# timed_run STEP PROG NAME LOG CAPKEY COMMAND...: runs COMMAND (output to LOG)
# for at most its cap and what is left of the budget; sets the caller's t (the
# allowance), c (the cap), t0 and rc. With under MIN_STEP s left it reports
# NAME as NOT RUN, fails the check and returns 1.
timed_run() {
  local step=$1 prog=$2 name=$3 log=$4
  c=${cap[$5]:?gpu-check: no cap for $5}
  shift 5
  t=$(allowance "$c")
  if [ "$t" -lt "$min_step" ]; then
    result_line "$name" "NOT RUN" 0 "$c" "out of time (BUDGET=$budget s)"
    note_cut "$step" "$prog"
    status=1
    return 1
  fi
  t0=$SECONDS
  timeout -k 10 "$t" "$@" >"$log" 2>&1
  rc=$?
  return 0
}

# A tool that cannot reach the GPU here (gVisor: compute-sanitizer says
# "Device not supported", ncu "LibraryNotLoaded"): the step is UNAVAILABLE.
tool_refused() { grep -Eqi 'Device not supported|LibraryNotLoaded|ERR_NVGPUCTRPERM|profiling is not supported' "$1"; }

# gtest_step STEP PROG NAME LOG JSON CAPKEY COMMAND...: runs a gtest program
# (directly or under a sanitizer); passes only with exit 0, a JSON with at
# least one test run, no failure and no skip.
gtest_step() {
  local step=$1 prog=$2 name=$3 log=$4 json=$5 key=$6
  shift 6
  local t c t0 rc
  timed_run "$step" "$prog" "$name" "$log" "$key" "$@" || return 0
  local verdict=PASS detail counts
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
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    detail="$detail; TIMED OUT after ${t}s"
    note_cut "$step" "$prog"
  fi
  if [ $rc != 0 ] && [ "$run" = 0 ] && tool_refused "$log"; then
    verdict=UNAVAILABLE
    detail="the tool cannot reach the GPU here: $(grep -m1 -Ei 'Device not supported|LibraryNotLoaded|ERR_NVGPUCTRPERM|profiling is not supported' "$log" | cut -c1-100)"
    status=1
  elif [ $rc != 0 ] || [ "$run" = 0 ] || [ "$failed" != 0 ] || [ "$skipped" != 0 ]; then
    verdict="FAIL rc=$rc"
    status=1
    [ $rc = 124 ] || [ $rc = 137 ] || note_failed "$step" "$prog"
  fi
  result_line "$name" "$verdict" $((SECONDS - t0)) "$t" "$detail"
}

# plain_step STEP PROG NAME LOG CAPKEY COMMAND...: passes with exit 0 (and,
# when the variable expect is set, a log line matching it).
plain_step() {
  local step=$1 prog=$2 name=$3 log=$4 key=$5
  shift 5
  local t c t0 rc
  timed_run "$step" "$prog" "$name" "$log" "$key" "$@" || return 0
  local detail=
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    detail="TIMED OUT after ${t}s"
    note_cut "$step" "$prog"
  fi
  if [ $rc = 0 ] && [ -n "${expect:-}" ] && ! grep -Eq "$expect" "$log"; then
    rc=99
    detail="exit 0 but no line matching '$expect':"
  fi
  if [ $rc = 0 ]; then
    result_line "$name" PASS $((SECONDS - t0)) "$t" "$(basename "$log")"
  elif [ "${unavailable_ok:-}" = 1 ] && tool_refused "$log"; then
    result_line "$name" UNAVAILABLE $((SECONDS - t0)) "$t" "the tool cannot reach the GPU here: $(tail -n1 "$log" | cut -c1-100)"
    status=1
  else
    result_line "$name" "FAIL rc=$rc" $((SECONDS - t0)) "$t" "$detail $(tail -n1 "$log" | cut -c1-120)"
    [ $rc = 124 ] || [ $rc = 137 ] || note_failed "$step" "$prog"
    status=1
  fi
}

# Test programs bottom-up through the layers (a fault low down shows first;
# the longest, test_mul_gpu, comes last), then any other.
order="test_prim_gpu test_carry_gpu test_fft_gpu test_mul_kernels_gpu test_montgomery_gpu test_mul_gpu"
mapfile -t gpu_tests < <(printf '%s\n' "${progs[@]}" | grep '/test_[^/]*_gpu$' |
  awk -v order="$order" 'BEGIN { n = split(order, o, " "); for (i = 1; i <= n; ++i) rank[o[i]] = i }
    { b = $0; sub(/.*\//, "", b); print (b in rank ? rank[b] : 99) "\t" $0 }' | sort -n | cut -f2)
# Benchmarks: the products first (the headline ratios), then transforms, then primitives.
mapfile -t gpu_benches < <(for n in bench_mul_gpu bench_fft_gpu bench_prim_gpu; do
  printf '%s\n' "${progs[@]}" | grep "/$n\$"; done; printf '%s\n' "${progs[@]}" | grep '/bench_[^/]*_gpu$' |
  grep -Ev '/bench_(mul|fft|prim)_gpu$')
tuner=$(printf '%s\n' "${progs[@]}" | grep '/tune_gpu$' | head -1)
cli=$(printf '%s\n' "${progs[@]}" | grep '/bigmul$' | head -1)
[ ${#gpu_tests[@]} -gt 0 ] || { echo "no GPU test programs in the build: FAIL" >>"$summary"; status=1; }

# --- the steps ----------------------------------------------------------------------
run_tests() {
  local p n filter
  for p in "${gpu_tests[@]}"; do
    n=$(basename "$p")
    want_prog "$n" || continue
    filter=${fast_filter[$n]:-*}
    gtest_step tests "$n" "test $n" "$logs/test-$n.log" "$logs/test-$n.json" "tests/$n" \
      "$p" --gtest_filter="$filter" --gtest_output="json:$logs/test-$n.json"
  done
}

# The command on the GPU: random operands, checked against GMP (--verify)
# (the product goes to /dev/null; stderr, with -v -t, is the log; each must
# say it multiplied on the GPU: auto may not quietly use the CPU). Backend
# auto at 10^7 digits: 2 * 526316 decimal limbs, far past every committed
# table's host crossover (H100: 13702); ctest test_params_gpu keeps every
# table's below it, so auto goes to the GPU without an override.
run_cli() {
  want_prog bigmul || return 0
  if [ -z "$cli" ]; then
    result_line "bigmul command" FAIL 0 0 "not in the build"
    note_failed cli bigmul
    status=1
    return
  fi
  local expect='algorithm .* on the GPU'
  plain_step cli bigmul "bigmul --backend cuda fft_real 10^6 digits" "$logs/cli-fft.log" cli/fft \
    bash -c '"$0" "$@" >/dev/null' "$cli" --backend cuda -v -t --verify --random 1000000
  # Which crossover table the library took for this device (bigmul -v says).
  [ -f "$logs/cli-fft.log" ] && grep -m1 '^bigmul: GPU ' "$logs/cli-fft.log" | sed 's/^bigmul: /  table: /' >>"$summary"
  # The single-pass split, carry and join through the whole library (retries, --verify against
  # GMP): BIGMUL_GPU_FUSED=1 selects them until a GPU run has measured them (docs/gpu-phases.md).
  plain_step cli bigmul "bigmul --backend cuda fused kernels 10^6 digits" "$logs/cli-fused.log" cli/fused \
    bash -c 'BIGMUL_GPU_FUSED=1 "$0" "$@" >/dev/null' "$cli" --backend cuda -v -t --verify --random 1000000
  # The FFT's product tail and pipelined passes on top (docs/gpu-phases.md; off by default, unmeasured).
  plain_step cli bigmul "bigmul --backend cuda fft tail 10^6 digits" "$logs/cli-tail.log" cli/tail \
    bash -c 'BIGMUL_GPU_FUSED=1 BIGMUL_GPU_FUSED_TAIL=1 BIGMUL_GPU_FFT_PIPELINE=1 "$0" "$@" >/dev/null' "$cli" \
    --backend cuda -v -t --verify --random 1000000
  # The plan rule's two-pass limits (docs/gpu-phases.md; off by default, unmeasured): 10^7 digits is a
  # real FP64 transform of 2^22 complex points, three passes by default, two with the switch.
  plain_step cli bigmul "bigmul --backend cuda two-pass limits 10^7 digits" "$logs/cli-two-pass.log" cli/two_pass \
    bash -c 'BIGMUL_GPU_FFT_TWO_PASS=1 "$0" "$@" >/dev/null' "$cli" --backend cuda -v -t --verify --random 10000000
  plain_step cli bigmul "bigmul --backend cuda cufft 10^6 digits" "$logs/cli-cufft.log" cli/cufft \
    bash -c '"$0" "$@" >/dev/null' "$cli" --backend cuda --fft-engine cufft -v -t --verify --random 1000000
  plain_step cli bigmul "bigmul --backend cuda tiled 2*10^4 digits" "$logs/cli-tiled.log" cli/tiled \
    bash -c '"$0" "$@" >/dev/null' "$cli" --backend cuda --algorithm tiled -v -t --verify --random 20000
  plain_step cli bigmul "bigmul --backend auto 10^7 digits" "$logs/cli-auto.log" cli/auto \
    bash -c '"$0" "$@" >/dev/null' "$cli" -v -t --verify --random 10000000
}

run_bench() {
  local b n
  for b in "${gpu_benches[@]}"; do
    n=$(basename "$b")
    want_prog "$n" || continue
    [ -n "${cap[bench/$n]:-}" ] || cap[bench/$n]=60
    # shellcheck disable=SC2086  # the table's arguments split on purpose
    plain_step bench "$n" "benchmark $n" "$logs/$n.log" "bench/$n" "$b" --json "$logs/$n.json" ${bench_args[$n]:-}
  done
}

run_tune() {
  want_prog tune_gpu || return 0
  if [ -z "$tuner" ]; then
    result_line "tune_gpu" FAIL 0 0 "not in the build"
    note_failed tune tune_gpu
    status=1
    return
  fi
  local expect='^# wrote .*/params_[a-z0-9]+\.inc'
  mkdir -p "$logs/tuned"
  plain_step tune tune_gpu "tune_gpu (params_<device>.inc in the archive)" "$logs/tune_gpu.log" tune/tune_gpu \
    "$tuner" "$logs/tuned" --log "$logs/tune_gpu.txt"
}

sanitizer_unavailable=
run_sanitizer() {  # TOOL
  local tool=$1 sanitizer p n filter
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
  for p in "${gpu_tests[@]}"; do
    n=$(basename "$p")
    want_prog "$n" || continue
    if [ -z "$sanitizer" ]; then
      result_line "$tool $n" UNAVAILABLE 0 0 "compute-sanitizer not found (PATH, /usr/local/cuda/bin)"
      status=1
      continue
    fi
    if [ -n "$sanitizer_unavailable" ]; then
      result_line "$tool $n" UNAVAILABLE 0 0 "compute-sanitizer refused the GPU on its first run"
      status=1
      continue
    fi
    if [ "$tool" = memcheck ]; then filter=${memcheck_filter[$n]:-}; else filter=${racecheck_filter[$n]:-}; fi
    if [ -z "$filter" ]; then
      result_line "$tool $n" FAIL 0 0 "no $tool filter for it in gpu-check.sh's table"
      note_failed "$tool" "$n"
      status=1
      continue
    fi
    [ -n "${cap[$tool/$n]:-}" ] || cap[$tool/$n]=60
    # --report-api-errors no: some tests provoke CUDA errors on purpose and
    # check the codes themselves; the sanitizer's own findings still fail.
    gtest_step "$tool" "$n" "$tool $n" "$logs/$tool-$n.log" "$logs/$tool-$n.json" "$tool/$n" \
      "$sanitizer" --tool "$tool" --error-exitcode 1 --print-limit 50 --report-api-errors no \
      "$p" --gtest_filter="$filter" --gtest_output="json:$logs/$tool-$n.json"
    tail -n1 "$summary" | grep -q ' UNAVAILABLE ' && sanitizer_unavailable=1
  done
}

# One single product per engine under ncu: every kernel of the pipeline with
# its duration and the share of peak DRAM and SM throughput it reached (the
# H100 run left the whole pipeline far from its bandwidth floor; this
# says which kernels to fuse or fix). --clock-control none: the clocks the
# card runs at, as the benchmarks see them (never change them).
run_profile() {
  want_prog bench_mul_gpu || return 0
  local ncu bench v
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  bench=$(printf '%s\n' "${gpu_benches[@]}" | grep '/bench_mul_gpu$' | head -1)
  if [ -z "$ncu" ] || [ -z "$bench" ]; then
    result_line "ncu profile" UNAVAILABLE 0 0 "${ncu:+bench_mul_gpu not in the build}${ncu:-ncu not found (PATH, /usr/local/cuda/bin, /opt/nvidia)}"
    status=1
    return
  fi
  for v in real_f64_inhouse real_f64_cufft; do
    unavailable_ok=1 plain_step profile bench_mul_gpu "ncu $v, 2^22 digits, G = 1" "$logs/ncu-$v.csv" "profile/$v" \
      "$ncu" --csv --clock-control none --section SpeedOfLight --section LaunchStats --launch-count 60 \
      "$bench" --filter "^mul/$v/digits=4194304/G=1\$" --repetitions 1 --min-time 0
  done
}

for p in $programs; do  # a misspelt name would quietly select nothing
  printf '%s\n' "${progs[@]}" | grep -q "/$p\$" ||
    { echo "PROGRAMS names $p, which is not in the build: FAIL" >>"$summary"; status=1; }
done
for s in $steps; do
  case $s in
    tests) run_tests ;;
    cli) run_cli ;;
    bench) run_bench ;;
    tune) run_tune ;;
    memcheck|racecheck) run_sanitizer "$s" ;;
    profile) run_profile ;;
  esac
done

if [ $steps_done = 0 ]; then
  echo "no step ran (STEPS='$steps', PROGRAMS='${PROGRAMS:-}'): FAIL" >>"$summary"
  status=1
fi

# --- after: clocks, what to re-run, the archive ---------------------------------------
clocks_log after
echo "clocks after (pstate, temperature, power draw, power limit, SM, memory, max SM, max memory): $(clocks_line)" >>"$summary"
# rerun_line LABEL STEPS... -- PROGS...: the command that runs them again.
rerun_line() {
  local label=$1 s=() p=() x
  shift
  while [ "$1" != -- ]; do s+=("$1"); shift; done
  shift
  p=("$@")
  [ ${#s[@]} = 0 ] && return
  local us up
  us=$(printf '%s\n' "${s[@]}" | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')
  up=$(printf '%s\n' "${p[@]}" | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')
  x="TIER=$tier STEPS='$us' PROGRAMS='$up' bash scripts/gpu-check.sh \"\$OUT\" build/gpu-bundle.tar.xz"
  echo "$label: $x"
}
rerun_line "re-run what was cut" "${cut_steps[@]}" -- "${cut_progs[@]}" >>"$summary"
rerun_line "re-run what failed (after a fix)" "${failed_steps[@]}" -- "${failed_progs[@]}" >>"$summary"

# --- pack: one archive, every file in it capped so it stays far under 16 MiB ----------
for f in "$logs"/* "$logs"/tuned/*; do
  [ -f "$f" ] || continue
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
