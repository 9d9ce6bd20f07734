// Garner's mixed-radix digits for the IFMA engine's four primes
// (fft/ntt_ifma.hpp), 8 coefficients a vector; the scalar fallback is
// fft/ntt_crt.hpp's.
#include "fft/ntt_crt.hpp"
#include "fft/ntt_ifma.hpp"
#include "fft/ntt_ifma_arith.hpp"

namespace bigmul::fft {
namespace {

using namespace ifma;

#if defined(BIGMUL_HAVE_IFMA_CODE)

// Garner digits of 8 coefficients a step (count a multiple of 8): each
// digit step t = (t - v_j) p_j^{-1} mod p_k is a 52-bit Shoup product.
struct garner52 {
  u64 p[4];
  u64 inv[4][4], inv_q[4][4];  // p_j^{-1} mod p_k and floor(. 2^52 / p_k)
};

BIGMUL_IFMA void mixed_radix_run(const garner52& G, const u64* const res[], std::size_t i, std::size_t count,
                                 u64* v, unsigned used) {
  vconst c[4] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2]), make_vconst(G.p[3])};
  for (std::size_t q = 0; q < count; q += 8) {
    __m512i d[4];
    for (unsigned k = 0; k < used; ++k) {
      const __m512i pk = c[k].p;
      __m512i r = load(res[k] + i + q);
      r = _mm512_min_epu64(r, _mm512_sub_epi64(r, pk));  // [0, 2p) -> [0, p)
      for (unsigned j = 0; j < k; ++j) {
        const __m512i vj = _mm512_min_epu64(d[j], _mm512_sub_epi64(d[j], pk));  // v_j < 2 p_k -> [0, p_k)
        const __m512i diff = _mm512_add_epi64(_mm512_sub_epi64(r, vj), pk);   // (0, 2 p_k)
        r = shoup_lazy(diff, _mm512_set1_epi64(ll(G.inv[k][j])), _mm512_set1_epi64(ll(G.inv_q[k][j])), c[k]);
        r = _mm512_min_epu64(r, _mm512_sub_epi64(r, pk));
      }
      d[k] = r;
      store(v + k * count + q, r);
    }
  }
}
#endif  // BIGMUL_HAVE_IFMA_CODE

}  // namespace

void ntt52_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
  static const garner_constants<4> scalar(ntt52_primes);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  static const garner52 G = [] {
    garner52 g{};
    for (unsigned k = 0; k < 4; ++k) g.p[k] = ntt52_primes[k].p;
    for (unsigned k = 0; k < 4; ++k)
      for (unsigned j = 0; j < k; ++j) {
        g.inv[k][j] = scalar.inv[k][j];
        g.inv_q[k][j] = shoup52_companion(g.inv[k][j], g.p[k]);
      }
    return g;
  }();
  if (count % 8 == 0 && ntt52_supported()) return mixed_radix_run(G, res, i, count, v, used);
#endif
  scalar.digits(res, i, count, v, used);
}

}  // namespace bigmul::fft
