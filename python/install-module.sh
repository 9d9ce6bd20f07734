#!/usr/bin/env bash
# Installs the built Python module: `cmake --install BUILD --component python`
# (for the interpreter CMake built it for, Debian's python3: into its
# site-packages), and, when the python3 first on PATH is another CPython with
# the same extension ABI (pyenv, a venv), into that one's site-packages too, so
# that `python3 -c "import bigmul"` works from the user's shell.
# Usage: python/install-module.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
build=${1:-build/release}
mod=$(ls "$build"/python/bigmul.*.so 2>/dev/null | head -n 1 || true)
if [ -z "$mod" ]; then
  echo "install-module: no Python module in $build/python (python3-dev or pybind11-dev missing?)" >&2
  exit 1
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO cmake --install "$build" --component python >/dev/null

py=$(command -v python3 || true)
[ -n "$py" ] || exit 0
built_for=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
this=$("$py" -c 'import os, sys; print(os.path.realpath(sys.executable))')
[ "$this" != "$(realpath "$built_for")" ] || exit 0
suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX") or "")')
[ -n "$suffix" ] && [[ "$mod" == *"$suffix" ]] || exit 0  # another ABI: the module cannot load there
dest=$("$py" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
s=""; [ -w "$dest" ] || s=$SUDO
$s install -m 644 "$mod" "$build/python/bigmul.pyi" "$dest/"
