# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul.FixedFactor against Python's own products: sizes across the NTT
crossover to 10^6 digits, signs, 0 and 1, all-ones operands, batches,
threads, misuse."""

import pytest

import bigmul
from support import bits_for_digits, random_int


@pytest.mark.parametrize("digits", [1, 19, 500, 2200, 2300, 30000, 10**5, 10**6])
def test_products_match_int(rng, digits):
    b = random_int(rng, digits)
    bits = bits_for_digits(digits)
    f = bigmul.FixedFactor(b, bits)
    assert f.prepared and f.max_bits == bits
    operands = [random_int(rng, digits), (1 << bits) - 1, 1, 0, -random_int(rng, digits // 2 + 1)]
    for a in operands:
        assert f.mul(a) == a * b
    if digits >= 10**5:
        assert f.transform_length > 0


def test_negative_fixed_operand_and_all_ones(rng):
    bits = 200000
    b = -((1 << bits) - 1)
    f = bigmul.FixedFactor(b, bits)
    for a in [(1 << bits) - 1, -((1 << bits) - 1), 1 << (bits - 1), -1]:
        assert f.mul(a) == a * b


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_batches(rng, threads):
    for digits in [300, 5000, 400000]:
        b = random_int(rng, digits)
        f = bigmul.FixedFactor(b, bits_for_digits(digits))
        values = [random_int(rng, digits) for _ in range(3 if digits > 10**5 else 9)] + [0, -7]
        assert f.mul_many(values, threads=threads) == [a * b for a in values]
        assert f.mul(values[0], threads=threads) == values[0] * b


def test_index_operands():
    class Index:
        def __index__(self):
            return 41

    f = bigmul.FixedFactor(Index(), 64)
    assert f.mul(Index()) == 41 * 41
    assert f.mul(True) == 41


def test_misuse():
    f = bigmul.FixedFactor(12345, 64)
    with pytest.raises(ValueError, match="65 bits, the FixedFactor was prepared for at most 64"):
        f.mul(1 << 64)
    with pytest.raises(ValueError, match="item 1 has"):
        f.mul_many([1, 1 << 100])
    with pytest.raises(TypeError):
        f.mul(1.5)
    with pytest.raises(ValueError, match="b must not be 0"):
        bigmul.FixedFactor(0, 64)
    with pytest.raises(ValueError, match="max_bits must be in"):
        bigmul.FixedFactor(3, 0)
    with pytest.raises(TypeError, match="max_bits must be an int"):
        bigmul.FixedFactor(3, 1.0)
    with pytest.raises(ValueError, match="threads must be in"):
        f.mul(3, threads=-1)
    with bigmul.FixedFactor(7, 10) as g:
        assert g.mul(-3) == -21
    assert not g.prepared
    f.release()
    f.release()
    assert f.transform_length == 0
    with pytest.raises(ValueError, match="released"):
        f.mul(3)
    with pytest.raises(ValueError, match="released"):
        f.mul_many([3])
