# SPDX-License-Identifier: LGPL-3.0-or-later
"""Builds the bigmul extension through the project's CMake build (setuptools
has no CMake support of its own, and Debian packages no scikit-build-core).

Environment:
  BIGMUL_CMAKE_ARGS  extra arguments for CMake's configure step, e.g.
                     "-DBIGMUL_CUDA=ON" (default: a CPU-only Release build)
  BIGMUL_BUILD_DIR   an existing, configured bigmul build folder: only its
                     bigmul_python target is built (e.g. build/release);
                     default: a fresh folder under setuptools' build_temp
  BIGMUL_NO_BUILD=1  with BIGMUL_BUILD_DIR: take the module already built
                     there, do not run the build (ctest, beside other tests
                     that load that module)
  BIGMUL_SOURCE_DIR  the project's root (default: this file's parent folder)
  BIGMUL_PY_BUILD_BASE  setuptools' build folder (default: build)
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.environ.get("BIGMUL_SOURCE_DIR", os.path.join(HERE, "..")))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"project\(bigmul\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        sys.exit("bigmul setup.py: no project(bigmul VERSION ...) in " + os.path.join(ROOT, "CMakeLists.txt"))
    return m.group(1)


class cmake_build_ext(build_ext):
    """Configures (unless BIGMUL_BUILD_DIR is given) and builds the CMake
    target bigmul_python, then puts the module into the package."""

    def build_extension(self, ext):
        build_dir = os.environ.get("BIGMUL_BUILD_DIR")
        if not build_dir:
            build_dir = os.path.join(os.path.abspath(self.build_temp), "cmake")
            configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                         "-DBIGMUL_BUILD_TESTS=OFF", "-DBIGMUL_BUILD_BENCH=OFF", "-DBIGMUL_CUDA=OFF",
                         "-DPython3_EXECUTABLE=" + sys.executable]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
            configure += shlex.split(os.environ.get("BIGMUL_CMAKE_ARGS", ""))
            subprocess.run(configure, check=True)
        if not (os.environ.get("BIGMUL_BUILD_DIR") and os.environ.get("BIGMUL_NO_BUILD") == "1"):
            jobs = str(os.cpu_count() or 1)
            subprocess.run(["cmake", "--build", build_dir, "--target", "bigmul_python", "-j", jobs], check=True)
        built = glob.glob(os.path.join(build_dir, "python", "bigmul.*.so"))
        if len(built) != 1:
            sys.exit("bigmul setup.py: expected one bigmul.*.so in %s/python, found %s (is python3-dev / "
                     "pybind11-dev installed?)" % (build_dir, built or "none"))
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(built[0], dest)


class build_py_with_stub(build_py):
    """Installs python/bigmul.pyi as the package's __init__.pyi (PEP 561: with py.typed)."""

    def run(self):
        super().run()
        dest = os.path.join(self.build_lib, "bigmul", "__init__.pyi")
        with open(os.path.join(HERE, "bigmul.pyi")) as f:
            stub = f.read()
        with open(dest, "w") as f:
            f.write(stub)


# Build products (and the egg-info) under one folder, kept out of the sources' way.
base = os.environ.get("BIGMUL_PY_BUILD_BASE", "build")
os.makedirs(base, exist_ok=True)
setup(
    version=project_version(),
    packages=["bigmul"],
    package_data={"bigmul": ["py.typed"]},
    include_package_data=False,
    # The compiled module keeps its name (PyInit_bigmul) inside the package:
    # bigmul/bigmul.<abi>.so, re-exported by bigmul/__init__.py.
    ext_modules=[Extension("bigmul.bigmul", sources=[])],
    cmdclass={"build_ext": cmake_build_ext, "build_py": build_py_with_stub},
    options={"build": {"build_base": base}, "egg_info": {"egg_base": base}},
)
