#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# bigmul --distributed end to end (ctest dist_cli): outputs byte-identical to
# the single-process bigmul for 1 .. 5 ranks (decimal, hex, mixed radices,
# standard input), -o's rules (a symbolic link kept, the target's mode kept,
# a FIFO or device written directly, a directory refused), and the failures: a bad byte on a rank boundary, a
# truncated raw-limb file, a product past the primes' cap (refused before any
# block is read), one rank over a memory cap, one rank killed; each fails
# with bigmul's exit status, -o left untouched.
# Usage: cli_dist.sh MPIEXEC BUILD_DIR
set -u
mpiexec=$1
build=$2
bigmul=$build/bigmul
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
run() {  # run K ARGS...: bigmul --distributed on K ranks; stdout, stderr, status in $work/out, err, rc
  local k=$1; shift
  timeout 120 "$mpiexec" --quiet -n "$k" --oversubscribe --bind-to none "$bigmul" --distributed "$@" >"$work/out" 2>"$work/err"
  echo $? >"$work/rc"
}

# Operands: random, all nines/all f (carry chains through every rank boundary),
# negative, very unbalanced; written by Python with a fixed seed.
python3 - "$work" <<'PY'
import random, sys
random.seed(35)
w = sys.argv[1]
def put(name, text): open(f"{w}/{name}", "w").write(text + "\n")
put("a", str(random.randrange(10**2999, 10**3000)))
put("b", "-" + str(random.randrange(10**1200, 10**1201)))
put("n1", "9" * 2500)
put("n2", "9" * 777)
put("h1", "0x" + "f" * 1600)
put("h2", "0X" + "".join(random.choice("0123456789abcdefABCDEF") for _ in range(900)))
put("u1", str(random.randrange(10**4000, 10**4001)))
put("u2", "7")
PY

# Pairs: "A B [--hex]"; mixed radices convert one operand on rank 0.
for pair in "a b" "n1 n2" "h1 h2 --hex" "h1 h2" "a h1" "h2 u1 --hex" "u1 u2" "u2 u1"; do
  set -- $pair
  hex=${3:-}
  "$bigmul" $hex "@$work/$1" "@$work/$2" >"$work/single" || fail "single-process bigmul $pair"
  ks="3"
  [[ $pair == "a b" || $pair == "n1 n2" ]] && ks="1 2 3 4 5"  # mpiexec launches cost ~0.5 s each
  [[ $pair == "a h1" ]] && ks="1 2"
  for k in $ks; do
    run $k $hex "@$work/$1" "@$work/$2" -o "$work/dist"
    [[ $(cat "$work/rc") == 0 ]] || fail "$pair on $k ranks: status $(cat "$work/rc"): $(cat "$work/err")"
    cmp -s "$work/single" "$work/dist" || fail "$pair on $k ranks: output differs from the single-process bigmul"
  done
done
# Python's own product of one pair, and stdout (gathered on rank 0).
run 3 "@$work/a" "@$work/b"
python3 - "$work" <<'PY' || fail "3 ranks, stdout: differs from Python's product"
import sys
sys.set_int_max_str_digits(0) if hasattr(sys, "set_int_max_str_digits") else None
w = sys.argv[1]
a, b = (int(open(f"{w}/{n}").read()) for n in "ab")
sys.exit(open(f"{w}/out").read() != f"{a * b}\n")
PY
# Standard input: one operand, and both ('-' '-': two literals).
"$bigmul" "@$work/a" "@$work/h2" >"$work/single"
run 2 - "@$work/h2" -o "$work/dist" <"$work/a"
cmp -s "$work/single" "$work/dist" || fail "A from standard input: $(cat "$work/err")"
cat "$work/a" "$work/h2" | run 3 - - -o "$work/dist"
cmp -s "$work/single" "$work/dist" || fail "both from standard input: $(cat "$work/err")"
# -o through a symbolic link: the link stays, its target is replaced and
# keeps its mode.
echo old >"$work/target"
chmod 640 "$work/target"
ln -s target "$work/link"
run 2 "@$work/a" "@$work/b" -o "$work/link"
"$bigmul" "@$work/a" "@$work/b" >"$work/single"
[[ -L $work/link ]] || fail "-o through a link: the link was replaced"
cmp -s "$work/single" "$work/target" || fail "-o through a link: target lacks the product: $(cat "$work/err")"
[[ $(stat -c %a "$work/target") == 640 ]] || fail "-o through a link: mode $(stat -c %a "$work/target"), expected 640"
# -o naming a FIFO or a device: written directly, as the single-process
# bigmul does (a rename would replace it); --raw keeps rank 0's limbs first.
mkfifo "$work/fifo"
timeout 150 cat "$work/fifo" >"$work/from_fifo" &  # a run that never opens the FIFO must not hang the test
run 3 "@$work/a" "@$work/b" -o "$work/fifo"
wait
[[ -p $work/fifo ]] || fail "-o a FIFO: the FIFO was replaced"
cmp -s "$work/single" "$work/from_fifo" || fail "-o a FIFO: the bytes read differ: $(cat "$work/err")"
run 2 "@$work/a" "@$work/b" -o /dev/null
[[ $(cat "$work/rc") == 0 ]] || fail "-o /dev/null: status $(cat "$work/rc"): $(cat "$work/err")"
run 3 "@$work/a" "@$work/b" --raw -o "$work/raw_file"
timeout 150 cat "$work/fifo" >"$work/raw_fifo" &
run 3 "@$work/a" "@$work/b" --raw -o "$work/fifo"
wait
cmp -s "$work/raw_file" "$work/raw_fifo" || fail "--raw -o a FIFO differs from --raw -o a file: $(cat "$work/err")"
# --random: the same numbers for every rank count.
for k in 1 4; do run $k --random 5000 --seed 9 -o "$work/r$k" --verify; done
cmp -s "$work/r1" "$work/r4" || fail "--random 5000: 1 and 4 ranks differ"

# A failed run: status $1, one line on stderr matching $2, nothing on
# stdout, -o's old content kept (and no temporary file left).
expect_failure() {
  local status=$1 pattern=$2 what=$3
  [[ $(cat "$work/rc") == "$status" ]] || fail "$what: status $(cat "$work/rc"), expected $status: $(cat "$work/err")"
  grep -q -- "$pattern" "$work/err" || fail "$what: stderr '$(cat "$work/err")' lacks '$pattern'"
  [[ $(grep -c . "$work/err") -le 1 ]] || fail "$what: more than one line on stderr: $(cat "$work/err")"
  [[ ! -s $work/out ]] || fail "$what: output on stdout"
  [[ $(cat "$work/keep") == old ]] || fail "$what: -o was touched"
  ls -A "$work" | grep -q '\.bigmul-' && fail "$what: a temporary file was left"
  return 0
}
echo old >"$work/keep"

# A bad byte at the first byte of rank 1's block (3 ranks): 570 digits are
# 30 limbs, rank 2 holds limbs 20 .. 29, the file's bytes 0 .. 189.
python3 -c "print('1' * 190 + 'x' + '2' * 379)" >"$work/bad"
run 3 "@$work/bad" "@$work/a" -o "$work/keep"
expect_failure 2 "operand A ($work/bad): not a valid integer literal: byte x at byte offset 190 of the file" "bad byte"
# Two bad bytes: the first one in the file is named.
python3 -c "print('1' * 100 + '#' + '1' * 89 + 'x' + '2' * 379)" >"$work/bad2"
run 3 "@$work/a" "@$work/bad2" -o "$work/keep"
expect_failure 2 "byte # at byte offset 100 of the file" "first bad byte"

# A raw-limb file whose header promises more limbs than it holds.
python3 - "$work/trunc" <<'PY'
import struct, sys
open(sys.argv[1], "wb").write(b"BIGMULR1" + struct.pack("<QQ", 0, 100) + b"\x01" * 8 * 60)
PY
run 2 "@$work/trunc" "@$work/a" -o "$work/keep"
expect_failure 2 "truncated or corrupt" "truncated raw file"

# One rank (rank 2 of 3) over its memory cap: refused on every rank before any work.
timeout 120 "$mpiexec" --quiet --oversubscribe --bind-to none -n 2 "$bigmul" --distributed "@$work/a" "@$work/n1" -o "$work/keep" : \
  -n 1 "$bigmul" --distributed "@$work/a" "@$work/n1" -o "$work/keep" --memory-cap 1000 >"$work/out" 2>"$work/err"
echo $? >"$work/rc"
expect_failure 1 "rank 2: the product needs [0-9]* bytes on this rank, over its memory cap of 1000 bytes" "memory cap"

# -o naming a directory: refused before any work, nothing written in it.
mkdir "$work/dir"
run 2 "@$work/a" "@$work/b" -o "$work/dir"
expect_failure 1 "cannot write '$work/dir': it is a directory" "-o a directory"
[[ -z $(ls -A "$work/dir") ]] || fail "-o a directory: something was written in it"

# Past the primes' cap (3 2^32 product limbs): two sparse raw-limb files of
# 3 2^31 + 1 limbs (51 GB each, no disk blocks) are refused from their
# headers, before any rank reads or allocates its block (4 GB of address
# space a process would not hold one).
for f in big1 big2; do
  python3 - "$work/$f" <<'PY'
import os, struct, sys
n = 3 * 2**31 + 1
with open(sys.argv[1], "wb") as f:
    f.write(b"BIGMULR1" + struct.pack("<QQ", 0, n))
    f.truncate(24 + 8 * n)
PY
done
# (Not under AddressSanitizer, whose shadow memory needs terabytes of address
# space: BIGMUL_TEST_NO_ULIMIT=1 from tests/dist/CMakeLists.txt.)
(if [[ -z ${BIGMUL_TEST_NO_ULIMIT:-} ]]; then ulimit -v 4000000; fi
 run 2 --hex "@$work/big1" "@$work/big2" -o "$work/keep")
expect_failure 2 "exceeds the primes' largest transform (12884901888 product limbs" "past the cap"

# A rank killed mid-run: the job ends non-zero (timeout 120 s bounds it).
BIGMUL_MPI_TEST_KILL_RANK=1 run 3 "@$work/a" "@$work/b" -o "$work/keep"
[[ $(cat "$work/rc") != 0 && $(cat "$work/rc") != 124 ]] || fail "killed rank: status $(cat "$work/rc")"
[[ $(cat "$work/keep") == old ]] || fail "killed rank: -o was touched"

# A round trip through the raw-limb format.
run 2 "@$work/u1" "@$work/u2" -o "$work/raw" --raw
run 3 "@$work/raw" 1 -o "$work/back"
"$bigmul" "@$work/u1" "@$work/u2" >"$work/single"
cmp -s "$work/single" "$work/back" || fail "raw-limb round trip"

if ((fails)); then
  echo "cli_dist: $fails failure(s)" >&2
  exit 1
fi
echo "cli_dist: ok"
