# SPDX-License-Identifier: LGPL-3.0-or-later
"""The GIL is released while bigmul works, tested without timing assertions.

With sys.setswitchinterval(1000), CPython never takes the GIL from a running
thread, so the main thread, blocked in Thread.start() until it gets the GIL
back, can only run again when the worker releases the GIL voluntarily: if the
call held it throughout, the main thread would always find the call finished.
Seeing the call still in progress proves the release. Whether the main thread
wakes before a short call ends is up to the OS scheduler, so the size grows
until it does (under load the larger sizes take over)."""

import sys
import threading

import pytest

import bigmul
from support import random_int


def runs_without_gil(call):
    """True if `call()` was seen still running from another Python thread."""
    state = {"done": False}

    def work():
        try:
            call()
        except BaseException as e:  # reported below, not mistaken for a released GIL
            state["error"] = e
        finally:
            state["done"] = True

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        t = threading.Thread(target=work)
        t.start()  # returns when the worker releases the GIL (or ends)
        in_progress = not state["done"]
        t.join()
    finally:
        sys.setswitchinterval(old)
    if "error" in state:
        raise state["error"]
    return in_progress


def powmod_args(rng, digits):
    m = rng.getrandbits(2048) | (1 << 2047) | 1
    return rng.randrange(m), rng.getrandbits(digits // 40), m


def product_call(rng, digits):
    a, b = random_int(rng, digits), random_int(rng, digits)
    return lambda: bigmul.mul(a, b, threads=1)


CALLS = {
    "mul": product_call,
    "sqr": lambda rng, d: (lambda a: lambda: bigmul.sqr(a))(random_int(rng, d)),
    "to_decimal": lambda rng, d: (lambda a: lambda: bigmul.to_decimal(a))(random_int(rng, d // 4)),
    "from_decimal": lambda rng, d: (lambda s: lambda: bigmul.from_decimal(s))("7" * (d // 4)),
    "Integer.__mul__": lambda rng, d: (lambda a, b: lambda: a * b)(
        bigmul.Integer(random_int(rng, d)), bigmul.Integer(random_int(rng, d))
    ),
    # Modular powers: a 2048-bit odd modulus, the exponent's length grows with d (2500..100000 bits).
    "powmod": lambda rng, d: (lambda b, e, m: lambda: bigmul.powmod(b, e, m))(*powmod_args(rng, d)),
    "powmod_batched": lambda rng, d: (lambda b, e, m: lambda: bigmul.powmod_batched([b] * 4, [e] * 4, m, threads=1))(
        *powmod_args(rng, d // 4)
    ),
    "pow(Integer, e, m)": lambda rng, d: (lambda b, e, m: lambda: pow(bigmul.Integer(b), e, m))(*powmod_args(rng, d)),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_gil_released(rng, name):
    for digits in (100_000, 400_000, 1_600_000, 4_000_000):
        if runs_without_gil(CALLS[name](rng, digits)):
            return
    pytest.fail(f"{name}: the main thread never ran while the call was in progress: the GIL was held")


def test_gil_test_detects_a_held_gil():
    # The method's control: a call that holds the GIL (a pure-Python loop of
    # CPython int products) is never seen in progress.
    x = 3**5000
    assert not runs_without_gil(lambda: [x * x for _ in range(2000)])


def test_concurrent_products_are_correct(rng):
    # Several threads multiplying at once (each product on all cores) agree with Python.
    ops = [(random_int(rng, d), random_int(rng, d)) for d in (20_000, 50_000, 100_000, 30_000, 70_000, 5)]
    results = [None] * len(ops)

    def work(i):
        for _ in range(3):
            results[i] = bigmul.mul(*ops[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(ops))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [a * b for a, b in ops]
