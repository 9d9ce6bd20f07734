// SPDX-License-Identifier: LGPL-3.0-or-later
// Schoolbook division pieces (internal to src/arith): the 2-by-1 limb
// division with a precomputed reciprocal (Moller and Granlund, "Improved
// division by invariant integers", 2011 [MG11]) and Knuth's algorithm D [KNUTH97].
#pragma once

#include <bit>
#include <cstddef>

#include "bigmul/config.hpp"
#include "mul/limb_ops.hpp"

namespace bigmul::detail {

// floor((2^128 - 1) / d) - 2^64 for a normalized d (top bit set).
inline limb_t invert_limb(limb_t d) {
  const u128 num = (static_cast<u128>(~d) << 64) | ~limb_t{0};
  return static_cast<limb_t>(num / d);
}

// div_2by1 (the 2-by-1 step, v = invert_limb(d)) lives in mul/limb_ops.hpp.

// r[0..n) -= a[0..n) * b; returns the limb to subtract above r[n-1].
inline limb_t submul_1(limb_t* r, const limb_t* a, std::size_t n, limb_t b) {
  limb_t carry = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const u128 p = static_cast<u128>(a[i]) * b + carry;
    const limb_t lo = static_cast<limb_t>(p);
    carry = static_cast<limb_t>(p >> 64) + (r[i] < lo);
    r[i] -= lo;
  }
  return carry;
}

// Knuth's algorithm D on a normalized divisor d[0..dn) (dn >= 2, top bit
// set). u[0..un) must have its top dn limbs below d. Writes the un - dn
// quotient limbs to q and leaves the remainder in u[0..dn) (u[dn..un) = 0).
void div_schoolbook(limb_t* q, limb_t* u, std::size_t un, const limb_t* d, std::size_t dn);

}  // namespace bigmul::detail
