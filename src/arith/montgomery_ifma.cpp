// SPDX-License-Identifier: LGPL-3.0-or-later
// Montgomery arithmetic in AVX-512 IFMA lanes: see src/arith/montgomery.hpp.
//
// Eight jobs per vector, lane l = job l, each with its own modulus; a group
// runs with D 52-bit digits, D the largest ceil((bits(m) + 2) / 52) of its
// moduli, so R = 2^(52 D) >= 4m for every lane. The product is Gueron and
// Krasnov's "almost Montgomery multiplication" (AMM): a, b < 2m gives
// a b R^-1 mod m + (0 or m) < 2m, no final subtraction inside exponentiation.
// Word-by-word (CIOS) order: row i adds a_i b and u_i m (u_i = t_i k0 mod
// 2^52) into a window of 64-bit digit accumulators t[i .. i + D], the low
// digit's carry moves up; accumulators stay below 2^61 for D <= 300 (at most
// four 52-bit terms a row and D + 1 rows). Every digit vector is normalized
// (< 2^52) after each product, since vpmadd52 reads only 52 bits.
//
// The vector code lives in functions with a target attribute (as in
// fft/ntt_ifma_*.cpp); lanes_supported() gates every call.
#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "mul/batched_avx2.hpp"
#include "mul/batched_ifma.hpp"
#include "src/arith/montgomery.hpp"
#include "src/arith/montgomery_lanes.hpp"

#include "prim/ifma_target.hpp"

namespace bigmul::detail {
namespace {

using u64 = std::uint64_t;
constexpr u64 mask52 = lanes52::digit_mask;
using aligned_u64 = lanes52::aligned_buffer<u64, 64>;
using lanes52::digits_for;

// A group's moduli in lanes: digits, k0 = -m^-1 mod 2^52, R^2 mod m.
struct lane_moduli {
  std::size_t d = 0;
  aligned_u64 M, R2, K0;
  explicit lane_moduli(std::size_t digits) : d(digits), M(8 * digits), R2(8 * digits), K0(8) {}
};

void fill_moduli(lane_moduli& L, const lane_job* jobs, std::size_t count) {
  lanes52::fill_moduli<8>(L.M.p, L.R2.p, L.K0.p, L.d, jobs, count);
}

#if defined(BIGMUL_HAVE_IFMA_CODE)

BIGMUL_IFMA inline __m512i load(const u64* p) { return _mm512_load_si512(p); }
BIGMUL_IFMA inline void store(u64* p, __m512i v) { _mm512_store_si512(p, v); }

// out = a b R^-1 (+ m) < 2m, digits normalized; t: 2D + 1 vectors of
// scratch. out may alias a or b. DC: the digit count when known at compile
// time (the loops unroll), 0 for d.
template <std::size_t DC>
BIGMUL_IFMA void amm(u64* out, const u64* A, const u64* B, const lane_moduli& L, u64* t) {
  const std::size_t d = DC ? DC : L.d;
  const u64* M = L.M.p;
  const __m512i zero = _mm512_setzero_si512(), k0 = load(L.K0.p), mask = _mm512_set1_epi64(static_cast<long long>(mask52));
  for (std::size_t j = 0; j <= 2 * d; ++j) store(t + 8 * j, zero);
  for (std::size_t i = 0; i < d; ++i) {
    u64* ti = t + 8 * i;
    const __m512i a = load(A + 8 * i);
    __m512i x = _mm512_madd52lo_epu64(load(ti), a, load(B));
    const __m512i u = _mm512_madd52lo_epu64(zero, x, k0);
    x = _mm512_madd52lo_epu64(x, u, load(M));
    __m512i next = _mm512_add_epi64(_mm512_add_epi64(load(ti + 8), _mm512_srli_epi64(x, 52)),
                                    _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, a, load(B)), u, load(M)));
    for (std::size_t j = 1; j < d; ++j) {
      const __m512i bj = load(B + 8 * j), mj = load(M + 8 * j);
      x = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(next, a, bj), u, mj);
      const __m512i h = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(load(ti + 8 * (j + 1)), a, bj), u, mj);
      store(ti + 8 * j, x);
      next = h;
    }
    store(ti + 8 * d, next);
  }
  // out = t[d .. 2d), carried into 52-bit digits (the value is < 2m < 2^(52 d)).
  __m512i c = zero;
  for (std::size_t j = 0; j < d; ++j) {
    const __m512i v = _mm512_add_epi64(load(t + 8 * (d + j)), c);
    store(out + 8 * j, _mm512_and_si512(v, mask));
    c = _mm512_srli_epi64(v, 52);
  }
}

using amm_fn = void (*)(u64*, const u64*, const u64*, const lane_moduli&, u64*);

// Unrolled instances for the usual sizes (1024, 2048, 3072, 4096 bits).
amm_fn pick_amm(std::size_t d) {
  switch (d) {
    case 20: return amm<20>;
    case 40: return amm<40>;
    case 60: return amm<60>;
    case 79: return amm<79>;
    default: return amm<0>;
  }
}

// a - m if a >= m else a, lane by lane without a branch (a < 2m, digits normalized).
BIGMUL_IFMA void reduce_once(u64* a, const lane_moduli& L) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(mask52)), one = _mm512_set1_epi64(1);
  __m512i borrow = _mm512_setzero_si512();
  for (std::size_t j = 0; j < L.d; ++j) {
    const __m512i diff = _mm512_sub_epi64(_mm512_sub_epi64(load(a + 8 * j), load(L.M.p + 8 * j)), borrow);
    borrow = _mm512_and_si512(_mm512_srli_epi64(diff, 63), one);
    store(a + 8 * j, _mm512_and_si512(diff, mask));  // lanes that keep a are restored below
  }
  // A lane with a final borrow had a < m: its digits are a's again (diff + m).
  const __mmask8 keep = _mm512_cmpeq_epi64_mask(borrow, one);
  __m512i carry = _mm512_setzero_si512();
  for (std::size_t j = 0; j < L.d; ++j) {
    const __m512i s = _mm512_add_epi64(_mm512_add_epi64(load(a + 8 * j), load(L.M.p + 8 * j)), carry);
    carry = _mm512_srli_epi64(s, 52);
    store(a + 8 * j, _mm512_mask_mov_epi64(load(a + 8 * j), keep, _mm512_and_si512(s, mask)));
  }
}

// out = table[idx[l]] lane by lane, reading every entry (constant time).
BIGMUL_IFMA void select_entry(u64* out, const u64* table, std::size_t entries, const u64* idx, std::size_t d) {
  const __m512i want = load(idx);
  for (std::size_t j = 0; j < d; ++j) store(out + 8 * j, _mm512_setzero_si512());
  for (std::size_t k = 0; k < entries; ++k) {
    const __mmask8 hit = _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(static_cast<long long>(k)));
    const u64* te = table + k * 8 * d;
    for (std::size_t j = 0; j < d; ++j)
      store(out + 8 * j, _mm512_mask_mov_epi64(load(out + 8 * j), hit, load(te + 8 * j)));
  }
}

// The lanes52 ladders' operations on this engine's vectors (squares are products).
struct ifma_ops {
  const lane_moduli& L;
  amm_fn amm;
  u64* t;
  void mul(u64* out, const u64* a, const u64* b) const { amm(out, a, b, L, t); }
  void sqr(u64* out, const u64* a) const { amm(out, a, a, L, t); }
  void select(u64* out, const u64* table, std::size_t entries, const u64* idx) const {
    select_entry(out, table, entries, idx, L.d);
  }
  void reduce(u64* a) const { reduce_once(a, L); }
};

std::size_t group_digits(const lane_job* jobs, std::size_t count) {
  std::size_t d = 1;
  for (std::size_t l = 0; l < count; ++l) d = std::max(d, digits_for(jobs[l]));
  return d;
}

void pow_sec_impl(const lane_job* jobs, std::size_t count, std::size_t exp_bits) {
  const std::size_t d = group_digits(jobs, count);
  lane_moduli L(d);
  fill_moduli(L, jobs, count);
  aligned_u64 t(8 * (2 * d + 1));
  lanes52::fixed_window_pow<8>(ifma_ops{L, pick_amm(d), t.p}, L.R2.p, jobs, count, exp_bits, d);
}

void mul_impl(const lane_job* jobs, std::size_t count) {
  const std::size_t d = group_digits(jobs, count);
  lane_moduli L(d);
  fill_moduli(L, jobs, count);
  aligned_u64 t(8 * (2 * d + 1));
  lanes52::lane_products<8>(ifma_ops{L, pick_amm(d), t.p}, L.R2.p, jobs, count, d);
}

#endif  // BIGMUL_HAVE_IFMA_CODE

[[noreturn]] void no_lanes() {
  throw error(error::kind::internal, "bigmul: no lane engine (IFMA or AVX2) is available in this build or on this processor");
}

}  // namespace

bool lanes_supported() { return batched_ifma_supported() || batched_avx2_supported(); }

void lanes_pow_sec(const lane_job* jobs, std::size_t count, std::size_t exp_bits) {
  if (count == 0) return;
  if (count > 8) throw error(error::kind::internal, "bigmul: lanes_pow_sec takes at most 8 jobs");
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (batched_ifma_supported()) return pow_sec_impl(jobs, count, exp_bits);
#endif
  if (batched_avx2_supported()) {  // four lanes a vector
    lanes_avx2_pow_sec(jobs, std::min<std::size_t>(count, 4), exp_bits);
    if (count > 4) lanes_avx2_pow_sec(jobs + 4, count - 4, exp_bits);
    return;
  }
  no_lanes();
}

void lanes_mul(const lane_job* jobs, std::size_t count) {
  if (count == 0) return;
  if (count > 8) throw error(error::kind::internal, "bigmul: lanes_mul takes at most 8 jobs");
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (batched_ifma_supported()) return mul_impl(jobs, count);
#endif
  if (batched_avx2_supported()) {
    lanes_avx2_mul(jobs, std::min<std::size_t>(count, 4));
    if (count > 4) lanes_avx2_mul(jobs + 4, count - 4);
    return;
  }
  no_lanes();
}

}  // namespace bigmul::detail
