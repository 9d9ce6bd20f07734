// SPDX-License-Identifier: LGPL-3.0-or-later
// Per-limb arithmetic in both radices, shared by the multiplication algorithms
// (and their CUDA twins: everything here is BIGMUL_HD).
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "bigmul/hd.hpp"

namespace bigmul::detail {

using u128 = unsigned __int128;

struct qr64 {
  limb_t q, r;
};

// (u1 * 2^64 + u0) / d for a normalized d (top bit set) and u1 < d, with
// v = floor((2^128 - 1) / d) - 2^64: Moller and Granlund's [MG11] 2-by-1 division by
// an invariant integer ("Improved division by invariant integers", 2011).
BIGMUL_HD qr64 div_2by1(limb_t u1, limb_t u0, limb_t d, limb_t v) {
  u128 q = static_cast<u128>(v) * u1;
  q += (static_cast<u128>(u1 + 1) << 64) | u0;
  limb_t q1 = static_cast<limb_t>(q >> 64);
  const limb_t q0 = static_cast<limb_t>(q);
  limb_t r = u0 - q1 * d;
  // The first correction is taken about half the time on random input: a
  // mask instead of a branch (GMP's udiv_qrnnd_preinv does the same). The
  // second is rare and stays a branch.
  const limb_t mask = limb_t{0} - static_cast<limb_t>(r > q0);
  q1 += mask;
  r += mask & d;
  if (r >= d) {
    ++q1;
    r -= d;
  }
  return {q1, r};
}

// Quotient and remainder of a 128-bit t < 10^19 * 2^64 by 10^19 (already
// normalized: its top bit is set).
BIGMUL_HD qr64 div_1e19(u128 t) {
  return div_2by1(static_cast<limb_t>(t >> 64), static_cast<limb_t>(t), decimal_limb_base, 0xd83c94fb6d2ac34aull);
}

// Limb base of a radix minus one, and addition/subtraction with carry.
BIGMUL_HD limb_t limb_max(radix rx) { return rx == radix::binary ? ~limb_t{0} : decimal_limb_base - 1; }

// x + y + c (c in {0,1}) -> sum limb, carry out.
BIGMUL_HD limb_t add_limb(limb_t x, limb_t y, limb_t& c, radix rx) {
  if (rx == radix::binary) {
    const u128 s = static_cast<u128>(x) + y + c;
    c = static_cast<limb_t>(s >> 64);
    return static_cast<limb_t>(s);
  }
  // x + y + c can reach 2 * 10^19 - 1 > 2^64: compare against the room left instead.
  const limb_t room = decimal_limb_base - y;  // > 0
  const limb_t xc = x + c;                    // <= 10^19
  if (xc >= room) {
    c = 1;
    return xc - room;
  }
  c = 0;
  return xc + y;
}

// x - y - b (b in {0,1}) -> difference limb, borrow out.
BIGMUL_HD limb_t sub_limb(limb_t x, limb_t y, limb_t& b, radix rx) {
  const limb_t yb = y + b;  // may wrap only in binary when y = 2^64-1 and b = 1
  if (rx == radix::binary) {
    const bool wrap = yb < y;
    const limb_t d = x - yb;
    b = wrap || x < yb;
    return d;
  }
  if (x >= yb) {
    b = 0;
    return x - yb;
  }
  b = 1;
  return decimal_limb_base - (yb - x);  // x + 10^19 - yb would pass 2^64
}

// One limb product plus two addends, split into (high, low) in the radix:
// x*y + a + c < B^2, so high < B.
BIGMUL_HD limb_t mul_add_limb(limb_t x, limb_t y, limb_t a, limb_t& c, radix rx) {
  const u128 t = static_cast<u128>(x) * y + a + c;
  if (rx == radix::binary) {
    c = static_cast<limb_t>(t >> 64);
    return static_cast<limb_t>(t);
  }
  const qr64 qr = div_1e19(t);
  c = qr.q;
  return qr.r;
}

}  // namespace bigmul::detail
