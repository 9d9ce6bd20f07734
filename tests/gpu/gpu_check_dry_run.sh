#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# ctest gpu_check_dry_run: scripts/gpu-check.sh's step logic without a GPU.
# Stand-ins (one script under every program's name, and nvidia-smi,
# compute-sanitizer and ncu on PATH) record how they were called; the check
# runs over them:
#   A. the fast tier in full: every step in the documented order, each with
#      its cap from the table, the tier's gtest filters and benchmark
#      arguments, clocks and power before and after, exactly two files, PASS;
#   B. a cap and the budget: a hung step is stopped at its cap, steps past
#      the budget are NOT RUN, a failing test fails, the re-run lines name
#      what was cut and what failed, still exactly two files, exit 1;
#   C. the full tier's filters and caps, and bad settings refused;
#   D. (CUDA builds) every gtest pattern of the script's tables names a test
#      of the real program, and the fast tier keeps the tests it must keep.
#   gpu_check_dry_run.sh SOURCE_DIR BUILD_DIR
set -u
src=${1:?usage: gpu_check_dry_run.sh SOURCE_DIR BUILD_DIR}
build=${2:?usage: gpu_check_dry_run.sh SOURCE_DIR BUILD_DIR}
script=$src/scripts/gpu-check.sh
unset BIGMUL_REQUIRE_GPU STEPS PROGRAMS TIER BUDGET RESERVE CAPS MIN_STEP
tmp=$(mktemp -d /tmp/gpu-check-dry.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() {
  echo "FAILED: $*"
  fails=$((fails + 1))
}

# --- the stand-ins ------------------------------------------------------------------
mkdir -p "$tmp/bin" "$tmp/build/tests" "$tmp/build/bench"
cat >"$tmp/fake" <<'EOF'
#!/usr/bin/env bash
# A stand-in: logs "MODE NAME ARGS..." to $FAKE_LOG, sleeps or fails when
# FAKE_SLEEP / FAKE_FAIL name MODE/NAME, then acts its part.
name=$(basename "$0")
mode=${FAKE_UNDER:-run}
echo "$mode $name $*" >>"$FAKE_LOG"
for kv in ${FAKE_SLEEP:-}; do [ "${kv%%=*}" = "$mode/$name" ] && sleep "${kv#*=}"; done
fail=0
for k in ${FAKE_FAIL:-}; do [ "$k" = "$mode/$name" ] && fail=1; done
case $name in
  nvidia-smi)
    if [[ " $* " == *" --query-gpu="* ]]; then echo "P0, 34, 75.50 W, 700.00 W, 345 MHz, 3201 MHz, 1980 MHz, 3201 MHz"
    else echo "NVIDIA-SMI stand-in (gpu_check_dry_run.sh) $*"; fi ;;
  compute-sanitizer)
    tool=
    while [ $# -gt 0 ] && ! [ -x "$1" -a -f "$1" ]; do [ "$1" = --tool ] && tool=$2; shift; done
    echo "========= COMPUTE-SANITIZER stand-in"
    FAKE_UNDER=$tool "$@"
    rc=$?
    echo "========= ERROR SUMMARY: 0 errors"
    exit $rc ;;
  ncu) echo '"ID","Kernel Name","Metric Name","Metric Value"' ;;
  gpu_preflight) echo "gpu_preflight: device 0 of 1: stand-in, compute capability 9.0" ;;
  bigmul)
    echo 42
    echo "bigmul: GPU stand-in (sm_90, 132 SMs, 4800 GB/s): crossovers tuned on stand-in" >&2
    echo "bigmul: algorithm fft_real (chosen by size) on the GPU, modular check passed" >&2 ;;
  tune_gpu) echo "inc" >"$1/params_fake.inc"; echo "# wrote $1/params_fake.inc: binary {1, 2, 3}" ;;
  bench_*)
    while [ $# -gt 0 ]; do [ "$1" = --json ] && echo '{"benchmarks": []}' >"$2"; shift; done ;;
  test_*)
    json=
    for a in "$@"; do [[ $a == --gtest_output=json:* ]] && json=${a#--gtest_output=json:}; done
    f=
    [ $fail = 1 ] && f='"failures": [ {"failure": "stand-in"} ], '
    [ -n "$json" ] && echo "{\"tests\": 1, \"testsuites\": [ {\"name\": \"Fake\", \"testsuite\": [ {\"name\": \"T\", ${f}\"status\": \"RUN\", \"result\": \"COMPLETED\"} ] } ] }" >"$json"
    if [ $fail = 1 ]; then echo "[  FAILED  ] Fake.T (0 ms)"; exit 1; fi
    echo "[       OK ] Fake.T (0 ms)" ;;
esac
exit $fail
EOF
chmod +x "$tmp/fake"
for n in nvidia-smi compute-sanitizer ncu; do ln -s "$tmp/fake" "$tmp/bin/$n"; done
for n in gpu_preflight test_prim_gpu test_carry_gpu test_fft_gpu test_mul_kernels_gpu test_montgomery_gpu test_mul_gpu; do
  cp "$tmp/fake" "$tmp/build/tests/$n"
done
for n in bench_mul_gpu bench_fft_gpu bench_prim_gpu tune_gpu bigmul; do cp "$tmp/fake" "$tmp/build/bench/$n"; done
export FAKE_LOG
tests="test_prim_gpu test_carry_gpu test_fft_gpu test_mul_kernels_gpu test_montgomery_gpu test_mul_gpu"

# The script's own tables, read the way bash reads them.
tables() { sed -n "/^declare -A $1=(/,/^)/p" "$script"; }
eval "$(tables cap)"
eval "$(tables fast_filter)"
eval "$(tables fast_keep)"
eval "$(tables memcheck_filter)"
eval "$(tables racecheck_filter)"
eval "$(tables bench_args)"
for t in cap fast_filter fast_keep memcheck_filter racecheck_filter bench_args; do
  declare -p "$t" >/dev/null 2>&1 || bad "no table $t in gpu-check.sh"
done

# run_check LABEL [VAR=VALUE...]: runs the check over the stand-ins; sets rc,
# the summary's step names (names) and lines (lines).
run_check() {
  local label=$1
  shift
  FAKE_LOG=$tmp/$label.calls
  : >"$FAKE_LOG"
  rm -rf "$tmp/out-$label"
  env PATH="$tmp/bin:$PATH" "$@" bash "$script" "$tmp/out-$label" "$tmp/build" >"$tmp/$label.out" 2>&1
  rc=$?
  echo "--- $label: rc $rc"
  cat "$tmp/$label.out"
  lines=$(sed -n '/^steps (/,/^clocks after/p' "$tmp/$label.out" | sed '1d;$d' | grep -v '^  ')
  names=$(cut -c1-50 <<<"$lines" | sed 's/ *$//')
  local files
  files=$(cd "$tmp/out-$label" 2>/dev/null && find . -mindepth 1 | sort | tr '\n' ' ')
  [ "$files" = "./logs.tar.xz ./summary.txt " ] || bad "$label: OUTDIR holds '$files', not summary.txt and logs.tar.xz"
}
line_of() { awk -v n="$1" '{ s = substr($0, 1, 50); sub(/ +$/, "", s); if (s == n) { print; exit } }' <<<"$lines"; }
# The filter each test program was given in a mode (run, memcheck, racecheck).
filter_of() { awk -v m="$2" -v n="$1" '$1 == m && $2 == n' "$FAKE_LOG" | grep -o -- '--gtest_filter=[^ ]*' | head -1 | cut -d= -f2-; }

# --- A. the fast tier, every step -----------------------------------------------------
run_check fast
[ $rc = 0 ] || bad "fast: exit status $rc"
grep -q '^overall: PASS$' "$tmp/fast.out" || bad "fast: no 'overall: PASS'"
expected=()
for t in $tests; do expected+=("test $t"); done
expected+=("bigmul --backend cuda fft_real 10^6 digits" "bigmul --backend cuda fused kernels 10^6 digits"
           "bigmul --backend cuda fft tail 10^6 digits"
           "bigmul --backend cuda two-pass limits 10^7 digits"
           "bigmul --backend cuda cufft 10^6 digits"
           "bigmul --backend cuda tiled 2*10^4 digits" "bigmul --backend auto 10^7 digits"
           "benchmark bench_mul_gpu" "benchmark bench_fft_gpu" "benchmark bench_prim_gpu"
           "tune_gpu (params_<device>.inc in the archive)")
for t in $tests; do expected+=("memcheck $t"); done
for t in $tests; do expected+=("racecheck $t"); done
expected+=("ncu real_f64_inhouse, 2^22 digits, G = 1" "ncu real_f64_cufft, 2^22 digits, G = 1")
[ "$names" = "$(printf '%s\n' "${expected[@]}")" ] ||
  bad "fast: steps not in the documented order: got
$names"
[ "$(grep -c ' PASS ' <<<"$lines")" = ${#expected[@]} ] || bad "fast: not every step passed"
# Each step's cap is its entry in the table (nothing was short of budget).
cap_of_step() {
  case $1 in
    "test "*) echo "${cap[tests/${1#test }]}" ;;
    "memcheck "*|"racecheck "*) echo "${cap[${1%% *}/${1#* }]}" ;;
    "benchmark "*) echo "${cap[bench/${1#benchmark }]}" ;;
    *"fft_real 10^6"*) echo "${cap[cli/fft]}" ;;
    *"fused kernels 10^6"*) echo "${cap[cli/fused]}" ;;
    *"fft tail 10^6"*) echo "${cap[cli/tail]}" ;;
    *"two-pass limits 10^7"*) echo "${cap[cli/two_pass]}" ;;
    *"cufft 10^6"*) echo "${cap[cli/cufft]}" ;;
    *tiled*) echo "${cap[cli/tiled]}" ;;
    *"auto 10^7"*) echo "${cap[cli/auto]}" ;;
    tune_gpu*) echo "${cap[tune/tune_gpu]}" ;;
    "ncu "*) v=${1#ncu }; echo "${cap[profile/${v%%,*}]}" ;;
  esac
}
for s in "${expected[@]}"; do
  want=$(cap_of_step "$s")
  [ -n "$want" ] || { bad "fast: no cap in the table for '$s'"; continue; }
  grep -Eq " of +$want""s  " <<<"$(line_of "$s")" || bad "fast: '$s' not run under its cap of $want s: $(line_of "$s")"
done
# Filters and arguments as the tables say.
for t in $tests; do
  [ "$(filter_of "$t" run)" = "${fast_filter[$t]}" ] || bad "fast: $t ran with filter '$(filter_of "$t" run)'"
  [ "$(filter_of "$t" memcheck)" = "${memcheck_filter[$t]}" ] || bad "fast: memcheck $t with '$(filter_of "$t" memcheck)'"
  [ "$(filter_of "$t" racecheck)" = "${racecheck_filter[$t]}" ] || bad "fast: racecheck $t with '$(filter_of "$t" racecheck)'"
done
for b in bench_mul_gpu bench_fft_gpu bench_prim_gpu; do
  grep -q -- "^run $b --json .* ${bench_args[$b]}\$" "$FAKE_LOG" || bad "fast: $b not run with '${bench_args[$b]}'"
done
grep -q -- '^run bigmul -v -t --verify --random 10000000$' "$FAKE_LOG" || bad "fast: no backend-auto run at 10^7 digits"
grep -q -- '^run bigmul --backend cuda --fft-engine cufft -v -t --verify --random 1000000$' "$FAKE_LOG" || bad "fast: no cuFFT run"
grep -q -- '^run ncu --csv --clock-control none ' "$FAKE_LOG" || bad "fast: ncu not run with --clock-control none"
[ "$(grep -c -- '^run nvidia-smi --query-gpu=' "$FAKE_LOG")" = 2 ] || bad "fast: clocks not read twice"
grep -q -- '^run nvidia-smi -q -d CLOCK,POWER' "$FAKE_LOG" || bad "fast: no nvidia-smi -q -d CLOCK,POWER"
grep -q '^clocks before .*: P0, 34, 75.50 W' "$tmp/fast.out" || bad "fast: no clocks before in the summary"
grep -q '^clocks after .*: P0, 34, 75.50 W' "$tmp/fast.out" || bad "fast: no clocks after in the summary"
grep -q '^re-run' "$tmp/fast.out" && bad "fast: a re-run line though nothing was cut"
[ "$(grep -c '^  table: GPU stand-in (sm_90' "$tmp/fast.out")" = 1 ] || bad "fast: the table bigmul -v names is not in the summary"
packed=$(tar -tJf "$tmp/out-fast/logs.tar.xz" 2>/dev/null | sort | tr '\n' ' ')
for f in logs/clocks-before.txt logs/clocks-after.txt logs/test-test_mul_gpu.json logs/racecheck-test_fft_gpu.json \
         logs/bench_mul_gpu.json logs/tuned/params_fake.inc logs/cli-auto.log logs/ncu-real_f64_cufft.csv; do
  [[ " $packed " == *" $f "* ]] || bad "fast: $f not in logs.tar.xz"
done

# --- B. a cap, the budget, a failure ---------------------------------------------------
# (test_fft_gpu hangs, stopped at 2 s; test_mul_gpu takes 5 s, leaving under
# MIN_STEP of the 9 s less RESERVE for everything after it.)
run_check cut BUDGET=9 RESERVE=1 MIN_STEP=2 CAPS="tests/test_fft_gpu=2" \
  FAKE_SLEEP="run/test_fft_gpu=30 run/test_mul_gpu=5" FAKE_FAIL="run/test_carry_gpu"
[ $rc != 0 ] || bad "cut: exit status 0"
grep -q '^overall: FAIL$' "$tmp/cut.out" || bad "cut: no 'overall: FAIL'"
grep -Eq ' PASS ' <<<"$(line_of "test test_prim_gpu")" || bad "cut: test_prim_gpu did not pass"
grep -Eq ' FAIL rc=1 .*failed 1' <<<"$(line_of "test test_carry_gpu")" || bad "cut: test_carry_gpu did not fail"
fft=$(line_of "test test_fft_gpu")
grep -q 'TIMED OUT after 2s' <<<"$fft" || bad "cut: test_fft_gpu not stopped at its cap: $fft"
secs=$(sed -E 's/.* ([0-9]+)s of .*/\1/' <<<"$fft")
[ "${secs:-99}" -le 5 ] || bad "cut: test_fft_gpu took ${secs}s under a 2 s cap"
past=$(sed -n '/^bigmul --backend cuda fft_real/,$p' <<<"$lines")
[ "$(wc -l <<<"$past")" = $((${#expected[@]} - 6)) ] || bad "cut: not every step after the tests reported"
grep -v 'NOT RUN .*out of time (BUDGET=9 s)' <<<"$past" | grep -q . && bad "cut: a step past the budget ran:
$(grep -v 'NOT RUN' <<<"$past")"
grep -Eq "^run (bigmul|bench_|tune_gpu|ncu)|^(memcheck|racecheck) " "$FAKE_LOG" && bad "cut: a program ran past the budget"
rerun=$(grep -m1 '^re-run what was cut: TIER=fast STEPS=' "$tmp/cut.out")
set_of() { sed -E "s/.* $1='([^']*)'.*/\1/" <<<"$rerun" | tr ' ' '\n' | sort | tr '\n' ' '; }
[ "$(set_of STEPS)" = "bench cli memcheck profile racecheck tests tune " ] || bad "cut: re-run STEPS '$(set_of STEPS)'"
[ "$(set_of PROGRAMS)" = "bench_fft_gpu bench_mul_gpu bench_prim_gpu bigmul $(tr ' ' '\n' <<<"$tests" | sort | tr '\n' ' ')tune_gpu " ] ||
  bad "cut: re-run PROGRAMS '$(set_of PROGRAMS)'"
grep -q 'bash scripts/gpu-check.sh "$OUT" build/gpu-bundle.tar.xz$' <<<"$rerun" || bad "cut: re-run line '$rerun'"
grep -q "^re-run what failed (after a fix): TIER=fast STEPS='tests' PROGRAMS='test_carry_gpu' " "$tmp/cut.out" ||
  bad "cut: no re-run line naming what failed"

# Only cut, nothing failed: still no pass.
run_check nothing BUDGET=12 RESERVE=2 MIN_STEP=11
[ $rc != 0 ] || bad "nothing: exit status 0 with every step NOT RUN"
grep -q '^overall: FAIL$' "$tmp/nothing.out" || bad "nothing: no 'overall: FAIL'"
[ "$(grep -c ' NOT RUN ' <<<"$lines")" = ${#expected[@]} ] || bad "nothing: not every step NOT RUN"
grep -q '^re-run what was cut: ' "$tmp/nothing.out" || bad "nothing: no re-run line"
grep -q '^re-run what failed' "$tmp/nothing.out" && bad "nothing: a failed line though nothing ran"

# --- C. the full tier; bad settings ------------------------------------------------------
run_check full TIER=full STEPS=tests PROGRAMS="test_fft_gpu test_mul_gpu"
[ $rc = 0 ] || bad "full: exit status $rc"
[ "$(filter_of test_fft_gpu run)" = '*' ] || bad "full: test_fft_gpu filtered: '$(filter_of test_fft_gpu run)'"
grep -Eq ' of +300s' <<<"$(line_of "test test_fft_gpu")" || bad "full: test_fft_gpu's cap is not the full tier's 300 s"
[ "$(wc -l <<<"$names")" = 2 ] || bad "full: PROGRAMS did not limit the steps"
for setting in TIER=slow STEPS=tests,cli "CAPS=tests/test_fft_gpu=x" "CAPS=nosuch/step=5"; do
  env PATH="$tmp/bin:$PATH" "$setting" bash "$script" "$tmp/out-badset" "$tmp/build" >"$tmp/badset.out" 2>&1
  r=$?
  [ $r = 2 ] || bad "$setting: exit status $r, not 2"
  [ "$(wc -l <"$tmp/badset.out")" = 1 ] || bad "$setting: not one line: $(cat "$tmp/badset.out")"
  [ -e "$tmp/out-badset" ] && bad "$setting: made OUTDIR"
done

# --- D. the tables against the real programs (CUDA builds) -------------------------------
prog() { find "$build" -path "$build/tests/install" -prune -o -type f -perm -u+x -name "$1" -print | head -1; }
if [ -n "$(prog test_prim_gpu)" ]; then
  for table in fast_filter memcheck_filter racecheck_filter; do
    declare -n tab=$table
    for n in "${!tab[@]}"; do
      p=$(prog "$n")
      [ -n "$p" ] || { bad "$table names $n, not built here"; continue; }
      IFS=: read -r -a pats <<<"${tab[$n]#-}"
      for pat in "${pats[@]}"; do
        [ "$pat" = '*' ] && continue
        count=$("$p" --gtest_filter="$pat" --gtest_list_tests | grep -c '^  ')
        [ "$count" -gt 0 ] || bad "$table of $n: '$pat' names no test"
      done
    done
    unset -n tab
    echo "--- $table: every pattern names a test"
  done
  for n in "${!fast_keep[@]}"; do
    selected=$("$(prog "$n")" --gtest_filter="${fast_filter[$n]}" --gtest_list_tests |
      awk '/^[^ ]/ { s = $1; next } { print s $1 }')
    for k in ${fast_keep[$n]}; do
      grep -qx -- "$k" <<<"$selected" || bad "fast tier of $n drops $k, which it must keep"
    done
  done
  # The fast tier drops what it says: the heavy cases are gone, one decimal LargeProducts stays.
  kept=$("$(prog test_mul_gpu)" --gtest_filter="${fast_filter[test_mul_gpu]}" --gtest_list_tests | grep -c 'LargeProducts/.*_decimal  ')
  all=$("$(prog test_mul_gpu)" --gtest_filter='*LargeProducts/*_decimal' --gtest_list_tests | grep -c '^  ')
  [ $((all - kept)) = 3 ] || bad "fast tier of test_mul_gpu drops $((all - kept)) decimal LargeProducts, not three"
else
  echo "--- D: no GPU test programs in $build (a CPU build): the filter check runs in CUDA builds"
fi

[ $fails = 0 ] && echo "gpu_check_dry_run: all as expected" || echo "gpu_check_dry_run: $fails problem(s)"
[ $fails = 0 ]
