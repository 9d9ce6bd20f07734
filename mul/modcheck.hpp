// SPDX-License-Identifier: LGPL-3.0-or-later
// The O(n) modular check of a product: residues modulo the Mersenne prime
// p = 2^61 - 1. An FFT rounding error changes the product by a small multiple
// of a power of the limb base, which p (prime, coprime to 2 and 10) detects.
#pragma once

#include <cstdint>

#include "bigmul/config.hpp"
#include "bigmul/hd.hpp"

namespace bigmul::detail {

inline constexpr std::uint64_t mod_check_prime = (std::uint64_t{1} << 61) - 1;

BIGMUL_HD std::uint64_t mod_p_reduce(unsigned __int128 x) {
  // x < 2^122: fold twice.
  std::uint64_t lo = static_cast<std::uint64_t>(x) & mod_check_prime;
  std::uint64_t hi = static_cast<std::uint64_t>(x >> 61);
  std::uint64_t s = lo + (hi & mod_check_prime) + (hi >> 61);
  s = (s & mod_check_prime) + (s >> 61);
  return s >= mod_check_prime ? s - mod_check_prime : s;
}

BIGMUL_HD std::uint64_t mod_p_mul(std::uint64_t a, std::uint64_t b) {
  return mod_p_reduce(static_cast<unsigned __int128>(a) * b);
}

BIGMUL_HD std::uint64_t mod_p_add(std::uint64_t a, std::uint64_t b) {  // a, b < p
  const std::uint64_t s = a + b;
  return s >= mod_check_prime ? s - mod_check_prime : s;
}

BIGMUL_HD std::uint64_t mod_p_pow(std::uint64_t x, std::size_t e) {
  std::uint64_t r = 1;
  while (e) {
    if (e & 1) r = mod_p_mul(r, x);
    x = mod_p_mul(x, x);
    e >>= 1;
  }
  return r;
}

// The limb base modulo p: 2^64 = 2^3 * 2^61 == 8 (binary), 10^19 mod p (decimal).
BIGMUL_HD std::uint64_t limb_base_mod_p(radix rx) {
  return rx == radix::binary ? 8 : mod_p_reduce(decimal_limb_base);
}

// Value of a[0..n) (radix rx) modulo 2^61 - 1.
std::uint64_t residue_mod_p(const limb_t* a, std::size_t n, radix rx, unsigned threads = 0);

}  // namespace bigmul::detail
