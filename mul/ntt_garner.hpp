// SPDX-License-Identifier: LGPL-3.0-or-later
#pragma once
// Garner reconstruction of an NTT product's coefficients from their
// mixed-radix digits, shared by the multiply (mul/ntt_crt_carry.cpp) and the
// fixed-factor cyclic products of the radix converter (src/arith/ntt_reuse.cpp).
// [GARNER59]

#include <cstddef>

#include "bigmul/config.hpp"
#include "fft/ntt_arith.hpp"
#include "fft/ntt_crt.hpp"
#include "mul/limb_binary.hpp"

namespace bigmul::detail {

// x = v_0 + p_0 (v_1 + p_1 (v_2 + ...)) from Garner's digits (digit k of
// coefficient c at v[k count + c]), as three limbs: x < 2^162, so a fourth
// limb is zero. Returns false if it is not (a broken transform; never for
// correct residues).
inline bool ntt_horner_limbs(const fft::ntt_prime* primes, unsigned used, const fft::u64* v, std::size_t count,
                             std::size_t c, fft::u64 x[3]) {
  using fft::u128;
  using fft::u64;
  if (used == 3) {  // the common case, straight-line: x = v0 + p0 (v1 + p1 v2), three limbs
    fft::garner3_horner(v[c], v[count + c], v[2 * count + c], primes[0].p, primes[1].p, x[0], x[1], x[2]);
    return true;  // < p0 p1 p2 < 2^187
  }
  u64 acc[4] = {v[(used - 1) * count + c], 0, 0, 0};
  unsigned active = 1;
  bool fits = true;
  for (unsigned k = used - 1; k-- > 0;) {  // acc = acc * p_k + v_k
    u128 carry = v[k * count + c];
    for (unsigned l = 0; l < active; ++l) {
      const u128 t = static_cast<u128>(acc[l]) * primes[k].p + carry;
      acc[l] = static_cast<u64>(t);
      carry = t >> 64;
    }
    if (active < 4)
      acc[active++] = static_cast<u64>(carry);
    else
      fits &= carry == 0;
  }
  x[0] = acc[0];
  x[1] = acc[1];
  x[2] = acc[2];
  return fits && acc[3] == 0;
}

// The same as four limbs (x < 2^256: up to five primes below 2^51): the
// wide coefficients' values (mul/ntt_coefficients.hpp). Returns false if x
// passes four limbs.
inline bool ntt_horner_limbs4(const fft::ntt_prime* primes, unsigned used, const fft::u64* v, std::size_t count,
                              std::size_t c, fft::u64 x[4]) {
  using fft::u128;
  using fft::u64;
  u64 acc[4] = {v[(used - 1) * count + c], 0, 0, 0};
  bool fits = true;
  for (unsigned k = used - 1; k-- > 0;) {  // acc = acc * p_k + v_k
    u128 carry = v[k * count + c];
    for (auto& limb : acc) {
      const u128 t = static_cast<u128>(limb) * primes[k].p + carry;
      limb = static_cast<u64>(t);
      carry = t >> 64;
    }
    fits &= carry == 0;
  }
  for (unsigned l = 0; l < 4; ++l) x[l] = acc[l];
  return fits;
}

// Four primes below 2^50 (the vector engines'): x = v0 + p0 (v1 + p1 (v2 +
// p2 v3)) < 2^200 as four limbs, each step multiplying only the limbs it has.
inline void garner4_horner(fft::u64 v0, fft::u64 v1, fft::u64 v2, fft::u64 v3, fft::u64 p0, fft::u64 p1,
                           fft::u64 p2, fft::u64 x[4]) {
  using fft::u128;
  using fft::u64;
  const u128 y = static_cast<u128>(v3) * p2 + v2;  // < 2^100
  const u128 z0 = static_cast<u128>(static_cast<u64>(y)) * p1 + v1;
  const u128 z1 = static_cast<u128>(static_cast<u64>(y >> 64)) * p1 + static_cast<u64>(z0 >> 64);  // z < 2^150
  const u128 x0 = static_cast<u128>(static_cast<u64>(z0)) * p0 + v0;
  const u128 x1 = static_cast<u128>(static_cast<u64>(z1)) * p0 + static_cast<u64>(x0 >> 64);
  const u128 x2 = static_cast<u128>(static_cast<u64>(z1 >> 64)) * p0 + static_cast<u64>(x1 >> 64);
  x[0] = static_cast<u64>(x0);
  x[1] = static_cast<u64>(x1);
  x[2] = static_cast<u64>(x2);
  x[3] = static_cast<u64>(x2 >> 64);
}

// The binary carry of `len` coefficients, each x = coefficient(q) given as
// three limbs (x < 2^163): x is added to the running carry (pend[0],
// pend[1]) and the low limb written to r[q] (pend[1] + x2 + carry < 2^64:
// nothing is lost).
template <class Coefficient>
inline void ntt_carry3_run(std::size_t len, Coefficient&& coefficient, limb_t* r, fft::u64 pend[2]) {
  using fft::u64;
  u64 c0 = pend[0], c1 = pend[1];
  for (std::size_t q = 0; q < len; ++q) {
    u64 x0, x1, x2;
    coefficient(q, x0, x1, x2);
    limb_t s0, s1;
    bin::carry_t c = bin::addc(0, c0, x0, &s0);  // one add/adc chain
    c = bin::addc(c, c1, x1, &s1);
    r[q] = s0;
    c0 = s1;
    c1 = x2 + c;
  }
  pend[0] = c0;
  pend[1] = c1;
}

// Three primes, Horner and the binary carry fused, no limb array: each
// coefficient x = v0 + p0 (v1 + p1 v2) < 2^163 from its Garner digits.
inline void ntt_garner3_carry(const fft::u64* v0, const fft::u64* v1, const fft::u64* v2, std::size_t len,
                              fft::u64 P0, fft::u64 P1, limb_t* r, fft::u64 pend[2]) {
  ntt_carry3_run(
      len,
      [&](std::size_t q, fft::u64& x0, fft::u64& x1, fft::u64& x2) {
        fft::garner3_horner(v0[q], v1[q], v2[q], P0, P1, x0, x1, x2);
      },
      r, pend);
}

// The same from the coefficients' limbs (limb l of coefficient q at
// x[l len + q]: fft::ntt52_crt3_limbs).
inline void ntt_limbs3_carry(const fft::u64* x, std::size_t len, limb_t* r, fft::u64 pend[2]) {
  ntt_carry3_run(
      len,
      [&](std::size_t q, fft::u64& x0, fft::u64& x1, fft::u64& x2) {
        x0 = x[q];
        x1 = x[len + q];
        x2 = x[2 * len + q];
      },
      r, pend);
}

}  // namespace bigmul::detail
