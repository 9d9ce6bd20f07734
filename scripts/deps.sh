#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Installs the Debian packages bigmul needs that are missing (needs root or sudo).
# Sourced by quickstart.sh and test.sh; safe to run again.
set -euo pipefail
pkgs=(cmake ninja-build g++ pkg-config libgmp-dev googletest libgtest-dev libbenchmark-dev libboost-dev
      python3-dev pybind11-dev python3-pytest python3-gmpy2 xz-utils
      clang libclang-rt-14-dev libssl-dev python3-matplotlib
      ruby pari-gp libopenmpi-dev openmpi-bin doxygen python3-venv python3-pip python3-setuptools python3-wheel)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bigmul: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# nvcc is optional: CMake enables CUDA when it finds it (PATH or /usr/local/cuda).
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
