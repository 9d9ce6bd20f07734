#!/usr/bin/env bash
# Quick start: install what is missing, build (release), run the main job:
# multiply two random 10^6-digit numbers, check against GMP, print phase times.
# Also installs the Python module for python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
python/install-module.sh build/release   # `import bigmul` for python3
./build/release/bigmul --random "${1:-1000000}" --verify -t >/dev/null
