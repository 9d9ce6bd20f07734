#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul from Python: install with `python3 -m pip install ./python`, then
`import bigmul`. Functions take and return Python ints; bigmul.Integer keeps a
number in bigmul's own form (binary or decimal radix) between operations."""
import bigmul

print("bigmul", bigmul.__version__)

a, b = 3**200_000, 7**150_000
c = bigmul.mul(a, b)                  # exact; the GIL is released while bigmul works
assert c == a * b
s = bigmul.to_decimal(c)              # subquadratic, no 4300-digit limit
print("3^200000 * 7^150000 has", len(s), "digits, starting", s[:12])
assert bigmul.from_decimal(s) == c
print("hex:", bigmul.to_hex(2**100 - 1))
print("toom3 by name:", bigmul.mul(2**4000 - 1, 2**3000 + 5, algorithm="toom3") == (2**4000 - 1) * (2**3000 + 5))

x = bigmul.Integer("9" * 10_000)      # a decimal literal stays in decimal radix
y = x * x + 1
print("(10^10000-1)^2 + 1:", str(y)[:8] + "..." + str(y)[-8:], "radix", x.radix)

# Modular exponentiation (odd modulus), constant time for secret exponents.
m = 2**521 - 1
print("powmod matches pow():", bigmul.powmod(3, 2**200 + 1, m) == pow(3, 2**200 + 1, m))
print("batched:", bigmul.powmod_batched([2, 3, 5], [10, 20, 30], m) == [pow(2, 10, m), pow(3, 20, m), pow(5, 30, m)])

try:
    bigmul.from_decimal("12x4")
except ValueError as e:
    print("ValueError:", e)
