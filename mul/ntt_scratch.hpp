// SPDX-License-Identifier: LGPL-3.0-or-later
// The calling thread's NTT transform buffers, kept between products
// (ntt_scratch_bytes, ntt_release_scratch and ntt_reserve_scratch in
// mul/ntt_mul.hpp are their public face).
#pragma once

#include <cstddef>

#include "fft/ntt.hpp"

namespace bigmul::detail {

// Array stride in the slab: points rounded up to 64 bytes, so that every
// array starts on a cache line.
constexpr std::size_t ntt_scratch_stride(std::size_t points) { return (points + 7) & ~std::size_t{7}; }

// `count` arrays of ntt_scratch_stride(n) words each, carved from the
// thread's slab (grown, never shrunk, until ntt_release_scratch).
fft::u64* const* ntt_scratch(std::size_t count, std::size_t n);

}  // namespace bigmul::detail
