# SPDX-License-Identifier: LGPL-3.0-or-later
"""Helpers for the bigmul module's tests: optional gmpy2 (the big-size oracle)
and operand generators."""

import math
import sys

# str(int) and int(str) past 4300 digits, for the oracles.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

try:
    import gmpy2
except ImportError:  # tests that need it are skipped without it
    gmpy2 = None

LOG2_10 = math.log2(10)


def bits_for_digits(digits):
    return max(1, math.ceil(digits * LOG2_10))


def random_int(rng, digits):
    """A random integer of about `digits` decimal digits: bits_for_digits(digits) bits, the top one set."""
    bits = bits_for_digits(digits)
    return rng.getrandbits(bits) | (1 << (bits - 1))


def adversarial(digits):
    """Operands with long carry chains and extreme limbs: all ones, 2^k +- 1, 10^k - 1, 10^k."""
    bits = bits_for_digits(digits)
    pow10 = int(gmpy2.mpz(10) ** digits) if gmpy2 is not None else 10**digits
    return {
        "all_ones": (1 << bits) - 1,
        "pow2": 1 << bits,
        "pow2_plus_1": (1 << bits) + 1,
        "pow2_minus_1_limbs": (1 << (64 * max(1, bits // 64))) - 1,
        "pow10_minus_1": pow10 - 1,
        "pow10": pow10,
    }


def product_oracle(a, b):
    """a * b by gmpy2 past Python's fast sizes (CPython's Karatsuba takes ~0.5 s at 10^6 digits)."""
    if gmpy2 is not None and max(a.bit_length(), b.bit_length()) > 400_000:
        return int(gmpy2.mpz(a) * gmpy2.mpz(b))
    return a * b


def decimal_oracle(n):
    """str(n), by gmpy2 past the sizes where CPython's quadratic str() is quick."""
    if gmpy2 is not None and n.bit_length() > 400_000:
        return gmpy2.mpz(n).digits()
    return str(n)
