# SPDX-License-Identifier: LGPL-3.0-or-later
"""Type stub for the bigmul extension module (python/module.cpp, python/integer_class.cpp).

Exact products of huge integers and fast decimal conversion by the bigmul library.
The GIL is released while bigmul works. Errors: TypeError for a non-integer argument,
ValueError for a bad literal or option, MemoryError when bigmul runs out of memory.
"""

from typing import Literal, SupportsIndex, Sequence, Union

__version__: str

_Algorithm = Literal[
    "auto",
    "basecase",
    "karatsuba",
    "tiled",
    "fft_complex",
    "fft_real",
    "fft_complex_f32",
    "fft_real_f32",
    "ntt",
    "toom3",
]
_Backend = Literal["auto", "cpu", "cuda"]
_Radix = Literal["binary", "decimal"]
_IntLike = Union[int, SupportsIndex]

def mul(
    a: _IntLike,
    b: _IntLike,
    *,
    algorithm: _Algorithm | None = None,
    threads: int | None = None,
    backend: _Backend = "auto",
    check: bool = False,
) -> int:
    """The exact product a * b (any sign, any size).

    algorithm: None/'auto' for the size-tuned choice, or a named algorithm.
    threads: None or 0 for all cores. backend: 'auto', 'cpu' or 'cuda'.
    check: also verify the product modulo 2^61-1.
    """

def sqr(
    a: _IntLike,
    *,
    algorithm: _Algorithm | None = None,
    threads: int | None = None,
    backend: _Backend = "auto",
    check: bool = False,
) -> int:
    """a * a by the squaring path. Options as for mul()."""

def mul_batched(
    list_a: Sequence[_IntLike],
    list_b: Sequence[_IntLike],
    *,
    threads: int | None = None,
    backend: _Backend = "auto",
) -> list[int]:
    """[a * b for a, b in zip(list_a, list_b)] as one batch (crypto sizes); equal lengths required."""

def powmod(base: _IntLike, exp: _IntLike, mod: _IntLike, *, constant_time: bool = False) -> int:
    """pow(base, exp, mod) for an odd modulus (Montgomery arithmetic); the result in [0, mod).

    A base outside [0, mod) is reduced first. constant_time: a fixed window with no
    branch or memory address depending on the base's or the exponent's value (for
    secret exponents). ValueError for an even modulus (only odd moduli are supported),
    mod <= 0 or a negative exponent.
    """

def powmod_batched(
    bases: Sequence[_IntLike],
    exps: Sequence[_IntLike],
    mod_or_mods: _IntLike | Sequence[_IntLike],
    *,
    constant_time: bool = False,
    threads: int | None = None,
) -> list[int]:
    """[powmod(b, e, m) ...] as one batch: one odd modulus for all (an int) or one per item
    (a sequence as long as bases). Errors as for powmod(); ValueError for unequal lengths."""

def to_decimal(n: _IntLike) -> str:
    """str(n), subquadratic, without Python's digit limit."""

def from_decimal(s: str | bytes) -> int:
    """int(s) for an optional sign and decimal digits (no whitespace, underscores or 0x)."""

def to_hex(n: _IntLike, prefix: bool = True) -> str:
    """hex(n); without the '0x' when prefix is False."""

def from_hex(s: str | bytes) -> int:
    """int(s, 16): optional sign, optional '0x', hex digits."""

def cuda_usable() -> tuple[bool, str]:
    """Whether backend='cuda' can be used, and if not, why."""

def release_scratch() -> None:
    """Frees the transform buffers the calling thread keeps between large products."""

_Operand = Union["Integer", int, SupportsIndex]

class Integer:
    """An immutable integer held in bigmul's representation (binary or decimal radix).

    Hashes and compares equal to the int of the same value.
    """

    def __init__(self, value: _Operand | str | bytes = 0, *, radix: _Radix | None = None) -> None: ...
    @property
    def radix(self) -> _Radix: ...
    def to_radix(self, radix: _Radix) -> Integer: ...
    def bit_length(self) -> int: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __hash__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __neg__(self) -> Integer: ...
    def __pos__(self) -> Integer: ...
    def __abs__(self) -> Integer: ...
    def __invert__(self) -> Integer: ...
    def __mul__(self, other: _Operand) -> Integer: ...
    def __rmul__(self, other: _Operand) -> Integer: ...
    def __add__(self, other: _Operand) -> Integer: ...
    def __radd__(self, other: _Operand) -> Integer: ...
    def __sub__(self, other: _Operand) -> Integer: ...
    def __rsub__(self, other: _Operand) -> Integer: ...
    def __floordiv__(self, other: _Operand) -> Integer: ...
    def __rfloordiv__(self, other: _Operand) -> Integer: ...
    def __mod__(self, other: _Operand) -> Integer: ...
    def __rmod__(self, other: _Operand) -> Integer: ...
    def __divmod__(self, other: _Operand) -> tuple[Integer, Integer]: ...
    def __rdivmod__(self, other: _Operand) -> tuple[Integer, Integer]: ...
    def __pow__(self, exponent: _Operand, modulus: _Operand | None = None) -> Integer:
        """self ** exponent; with a modulus (odd, > 0; exponent >= 0) pow(self, exponent, modulus)
        in [0, modulus) by Montgomery arithmetic, in self's radix."""
    def __rpow__(self, base: _Operand) -> Integer: ...
    def __lshift__(self, n: int) -> Integer: ...
    def __rshift__(self, n: int) -> Integer: ...
    def __and__(self, other: _Operand) -> Integer: ...
    def __rand__(self, other: _Operand) -> Integer: ...
    def __or__(self, other: _Operand) -> Integer: ...
    def __ror__(self, other: _Operand) -> Integer: ...
    def __xor__(self, other: _Operand) -> Integer: ...
    def __rxor__(self, other: _Operand) -> Integer: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __lt__(self, other: _Operand) -> bool: ...
    def __le__(self, other: _Operand) -> bool: ...
    def __gt__(self, other: _Operand) -> bool: ...
    def __ge__(self, other: _Operand) -> bool: ...

class FixedFactor:
    """b (a nonzero int) prepared once for many products b * a by ints a of at most
    max_bits bits: its NTT transforms are computed once and kept, so each product
    transforms only a (two transforms where mul() takes three). Exact, as mul().
    ValueError for b == 0, max_bits outside [1, 2**46], an a longer than prepared for,
    or a released object. A context manager: the with block's end releases it.
    """

    def __init__(self, b: _IntLike, max_bits: int, *, threads: int | None = None) -> None: ...
    def mul(self, a: _IntLike, *, threads: int | None = None) -> int:
        """b * a, for an int a of at most max_bits bits."""
    def mul_many(self, values: Sequence[_IntLike], *, threads: int | None = None) -> list[int]:
        """[b * a for a in values] as one batch, spread over the threads."""
    def release(self) -> None:
        """Frees the kept transforms now; later products raise ValueError."""
    @property
    def prepared(self) -> bool:
        """Whether the transforms are held (False after release())."""
    @property
    def max_bits(self) -> int:
        """The longest operand prepared for, in bits."""
    @property
    def transform_length(self) -> int:
        """The kept transforms' length in points (0: products go to mul())."""
    def __enter__(self) -> FixedFactor: ...
    def __exit__(self, *exc: object) -> bool: ...
