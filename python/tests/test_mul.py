# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul.mul / sqr / mul_batched against Python's own ints and gmpy2."""

import pytest

import bigmul
from support import adversarial, bits_for_digits, gmpy2, product_oracle, random_int

# Digit counts from one limb to 10^6 digits, with the dispatcher's crossovers
# (basecase -> Karatsuba at 86 limbs, Karatsuba -> NTT at 174 limbs with IFMA,
# 1423 without) approached from both sides.
LIMB_DIGITS = 19.2659  # decimal digits in a 64-bit limb
SIZES = [1, 2, 19, 20, 39, 100, 1000, 10_000, 100_000]
SIZES += [int(limbs * LIMB_DIGITS) for limbs in (85, 86, 87, 173, 174, 175, 1422, 1423, 1424)]


@pytest.mark.parametrize("digits", SIZES)
def test_random_balanced(rng, digits):
    a, b = random_int(rng, digits), random_int(rng, digits)
    assert bigmul.mul(a, b) == a * b


@pytest.mark.parametrize("digits", [10, 1000, 50_000])
def test_signs(rng, digits):
    a, b = random_int(rng, digits), random_int(rng, digits)
    for x, y in [(a, b), (-a, b), (a, -b), (-a, -b)]:
        assert bigmul.mul(x, y) == x * y


def test_zero_and_one(rng):
    a = random_int(rng, 5000)
    for x, y in [(0, 0), (0, a), (a, 0), (-a, 0), (1, a), (a, -1), (-1, -1), (1, 1)]:
        r = bigmul.mul(x, y)
        assert type(r) is int and r == x * y


@pytest.mark.parametrize("digits", [1, 20, 1000, 30_000])
def test_adversarial(digits):
    ops = adversarial(digits)
    for na, a in ops.items():
        for nb, b in ops.items():
            assert bigmul.mul(a, b) == a * b, (na, nb, digits)
        assert bigmul.sqr(a) == a * a, na


@pytest.mark.parametrize("small,large", [(1, 100_000), (20, 50_000), (300, 100_000), (5000, 100_000)])
def test_unbalanced(rng, small, large):
    a, b = random_int(rng, small), random_int(rng, large)
    assert bigmul.mul(a, b) == a * b
    assert bigmul.mul(b, -a) == -(a * b)


@pytest.mark.skipif(gmpy2 is None, reason="needs gmpy2 (python3-gmpy2) as the oracle at 10^6 digits")
def test_million_digits_against_gmpy2(rng):
    a, b = random_int(rng, 1_000_000), random_int(rng, 1_000_000)
    assert bigmul.mul(a, -b) == -int(gmpy2.mpz(a) * gmpy2.mpz(b))
    assert bigmul.sqr(a) == int(gmpy2.mpz(a) ** 2)
    ones = adversarial(1_000_000)["all_ones"]
    assert bigmul.mul(ones, ones) == product_oracle(ones, ones)


def test_million_digits_against_python(rng):
    # One size where CPython is its own oracle (about half a second of Karatsuba).
    a, b = random_int(rng, 1_000_000), random_int(rng, 1_000_000)
    assert bigmul.mul(a, b) == a * b


@pytest.mark.parametrize("algorithm", ["auto", "basecase", "karatsuba", "tiled", "fft_complex", "fft_real", "ntt", "toom3"])
@pytest.mark.parametrize("digits", [30, 3000])
def test_named_algorithms(rng, algorithm, digits):
    a, b = random_int(rng, digits), random_int(rng, digits // 2 + 1)
    assert bigmul.mul(a, -b, algorithm=algorithm, check=True) == -(a * b)


@pytest.mark.parametrize("algorithm", ["fft_complex_f32", "fft_real_f32"])
def test_float32_algorithms_where_exact(rng, algorithm):
    a, b = random_int(rng, 500), random_int(rng, 400)
    assert bigmul.mul(a, b, algorithm=algorithm) == a * b


@pytest.mark.parametrize("threads", [None, 0, 1, 2, 3])
def test_threads_and_check(rng, threads):
    a, b = random_int(rng, 200_000), random_int(rng, 150_000)
    assert bigmul.mul(a, b, threads=threads, check=True, backend="cpu") == product_oracle(a, b)


def test_sqr_is_mul_of_same_object(rng):
    a = random_int(rng, 60_000)
    expect = a * a
    assert bigmul.sqr(a) == expect
    assert bigmul.sqr(-a) == expect
    assert bigmul.mul(a, a) == expect  # one object twice: the squaring path
    assert bigmul.sqr(0) == 0


def test_index_objects_and_bools(rng):
    class Index:
        def __index__(self):
            return 12345678901234567890123

    assert bigmul.mul(Index(), 3) == 3 * 12345678901234567890123
    assert bigmul.mul(True, 7) == 7 and bigmul.mul(False, 7) == 0
    if gmpy2 is not None:
        a = random_int(rng, 3000)
        assert bigmul.mul(gmpy2.mpz(a), gmpy2.mpz(-a)) == -a * a


def test_mul_batched(rng):
    # Crypto sizes (1024-8192 bits), with signs, zeros and unequal sizes padded to one.
    for bits in (1024, 2048, 8192):
        a = [rng.getrandbits(bits) for _ in range(17)] + [0, 1, (1 << bits) - 1]
        b = [rng.getrandbits(bits) for _ in range(17)] + [5, 0, (1 << bits) - 1]
        a[3], b[4] = -a[3], -b[4]
        b[5] = b[5] >> (bits // 2)
        assert bigmul.mul_batched(a, b) == [x * y for x, y in zip(a, b)]
        assert bigmul.mul_batched(tuple(a), b, threads=1) == [x * y for x, y in zip(a, b)]
    assert bigmul.mul_batched([], []) == []
    assert bigmul.mul_batched([3], [-4]) == [-12]


def test_size_helper_matches_digits():
    # The generators' sizes are what the tests claim: 10^6 digits is 3321929 bits.
    assert bits_for_digits(1_000_000) == 3_321_929
    assert len(str(random_int(__import__("random").Random(1), 1000))) in (1000, 1001)
