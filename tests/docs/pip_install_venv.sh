#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# ctest python_pip_install_venv: `python3 -m pip install ./python` into a fresh
# venv, offline, then import the package from another directory and check
# its layout (PEP 561 stub and marker), version and licence metadata.
# Usage: pip_install_venv.sh SOURCE_DIR BUILD_DIR WORK_DIR PYTHON
set -euo pipefail
src=$1 build=$2 work=$3 py=$4
rm -rf "$work"
mkdir -p "$work"
"$py" -m venv --system-site-packages "$work/venv"
cd "$src"
# BIGMUL_BUILD_DIR + BIGMUL_NO_BUILD: the module this build made (ctest runs
# after the build; rebuilding here could relink it under python_module's
# feet); setuptools' build products go under WORK_DIR, not into the sources.
BIGMUL_BUILD_DIR="$build" BIGMUL_NO_BUILD=1 BIGMUL_PY_BUILD_BASE="$work/pybuild" \
  "$work/venv/bin/python" -m pip install --no-build-isolation --no-index --no-deps --no-cache-dir -q ./python
version=$(sed -n 's/^project(bigmul VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
cd "$work"
"$work/venv/bin/python" - "$version" "$work/venv" <<'PY'
import importlib.metadata as md, os, sys
import bigmul
want, venv = sys.argv[1], os.path.realpath(sys.argv[2])
pkg = os.path.dirname(os.path.realpath(bigmul.__file__))
assert pkg.startswith(venv), "imported %s, not the venv's package" % pkg
assert bigmul.__version__ == want, (bigmul.__version__, want)
for f in ("__init__.py", "__init__.pyi", "py.typed"):
    assert os.path.exists(os.path.join(pkg, f)), "missing " + f
stub = open(os.path.join(pkg, "__init__.pyi")).read()
assert "def mul(" in stub and "class Integer" in stub, "__init__.pyi is not the module's stub"
meta = md.metadata("bigmul")
assert meta["Version"] == want and meta["License"] == "LGPL-3.0-or-later", (meta["Version"], meta["License"])
a, b = 3**5000, 7**4000
assert bigmul.mul(a, b) == a * b and bigmul.to_decimal(a) == str(a)
assert bigmul.Integer("12345") * 2 == 24690
print("pip_install_venv: bigmul", bigmul.__version__, "installed and imported from", pkg)
PY
