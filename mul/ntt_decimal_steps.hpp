// SPDX-License-Identifier: LGPL-3.0-or-later
// One decimal position of an NTT product's carry from a coefficient's binary
// limbs or Garner digits (mul/ntt_crt_carry.cpp): the scalar engines' path;
// the IFMA engine's three-prime one is mul/ntt_decimal_carry.hpp.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"
#include "fft/ntt.hpp"
#include "mul/limb_ops.hpp"

namespace bigmul::detail {

// Decimal pieces a task: each piece's carry runs through two dependent
// divisions per coefficient (latency bound), so a task interleaves this many
// independent chains (fewer leave the divider idle, more spill).
inline constexpr unsigned ntt_decimal_chains = 4;

// One decimal position: t = x + carry (binary, < 2^163), digit = t mod 10^19,
// carry = t / 10^19 (< 2^101): two 2-by-1 divisions. The carry chain through
// the divisions is the cost, so callers interleave several chains.
inline limb_t ntt_decimal_step(const fft::u64 x[3], fft::u64 pend[2]) {
  using fft::u128;
  using fft::u64;
  const u128 s0 = static_cast<u128>(x[0]) + pend[0];
  const u128 s1 = static_cast<u128>(x[1]) + pend[1] + static_cast<u64>(s0 >> 64);
  const u64 t2 = x[2] + static_cast<u64>(s1 >> 64);  // < 2^35 < 10^19
  const qr64 top = div_1e19((static_cast<u128>(t2) << 64) | static_cast<u64>(s1));
  const qr64 low = div_1e19((static_cast<u128>(top.r) << 64) | static_cast<u64>(s0));
  pend[0] = low.q;
  pend[1] = top.q;
  return low.r;
}

// Chains a task for ntt_decimal_garner3_step: its division's latency is the
// chain, and two chains keep their state in registers where four spill.
inline constexpr unsigned ntt_decimal_garner3_chains = 2;

// One decimal position straight from Garner's three digits (v0 < p0, v1 <
// p1, v2 < p2; p0 < B = 10^19): with p0 p1 = q1 B + q0, a coefficient is
// c = S + T B, S = v0 + v1 p0 + v2 q0 (< 2^127), T = v2 q1 (< 2^124, 62-bit
// primes). T goes on to the next position undivided, so a position's value
// V = S + T_previous + carry (< 2^127) takes one 2-by-1 division (V / B <
// 2^64) where the Horner limbs of c took two (ntt_decimal_step).
struct ntt_decimal_garner3 {
  fft::u64 p0, q0, q1;
  explicit ntt_decimal_garner3(fft::u64 p0_, fft::u64 p1) : p0(p0_) {
    const fft::u128 pp = static_cast<fft::u128>(p0_) * p1;
    q1 = static_cast<fft::u64>(pp / decimal_limb_base);
    q0 = static_cast<fft::u64>(pp % decimal_limb_base);
  }
};
// pend = {carry, T low, T high} in and out; returns the position's limb.
// (The sums as bin::addc chains, as the binary carries have them, are
// slower here.)
inline limb_t ntt_decimal_garner3_step(const ntt_decimal_garner3& g, fft::u64 v0, fft::u64 v1, fft::u64 v2,
                                       fft::u64 pend[3]) {
  using fft::u128;
  const u128 t_prev = (static_cast<u128>(pend[2]) << 64) | pend[1];
  const u128 v = static_cast<u128>(v1) * g.p0 + static_cast<u128>(v2) * g.q0 + v0 + pend[0] + t_prev;
  const u128 t = static_cast<u128>(v2) * g.q1;
  const qr64 d = div_1e19(v);
  pend[0] = d.q;
  pend[1] = static_cast<fft::u64>(t);
  pend[2] = static_cast<fft::u64>(t >> 64);
  return d.r;
}

}  // namespace bigmul::detail
