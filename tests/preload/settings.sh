#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The preload's settings as BIGMUL_GMP_VERBOSE=1 reports them at exit:
# overrides by environment, a rejected value, and the product crossover on an
# NTT engine other than the tuned one (must be the library's own crossover for
# that engine, as the C ABI reports it).
#
# usage: settings.sh PRELOAD_LIB TEST_CAPI PARAMS_INC
set -euo pipefail
lib=${1:?usage: settings.sh PRELOAD_LIB TEST_CAPI PARAMS_INC}
capi=${2:?usage}
params=${3:?usage}
fail=0

crossovers() { # crossovers [VAR=VALUE...]: the preload's "products P, get_str G, set_str S" line
  env "$@" LD_PRELOAD="$lib" BIGMUL_GMP_VERBOSE=1 /bin/true 2>&1 >/dev/null |
    sed -n 's/^libbigmul_gmp: crossovers (limbs): //p'
}
expect() { # expect WHAT GOT WANT
  if [[ $2 == "$3" ]]; then echo "ok: $1: $2"; else echo "FAIL: $1: got '$2', want '$3'"; fail=1; fi
}

expect "overrides" "$(crossovers BIGMUL_GMP_CROSSOVER=777 BIGMUL_GMP_STR_CROSSOVER=555)" \
  "products 777, get_str 555, set_str 555"
expect "0 means every product" "$(crossovers BIGMUL_GMP_CROSSOVER=0 BIGMUL_GMP_STR_CROSSOVER=0)" \
  "products 1, get_str 1, set_str 1"

default=$(crossovers)
bad=$(env BIGMUL_GMP_CROSSOVER=12x LD_PRELOAD="$lib" BIGMUL_GMP_VERBOSE=1 /bin/true 2>&1 >/dev/null)
expect "a rejected value names itself" "$(grep -c "BIGMUL_GMP_CROSSOVER='12x' is not a limb count" <<<"$bad")" 1
expect "a rejected value keeps the default" "$(sed -n 's/^libbigmul_gmp: crossovers (limbs): //p' <<<"$bad")" "$default"

tuned=$(sed -n 's/^inline constexpr char tuned_engine\[\] = "\([a-z0-9]*\)";.*/\1/p' "$params")
[[ -n $tuned ]] || { echo "FAIL: no tuned_engine in $params"; exit 1; }
other=portable
[[ $tuned == portable ]] && other=""
if [[ -n $other ]]; then
  want=$(BIGMUL_NTT_ENGINE=$other "$capi" print-crossover)
  got=$(crossovers BIGMUL_NTT_ENGINE=$other | sed 's/^products \([0-9]*\),.*/\1/')
  expect "engine $other (tuned: $tuned): the library's crossover" "$got" "$want"
else
  echo "note: the table was tuned for the portable engine, which every processor runs; no other engine to try"
fi
exit $fail
