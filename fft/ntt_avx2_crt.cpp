// SPDX-License-Identifier: LGPL-3.0-or-later
// Garner's mixed-radix digits for the AVX2 engine's four primes
// (fft/ntt_avx2.hpp), 4 coefficients a vector; the scalar fallback is
// fft/ntt_crt.hpp's. And Garner with Horner for three primes straight to
// 64-bit limbs, the same way.
#include <algorithm>

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_avx2_arith.hpp"
#include "fft/ntt_crt.hpp"
#include "fft/ntt_decimal_digits.hpp"

namespace bigmul::fft {
namespace {

using namespace avx2;

#if defined(BIGMUL_HAVE_AVX2_CODE)

// Garner digits of 4 coefficients a step (the first count - count % 4 of a
// group of count; the caller does the rest): each step
// t = (t - v_j) p_j^{-1} mod p_k is a Shoup product of |t - v_j| < 3 p_k.
struct garner_avx2 {
  u64 p[4];
  double inv[4][4], inv_p[4][4];  // p_j^{-1} mod p_k (signed) and / p_k
};

// Digit k of 4 coefficients from their residues at r (in [0, 2 p_k)) and
// the digits d[0 .. k) (in [0, p_j)): in [0, p_k).
BIGMUL_AVX2 inline __m256d garner_digit(const garner_avx2& G, const vconst* c, const u64* r, const __m256d* d,
                                        unsigned k) {
  __m256d t = load_u64(r, c[k]);  // [-p, p)
  for (unsigned j = 0; j < k; ++j)  // |t - d_j| < p_k + p_j < 2^52
    t = mulmod_shoup(_mm256_sub_pd(t, d[j]), _mm256_set1_pd(G.inv[k][j]), _mm256_set1_pd(G.inv_p[k][j]), c[k]);
  // (-p, p) -> [0, p): the digit.
  return _mm256_add_pd(t, _mm256_and_pd(_mm256_cmp_pd(t, _mm256_setzero_pd(), _CMP_LT_OQ), c[k].p));
}

// Residues 2 KiB ahead of r: Garner streams the residue arrays from memory
// once, and its arithmetic leaves too few loads in flight for the hardware
// prefetcher alone (the arrays are only read: a prefetch past a thread's
// share takes nothing from the thread that reads the next).
BIGMUL_AVX2 inline void prefetch_residues(const u64* r) {
  _mm_prefetch(reinterpret_cast<const char*>(r + 256), _MM_HINT_T0);
}

// Integer-valued doubles in [0, 2^52) -> u64 (the low bits of 2^52 + x).
BIGMUL_AVX2 inline __m256i u52_of(__m256d x, __m256i exp52) {
  return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(x, _mm256_set1_pd(two52))), exp52);
}

BIGMUL_AVX2 void mixed_radix_run(const garner_avx2& G, const u64* const res[], std::size_t i, std::size_t count,
                                 u64* v, unsigned used) {
  const vconst c[4] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2]), make_vconst(G.p[3])};
  for (std::size_t q = 0; q + 4 <= count; q += 4) {
    __m256d d[4];
    for (unsigned k = 0; k < used; ++k) {
      d[k] = garner_digit(G, c, res[k] + i + q, d, k);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(v + k * count + q), u52_of(d[k], c[k].exp52));
    }
  }
}

// a b = hi 2^52 + lo for integer-valued doubles with |a b| < 2^103 and
// b_52 = b 2^-52 (exact): hi = round(a b / 2^52) by (F2) (|a b_52| < 2^51 - 1),
// lo = a b - hi 2^52 in [-2^51, 2^51], exact by (F3) in one FMA
// (fft/ntt_avx2_arith.hpp's facts).
struct split52 {
  __m256d hi, lo;
};
BIGMUL_AVX2 inline split52 mul_split52(__m256d a, __m256d b, __m256d b_52, __m256d magic, __m256d two52v) {
  const __m256d hi = _mm256_sub_pd(_mm256_fmadd_pd(a, b_52, magic), magic);
  return {hi, _mm256_fmsub_pd(a, b, _mm256_mul_pd(hi, two52v))};
}

// (lo, hi) with lo in (-2^52, 2^52) -> lo in [0, 2^52), hi - 1 where lo was negative.
BIGMUL_AVX2 inline void carry_up(__m256d& lo, __m256d& hi, __m256d two52v, __m256d one) {
  const __m256d neg = _mm256_cmp_pd(lo, _mm256_setzero_pd(), _CMP_LT_OQ);
  lo = _mm256_add_pd(lo, _mm256_and_pd(neg, two52v));
  hi = _mm256_sub_pd(hi, _mm256_and_pd(neg, one));
}

// Garner's three digits of coefficients at .. at + n (n a multiple of 4, at
// most garner_block) into dv[k][0 .. n), in [0, p_k). The kernels below run
// this pass first and their arithmetic on the stored digits second: each
// loop body's dependency chain is half as long, so more iterations overlap
// (one loop doing both was latency-bound, slower than the scalar Horner it
// replaces: bench/crt/bench_crt_carry).
constexpr std::size_t garner_block = 64;
BIGMUL_AVX2 inline void garner3_block(const garner_avx2& G, const vconst* c, const u64* const res[], std::size_t at,
                                      std::size_t n, double (*dv)[garner_block]) {
  for (std::size_t q = 0; q < n; q += 4) {
    __m256d d[3];
    for (unsigned k = 0; k < 3; ++k) {
      prefetch_residues(res[k] + at + q);
      d[k] = garner_digit(G, c, res[k] + at + q, d, k);
      _mm256_store_pd(dv[k] + q, d[k]);
    }
  }
}

// Garner (three primes) and Horner of 4 coefficients a step (the first
// count - count % 4), in 52-bit double limbs: with digits v_k < p_k < 2^50,
//   y = v1 + p1 v2 = yh 2^52 + yl, yh in [0, 2^48], |yl| < 2^51 + 2^50;
//   p0 yl = a 2^52 + b', |a| < 1.5 2^49; p0 yh = c 2^52 + d', c < 2^46;
//   x = v0 + p0 y = b + m 2^52 + c 2^104 with b = b' + v0, m = a + d'
// (all exact integers below 2^53), then b and m carried into [0, 2^52)
// (x >= 0 leaves c >= 0) and regrouped into 64-bit limbs.
BIGMUL_AVX2 void crt3_limbs_run(const garner_avx2& G, const u64* const res[], std::size_t i, std::size_t count,
                                u64* x) {
  const vconst c[3] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2])};
  const double p0 = static_cast<double>(G.p[0]), p1 = static_cast<double>(G.p[1]);
  const __m256d p0v = _mm256_set1_pd(p0), p1v = _mm256_set1_pd(p1), p0_52 = _mm256_set1_pd(p0 / two52),
                p1_52 = _mm256_set1_pd(p1 / two52);
  const __m256d magic = _mm256_set1_pd(magic_round), two52v = _mm256_set1_pd(two52), one = _mm256_set1_pd(1.0);
  const __m256i exp52 = c[0].exp52;
  alignas(32) double dv[3][garner_block];
  const std::size_t whole = count - count % 4;
  for (std::size_t q0 = 0; q0 < whole; q0 += garner_block) {
    const std::size_t n = std::min(garner_block, whole - q0);
    garner3_block(G, c, res, i + q0, n, dv);
    for (std::size_t r = 0; r < n; r += 4) {
      const std::size_t q = q0 + r;
      const __m256d v0 = _mm256_load_pd(dv[0] + r), v1 = _mm256_load_pd(dv[1] + r), v2 = _mm256_load_pd(dv[2] + r);
      const split52 y = mul_split52(v2, p1v, p1_52, magic, two52v);
      const __m256d yl = _mm256_add_pd(y.lo, v1);
      const split52 s = mul_split52(yl, p0v, p0_52, magic, two52v);
      const split52 t = mul_split52(y.hi, p0v, p0_52, magic, two52v);
      __m256d b = _mm256_add_pd(s.lo, v0), m = _mm256_add_pd(s.hi, t.lo), top = t.hi;
      carry_up(b, m, two52v, one);
      carry_up(m, top, two52v, one);
      const __m256i x0 = u52_of(b, exp52), x1 = u52_of(m, exp52), x2 = u52_of(top, exp52);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(x + q), _mm256_or_si256(x0, _mm256_slli_epi64(x1, 52)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(x + count + q),
                          _mm256_or_si256(_mm256_srli_epi64(x1, 12), _mm256_slli_epi64(x2, 40)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(x + 2 * count + q), _mm256_srli_epi64(x2, 24));
    }
  }
}

// Integer-valued doubles: lo in (-2^52, 2^53) -> lo mod 2^52, hi + floor(lo / 2^52).
BIGMUL_AVX2 inline void carry52(__m256d& lo, __m256d& hi, __m256d two52v, __m256d inv52) {
  const __m256d c = _mm256_floor_pd(_mm256_mul_pd(lo, inv52));
  lo = _mm256_fnmadd_pd(c, two52v, lo);
  hi = _mm256_add_pd(hi, c);
}
// u64 lanes below 2^52 -> doubles.
BIGMUL_AVX2 inline __m256d pd_of(__m256i x, __m256i exp52, __m256d two52v) {
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, exp52)), two52v);
}

// The decimal split's constants (fft/ntt_decimal_digits.hpp): M = 10^19 =
// 2^19 F, p0 p1 = A1 M + A0 with A0 = a0h 2^52 + a0l.
struct decimal_avx2 {
  double p0, a0l, a0h, a1, f;
};

// floor(U / F) and U mod F for U = u1 2^52 + u0 (u0 < 2^52 and u1 < 2^44 as
// doubles, U / F < 2^51): qd = fl(fl(u1 2^52 + u0) (1/F)) is within 3 2^-53
// relative of U / F, so q1 = trunc(qd) is q - 1, q or q + 1. With
// h + l = q1 F exactly (FMA), u1 2^52 - h is an integer of magnitude
// < 2^46 + 2^52 + 2^43 (h's rounding < 2^43) and (u1 2^52 - h) + u0 =
// (U - q1 F) + l below 2^47: both exact (F3), and r1 = U - q1 F in [-F, 2F)
// after subtracting l; one correction each way.
BIGMUL_AVX2 inline void div_f(__m256d u1, __m256d u0, __m256d f, __m256d inv_f, __m256d two52v, __m256d& q,
                              __m256d& r) {
  q = _mm256_round_pd(_mm256_mul_pd(_mm256_fmadd_pd(u1, two52v, u0), inv_f), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256d h = _mm256_mul_pd(q, f), l = _mm256_fmsub_pd(q, f, h);
  r = _mm256_sub_pd(_mm256_add_pd(_mm256_fmsub_pd(u1, two52v, h), u0), l);
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  const __m256d neg = _mm256_cmp_pd(r, zero, _CMP_LT_OQ);
  r = _mm256_add_pd(r, _mm256_and_pd(neg, f));
  q = _mm256_sub_pd(q, _mm256_and_pd(neg, one));
  const __m256d over = _mm256_cmp_pd(r, f, _CMP_GE_OQ);
  r = _mm256_sub_pd(r, _mm256_and_pd(over, f));
  q = _mm256_add_pd(q, _mm256_and_pd(over, one));
}

// X = x0 + x1 2^52 + x2 2^104 (u64 lanes, x0 and x1 below 2^52): floor(X /
// 2^19) as u1 2^52 + u0 in doubles, and X mod 2^19.
struct shifted19 {
  __m256d u0, u1;
  __m256i low;
};
BIGMUL_AVX2 inline shifted19 shift19(__m256i x0, __m256i x1, __m256i x2, __m256i exp52, __m256d two52v) {
  const __m256i m19 = _mm256_set1_epi64x((1ll << 19) - 1);
  const __m256i u0 = _mm256_or_si256(_mm256_srli_epi64(x0, 19), _mm256_slli_epi64(_mm256_and_si256(x1, m19), 33));
  const __m256i u1 = _mm256_or_si256(_mm256_srli_epi64(x1, 19), _mm256_slli_epi64(x2, 33));
  return {pd_of(u0, exp52, two52v), pd_of(u1, exp52, two52v), _mm256_and_si256(x0, m19)};
}

// Garner (three primes) and the decimal split of 4 coefficients a step (the
// first count - count % 4), in 52-bit double limbs (each product split by
// mul_split52, the sums exact below 2^53):
//   S = v0 + p0 v1 + A0 v2 = s0 + s1 2^52 + s2 2^104 (s2 < 2^11),
//   d0 = (floor(S / 2^19) mod F) 2^19 + S mod 2^19, qs = floor(S / M);
//   T = qs + A1 v2 = t0 + t1 2^52, d1 and d2 = floor(T / M) the same way.
BIGMUL_AVX2 void decimal_digits_run(const garner_avx2& G, const decimal_avx2& D, const u64* const res[],
                                    std::size_t i, std::size_t count, u64* d) {
  const vconst c[3] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2])};
  const __m256d magic = _mm256_set1_pd(magic_round), two52v = _mm256_set1_pd(two52),
                inv52 = _mm256_set1_pd(1.0 / two52);
  const __m256d p0 = _mm256_set1_pd(D.p0), a0l = _mm256_set1_pd(D.a0l), a0h = _mm256_set1_pd(D.a0h),
                a1 = _mm256_set1_pd(D.a1), f = _mm256_set1_pd(D.f), inv_f = _mm256_set1_pd(1.0 / D.f);
  const __m256d p0_52 = _mm256_mul_pd(p0, inv52), a0l_52 = _mm256_mul_pd(a0l, inv52),
                a0h_52 = _mm256_mul_pd(a0h, inv52), a1_52 = _mm256_mul_pd(a1, inv52);
  const __m256i exp52 = c[0].exp52;
  alignas(32) double dv[3][garner_block];
  const std::size_t whole = count - count % 4;
  for (std::size_t q0 = 0; q0 < whole; q0 += garner_block) {
    const std::size_t n = std::min(garner_block, whole - q0);
    garner3_block(G, c, res, i + q0, n, dv);
    for (std::size_t r = 0; r < n; r += 4) {
      const std::size_t q = q0 + r;
      const __m256d v[3] = {_mm256_load_pd(dv[0] + r), _mm256_load_pd(dv[1] + r), _mm256_load_pd(dv[2] + r)};
      const split52 e1 = mul_split52(v[1], p0, p0_52, magic, two52v);   // < 2^100
      const split52 e2 = mul_split52(v[2], a0l, a0l_52, magic, two52v);  // < 2^102
      const split52 e3 = mul_split52(v[2], a0h, a0h_52, magic, two52v);  // < 2^62
      __m256d s0 = _mm256_add_pd(_mm256_add_pd(e1.lo, e2.lo), v[0]);   // (-2^52, 2^52 + 2^50)
      __m256d s1 = _mm256_add_pd(_mm256_add_pd(e1.hi, e2.hi), e3.lo);  // |.| < 2^52
      __m256d s2 = e3.hi;
      carry52(s0, s1, two52v, inv52);
      carry52(s1, s2, two52v, inv52);
      const __m256i s0i = u52_of(s0, exp52);
      const shifted19 us = shift19(s0i, u52_of(s1, exp52), u52_of(s2, exp52), exp52, two52v);
      __m256d qs, rs;
      div_f(us.u1, us.u0, f, inv_f, two52v, qs, rs);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + q),
                          _mm256_or_si256(_mm256_slli_epi64(u52_of(rs, exp52), 19), us.low));
      const split52 e4 = mul_split52(v[2], a1, a1_52, magic, two52v);  // < 2^87
      __m256d t0 = _mm256_add_pd(e4.lo, qs), t1 = e4.hi;                // t0 in (-2^51, 2^52)
      carry52(t0, t1, two52v, inv52);
      const shifted19 ut = shift19(u52_of(t0, exp52), u52_of(t1, exp52), _mm256_setzero_si256(), exp52, two52v);
      __m256d qt, rt;
      div_f(ut.u1, ut.u0, f, inv_f, two52v, qt, rt);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + count + q),
                          _mm256_or_si256(_mm256_slli_epi64(u52_of(rt, exp52), 19), ut.low));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 2 * count + q), u52_of(qt, exp52));
    }
  }
}
#endif  // BIGMUL_HAVE_AVX2_CODE

const garner_constants<4>& scalar_garner() {
  static const garner_constants<4> g(ntt52_primes);
  return g;
}

#if defined(BIGMUL_HAVE_AVX2_CODE)
const garner_avx2& garner_vec() {
  static const garner_avx2 G = [] {
    garner_avx2 g{};
    for (unsigned k = 0; k < 4; ++k) g.p[k] = ntt52_primes[k].p;
    for (unsigned k = 0; k < 4; ++k)
      for (unsigned j = 0; j < k; ++j) {
        g.inv[k][j] = signed_rep(scalar_garner().inv[k][j], g.p[k]);
        g.inv_p[k][j] = g.inv[k][j] / static_cast<double>(g.p[k]);
      }
    return g;
  }();
  return G;
}
#endif

// The vector runs take the first count - count % 4 coefficients of a group
// (its stride stays count); the scalar code the rest, or all of it without AVX2.
std::size_t vector_part(std::size_t count) {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (ntt_avx2_supported()) return count - count % 4;
#endif
  (void)count;
  return 0;
}

}  // namespace

void ntt_avx2_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
  const std::size_t from = vector_part(count);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (from != 0) mixed_radix_run(garner_vec(), res, i, count, v, used);
#endif
  scalar_garner().digits(res, i, count, v, used, from);
}

void ntt_avx2_crt3_limbs(const u64* const res[], std::size_t i, std::size_t count, u64* x) {
  const std::size_t from = vector_part(count);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (from != 0) crt3_limbs_run(garner_vec(), res, i, count, x);
#endif
  const garner_constants<4>& G = scalar_garner();
  const u64 p0 = ntt52_primes[0].p, p1 = ntt52_primes[1].p;
  for (std::size_t q = from; q < count; ++q) {
    const u64 r[4] = {res[0][i + q], res[1][i + q], res[2][i + q], 0};
    u64 v[4] = {};
    G.digits(r, v, 3);
    garner3_horner(v[0], v[1], v[2], p0, p1, x[q], x[count + q], x[2 * count + q]);
  }
}

void ntt_avx2_decimal_digits(const u64* const res[], std::size_t i, std::size_t count, u64* d) {
  const std::size_t from = vector_part(count);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  static const decimal_avx2 D = [] {
    constexpr u64 M = 10000000000000000000ull, mask52 = (u64{1} << 52) - 1;
    const u128 pp = static_cast<u128>(ntt52_primes[0].p) * ntt52_primes[1].p;
    const u64 a0 = static_cast<u64>(pp % M);
    return decimal_avx2{static_cast<double>(ntt52_primes[0].p), static_cast<double>(a0 & mask52),
                        static_cast<double>(a0 >> 52), static_cast<double>(static_cast<u64>(pp / M)),
                        19073486328125.0};  // 5^19
  }();
  if (from != 0) decimal_digits_run(garner_vec(), D, res, i, count, d);
#endif
  const garner_constants<4>& G = scalar_garner();
  for (std::size_t c = from; c < count; ++c) {
    const u64 r[4] = {res[0][i + c], res[1][i + c], res[2][i + c], 0};
    u64 v[4] = {}, x[3];
    G.digits(r, v, 3);
    ntt52_decimal_split(v[0], v[1], v[2], x);
    d[c] = x[0];
    d[count + c] = x[1];
    d[2 * count + c] = x[2];
  }
}

}  // namespace bigmul::fft
