#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Quick start: install what is missing, build (release), run the main job:
# multiply two random 10^6-digit numbers, check against GMP, print phase times.
# Also pip-installs the Python package into build/venv.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
# The Python package, pip-installed into build/venv (Debian's python3 is externally managed);
# it reuses the module just built: `build/venv/bin/python3 -c "import bigmul"`.
if [ -n "$(ls build/release/python/bigmul.*.so 2>/dev/null)" ]; then
  [ -x build/venv/bin/python3 ] || /usr/bin/python3 -m venv --system-site-packages build/venv
  BIGMUL_BUILD_DIR=build/release BIGMUL_PY_BUILD_BASE="$PWD/build/pip" \
    build/venv/bin/python3 -m pip install -q --no-build-isolation --no-index --no-deps ./python
fi
./build/release/bigmul --random "${1:-1000000}" --verify -t >/dev/null
