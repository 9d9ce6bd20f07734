#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# A real program run without and with libbigmul_gmp.so on a product and
# printing workload of ~10^6 digits: the outputs must be byte-identical, and
# when the program reaches GMP (it loads libgmp.so) BIGMUL_GMP_VERBOSE=1 must
# show that bigmul took products and decimal conversions. A program that does
# not load libgmp is reported so, and only its outputs are compared.
#
# usage: programs.sh PRELOAD_LIB python|python-int|ruby|gp
# Exit 0 pass, 1 fail, 77 skip (the program is not installed).
set -euo pipefail

lib=${1:?usage: programs.sh PRELOAD_LIB python|python-int|ruby|gp}
which=${2:?usage: programs.sh PRELOAD_LIB python|python-int|ruby|gp}
[[ -f $lib ]] || { echo "programs.sh: no preload library at $lib" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bigmul-programs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Each workload: a = 3^1200000 (572,546 digits) times b = 7^600000 (507,060
# digits; python-int: a tenth), printed in full, then checks that need division and roots, and a
# factorial where the program has one; all through the program's own integers.
case $which in
  python)
    prog=/usr/bin/python3
    [[ -x $prog ]] || { echo "SKIP: $prog is not installed"; exit 77; }
    if ! "$prog" -c 'import gmpy2' 2>/dev/null; then echo "SKIP: python3-gmpy2 is not installed"; exit 77; fi
    objects=("$("$prog" -c 'import gmpy2.gmpy2 as m; print(m.__file__)')")
    run=("$prog" -c '
import gmpy2
from gmpy2 import mpz
a = mpz(3) ** 1200000
b = mpz(7) ** 600000
c = a * b
s = str(c)
print(s)
print(len(s), c % 1000000007, c // a == b, gmpy2.isqrt(c) % 1000000007)
f = gmpy2.fac(100000)
print(len(str(f)), f % 1000000007)
print(mpz(s) == c)
')
    ;;
  python-int)
    # CPython's own int (no GMP; its Karatsuba is slow, so 10^5 digits): the
    # preload must change nothing, and claims nothing
    prog=/usr/bin/python3
    [[ -x $prog ]] || { echo "SKIP: $prog is not installed"; exit 77; }
    objects=("$prog")
    run=("$prog" -c '
a = 3 ** 120000
b = 7 ** 60000
c = a * b
print(hex(c))
print(c.bit_length(), c % 1000000007, c // a == b)
print(int(hex(c), 16) == c)
')
    ;;
  ruby)
    prog=$(command -v ruby || true)
    [[ -n $prog ]] || { echo "SKIP: ruby is not installed"; exit 77; }
    objects=("$prog")
    run=("$prog" -e '
a = 3**1200000
b = 7**600000
c = a * b
s = c.to_s
puts s
puts [s.size, c % 1000000007, c / a == b, Integer.sqrt(c) % 1000000007].join(" ")
puts Integer(s) == c
')
    ;;
  gp)
    prog=$(command -v gp || true)
    [[ -n $prog ]] || { echo "SKIP: gp (pari-gp) is not installed"; exit 77; }
    objects=("$(readlink -f "$prog")")
    script='a = 3^1200000; b = 7^600000; c = a * b; s = Str(c);
print(c); print(#s, " ", c % 1000000007, " ", c \ a == b, " ", sqrtint(c) % 1000000007);
f = 100000!; print(#Str(f), " ", f % 1000000007); print(eval(s) == c); quit'
    run=("$prog" -q -f -D parisize=400000000)
    ;;
  *)
    echo "programs.sh: unknown program '$which' (python, python-int, ruby or gp)" >&2
    exit 1
    ;;
esac

# Does the program reach libgmp's exported functions at all?
routes=0
for o in "${objects[@]}"; do
  # (ldd's whole output first: grep -q closing the pipe early would fail it under pipefail)
  deps=$(ldd "$o" 2>/dev/null || true)
  if grep -q 'libgmp\.so' <<<"$deps"; then routes=1; fi
done

run_it() { # run_it OUT ERR [env...]
  local out=$1 err=$2
  shift 2
  if [[ $which == gp ]]; then
    printf '%s\n' "$script" | env "$@" timeout 120 "${run[@]}" >"$out" 2>"$err"
  else
    env "$@" timeout 120 "${run[@]}" >"$out" 2>"$err"
  fi
}

status=0
run_it "$work/plain.out" "$work/plain.err" BIGMUL_THREADS=2 || status=$?
if ((status)); then
  echo "FAIL: $which without the preload exited with $status:"; tail -5 "$work/plain.err"; exit 1
fi
run_it "$work/pre.out" "$work/pre.err" BIGMUL_THREADS=2 LD_PRELOAD="$lib" BIGMUL_GMP_VERBOSE=1 || status=$?
if ((status)); then
  echo "FAIL: $which with the preload exited with $status:"; tail -5 "$work/pre.err"; exit 1
fi

echo "$which: output $(wc -c <"$work/plain.out") bytes, sha256 $(sha256sum <"$work/plain.out" | cut -c1-16)...; last lines:"
tail -n +2 "$work/plain.out" | cut -c1-120
if ! cmp -s "$work/plain.out" "$work/pre.out"; then
  echo "FAIL: $which prints different output under the preload (first difference: $(cmp "$work/plain.out" "$work/pre.out" | head -1))"
  exit 1
fi
if [[ $(tail -1 "$work/plain.out") != True && $(tail -1 "$work/plain.out") != true && $(tail -1 "$work/plain.out") != 1 ]]; then
  echo "FAIL: $which did not read its own printed digits back to the same number"; exit 1
fi
echo "$which: outputs identical without and with the preload"

grep '^libbigmul_gmp: ' "$work/pre.err" || true
taken() { # taken ENTRY: how many calls bigmul took for ENTRY
  local n
  n=$(sed -n "s/^libbigmul_gmp: $1: \([0-9]*\) taken by bigmul.*/\1/p" "$work/pre.err" | head -1)
  echo "${n:-0}"
}
products=$(($(taken mpn_mul) + $(taken mpn_mul_n) + $(taken mpn_sqr)))
to_text=$(taken mpn_get_str)
if ((routes == 0)); then
  if ((products + to_text > 0)); then
    echo "FAIL: $which does not load libgmp.so, yet the preload reports $products products taken"; exit 1
  fi
  echo "$which does not load libgmp.so: its integers never reach GMP, so the preload cannot take anything;" \
       "checked identical outputs only"
  exit 0
fi
if ! grep -q '^libbigmul_gmp: mpn_mul: ' "$work/pre.err"; then
  echo "FAIL: $which loads libgmp.so but the preload printed no counters (was it loaded?)"; exit 1
fi
if ((products == 0 || to_text == 0)); then
  echo "FAIL: $which loads libgmp.so but bigmul took $products products and $to_text conversions to decimal"
  exit 1
fi
echo "$which routes through libgmp: bigmul took $products products and $to_text conversions to decimal"
