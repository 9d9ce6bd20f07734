# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul.powmod, bigmul.powmod_batched and pow(Integer, e, m) against Python's
pow(b, e, m) and gmpy2.powmod: random 64-4096-bit odd moduli, moduli 2^k - 1 and
2^(k-1) + 1 around limb boundaries, bases 0 / 1 / m - 1 / negative / >= m,
exponents 0 / 1 / all ones, batches of 1..17, both ladders; bad arguments."""

import pytest

import bigmul
from bigmul import Integer
from support import gmpy2

BITS = (64, 65, 127, 128, 129, 192, 521, 1024, 2048, 3072, 4096)
BOTH = (False, True)  # constant_time


def oracle(b, e, m):
    """pow(b, e, m), checked against gmpy2.powmod where gmpy2 is installed; gmpy2's alone past
    1100-bit moduli with long exponents (CPython's pow takes ~0.1 s at 4096 bits)."""
    if gmpy2 is not None:
        r = int(gmpy2.powmod(b, e, m))
        if m.bit_length() <= 1100 or e.bit_length() <= 64:
            assert pow(b, e, m) == r
        return r
    return pow(b, e, m)


def odd_modulus(rng, bits):
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


def special_bases(m, rng):
    """0, 1, 2, m - 1, m - 2, a random residue, and values Python reduces: m, m + 1, -1, -m, a huge one."""
    return [0, 1, 2, m - 1, m - 2, rng.randrange(m), m, m + 1, -1, -m, -(m + 3), m * m * 7 + 5]


def special_exponents(m, rng):
    """0, 1, 2, all ones (64 bits, m's size, two limbs past it), m - 1 and a random one of m's size."""
    k = m.bit_length()
    return [0, 1, 2, (1 << 64) - 1, (1 << k) - 1, (1 << (k + 128)) - 1, m - 1, rng.getrandbits(k)]


@pytest.mark.parametrize("bits", BITS)
def test_random_moduli(rng, bits):
    for _ in range(3 if bits <= 1024 else 1):
        m = odd_modulus(rng, bits)
        for b in special_bases(m, rng):
            for e in special_exponents(m, rng)[: 8 if bits <= 1024 else 5]:
                want = oracle(b, e, m)
                for ct in BOTH:
                    got = bigmul.powmod(b, e, m, constant_time=ct)
                    assert type(got) is int
                    assert got == want, (bits, b, e, m, ct)


@pytest.mark.parametrize("k", (2, 3, 63, 64, 65, 127, 128, 129, 255, 256, 1023, 1024, 1025, 4096))
def test_mersenne_and_fermat_like_moduli(rng, k):
    # 2^k - 1: every limb all ones; 2^(k-1) + 1: a one-bit top limb over zero limbs.
    for m in ((1 << k) - 1, (1 << (k - 1)) + 1):
        exps = [0, 1, (1 << k) - 1, m - 2, rng.getrandbits(k)]
        bases = (0, 1, m - 1, m // 2, rng.randrange(m), -5, m + 2)
        for b in bases if k <= 1025 else bases[:3] + bases[4:6]:
            for e in exps:
                want = oracle(b, e, m)
                assert bigmul.powmod(b, e, m) == want, (k, m, b, e)
                assert bigmul.powmod(b, e, m, constant_time=True) == want, (k, m, b, e)


def test_tiny_moduli():
    # m = 1: everything is 0 (pow(0, 0, 1) == 0 in Python too).
    for m in (1, 3, 5, 7, 9, 15, 255, (1 << 64) - 59):
        for b in range(-3, 12):
            for e in (0, 1, 2, 3, 10, 65, (1 << 64) + 1):
                for ct in BOTH:
                    assert bigmul.powmod(b, e, m, constant_time=ct) == pow(b, e, m), (b, e, m, ct)


def test_int_like_arguments():
    class Index:
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    assert bigmul.powmod(Index(3), Index(5), Index(7)) == 5
    assert bigmul.powmod(True, 5, 7) == 1
    if gmpy2 is not None:
        assert bigmul.powmod(gmpy2.mpz(3), gmpy2.mpz(200), gmpy2.mpz(1001)) == pow(3, 200, 1001)


@pytest.mark.parametrize("G", list(range(1, 18)))
def test_batched_one_modulus(rng, G):
    bits = (64, 521, 1024, 2048)[G % 4]
    m = odd_modulus(rng, bits)
    bases = [rng.randrange(-m, 3 * m) for _ in range(G)]
    bases[0] = m - 1
    exps = [rng.getrandbits(rng.choice((1, 64, bits))) for _ in range(G)]
    exps[-1] = (1 << bits) - 1
    want = [oracle(b, e, m) for b, e in zip(bases, exps)]
    for ct in BOTH:
        assert bigmul.powmod_batched(bases, exps, m, constant_time=ct) == want, (G, ct)
        assert bigmul.powmod_batched(tuple(bases), exps, m, constant_time=ct, threads=1) == want, (G, ct)


@pytest.mark.parametrize("G", list(range(1, 18)))
def test_batched_one_modulus_per_item(rng, G):
    # Mixed sizes in one batch (the IFMA lanes pad a group of eight to its largest).
    mods = [odd_modulus(rng, rng.choice((64, 65, 128, 512, 1024, 3072))) for _ in range(G)]
    mods[G // 2] = (1 << 1024) - 1
    bases = [rng.randrange(-2 * m, 2 * m) for m in mods]
    exps = [rng.getrandbits(m.bit_length()) for m in mods]
    exps[0] = 0
    want = [oracle(b, e, m) for b, e, m in zip(bases, exps, mods)]
    for ct in BOTH:
        assert bigmul.powmod_batched(bases, exps, mods, constant_time=ct) == want, (G, ct)


def test_batched_empty_and_equal_to_single(rng):
    assert bigmul.powmod_batched([], [], 7) == []
    assert bigmul.powmod_batched([], [], []) == []
    m = odd_modulus(rng, 4096)
    b, e = rng.randrange(m), rng.getrandbits(4096)
    want = oracle(b, e, m)
    assert bigmul.powmod_batched([b], [e], [m]) == [want]
    assert bigmul.powmod_batched([b] * 9, [e] * 9, m, constant_time=True) == [want] * 9


def test_integer_pow_with_modulus(rng):
    m = odd_modulus(rng, 1024)
    b, e = rng.getrandbits(1100), rng.getrandbits(1024)
    want = oracle(b, e, m)
    for x in (Integer(b), Integer(str(b))):  # binary and decimal radix
        for ee in (e, Integer(e), Integer(str(e))):
            for mm in (m, Integer(m), Integer(str(m))):
                r = pow(x, ee, mm)
                assert isinstance(r, Integer) and r == want and r.radix == x.radix
    assert pow(Integer(-b), e, m) == pow(-b, e, m)
    assert pow(Integer(5), 0, 1) == 0
    with pytest.raises(ValueError, match="only odd moduli"):
        pow(Integer(3), 5, 8)
    with pytest.raises(ValueError, match="negative"):
        pow(Integer(3), -1, 7)
    with pytest.raises(ValueError, match="positive"):
        pow(Integer(3), 5, 0)
    with pytest.raises(ValueError, match="positive"):
        pow(Integer(3), 5, -7)
    with pytest.raises(TypeError):
        pow(Integer(3), 5, 7.0)
    with pytest.raises(TypeError):
        pow(Integer(3), 5.0, 7)


def test_bad_arguments():
    with pytest.raises(ValueError, match="only odd moduli are supported"):
        bigmul.powmod(3, 5, 8)
    with pytest.raises(ValueError, match="only odd moduli are supported"):
        bigmul.powmod(3, 5, 1 << 4096)
    with pytest.raises(ValueError, match="only odd moduli are supported"):
        bigmul.powmod(3, 5, 2, constant_time=True)
    with pytest.raises(ValueError, match="mod must be positive"):
        bigmul.powmod(3, 5, 0)
    with pytest.raises(ValueError, match="mod must be positive"):
        bigmul.powmod(3, 5, -7)
    with pytest.raises(ValueError, match="exp is negative"):
        bigmul.powmod(3, -1, 7)
    for bad in (1.5, "3", b"3", None, [3], 2j):
        with pytest.raises(TypeError, match="must be an int"):
            bigmul.powmod(bad, 5, 7)
        with pytest.raises(TypeError, match="must be an int"):
            bigmul.powmod(3, bad, 7)
        with pytest.raises(TypeError, match="must be an int"):
            bigmul.powmod(3, 5, bad)
    with pytest.raises(TypeError):
        bigmul.powmod(3, 5, 7, True)  # constant_time is keyword-only
    with pytest.raises(TypeError):
        bigmul.powmod(3, 5)


def test_batched_bad_arguments():
    with pytest.raises(ValueError, match="same length"):
        bigmul.powmod_batched([1, 2], [3], 7)
    with pytest.raises(ValueError, match="as long as bases"):
        bigmul.powmod_batched([1, 2], [3, 4], [7])
    with pytest.raises(ValueError, match="mod 2 is even; only odd moduli are supported"):
        bigmul.powmod_batched([1, 2, 3], [3, 4, 5], [7, 9, 10])
    with pytest.raises(ValueError, match="only odd moduli are supported"):
        bigmul.powmod_batched([1, 2], [3, 4], 8)
    with pytest.raises(ValueError, match="only odd moduli are supported"):
        bigmul.powmod_batched([], [], 8)
    with pytest.raises(ValueError, match="mod 1 must be positive"):
        bigmul.powmod_batched([1, 2], [3, 4], [7, 0])
    with pytest.raises(ValueError, match="exp 1 is negative"):
        bigmul.powmod_batched([1, 2], [3, -4], 7, constant_time=True)
    with pytest.raises(TypeError, match="must be an int"):
        bigmul.powmod_batched([1, 2.0], [3, 4], 7)
    with pytest.raises(TypeError, match="must be an int"):
        bigmul.powmod_batched([1, 2], [3, 4], [7, None])
    with pytest.raises(TypeError, match="sequence of ints"):
        bigmul.powmod_batched(5, [3], 7)
    with pytest.raises(TypeError, match="an int or a sequence"):
        bigmul.powmod_batched([1], [3], 7.0)
    with pytest.raises(TypeError, match="an int or a sequence"):
        bigmul.powmod_batched([1], [3], "7")
    with pytest.raises(ValueError, match="threads"):
        bigmul.powmod_batched([1], [3], 7, threads=-1)
