// SPDX-License-Identifier: LGPL-3.0-or-later
// Garner's mixed-radix digits for the AVX2 engine's four primes
// (fft/ntt_avx2.hpp), 4 coefficients a vector; the scalar fallback is
// fft/ntt_crt.hpp's. And Garner with Horner for three primes straight to
// 64-bit limbs, the same way.
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_avx2_arith.hpp"
#include "fft/ntt_crt.hpp"

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
  for (std::size_t q = 0; q + 4 <= count; q += 4) {
    __m256d d[3];
    for (unsigned k = 0; k < 3; ++k) d[k] = garner_digit(G, c, res[k] + i + q, d, k);
    const split52 y = mul_split52(d[2], p1v, p1_52, magic, two52v);
    const __m256d yl = _mm256_add_pd(y.lo, d[1]);
    const split52 s = mul_split52(yl, p0v, p0_52, magic, two52v);
    const split52 t = mul_split52(y.hi, p0v, p0_52, magic, two52v);
    __m256d b = _mm256_add_pd(s.lo, d[0]), m = _mm256_add_pd(s.hi, t.lo), top = t.hi;
    carry_up(b, m, two52v, one);
    //MUT
    const __m256i x0 = u52_of(b, exp52), x1 = u52_of(m, exp52), x2 = u52_of(top, exp52);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(x + q), _mm256_or_si256(x0, _mm256_slli_epi64(x1, 52)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(x + count + q),
                        _mm256_or_si256(_mm256_srli_epi64(x1, 12), _mm256_slli_epi64(x2, 40)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(x + 2 * count + q), _mm256_srli_epi64(x2, 24));
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

}  // namespace bigmul::fft
