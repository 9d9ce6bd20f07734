#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Limits that only a shell sets up (issue 32): a file-size limit (ulimit -f)
# must end in exit 1 and one line naming it, with no temporary file left
# beside -o's target (SIGXFSZ used to kill bigmul: exit 153, no message, a
# partial hidden file), also for standard output; an endless stream of
# valid digits on standard input is refused at the bound derived from the
# memory available (here under ulimit -v), naming the limit.
# Usage: shell_limits.sh BIGMUL [sanitized]   (sanitized: no ulimit -v case,
# as sanitizers reserve terabytes of address space)
set -u
bigmul=$1
sanitized=${2:-}
dir=$(mktemp -d "${TMPDIR:-/tmp}/bigmul-shell-limits-XXXXXX")
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS ERRFILE WORDS...: the exit status and one stderr line holding every word.
expect() {
  local want=$1 got=$2 err=$3
  shift 3
  [ "$got" = "$want" ] || fail "exit $got, expected $want: $(cat "$err")"
  [ "$(wc -l < "$err")" = 1 ] || fail "expected one stderr line, got: $(cat "$err")"
  for w in "$@"; do grep -qF -- "$w" "$err" || fail "missing '$w' in: $(cat "$err")"; done
}

# -o under ulimit -f 100 (102400 bytes; the product has 2 10^6 digits).
(ulimit -f 100; "$bigmul" --random 1000000 --seed 1 -o "$dir/f" 2> "$dir/err") ; st=$?
expect 1 "$st" "$dir/err" "cannot write" "$dir/f" "File too large" "ulimit -f" "102400 bytes"
left=$(ls -A "$dir" | grep -v '^err$' || true)
[ -z "$left" ] || fail "left behind: $left"

# An existing target stays as it was.
echo old > "$dir/g"
(ulimit -f 100; "$bigmul" --random 1000000 --seed 1 -o "$dir/g" 2> "$dir/err") ; st=$?
expect 1 "$st" "$dir/err" "File too large"
[ "$(cat "$dir/g")" = old ] || fail "-o target changed"
[ "$(ls -A "$dir" | grep -c bigmul)" = 0 ] || fail "temporary left: $(ls -A "$dir")"

# Standard output redirected to a file: one line, exit 1 (nothing to remove).
(ulimit -f 100; "$bigmul" --random 1000000 --seed 1 > "$dir/out" 2> "$dir/err") ; st=$?
expect 1 "$st" "$dir/err" "standard output" "File too large" "ulimit -f"

# Below the limit all is well.
(ulimit -f 100; "$bigmul" 123 456 -o "$dir/small" 2> "$dir/err") ; st=$?
[ "$st" = 0 ] && [ "$(cat "$dir/small")" = 56088 ] || fail "small product under ulimit -f: exit $st $(cat "$dir/err")"

# An endless stream of digits under ulimit -v 512 MiB: refused once past the
# input limit (a third of the memory available), in well under the time it
# would take to run out of memory.
if [ "$sanitized" != sanitized ]; then
  set -o pipefail
  yes 1234567890 | tr -d '\n' | (ulimit -v 524288; exec "$bigmul" - 3 2> "$dir/err" > "$dir/out"); st=$?
  set +o pipefail
  # The pipeline's status is bigmul's, or yes/tr's SIGPIPE (141) when they
  # outlive it: take bigmul's from the message.
  [ "$st" = 1 ] || [ "$st" = 141 ] || fail "endless stdin: exit $st"
  expect 1 1 "$dir/err" "standard input is too large" "input limit" "ulimit -v"
  [ ! -s "$dir/out" ] || fail "endless stdin wrote to stdout"
fi

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "all shell limit checks passed"
