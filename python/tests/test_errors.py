# SPDX-License-Identifier: LGPL-3.0-or-later
"""Bad arguments: TypeError for non-integers and wrong types, ValueError for
bad options, with bigmul's message."""

import os

import pytest

import bigmul


@pytest.mark.parametrize("bad", [1.5, "12", b"12", None, [1], 2j])
def test_non_int_operands(bad):
    with pytest.raises(TypeError, match="must be an int"):
        bigmul.mul(bad, 3)
    with pytest.raises(TypeError, match="must be an int"):
        bigmul.mul(3, bad)
    with pytest.raises(TypeError):
        bigmul.sqr(bad)
    with pytest.raises(TypeError):
        bigmul.mul_batched([bad], [1])


def test_options():
    with pytest.raises(ValueError, match="unknown algorithm 'toom'"):
        bigmul.mul(2, 3, algorithm="toom")
    with pytest.raises(TypeError):
        bigmul.mul(2, 3, algorithm=3)
    with pytest.raises(ValueError, match="threads"):
        bigmul.mul(2, 3, threads=-1)
    with pytest.raises(TypeError):
        bigmul.mul(2, 3, threads=1.0)
    with pytest.raises(ValueError, match="backend"):
        bigmul.mul(2, 3, backend="gpu")
    with pytest.raises(TypeError):
        bigmul.mul(2, 3, 4)  # options are keyword-only
    with pytest.raises(TypeError):
        bigmul.mul(2)


def test_cuda_backend_says_why():
    usable, why = bigmul.cuda_usable()
    if usable:
        assert bigmul.mul(3**2000, 7**1500, backend="cuda") == 3**2000 * 7**1500
    else:
        assert why
        with pytest.raises(RuntimeError, match="not usable"):
            bigmul.mul(2, 3, backend="cuda")


def test_algorithm_refusals_are_value_errors():
    # fft_real_f32 is refused past the sizes where it is exact: bigmul's message, as ValueError.
    a = 1 << 3_000_000
    with pytest.raises(ValueError, match="fft_real_f32"):
        bigmul.mul(a, a, algorithm="fft_real_f32")


def test_mul_batched_lengths():
    with pytest.raises(ValueError, match="same length"):
        bigmul.mul_batched([1, 2], [3])
    with pytest.raises(TypeError):
        bigmul.mul_batched(5, [3])


def test_module_surface():
    assert bigmul.__version__
    for name in ("mul", "sqr", "mul_batched", "to_decimal", "from_decimal", "to_hex", "from_hex", "Integer"):
        assert getattr(bigmul, name).__doc__, name
    bigmul.release_scratch()


@pytest.mark.skipif("address" in os.environ.get("BIGMUL_SANITIZE", ""),
                    reason="ASan's allocator reports an impossible allocation instead of throwing bad_alloc")
def test_out_of_memory_is_memory_error():
    # 2^62 bits: 512 PiB, an allocation no machine grants, refused at once.
    with pytest.raises(MemoryError):
        bigmul.Integer(1) << (1 << 62)
