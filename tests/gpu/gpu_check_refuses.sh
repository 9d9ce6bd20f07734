#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# ctest gpu_check_refuses_without_gpu: the GPU check may never pass without a
# usable GPU. Runs scripts/gpu-check.sh here with every device hidden
# (CUDA_VISIBLE_DEVICES=-1, so the result is the same on a machine with a GPU):
#   1. as it is: refused at nvidia-smi (none here) or at gpu_preflight;
#   2. with a stand-in nvidia-smi that succeeds, from a bundle: refused by the
#      gpu_preflight program itself (CUDA builds) or for its absence (CPU builds);
# each time: exit status non-zero, exactly one line "gpu-check: no usable GPU: ...",
# no PASS anywhere, nothing in OUTDIR but summary.txt, nothing unpacked there.
# Then, in CUDA builds, the BIGMUL_REQUIRE_GPU=1 rule of the programs: a GPU
# test program skips without it and fails with it; the GPU benchmarks and
# tune_gpu exit 0 without it and non-zero with it; and a check whose preflight
# is fooled still fails. (ctest gpu_check_dry_run checks the step logic and the
# gtest filters.)
#   gpu_check_refuses.sh SOURCE_DIR BUILD_DIR
set -u
src=${1:?usage: gpu_check_refuses.sh SOURCE_DIR BUILD_DIR}
build=${2:?usage: gpu_check_refuses.sh SOURCE_DIR BUILD_DIR}
export CUDA_VISIBLE_DEVICES=-1
unset BIGMUL_REQUIRE_GPU STEPS PROGRAMS
tmp=$(mktemp -d /tmp/gpu-check-refuses.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() {
  echo "FAILED: $*"
  fails=$((fails + 1))
}

preflight=$(find "$build" -type f -perm -u+x -name gpu_preflight | head -1)

# expect_refusal LABEL OUTDIR NOT_REGEX COMMAND...: the check must refuse.
expect_refusal() {
  local label=$1 outdir=$2 not=$3
  shift 3
  "$@" >"$tmp/$label.out" 2>&1
  local rc=$?
  echo "--- $label: rc $rc, output:"
  cat "$tmp/$label.out"
  [ $rc != 0 ] || bad "$label: exit status 0"
  [ "$(wc -l <"$tmp/$label.out")" = 1 ] || bad "$label: not exactly one line of output"
  grep -q '^gpu-check: no usable GPU: .' "$tmp/$label.out" || bad "$label: no 'gpu-check: no usable GPU:' line"
  [ -n "$not" ] && grep -Eq "$not" "$tmp/$label.out" && bad "$label: refused at the wrong stage (matches '$not')"
  grep -rq 'PASS' "$tmp/$label.out" "$outdir" && bad "$label: a PASS line"
  local files
  files=$(cd "$outdir" && find . -mindepth 1 | sort | tr '\n' ' ')
  [ "$files" = "./summary.txt " ] || bad "$label: OUTDIR holds '$files', not just summary.txt"
}

# 1. As it is.
expect_refusal plain "$tmp/out1" '' bash "$src/scripts/gpu-check.sh" "$tmp/out1" "$build"

# 2. nvidia-smi that succeeds; the programs from a bundle.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/nvidia-smi" <<'EOF'
#!/bin/sh
echo "NVIDIA-SMI stand-in (gpu_check_refuses.sh): no GPU behind it"
EOF
chmod +x "$tmp/bin/nvidia-smi"
mkdir -p "$tmp/pack/tests"
if [ -n "$preflight" ]; then
  cp "$preflight" "$tmp/pack/tests/"
  not='nvidia-smi|no gpu_preflight program'  # gpu_preflight itself must refuse
else
  not='nvidia-smi'                          # refused: no gpu_preflight in a CPU build
fi
tar -C "$tmp/pack" -cf - tests | xz -0 >"$tmp/bundle.tar.xz"  # -0: fast, the size is no matter here
expect_refusal stand-in "$tmp/out2" "$not" \
  env PATH="$tmp/bin:$PATH" bash "$src/scripts/gpu-check.sh" "$tmp/out2" "$tmp/bundle.tar.xz"
[ -n "$preflight" ] && ! grep -q 'gpu_preflight\|CUDA\|driver\|device' "$tmp/stand-in.out" &&
  bad "stand-in: the reason does not come from gpu_preflight"

# 3. The programs' BIGMUL_REQUIRE_GPU=1 rule (CUDA builds).
prog() { find "$build" -type f -perm -u+x -name "$1" | head -1; }
if [ -n "$preflight" ]; then
  "$preflight" >"$tmp/preflight.log" 2>&1 && bad "gpu_preflight exited 0 with every device hidden"
  t=$(prog test_prim_gpu)
  if [ -n "$t" ]; then
    "$t" --gtest_filter='PrimGpu.CopyIf' --gtest_output="json:$tmp/skip.json" >"$tmp/skip.log" 2>&1 ||
      bad "test_prim_gpu without BIGMUL_REQUIRE_GPU: non-zero (should skip)"
    grep -q '"result": "SKIPPED"' "$tmp/skip.json" || bad "test_prim_gpu without BIGMUL_REQUIRE_GPU: not skipped"
    BIGMUL_REQUIRE_GPU=1 "$t" --gtest_filter='PrimGpu.CopyIf' >"$tmp/req.log" 2>&1 &&
      bad "test_prim_gpu under BIGMUL_REQUIRE_GPU=1 without a GPU: exit 0"
    grep -q 'BIGMUL_REQUIRE_GPU=1 but no usable GPU' "$tmp/req.log" || bad "test_prim_gpu: no BIGMUL_REQUIRE_GPU message"
  fi
  for b in bench_prim_gpu bench_fft_gpu bench_mul_gpu tune_gpu; do
    p=$(prog $b)
    [ -n "$p" ] || continue
    # The benchmarks take the harness's --json FILE; tune_gpu the folder its
    # params_<device>.inc goes to (and --log).
    out=(--json "$tmp/$b.out")
    [ $b = tune_gpu ] && mkdir -p "$tmp/tuned" && out=("$tmp/tuned" --log "$tmp/$b.out")
    "$p" "${out[@]}" >"$tmp/$b.log" 2>&1 || bad "$b without a GPU nor BIGMUL_REQUIRE_GPU: non-zero"
    grep -q "^$b: no usable GPU (.*); nothing" "$tmp/$b.log" || bad "$b without a GPU: no 'no usable GPU' message"
    BIGMUL_REQUIRE_GPU=1 "$p" "${out[@]}" >>"$tmp/$b.log" 2>&1 && bad "$b under BIGMUL_REQUIRE_GPU=1: exit 0"
    [ -e "$tmp/$b.out" ] && bad "$b wrote its output without a GPU"
    [ $b = tune_gpu ] && [ -n "$(ls -A "$tmp/tuned")" ] && bad "tune_gpu wrote a table without a GPU"
  done
fi

# 4. Even past a fooled preflight (a stand-in gpu_preflight that exits 0) the
#    check may not pass: the programs themselves fail without a GPU (the
#    BIGMUL_REQUIRE_GPU rule). Two files in OUTDIR, no PASS line. (bigmul is
#    left out: its auto step would multiply 10^7 digits on the CPU here; it
#    fails there too, since its log must say "on the GPU".)
if [ -n "$preflight" ]; then
  rm -rf "$tmp/pack" && mkdir -p "$tmp/pack"
  printf '#!/bin/sh\necho "gpu_preflight stand-in: pretends a GPU"\n' >"$tmp/pack/gpu_preflight"
  chmod +x "$tmp/pack/gpu_preflight"
  for n in test_prim_gpu bench_prim_gpu tune_gpu; do
    p=$(prog $n)
    [ -n "$p" ] && cp "$p" "$tmp/pack/"
  done
  tar -C "$tmp/pack" -cf - . | xz -0 >"$tmp/fooled.tar.xz"
  env PATH="$tmp/bin:$PATH" STEPS="tests bench tune" PROGRAMS="test_prim_gpu bench_prim_gpu tune_gpu" BUDGET=100 \
    bash "$src/scripts/gpu-check.sh" "$tmp/out4" "$tmp/fooled.tar.xz" >"$tmp/fooled.out" 2>&1
  rc=$?
  echo "--- fooled preflight: rc $rc, summary:"
  cat "$tmp/fooled.out"
  [ $rc != 0 ] || bad "fooled preflight: exit status 0"
  grep -q '^overall: FAIL' "$tmp/fooled.out" || bad "fooled preflight: no 'overall: FAIL'"
  grep -q 'PASS' "$tmp/fooled.out" && bad "fooled preflight: a PASS line"
  grep -Eq '^test test_prim_gpu +FAIL' "$tmp/fooled.out" || bad "fooled preflight: test_prim_gpu did not fail"
  files=$(cd "$tmp/out4" && find . -mindepth 1 | sort | tr '\n' ' ')
  [ "$files" = "./logs.tar.xz ./summary.txt " ] || bad "fooled preflight: OUTDIR holds '$files'"
fi

[ $fails = 0 ] && echo "gpu_check_refuses: all refusals as expected" || echo "gpu_check_refuses: $fails problem(s)"
[ $fails = 0 ]
