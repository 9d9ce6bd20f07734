// SPDX-License-Identifier: LGPL-3.0-or-later
// Montgomery arithmetic [MONTGOMERY85] at limb level (binary radix), for an odd modulus m of
// n limbs: R = 2^(64 n), values in Montgomery form are x R mod m.
//
// Two engines:
//   * scalar (montgomery.cpp): one modulus, 64-bit limbs: from 8 limbs on
//     processors with BMI2 + ADX, the product by MULX/ADX rows and n
//     reduction rows (REDC); else product scanning with the reduction folded
//     in (FIPS: Koc, Acar, Kaliski 1996) with unsigned __int128; both end in a
//     final subtraction by mask;
//   * lanes (montgomery_ifma.cpp): eight independent operations per AVX-512
//     IFMA vector, one per 64-bit lane, each lane with its own modulus, base
//     and exponent, in 52-bit digits with Gueron and Krasnov's "almost
//     Montgomery" product (inputs and outputs below 2m, R = 2^(52 D) >= 4m);
//     on processors without IFMA the same in AVX2 lanes, four a vector, each
//     digit product split exactly by two FMAs (montgomery_avx2.cpp).
//
// What is constant time (no branch and no memory address depends on a secret
// value; run time depends only on public sizes):
//   * mont_mul / mont_sqr / to_mont / from_mont (scalar) for fixed n;
//   * mont_pow_sec (scalar) and lanes_pow_sec (either lanes): the exponent, the base and the
//     result are secret; time depends on n (or the group's digit count D) and
//     on exp_bits, the number of exponent bits processed, which the caller
//     chooses from public sizes (bigmul's integer API: 64 x the exponent's limb
//     count, like OpenSSL's BN_mod_exp_mont_consttime);
//   * the table lookups read every entry and select with masks.
// What is not: mont_setup (divides by the modulus: the modulus is public),
// mont_pow (sliding window: its squarings and products follow the exponent's
// bits), and anything that converts or allocates around these calls.
#pragma once

#include <cstddef>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::detail {

struct mont_ctx {
  std::vector<limb_t> m;    // the odd modulus, n limbs, m[n - 1] != 0
  std::size_t n = 0;
  limb_t ninv = 0;          // -m^-1 mod 2^64
  std::vector<limb_t> r2;   // R^2 mod m
  std::vector<limb_t> one;  // R mod m: 1 in Montgomery form
};

// -m0^-1 mod 2^64 for odd m0 (Newton's iteration, each step doubling the
// correct low bits).
limb_t neg_inverse_limb(limb_t m0);

// The context for m[0..n): m odd, m[n - 1] != 0 (checked by the caller).
mont_ctx mont_setup(const limb_t* m, std::size_t n);

// Scratch limbs the scalar operations below need (t).
inline std::size_t mont_scratch_limbs(std::size_t n) { return 2 * n + 1; }

// r = a b R^-1 mod m, a, b < m (a, b, r: n limbs; r may alias a or b).
void mont_mul(limb_t* r, const limb_t* a, const limb_t* b, const mont_ctx& c, limb_t* t);
inline void mont_sqr(limb_t* r, const limb_t* a, const mont_ctx& c, limb_t* t) { mont_mul(r, a, a, c, t); }
// r = a R mod m (a < m), and back: r = a R^-1 mod m.
void to_mont(limb_t* r, const limb_t* a, const mont_ctx& c, limb_t* t);
void from_mont(limb_t* r, const limb_t* a, const mont_ctx& c, limb_t* t);

// r = b^e mod m (b < m, n limbs; e: en limbs, any value; r: n limbs, not
// aliasing b or e). Sliding window, variable time.
void mont_pow(limb_t* r, const limb_t* b, const limb_t* e, std::size_t en, const mont_ctx& c);
// The same by a fixed window over exp_bits bits of e (exp_bits >= the
// exponent's bit length; bits past en limbs read as 0). Constant time: see above.
void mont_pow_sec(limb_t* r, const limb_t* b, const limb_t* e, std::size_t en, std::size_t exp_bits,
                  const mont_ctx& c);

// ---------------------------------------------------------------------------
// Lanes (AVX-512 IFMA, else AVX2). One job per lane, up to eight per call.
struct lane_job {
  const limb_t* m = nullptr;  // odd modulus, mn limbs, top limb nonzero
  std::size_t mn = 0;
  const limb_t* x = nullptr;  // base (pow) or first factor (mul): xn <= mn limbs, value < m
  std::size_t xn = 0;
  const limb_t* y = nullptr;  // exponent (pow) or second factor (mul, value < m)
  std::size_t yn = 0;
  limb_t* r = nullptr;        // result, mn limbs
};

// Whether lanes run batches: batched_engine_chosen() (mul/batched_ifma.hpp)
// is ifma or avx2 (BIGMUL_BATCHED_ENGINE=scalar turns them off).
bool lanes_supported();

// jobs[0 .. count), count <= 8: r = x^y mod m, fixed window over exp_bits
// bits (>= every exponent's bit length). Constant time: see above.
void lanes_pow_sec(const lane_job* jobs, std::size_t count, std::size_t exp_bits);
// jobs[0 .. count), count <= 8: r = x y mod m.
void lanes_mul(const lane_job* jobs, std::size_t count);

// The AVX2 lanes themselves (count <= 4; lanes_pow_sec and lanes_mul call
// them in fours when batched_engine_chosen() is avx2): any processor with
// AVX2 and FMA. Moduli past 33280 bits run one job at a time on the scalar
// code (the lanes' accumulators would overflow).
void lanes_avx2_pow_sec(const lane_job* jobs, std::size_t count, std::size_t exp_bits);
void lanes_avx2_mul(const lane_job* jobs, std::size_t count);

}  // namespace bigmul::detail
