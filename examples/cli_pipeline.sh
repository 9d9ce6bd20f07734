#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The bigmul command in pipelines. Usage: cli_pipeline.sh [path/to/bigmul]
# (default: bigmul on PATH). Writes its files to a temporary directory.
set -euo pipefail
bigmul=${1:-bigmul}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Inline operands, decimal and hex.
"$bigmul" 123456789 987654321
"$bigmul" --hex 0xffffffff 0xffffffff

# Operands from files (@FILE) and from standard input (-).
printf '%s\n' 340282366920938463463374607431768211455 > "$dir/a.txt"   # 2^128 - 1
echo 18446744073709551617 | "$bigmul" @"$dir/a.txt" -                # (2^128-1)(2^64+1)

# A chain: square a number twice by feeding each product back in; -o writes atomically.
"$bigmul" 99999999999 99999999999 -o "$dir/sq.txt"
"$bigmul" @"$dir/sq.txt" @"$dir/sq.txt" -o "$dir/sq2.txt"
echo "(10^11-1)^4 = $(cat "$dir/sq2.txt")"

# Two operands on one stream, separated by whitespace.
printf '%s %s' 1234567890123456789 -9876543210987654321 | "$bigmul" - -

# A big product checked against GMP, written to a file; print its size only.
"$bigmul" --random 200000 --seed 1 --verify -o "$dir/big.txt"
echo "product of two random 200000-digit numbers: $(tr -d '\n' < "$dir/big.txt" | wc -c) digits"

# Bad input: exit status 2, one line on stderr, nothing on stdout.
if "$bigmul" 12x4 5 2> "$dir/err.txt"; then echo "accepted a bad literal"; exit 1; fi
echo "bad literal refused: $(cat "$dir/err.txt")"
