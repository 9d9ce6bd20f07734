# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul.Integer: the value type behaves like int (results, signs, floor
division, hashing) in both radices and mixed with ints."""

import operator
import pickle

import pytest

import bigmul
from bigmul import Integer
from support import adversarial, decimal_oracle, random_int


def values(rng):
    small = [0, 1, -1, 2, -7, 10**19 - 1, 10**19, -(2**64), 2**64 - 1]
    big = [random_int(rng, d) for d in (30, 500, 6000)]
    return small + big + [-x for x in big] + [adversarial(300)["all_ones"], -adversarial(300)["pow10_minus_1"]]


RADICES = ["binary", "decimal"]


def test_construction_and_radix():
    assert Integer().radix == "binary" and int(Integer()) == 0
    assert Integer(12).radix == "binary"
    assert Integer("12").radix == "decimal"
    assert Integer("-0x1f").radix == "binary" and int(Integer("-0x1f")) == -31
    assert Integer(b"123") == 123
    assert Integer(12, radix="decimal").radix == "decimal"
    x = Integer("123456789012345678901234567890123")
    assert x.to_radix("binary").radix == "binary" and x.to_radix("binary") == x
    assert Integer(x) == x and Integer(x, radix="binary").radix == "binary"
    for bad in (1.5, None, [1]):
        with pytest.raises(TypeError):
            Integer(bad)
    with pytest.raises(ValueError):
        Integer("12x")
    with pytest.raises(ValueError):
        Integer(5, radix="octal")


@pytest.mark.parametrize("ra", RADICES)
@pytest.mark.parametrize("rb", RADICES)
def test_arithmetic_matches_int(rng, ra, rb):
    vals = values(rng)
    ops = [operator.mul, operator.add, operator.sub, operator.and_, operator.or_, operator.xor]
    for a in vals:
        A = Integer(a, radix=ra)
        for b in vals:
            B = Integer(b, radix=rb)
            for op in ops:
                assert int(op(A, B)) == op(a, b), (op, a, b)
            assert int(A * b) == a * b and int(a * B) == a * b
            assert int(A - b) == a - b and int(a - B) == a - b
            assert (A == B) == (a == b) and (A < B) == (a < b) and (A >= b) == (a >= b) and (a > B) == (a > b)
            if b != 0:
                # Python's floor division: the remainder takes the divisor's sign.
                assert int(A // B) == a // b and int(A % B) == a % b, (a, b)
                q, r = divmod(A, b)
                assert (int(q), int(r)) == divmod(a, b)
                q, r = divmod(a, B)
                assert (int(q), int(r)) == divmod(a, b)


@pytest.mark.parametrize("radix", RADICES)
def test_str_int_hash(rng, radix):
    for a in values(rng):
        A = Integer(a, radix=radix)
        assert str(A) == str(a) and int(A) == a and type(int(A)) is int
        assert hash(A) == hash(a), a
        assert bool(A) == bool(a)
        assert int(-A) == -a and int(abs(A)) == abs(a) and int(~A) == ~a and int(+A) == a
        assert A.bit_length() == a.bit_length()
        assert repr(A) == f"bigmul.Integer({a})"
        assert operator.index(A) == a
    assert {Integer(5): "x"}[5] == "x" and hash(Integer(-1)) == hash(-1) == -2


def test_big_operands(rng):
    a, b = random_int(rng, 200_000), random_int(rng, 150_000)
    sa, sb = decimal_oracle(a), decimal_oracle(b)
    A, B = Integer(a), Integer("-" + sb)  # binary x decimal
    assert int(A * B) == -a * b
    assert str(Integer(sa) * Integer(sb)) == decimal_oracle(a * b)
    assert int(A // Integer(b)) == a // b and int(A % b) == a % b
    assert hash(B) == hash(-b)


def test_shifts_and_pow():
    for a in (0, 1, -1, 12345, -(10**40) - 3):
        for k in (0, 1, 63, 64, 65, 1000):
            assert int(Integer(a) << k) == a << k
            assert int(Integer(a) >> k) == a >> k
            assert int(Integer(str(a)) >> k) == a >> k
    for a in (0, 1, -3, 10**19, 2**64 + 1):
        for e in (0, 1, 2, 7, 64, 301):
            assert int(Integer(a) ** e) == a**e
    assert str(Integer("10") ** 50_000) == "1" + "0" * 50_000
    assert int(3 ** Integer(41)) == 3**41 and int(Integer(-3) ** Integer(41)) == (-3) ** 41
    assert isinstance(2 ** Integer(5), Integer)
    with pytest.raises(ValueError):
        Integer(3) ** -1
    with pytest.raises(ValueError):
        Integer(3) << -1
    assert pow(Integer(3), 4, 5) == 1 and isinstance(pow(Integer(3), 4, 5), Integer)
    with pytest.raises(TypeError):
        pow(Integer(3), 4, 5.0)


def test_division_by_zero():
    for op in (operator.floordiv, operator.mod, divmod):
        with pytest.raises(ZeroDivisionError):
            op(Integer(5), 0)
        with pytest.raises(ZeroDivisionError):
            op(5, Integer(0))


def test_foreign_operands():
    x = Integer(5)
    assert x != "5" and not (x == None)  # noqa: E711
    # Floats compare as with an int (test_limits.py), but do not mix in arithmetic.
    assert x == 5.0 and x < 5.5 and not (x < 5.0)
    for bad in ("5", 5.0, None, [5]):
        with pytest.raises(TypeError):
            x + bad
    for bad in ("5", None, [5]):
        with pytest.raises(TypeError):
            x < bad
    for bad in (5.0, None):
        with pytest.raises(TypeError):
            x * bad
    assert x * "ab" == "ab" * 5  # like an int: a sequence repeats by __index__
    assert bigmul.mul(Integer(6), Integer(-7)) == -42  # Integer works where an int is wanted


@pytest.mark.parametrize("radix", RADICES)
def test_pickle_keeps_value_and_radix(rng, radix):
    x = Integer(-random_int(rng, 3000), radix=radix)
    y = pickle.loads(pickle.dumps(x))
    assert y == x and y.radix == radix and type(y) is Integer
