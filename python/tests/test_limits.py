# SPDX-License-Identifier: LGPL-3.0-or-later
"""Integer arguments out of range, huge shifts, float comparisons and the
environment's variables behave as int and as the rest of bigmul do (issue 32)."""

import math
import operator
import os
import subprocess
import sys

import pytest

import bigmul
from bigmul import Integer

HUGE = [10**30, -(10**30), 2**63, 2**64, -(2**64), 65537, -1]


@pytest.mark.parametrize("bad", HUGE)
def test_threads_out_of_range_is_value_error(bad):
    # 10**30 raised pybind11's cast RuntimeError.
    with pytest.raises(ValueError, match="threads"):
        bigmul.mul(3, 4, threads=bad)
    with pytest.raises(ValueError, match="threads"):
        bigmul.sqr(3, threads=bad)
    with pytest.raises(ValueError, match="threads"):
        bigmul.mul_batched([3], [4], threads=bad)
    with pytest.raises(ValueError, match="threads"):
        bigmul.powmod_batched([3], [4], 5, threads=bad)


def test_threads_in_range_still_work():
    for t in (None, 0, 1, 2, 65536):
        assert bigmul.mul(3**500, 7**400, threads=t) == 3**500 * 7**400


SHIFT_VALUES = [0, 1, -1, 5, -5, 2**200 + 12345, -(2**200) - 1, 10**40, -(10**40)]
HUGE_SHIFTS = [2**63, 2**63 - 1, 2**64, 2**64 - 1, 10**30, 2**1000]


@pytest.mark.parametrize("v", SHIFT_VALUES)
def test_huge_right_shifts_match_int(v):
    # Integer(5) >> 10**30 raised where int gives 0 (-1 for negatives).
    for k in HUGE_SHIFTS + [0, 1, 64, 199, 200, 201, 10**6]:
        for x in (Integer(v), Integer(str(v))):  # binary and decimal radix
            assert int(x >> k) == v >> k, (v, k, x.radix)


@pytest.mark.parametrize("v", SHIFT_VALUES)
def test_huge_left_shifts_match_int(v):
    # int: MemoryError for a result it could describe (2**63 bits), OverflowError
    # past its largest digit count (10**30 bits); 0 for zero.
    for k, error in ((2**63, MemoryError), (2**64, MemoryError), (10**30, OverflowError), (2**200, OverflowError)):
        if v == 0:
            assert int(Integer(v) << k) == 0 == v << k
        else:
            with pytest.raises(error):
                v << k
            with pytest.raises(error):
                Integer(v) << k
    with pytest.raises(ValueError, match="negative shift count"):
        Integer(v) >> -1
    with pytest.raises(ValueError, match="negative shift count"):
        Integer(v) << -(10**30)


INTS = [0, 1, -1, 5, -5, 2**53, 2**53 + 1, -(2**53) - 1, 2**1000, -(2**1000), 2**1100, -(2**1100), 10**400, 10**19, 10**19 - 1]
FLOATS = [0.0, -0.0, 5.0, 5.5, -5.5, 4.999, -4.999, 0.5, -0.5, 2.0**53, 2.0**53 + 2, float(2**1000),
          1e19, 1e308, -1e308, math.inf, -math.inf, math.nan, 1e-300, -1e-300]
OPS = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]


@pytest.mark.parametrize("v", INTS)
def test_float_comparisons_match_int(v):
    # Integer(5) == 5.0 was False.
    for x in (Integer(v), Integer(str(v))):
        for f in FLOATS:
            for op in OPS:
                assert op(x, f) == op(v, f), (v, f, op.__name__, x.radix)
                assert op(f, x) == op(f, v), (f, v, op.__name__, x.radix)


def test_equal_floats_hash_and_meet_in_sets():
    for v in (0, 5, -5, 2**53, 10**19, 2**1000):
        x = Integer(v)
        assert x == float(v) and hash(x) == hash(float(v)) == hash(v)
        assert float(v) in {x} and x in {float(v)}
    assert Integer(5) != 5.5 and hash(Integer(5)) != hash(5.5)


def run_with_env(name, value, code):
    env = dict(os.environ)
    env[name] = value
    return subprocess.run([sys.executable, "-c", "import bigmul\n" + code], env=env, capture_output=True,
                          text=True, timeout=120)


BIG_PRODUCT = "assert bigmul.mul(3**200000, 7**150000) == 3**200000 * 7**150000"


@pytest.mark.parametrize("value", ["abc", "-1", "4097", "1.5", "2x", " 2", "99999999999999999999"])
def test_invalid_thread_variable_is_an_error_naming_it(value):
    # An invalid BIGMUL_THREADS was ignored silently while BIGMUL_NTT_ENGINE is strict.
    r = run_with_env("BIGMUL_THREADS", value, BIG_PRODUCT)
    assert r.returncode != 0, r.stderr
    assert "ValueError" in r.stderr and "BIGMUL_THREADS=" + value in r.stderr, r.stderr
    r = run_with_env("BIGMUL_NTT_ENGINE", "bogus", BIG_PRODUCT)
    assert r.returncode != 0 and "ValueError" in r.stderr and "BIGMUL_NTT_ENGINE=bogus" in r.stderr, r.stderr


@pytest.mark.parametrize("value", ["", "0", "1", "2", "4096"])
def test_valid_thread_variable_works(value):
    r = run_with_env("BIGMUL_THREADS", value, BIG_PRODUCT)
    assert r.returncode == 0, r.stderr


def test_invalid_batched_engine_variable_is_an_error_naming_it():
    code = "assert bigmul.mul_batched([3**300] * 4, [5**300] * 4) == [3**300 * 5**300] * 4"
    r = run_with_env("BIGMUL_BATCHED_ENGINE", "vector", code)
    assert r.returncode != 0 and "ValueError" in r.stderr and "BIGMUL_BATCHED_ENGINE=vector" in r.stderr, r.stderr
    for ok in ("", "auto", "scalar"):
        r = run_with_env("BIGMUL_BATCHED_ENGINE", ok, code)
        assert r.returncode == 0, (ok, r.stderr)
