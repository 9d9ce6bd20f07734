// SPDX-License-Identifier: LGPL-3.0-or-later
// Montgomery arithmetic in AVX2 lanes, for processors without AVX-512 IFMA:
// see src/arith/montgomery.hpp. The algorithm of montgomery_ifma.cpp (almost
// Montgomery products in 52-bit digits, CIOS order, R = 2^(52 D) >= 4m, a
// fixed window with a masked table scan) with four lanes a vector, each digit
// product split exactly by two FMAs (mul/batched_avx2_arith.hpp):
//   * the accumulators subtract bits(lo) and add bits(hi), wrapping; their
//     biases depend only on D, so lane_moduli precomputes, per row, the
//     constant that makes t_i exact before u_i is formed, and per output
//     digit the constant that makes the result exact;
//   * u_i = t_i k0 mod 2^52 by three 32 x 32-bit multiplies (vpmuludq);
//   * carries are logical shifts of values biased by 2^63 (AVX2 has no 64-bit
//     arithmetic shift): the true values stay below 3 D 2^52 + 2^12 < 2^63
//     for D <= max_lane_digits; larger moduli run one job at a time on the
//     scalar code (montgomery.cpp).
// Constant time as the IFMA lanes: no branch or address depends on a base,
// exponent or result digit; the doubles are integers, 0 or normal, so an FMA
// takes the same time whatever the digits (no subnormals).
#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "mul/batched_avx2_arith.hpp"
#include "prim/cpu_features.hpp"
#include "src/arith/montgomery.hpp"
#include "src/arith/montgomery_lanes.hpp"

namespace bigmul::detail {
namespace {

using namespace lanes_avx2;

constexpr std::size_t max_lane_digits = 640;

using lanes52::digits_for;
template <class T>
using aligned_buf = lanes52::aligned_buffer<T, 32>;

// A group's moduli in lanes (digits, also as doubles), k0 = -m^-1 mod 2^52
// (and its bits 32..51), R^2 mod m, and the bias constants of amm for d.
struct lane_moduli {
  std::size_t d = 0;
  aligned_buf<u64> M, R2, K0, K0hi;
  aligned_buf<double> Md;
  std::vector<u64> fix_row, fix_out, sqr_row, sqr_out;  // amm's and amm_sqr's
  explicit lane_moduli(std::size_t digits)
      : d(digits), M(4 * digits), R2(4 * digits), K0(4), K0hi(4), Md(4 * digits), fix_row(digits),
        fix_out(digits), sqr_row(digits), sqr_out(digits) {}
};

// Replays amm's additions on the biases alone (row i: t_i gains -lo_bias
// from a_i b_0, is made exact, gains -lo_bias from u m_0 and +lo_bias +
// 2^63 back; every other digit product moves -lo_bias into its column and
// +hi_bias into the next; each carry is 2^11 too large). per_row: digit
// products a row adds to each column (2 in amm; 1 in amm_sqr's reduction,
// which starts from exact digits and has no a_i b_0 term).
void fill_fixes(std::size_t d, u64 per_row, u64* fix_row, u64* fix_out) {
  std::vector<u64> b(2 * d + 1, 0);
  for (std::size_t i = 0; i < d; ++i) {
    fix_row[i] = (per_row - 1) * lo_bias - b[i];
    u64 next = b[i + 1] + carry_bias + per_row * hi_bias;
    for (std::size_t j = 1; j < d; ++j) {
      const u64 x = next - per_row * lo_bias;
      next = b[i + j + 1] + per_row * hi_bias;
      b[i + j] = x;
    }
    b[i + d] = next;
  }
  for (std::size_t j = 0; j < d; ++j) fix_out[j] = shift_bias - b[d + j] - (j ? carry_bias : 0);
}

void fill_moduli(lane_moduli& L, const lane_job* jobs, std::size_t count) {
  const std::size_t d = L.d;
  lanes52::fill_moduli<4>(L.M.p, L.R2.p, L.K0.p, d, jobs, count);
  for (std::size_t l = 0; l < 4; ++l) L.K0hi.p[l] = L.K0.p[l] >> 32;
  for (std::size_t k = 0; k < 4 * d; ++k) L.Md.p[k] = static_cast<double>(L.M.p[k]);  // exact: < 2^52
  fill_fixes(d, 2, L.fix_row.data(), L.fix_out.data());
  fill_fixes(d, 1, L.sqr_row.data(), L.sqr_out.data());
}

#if defined(BIGMUL_HAVE_AVX2_CODE)

BIGMUL_AVX2 inline __m256i load(const u64* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
BIGMUL_AVX2 inline void store(u64* p, __m256i v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }

// x k0 mod 2^52 from the low 52 bits of x, in 32 x 32-bit pieces (k0hi = k0 >> 32).
BIGMUL_AVX2 inline __m256i mul_lo52(__m256i x, __m256i k0, __m256i k0hi) {
  const __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), k0), _mm256_mul_epu32(x, k0hi));
  return _mm256_and_si256(_mm256_add_epi64(_mm256_mul_epu32(x, k0), _mm256_slli_epi64(cross, 32)), bcast(mask52));
}

// Scratch of one amm: t (2d + 2 vectors) and B's digits as doubles (d).
struct amm_scratch {
  aligned_buf<u64> t;
  aligned_buf<double> bd;
  explicit amm_scratch(std::size_t d) : t(4 * (2 * d + 2)), bd(4 * d) {}
};

// The exact value of t[d .. 2d) (biased by fix) carried into normalized digits at out.
BIGMUL_AVX2 inline void carry_out(u64* out, const u64* t, const u64* fix, std::size_t d) {
  __m256i c = _mm256_setzero_si256();
  for (std::size_t j = 0; j < d; ++j) {
    const __m256i v = _mm256_add_epi64(_mm256_add_epi64(load(t + 4 * (d + j)), bcast(fix[j])), c);
    store(out + 4 * j, _mm256_and_si256(v, bcast(mask52)));
    c = _mm256_srli_epi64(v, 52);
  }
}

// out = a b R^-1 (+ m) < 2m, digits normalized (a, b < 2m normalized; out
// may alias a or b). DC: the digit count when known at compile time (the
// loops unroll), 0 for d.
template <std::size_t DC>
BIGMUL_AVX2 void amm(u64* out, const u64* A, const u64* B, const lane_moduli& L, amm_scratch& s) {
  const std::size_t d = DC ? DC : L.d;
  u64* t = s.t.p;
  double* bd = s.bd.p;
  const double* M = L.Md.p;
  const __m256i zero = _mm256_setzero_si256(), k0 = load(L.K0.p), k0hi = load(L.K0hi.p);
  for (std::size_t j = 0; j < d; ++j) _mm256_store_pd(bd + 4 * j, to_double(load(B + 4 * j)));
  for (std::size_t j = 0; j <= 2 * d; ++j) store(t + 4 * j, zero);
  for (std::size_t i = 0; i < d; ++i) {
    u64* ti = t + 4 * i;
    const __m256d a = to_double(load(A + 4 * i));
    __m256i h1, l1, h2, l2;
    split(a, _mm256_load_pd(bd), h1, l1);
    __m256i x = _mm256_add_epi64(_mm256_sub_epi64(load(ti), l1), bcast(L.fix_row[i]));  // exact
    const __m256d u = to_double(mul_lo52(x, k0, k0hi));
    split(u, _mm256_load_pd(M), h2, l2);
    x = _mm256_add_epi64(_mm256_sub_epi64(x, l2), bcast(lo_bias + shift_bias));  // 2^52 | x; + 2^63
    __m256i next = _mm256_add_epi64(_mm256_add_epi64(load(ti + 4), _mm256_srli_epi64(x, 52)), _mm256_add_epi64(h1, h2));
#pragma GCC unroll 4
    for (std::size_t j = 1; j < d; ++j) {
      split(a, _mm256_load_pd(bd + 4 * j), h1, l1);
      split(u, _mm256_load_pd(M + 4 * j), h2, l2);
      x = _mm256_sub_epi64(_mm256_sub_epi64(next, l1), l2);
      next = _mm256_add_epi64(_mm256_add_epi64(load(ti + 4 * (j + 1)), h1), h2);
      store(ti + 4 * j, x);
    }
    store(ti + 4 * d, next);
  }
  carry_out(out, t, L.fix_out.data(), d);  // < 2m < 2^(52 d)
}

// out = a^2 R^-1 (+ m) < 2m as amm(out, a, a), with fewer digit products: the
// square by columns (each off-diagonal product once, product_columns), then d
// reduction rows adding u_i m only. out may alias a.
template <std::size_t DC>
BIGMUL_AVX2 void amm_sqr(u64* out, const u64* A, const lane_moduli& L, amm_scratch& s) {
  const std::size_t d = DC ? DC : L.d;
  u64* t = s.t.p;
  double* ad = s.bd.p;
  const double* M = L.Md.p;
  const __m256i k0 = load(L.K0.p), k0hi = load(L.K0hi.p);
  for (std::size_t j = 0; j < d; ++j) _mm256_store_pd(ad + 4 * j, to_double(load(A + 4 * j)));
  product_columns(t, ad, ad, d);  // t[0 .. 2d) exact, t[2d], t[2d + 1] = 0
  for (std::size_t i = 0; i < d; ++i) {
    u64* ti = t + 4 * i;
    __m256i h, l;
    __m256i x = _mm256_add_epi64(load(ti), bcast(L.sqr_row[i]));  // exact
    const __m256d u = to_double(mul_lo52(x, k0, k0hi));
    split(u, _mm256_load_pd(M), h, l);
    x = _mm256_add_epi64(_mm256_sub_epi64(x, l), bcast(lo_bias + shift_bias));  // 2^52 | x; + 2^63
    __m256i next = _mm256_add_epi64(_mm256_add_epi64(load(ti + 4), _mm256_srli_epi64(x, 52)), h);
#pragma GCC unroll 4
    for (std::size_t j = 1; j < d; ++j) {
      split(u, _mm256_load_pd(M + 4 * j), h, l);
      x = _mm256_sub_epi64(next, l);
      next = _mm256_add_epi64(load(ti + 4 * (j + 1)), h);
      store(ti + 4 * j, x);
    }
    store(ti + 4 * d, next);
  }
  carry_out(out, t, L.sqr_out.data(), d);
}

using amm_fn = void (*)(u64*, const u64*, const u64*, const lane_moduli&, amm_scratch&);
using sqr_fn = void (*)(u64*, const u64*, const lane_moduli&, amm_scratch&);

sqr_fn pick_sqr(std::size_t d) {
  switch (d) {
    case 20: return amm_sqr<20>;
    case 40: return amm_sqr<40>;
    case 60: return amm_sqr<60>;
    case 79: return amm_sqr<79>;
    default: return amm_sqr<0>;
  }
}

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
BIGMUL_AVX2 void reduce_once(u64* a, const lane_moduli& L) {
  const __m256i mask = bcast(mask52), one = bcast(1);
  __m256i borrow = _mm256_setzero_si256();
  for (std::size_t j = 0; j < L.d; ++j) {
    const __m256i diff = _mm256_sub_epi64(_mm256_sub_epi64(load(a + 4 * j), load(L.M.p + 4 * j)), borrow);
    borrow = _mm256_srli_epi64(diff, 63);
    store(a + 4 * j, _mm256_and_si256(diff, mask));  // lanes that keep a are restored below
  }
  // A lane with a final borrow had a < m: its digits are a's again (diff + m).
  const __m256i keep = _mm256_cmpeq_epi64(borrow, one);
  __m256i carry = _mm256_setzero_si256();
  for (std::size_t j = 0; j < L.d; ++j) {
    const __m256i s = _mm256_add_epi64(_mm256_add_epi64(load(a + 4 * j), load(L.M.p + 4 * j)), carry);
    carry = _mm256_srli_epi64(s, 52);
    store(a + 4 * j, _mm256_blendv_epi8(load(a + 4 * j), _mm256_and_si256(s, mask), keep));
  }
}

// out = table[idx[l]] lane by lane, reading every entry (constant time).
BIGMUL_AVX2 void select_entry(u64* out, const u64* table, std::size_t entries, const u64* idx, std::size_t d) {
  const __m256i want = load(idx);
  for (std::size_t j = 0; j < d; ++j) store(out + 4 * j, _mm256_setzero_si256());
  for (std::size_t k = 0; k < entries; ++k) {
    const __m256i hit = _mm256_cmpeq_epi64(want, bcast(k));
    const u64* te = table + k * 4 * d;
    for (std::size_t j = 0; j < d; ++j)
      store(out + 4 * j, _mm256_or_si256(load(out + 4 * j), _mm256_and_si256(load(te + 4 * j), hit)));
  }
}

// The lanes52 ladders' operations on this engine's vectors.
struct avx2_ops {
  const lane_moduli& L;
  amm_fn amm;
  sqr_fn amm_square;
  amm_scratch& s;
  void mul(u64* out, const u64* a, const u64* b) const { amm(out, a, b, L, s); }
  void sqr(u64* out, const u64* a) const { amm_square(out, a, L, s); }
  void select(u64* out, const u64* table, std::size_t entries, const u64* idx) const {
    select_entry(out, table, entries, idx, L.d);
  }
  void reduce(u64* a) const { reduce_once(a, L); }
};

void pow_sec_impl(const lane_job* jobs, std::size_t count, std::size_t exp_bits, std::size_t d) {
  lane_moduli L(d);
  fill_moduli(L, jobs, count);
  amm_scratch s(d);
  lanes52::fixed_window_pow<4>(avx2_ops{L, pick_amm(d), pick_sqr(d), s}, L.R2.p, jobs, count, exp_bits, d);
}

void mul_impl(const lane_job* jobs, std::size_t count, std::size_t d) {
  lane_moduli L(d);
  fill_moduli(L, jobs, count);
  amm_scratch s(d);
  lanes52::lane_products<4>(avx2_ops{L, pick_amm(d), pick_sqr(d), s}, L.R2.p, jobs, count, d);
}

#endif  // BIGMUL_HAVE_AVX2_CODE

// Moduli too large for the lanes' accumulators: the scalar code, one job at a
// time (the same fixed window for pow_sec, so still constant time).
void scalar_jobs(const lane_job* jobs, std::size_t count, std::size_t exp_bits, bool pow) {
  for (std::size_t l = 0; l < count; ++l) {
    const lane_job& j = jobs[l];
    std::size_t mn = j.mn;
    while (mn > 1 && j.m[mn - 1] == 0) --mn;
    const mont_ctx c = mont_setup(j.m, mn);
    std::vector<limb_t> x(mn, 0), r(mn), t(mont_scratch_limbs(mn));
    std::copy_n(j.x, std::min(j.xn, mn), x.begin());
    if (pow) {
      mont_pow_sec(r.data(), x.data(), j.y, j.yn, exp_bits, c);
    } else {
      std::vector<limb_t> y(mn, 0), xm(mn);
      std::copy_n(j.y, std::min(j.yn, mn), y.begin());
      to_mont(xm.data(), x.data(), c, t.data());
      mont_mul(r.data(), xm.data(), y.data(), c, t.data());  // x R y R^-1
    }
    std::fill_n(j.r, j.mn, 0);
    std::copy_n(r.data(), mn, j.r);
  }
}

std::size_t group_digits(const lane_job* jobs, std::size_t count) {
  if (count > 4) throw error(error::kind::internal, "bigmul: the AVX2 lanes take at most 4 jobs");
  std::size_t d = 1;
  for (std::size_t l = 0; l < count; ++l) d = std::max(d, digits_for(jobs[l]));
  return d;
}

[[noreturn]] void no_lanes() {
  throw error(error::kind::internal, "bigmul: the AVX2 lane engine is not available in this build or on this processor");
}

}  // namespace

void lanes_avx2_pow_sec(const lane_job* jobs, std::size_t count, std::size_t exp_bits) {
  if (count == 0) return;
  const std::size_t d = group_digits(jobs, count);
  if (d > max_lane_digits) return scalar_jobs(jobs, count, exp_bits, true);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (prim::cpu_has_avx2_fma()) return pow_sec_impl(jobs, count, exp_bits, d);
#endif
  no_lanes();
}

void lanes_avx2_mul(const lane_job* jobs, std::size_t count) {
  if (count == 0) return;
  const std::size_t d = group_digits(jobs, count);
  if (d > max_lane_digits) return scalar_jobs(jobs, count, 0, false);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (prim::cpu_has_avx2_fma()) return mul_impl(jobs, count, d);
#endif
  no_lanes();
}

}  // namespace bigmul::detail
