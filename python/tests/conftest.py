# SPDX-License-Identifier: LGPL-3.0-or-later
"""Fixtures for the bigmul module's tests. The module under test is the build
tree's (ctest puts it first on PYTHONPATH)."""

import os
import random

import pytest

import bigmul
from support import gmpy2


def pytest_report_header(config):
    return f"bigmul module: {bigmul.__file__}; gmpy2: {gmpy2.version() if gmpy2 else 'not found'}"


@pytest.fixture(scope="session", autouse=True)
def module_from_build_tree():
    """ctest sets BIGMUL_PYTHON_MODULE_DIR: the module must be the one just built, not an installed one."""
    where = os.environ.get("BIGMUL_PYTHON_MODULE_DIR")
    if where:
        assert os.path.dirname(os.path.abspath(bigmul.__file__)) == os.path.abspath(where), bigmul.__file__


@pytest.fixture
def rng(request):
    """A generator seeded by the test's name: failures reproduce."""
    return random.Random(request.node.nodeid)
