// SPDX-License-Identifier: LGPL-3.0-or-later
// How many of an engine's NTT primes (in order) a product needs: the fewest
// whose product exceeds the largest coefficient of the cyclic product.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"
#include "fft/ntt.hpp"

namespace bigmul::detail {

// `terms` products of coefficients at most `top` each; available + 1 when
// the primes do not suffice.
unsigned primes_needed_for(const fft::ntt_prime* primes, unsigned available, fft::u64 top, fft::u64 terms);
// Limb coefficients (radix rx) of an an- by bn-limb product.
unsigned primes_needed(const fft::ntt_prime* primes, unsigned available, std::size_t an, std::size_t bn, radix rx);
// `terms` products of coefficients below 2^bits each (bits 1 .. 127: the
// wide binary coefficients of mul/ntt_coefficients.hpp).
unsigned primes_needed_bits(const fft::ntt_prime* primes, unsigned available, unsigned bits, fft::u64 terms);

}  // namespace bigmul::detail
