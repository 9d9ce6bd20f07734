#!/usr/bin/env bash
# Quick start: install what is missing, build (release), run the main job:
# multiply two random 10^6-digit numbers, check against GMP, print phase times.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
./build/release/bigmul --random "${1:-1000000}" --verify -t >/dev/null
