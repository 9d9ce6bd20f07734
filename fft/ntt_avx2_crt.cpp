// SPDX-License-Identifier: LGPL-3.0-or-later
// Garner's mixed-radix digits for the AVX2 engine's four primes
// (fft/ntt_avx2.hpp), 4 coefficients a vector; the scalar fallback is
// fft/ntt_crt.hpp's.
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

BIGMUL_AVX2 void mixed_radix_run(const garner_avx2& G, const u64* const res[], std::size_t i, std::size_t count,
                                 u64* v, unsigned used) {
  const vconst c[4] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2]), make_vconst(G.p[3])};
  const __m256d zero = _mm256_setzero_pd(), two52v = _mm256_set1_pd(two52);
  for (std::size_t q = 0; q + 4 <= count; q += 4) {
    __m256d d[4];
    for (unsigned k = 0; k < used; ++k) {
      __m256d r = load_u64(res[k] + i + q, c[k]);  // [-p, p)
      for (unsigned j = 0; j < k; ++j)
        r = mulmod_shoup(_mm256_sub_pd(r, d[j]), _mm256_set1_pd(G.inv[k][j]), _mm256_set1_pd(G.inv_p[k][j]), c[k]);
      // (-p, p) -> [0, p): the digit.
      r = _mm256_add_pd(r, _mm256_and_pd(_mm256_cmp_pd(r, zero, _CMP_LT_OQ), c[k].p));
      d[k] = r;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(v + k * count + q),
                          _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(r, two52v)), c[k].exp52));
    }
  }
}
#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace

void ntt_avx2_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
  static const garner_constants<4> scalar(ntt52_primes);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  static const garner_avx2 G = [] {
    garner_avx2 g{};
    for (unsigned k = 0; k < 4; ++k) g.p[k] = ntt52_primes[k].p;
    for (unsigned k = 0; k < 4; ++k)
      for (unsigned j = 0; j < k; ++j) {
        g.inv[k][j] = signed_rep(scalar.inv[k][j], g.p[k]);
        g.inv_p[k][j] = g.inv[k][j] / static_cast<double>(g.p[k]);
      }
    return g;
  }();
  if (ntt_avx2_supported()) {
    mixed_radix_run(G, res, i, count, v, used);
    return scalar.digits(res, i, count, v, used, count - count % 4);
  }
#endif
  scalar.digits(res, i, count, v, used);
}

}  // namespace bigmul::fft
