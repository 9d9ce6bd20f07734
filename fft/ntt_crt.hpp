// SPDX-License-Identifier: LGPL-3.0-or-later
// Garner's mixed-radix digits [GARNER59] for a set of NTT primes (host code shared by
// the NTT engines; the multiply turns the digits into limbs).
//
// For residues r_k of x modulo K primes p_0 > p_1 > ... (each less than twice
// the last), the digits v_k < p_k satisfy x = v_0 + p_0 (v_1 + p_1 (v_2 + ...)):
// v_k = (((r_k - v_0) / p_0 - v_1) / p_1 - ...) mod p_k.
#pragma once

#include <cstddef>

#include "fft/ntt_arith.hpp"

namespace bigmul::fft {

// Three primes: x = v0 + p0 (v1 + p1 v2) from Garner's digits, as three
// 64-bit limbs (the multiply's carries and the IFMA engine's scalar tail).
inline void garner3_horner(u64 v0, u64 v1, u64 v2, u64 p0, u64 p1, u64& x0, u64& x1, u64& x2) {
  const u128 y = static_cast<u128>(v2) * p1 + v1;
  const u128 lo = static_cast<u128>(static_cast<u64>(y)) * p0 + v0;
  const u128 hi = static_cast<u128>(static_cast<u64>(y >> 64)) * p0 + static_cast<u64>(lo >> 64);
  x0 = static_cast<u64>(lo);
  x1 = static_cast<u64>(hi);
  x2 = static_cast<u64>(hi >> 64);
}

template <unsigned K>
struct garner_constants {
  u64 p[K];
  u64 inv[K][K], inv_shoup[K][K];  // inv[k][j] = p_j^{-1} mod p_k (j < k), 64-bit Shoup companion

  explicit garner_constants(const ntt_prime (&primes)[K]) {
    for (unsigned k = 0; k < K; ++k) p[k] = primes[k].p;
    for (unsigned k = 0; k < K; ++k)
      for (unsigned j = 0; j < k; ++j) {
        inv[k][j] = inv_mod(p[j] % p[k], p[k]);
        inv_shoup[k][j] = shoup_companion(inv[k][j], p[k]);
      }
  }

  // Digits of one coefficient from residues in [0, 2 p_k), for the first
  // `used` primes (used <= K).
  void digits(const u64 r[K], u64 v[K], unsigned used = K) const {
    for (unsigned k = 0; k < used; ++k) {
      u64 t = reduce_2p_to_p(r[k], p[k]);
      for (unsigned j = 0; j < k; ++j) {
        const u64 vj = reduce_2p_to_p(v[j], p[k]);  // v_j < p_j < 2 p_k
        t = mul_shoup(sub_mod(t, vj, p[k]), inv[k][j], inv_shoup[k][j], p[k]);
      }
      v[k] = t;
    }
  }

  // Digits of coefficients i .. i + count, digit k of coefficient c at v[k count + c].
  // Coefficients from .. count of a group of count (the vector engines' tails).
  void digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used = K,
              std::size_t from = 0) const {
    for (std::size_t c = from; c < count; ++c) {
      u64 r[K] = {}, d[K] = {};
      for (unsigned k = 0; k < used; ++k) r[k] = res[k][i + c];
      digits(r, d, used);
      for (unsigned k = 0; k < used; ++k) v[k * count + c] = d[k];
    }
  }
};

}  // namespace bigmul::fft
