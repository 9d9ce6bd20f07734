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

// The sums without the carry of a group of one chain: position q receives
// d0[q] + d1[q - 1] + d2[q - 2] = h[q] M + l[q] (l < M, h <= 2), d0, d1, d2
// at d, d + len, d + 2 len; prev = {d1[-1], d2[-2], d2[-1]} from the
// group before, moved past this group. In AVX2 where the processor has it
// (mul/ntt_crt_carry.cpp): independent per position, so that the carry
// chain itself is one add, compare and select a position.
void ntt_decimal_sums(const fft::u64* d, std::size_t len, fft::u64 prev[3], fft::u64* l, fft::u64* h);

// One position of a chain whose sum without the carry is h M + l: its
// limb; carry (<= 2) moves on.
inline limb_t ntt_decimal_chain_step(std::uint64_t l, std::uint64_t h, std::uint64_t& carry) {
  constexpr std::uint64_t M = decimal_limb_base;
  const std::uint64_t t = l + carry;  // < M + 3
  const bool c = t >= M;
  carry = h + static_cast<std::uint64_t>(c);  // h = 2 leaves l < 2^25: c = 0
  return c ? t - M : t;
}

// What a chain owes past its last position, as base-10^19 limbs, from
// prev = {a, b, b1} = {d1, d2 of the position before, d2} of its last
// position: t[0] = (a + b + carry) mod M, t[1] = b1 + its carry (the value
// a + b + carry + b1 M).
inline void ntt_decimal_chain_tail(const fft::u64 prev[3], std::uint64_t carry, std::uint64_t t[2]) {
  constexpr std::uint64_t M = decimal_limb_base;
  const std::uint64_t s = prev[1] + carry;  // < 2^26
  const std::uint64_t room = M - prev[0];
  const bool c = s >= room;
  t[0] = c ? s - room : s + prev[0];
  t[1] = prev[2] + static_cast<std::uint64_t>(c);
}

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
  fft::u64 d[3 * group], l[C][group], h[C][group], prev[C][3] = {};
  std::uint64_t carry[C] = {};
  for (std::size_t off = 0;; off += group) {
    std::size_t len[C];
    const std::size_t all = chain_group(lo, hi, off, group, len);
    if (all == ~std::size_t{0}) break;
    limb_t* out[C];
    for (unsigned c = 0; c < C; ++c) {
      out[c] = r + lo[c] + off;
      if (len[c] == 0) continue;
      digits(res, lo[c] + off, len[c], d);
      ntt_decimal_sums(d, len[c], prev[c], l[c], h[c]);
    }
    for (std::size_t q = 0; q < all; ++q)
      for (unsigned c = 0; c < C; ++c) out[c][q] = ntt_decimal_chain_step(l[c][q], h[c][q], carry[c]);
    for (unsigned c = 0; c < C; ++c)
      for (std::size_t q = all; q < len[c]; ++q) out[c][q] = ntt_decimal_chain_step(l[c][q], h[c][q], carry[c]);
  }
  for (unsigned c = 0; c < C; ++c) {
    fft::u64 t[2];
    ntt_decimal_chain_tail(prev[c], carry[c], t);
    for (std::size_t k = 0; k < tail_stride; ++k) tails[c * tail_stride + k] = k < 2 ? t[k] : 0;
  }
}

}  // namespace bigmul::detail
