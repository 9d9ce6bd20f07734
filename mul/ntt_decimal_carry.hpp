// SPDX-License-Identifier: LGPL-3.0-or-later
#pragma once
// The decimal carry of a three-prime NTT product on the vector engines'
// primes: coefficients arrive already split into base-10^19 digits
// c = d0 + d1 10^19 + d2 10^38 (fft/ntt_decimal_digits.hpp, independent
// per coefficient and vectorized), so the carry chain is additions and
// compares only. The other engines' path (mul/ntt_crt_carry.cpp) divides once per
// position on the chain (three primes) or twice (four).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "fft/ntt_decimal_digits.hpp"

namespace bigmul::detail {

// Interleaved decimal carry chains (here and mul/ntt_crt_carry.cpp): chain c's
// next group from offset off, len[c] coefficients (up to group, 0 past its
// end); returns the fewest of them, the positions every chain takes in turn
// (~0 when no chain has any left).
template <unsigned C>
std::size_t chain_group(const std::size_t (&lo)[C], const std::size_t (&hi)[C], std::size_t off, std::size_t group,
                        std::size_t (&len)[C]) {
  std::size_t all = group, any = 0;
  for (unsigned c = 0; c < C; ++c) {
    len[c] = lo[c] + off < hi[c] ? std::min(group, hi[c] - lo[c] - off) : 0;
    all = std::min(all, len[c]);
    any |= len[c];
  }
  return any == 0 ? ~std::size_t{0} : all;
}

// The running sum of one chain: position i receives d0[i] + d1[i - 1] +
// d2[i - 2] + carry. State: a = d1[i - 1], b = d2[i - 2], b1 = d2[i - 1],
// carry <= 2.
struct ntt_decimal_chain {
  std::uint64_t a = 0, b = 0, b1 = 0, carry = 0;

  // Adds the coefficient (d0, d1, d2) at the current position; returns its limb.
  limb_t step(std::uint64_t d0, std::uint64_t d1, std::uint64_t d2) {
    constexpr std::uint64_t M = decimal_limb_base;
    // x = d0 + a (each < M; the sum < 2M can pass 2^64: compare with the room).
    const std::uint64_t room = M - a;
    const bool c1 = d0 >= room;
    const std::uint64_t x = c1 ? d0 - room : d0 + a;
    const std::uint64_t y = x + b + carry;  // < M + 2^25 + 2
    const bool c2 = y >= M;
    a = d1;
    b = b1;
    b1 = d2;
    carry = static_cast<std::uint64_t>(c1) + static_cast<std::uint64_t>(c2);
    return c2 ? y - M : y;
  }
  // What the chain owes past its last position, as base-10^19 limbs:
  // t[0] = (a + b + carry) mod M, t[1] = b1 + its carry (the value
  // a + b + carry + b1 M).
  void tail(std::uint64_t t[2]) const {
    constexpr std::uint64_t M = decimal_limb_base;
    const std::uint64_t s = b + carry;  // < 2^26
    const std::uint64_t room = M - a;
    const bool c = s >= room;
    t[0] = c ? s - room : s + a;
    t[1] = b1 + static_cast<std::uint64_t>(c);
  }
};

// C pieces [lo[c], hi[c]) of the coefficients (residues res[0..2]) into
// r[lo[c] .. hi[c]), their chains interleaved (each step waits on its
// chain's carry); tails + c * tail_stride gets what piece c carries past its
// end (two limbs, the rest of the stride zeroed). digits: the engine's
// kernel (fft::ntt52_decimal_digits or fft::ntt_avx2_decimal_digits).
template <unsigned C>
void ntt_decimal3_carry(const fft::u64* const res[], const std::size_t (&lo)[C], const std::size_t (&hi)[C],
                        limb_t* r, fft::u64* tails, std::size_t tail_stride,
                        void (*digits)(const fft::u64* const[], std::size_t, std::size_t,
                                       fft::u64*) = fft::ntt52_decimal_digits) {
  constexpr std::size_t group = 128;
  fft::u64 d[C][3 * group];
  ntt_decimal_chain chain[C];
  for (std::size_t off = 0;; off += group) {
    std::size_t len[C];
    const std::size_t all = chain_group(lo, hi, off, group, len);
    if (all == ~std::size_t{0}) break;
    for (unsigned c = 0; c < C; ++c)
      if (len[c]) digits(res, lo[c] + off, len[c], d[c]);
    const auto run = [&](unsigned c, std::size_t q) {
      r[lo[c] + off + q] = chain[c].step(d[c][q], d[c][len[c] + q], d[c][2 * len[c] + q]);
    };
    for (std::size_t q = 0; q < all; ++q)
      for (unsigned c = 0; c < C; ++c) run(c, q);
    for (unsigned c = 0; c < C; ++c)
      for (std::size_t q = all; q < len[c]; ++q) run(c, q);
  }
  for (unsigned c = 0; c < C; ++c) {
    fft::u64 t[2];
    chain[c].tail(t);
    for (std::size_t l = 0; l < tail_stride; ++l) tails[c * tail_stride + l] = l < 2 ? t[l] : 0;
  }
}

}  // namespace bigmul::detail
