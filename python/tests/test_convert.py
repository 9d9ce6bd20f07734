# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul.to_decimal / from_decimal / to_hex / from_hex against str(), int() and gmpy2."""

import pytest

import bigmul
from support import adversarial, decimal_oracle, gmpy2, random_int

SIZES = [1, 2, 18, 19, 20, 38, 39, 100, 1000, 4300, 4301, 10_000, 100_000]


@pytest.mark.parametrize("digits", SIZES)
def test_decimal_round_trip(rng, digits):
    n = random_int(rng, digits)
    for x in (n, -n):
        s = bigmul.to_decimal(x)
        assert type(s) is str and s == str(x)
        assert bigmul.from_decimal(s) == x
        assert bigmul.from_decimal(s.encode()) == x


@pytest.mark.parametrize("digits", [1, 19, 20, 1000, 30_000])
def test_decimal_adversarial(digits):
    for name, n in adversarial(digits).items():
        assert bigmul.to_decimal(n) == str(n), name
        assert bigmul.from_decimal(str(n)) == n, name
        assert bigmul.from_decimal(str(-n)) == -n, name


@pytest.mark.skipif(gmpy2 is None, reason="needs gmpy2 (python3-gmpy2) as the oracle at 10^6 digits")
def test_decimal_million_digits(rng):
    n = random_int(rng, 1_000_000)
    s = bigmul.to_decimal(-n)
    assert s == "-" + gmpy2.mpz(n).digits()
    assert bigmul.from_decimal(s) == -n
    nines = adversarial(1_000_000)["pow10_minus_1"]
    assert bigmul.to_decimal(nines) == "9" * 1_000_000
    assert bigmul.from_decimal("9" * 1_000_000) == nines
    assert bigmul.from_decimal("1" + "0" * 999_999) == (nines + 1) // 10


def test_decimal_small_values():
    for x in [0, 1, -1, 9, 10, 10**19 - 1, 10**19, 2**64 - 1, 2**64, -(2**64)]:
        assert bigmul.to_decimal(x) == str(x)
        assert bigmul.from_decimal(str(x)) == x
    assert bigmul.from_decimal("-0") == 0
    assert bigmul.from_decimal("+12") == 12
    assert bigmul.from_decimal("000000000000000000000000000000000123") == 123  # leading zeros: decimal, not octal
    assert bigmul.to_decimal(True) == "1"


def test_decimal_past_python_limit():
    # No digit limit, whatever sys.set_int_max_str_digits says.
    import sys

    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        s = "7" * 20_000
        n = bigmul.from_decimal(s)
        assert bigmul.to_decimal(n) == s
    finally:
        sys.set_int_max_str_digits(old)
    assert n == int(s)


@pytest.mark.parametrize("digits", [1, 16, 17, 1000, 100_000])
def test_hex_round_trip(rng, digits):
    n = random_int(rng, digits)
    for x in (n, -n, 0):
        h = bigmul.to_hex(x)
        assert h == hex(x)
        assert bigmul.to_hex(x, prefix=False) == format(x, "x")
        assert bigmul.from_hex(h) == x
        assert bigmul.from_hex(h.upper().replace("0X", "0x")) == x
        assert bigmul.from_hex(format(x, "x")) == x  # no prefix
        assert bigmul.from_hex(h.encode()) == x


@pytest.mark.parametrize(
    "text,offset",
    [("", 0), ("-", 1), ("12a4", 2), (" 12", 0), ("12 ", 2), ("1_000", 1), ("+-1", 1), ("١٢", 0), ("1.5", 1)],
)
def test_from_decimal_rejects_bad_literals(text, offset):
    with pytest.raises(ValueError, match=f"offset {offset}"):
        bigmul.from_decimal(text)


def test_from_decimal_rejects_hex():
    with pytest.raises(ValueError, match="from_hex"):
        bigmul.from_decimal("0x12")
    with pytest.raises(ValueError, match="from_hex"):
        bigmul.from_decimal("-0X12")


@pytest.mark.parametrize("text,offset", [("", 0), ("0x", 2), ("12g4", 2), ("-0x1z", 4), ("-", 1), ("-zz", 1)])
def test_from_hex_rejects_bad_literals(text, offset):
    with pytest.raises(ValueError, match=f"offset {offset}"):
        bigmul.from_hex(text)


@pytest.mark.parametrize("fn", [bigmul.from_decimal, bigmul.from_hex])
@pytest.mark.parametrize("arg", [12, 1.5, None, bytearray(b"12"), ["1"]])
def test_parsers_want_text(fn, arg):
    with pytest.raises(TypeError):
        fn(arg)


@pytest.mark.parametrize("fn", [bigmul.to_decimal, bigmul.to_hex])
@pytest.mark.parametrize("arg", ["12", 1.0, None, b"1"])
def test_printers_want_ints(fn, arg):
    with pytest.raises(TypeError):
        fn(arg)
