#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The distributed product's point: a product that does not fit one process
# under a per-process address-space cap (ulimit -v) completes on 4 ranks under
# the same cap, and equals the product checked by --verify without the cap.
# The cap leaves room for Open MPI's own address-space mappings but not for
# one rank's working memory of a 10^8-digit product, while a quarter of it
# fits; the test fails if the cap stops constraining or 4 ranks no longer fit.
# Usage: memory_cap.sh MPIEXEC BUILD_DIR
set -uo pipefail
mpiexec=$1 mpi=$2/bigmul-mpi
cap_kb=450000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "memory_cap: $*" >&2; exit 1; }
capped() {  # capped RANKS OUTPUT
  (ulimit -v $cap_kb; "$mpiexec" -n "$1" --oversubscribe --bind-to none "$mpi" --random 50000000 --seed 1 -o "$2" -t \
     >"$work/log" 2>&1)
}
capped 1 "$work/p1" && fail "1 rank under ulimit -v $cap_kb completed: the cap no longer constrains, raise the size"
grep -q "out of memory" "$work/log" || fail "1 rank under the cap failed otherwise: $(tail -3 "$work/log")"
[[ -e $work/p1 ]] && fail "1 rank under the cap left a partial -o file"
capped 4 "$work/p4" || fail "4 ranks under ulimit -v $cap_kb failed: $(tail -3 "$work/log")"
grep -q "peak resident memory [0-9]* bytes on the largest rank" "$work/log" || fail "-t lacks the per-rank peak memory line"
"$mpiexec" -n 1 "$mpi" --random 50000000 --seed 1 -o "$work/ref" --verify >"$work/log" 2>&1 ||
  fail "uncapped 1-rank run with --verify failed: $(tail -3 "$work/log")"
cmp -s "$work/p4" "$work/ref" || fail "4 ranks under the cap differ from the verified product"
# A cap so tight that Open MPI's collective I/O cannot allocate its buffers:
# a failure must not leave a short -o file behind an exit status of 0.
"$mpiexec" -n 4 --oversubscribe --bind-to none "$mpi" --random 1000 --seed 1 -o "$work/small_ref" >/dev/null 2>&1 ||
  fail "uncapped 1000-digit run failed"
if (ulimit -v 250000; "$mpiexec" -n 4 --oversubscribe --bind-to none "$mpi" --random 1000 --seed 1 -o "$work/small" \
      >"$work/log" 2>&1); then
  cmp -s "$work/small" "$work/small_ref" || fail "tight cap: status 0 but the -o file is wrong or short"
else
  [[ -e $work/small ]] && fail "tight cap: failed but left an -o file"
fi
echo "memory_cap: 10^8-digit product: 1 rank out of memory, 4 ranks complete under ulimit -v $cap_kb KB"
