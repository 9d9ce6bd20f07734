// The IFMA engine's radix-3 stage (lengths 3 * 2^k): one pass over the three
// thirds of the array, before the forward's three power-of-two transforms and
// after the inverse's, with twiddles stepped per 64-j block from the plan's
// tables (fft/ntt_ifma.hpp, ntt52_plan::radix3_tables).
#include <algorithm>

#include "fft/ntt_ifma.hpp"
#include "fft/ntt_ifma_arith.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

using namespace ifma;

#if defined(BIGMUL_HAVE_IFMA_CODE)

using radix3_tables = ntt52_plan::radix3_tables;

// Radix-3 forward on j in [j_begin, j_end) (multiples of 8; j_begin of 64):
// y0 = x0 + x1 + x2, y1 = (x0 - x2 + u) w^j, y2 = (x0 - x1 - u) w^2j with
// u = w3 (x1 - x2). base1, base2: w^j_begin, w^2j_begin times 2^52 mod p.
// nonzero: a[nonzero ..) is zero (a zero-padded operand): blocks whose x2,
// or x1 and x2, are all zero skip their terms (x1 = x2 = 0: y_r = x0 w^jr).
BIGMUL_IFMA void radix3_forward_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, u64 base1, u64 base2, u64 p, std::size_t nonzero) {
  const vconst c = make_vconst(p);
  const __m512i c3 = _mm512_set1_epi64(ll(T.cube[0])), c3q = _mm512_set1_epi64(ll(T.cube_q[0]));
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const __m512i b1 = _mm512_set1_epi64(ll(base1)), b2 = _mm512_set1_epi64(ll(base2));
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    const bool zero1 = j0 + m >= nonzero, zero2 = j0 + 2 * m >= nonzero;
    for (std::size_t i = 0; i < len; i += 8) {
      u64* x = a + j0 + i;
      const __m512i x0 = load(x);
      const __m512i w1 = reduce_2p(shoup_lazy(b1, load(T.tw[0][0] + i), load(T.tw_q[0][0] + i), c), c);
      const __m512i w2 = reduce_2p(shoup_lazy(b2, load(T.tw[0][1] + i), load(T.tw_q[0][1] + i), c), c);
      __m512i y0, s1, s2;
      if (zero1) {  // x0 < 2p is a valid Montgomery operand as it is
        y0 = s1 = s2 = x0;
      } else if (zero2) {  // x2 = 0: u = w3 x1, x0 + u < 4p
        const __m512i x1 = load(x + m);
        const __m512i u = shoup_lazy(x1, c3, c3q, c);
        s1 = reduce_2p(_mm512_add_epi64(x0, u), c);
        s2 = reduce_6p(_mm512_sub_epi64(_mm512_sub_epi64(_mm512_add_epi64(x0, c.four_p), x1), u), c);
        y0 = reduce_2p(_mm512_add_epi64(x0, x1), c);
      } else {
        const __m512i x1 = load(x + m), x2 = load(x + 2 * m);
        const __m512i u = shoup_lazy(_mm512_add_epi64(_mm512_sub_epi64(x1, x2), c.two_p), c3, c3q, c);
        s1 = reduce_6p(_mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(x0, u), x2), c.two_p), c);
        s2 = reduce_6p(_mm512_sub_epi64(_mm512_sub_epi64(_mm512_add_epi64(x0, c.four_p), x1), u), c);
        y0 = reduce_6p(_mm512_add_epi64(_mm512_add_epi64(x0, x1), x2), c);
      }
      store(x, y0);
      store(x + m, mont52(s1, w1, c));
      store(x + 2 * m, mont52(s2, w2, c));
    }
    base1 = mul_shoup(base1, T.step[0][0], T.step_shoup[0][0], p);
    base2 = mul_shoup(base2, T.step[0][1], T.step_shoup[0][1], p);
  }
}

// The inverse: z_r = y_r w^-jr, x_l = sum_r z_r w3^-lr (times 3 overall).
BIGMUL_IFMA void radix3_inverse_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, u64 base1, u64 base2, u64 p, std::size_t) {
  const vconst c = make_vconst(p);
  const __m512i c3 = _mm512_set1_epi64(ll(T.cube[1])), c3q = _mm512_set1_epi64(ll(T.cube_q[1]));
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const __m512i b1 = _mm512_set1_epi64(ll(base1)), b2 = _mm512_set1_epi64(ll(base2));
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    for (std::size_t i = 0; i < len; i += 8) {
      u64* x = a + j0 + i;
      const __m512i w1 = reduce_2p(shoup_lazy(b1, load(T.tw[1][0] + i), load(T.tw_q[1][0] + i), c), c);
      const __m512i w2 = reduce_2p(shoup_lazy(b2, load(T.tw[1][1] + i), load(T.tw_q[1][1] + i), c), c);
      const __m512i z0 = load(x), z1 = mont52(load(x + m), w1, c), z2 = mont52(load(x + 2 * m), w2, c);
      const __m512i u = shoup_lazy(_mm512_add_epi64(_mm512_sub_epi64(z1, z2), c.two_p), c3, c3q, c);
      store(x, reduce_6p(_mm512_add_epi64(_mm512_add_epi64(z0, z1), z2), c));
      store(x + m, reduce_6p(_mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(z0, u), z2), c.two_p), c));
      store(x + 2 * m, reduce_6p(_mm512_sub_epi64(_mm512_sub_epi64(_mm512_add_epi64(z0, c.four_p), z1), u), c));
    }
    base1 = mul_shoup(base1, T.step[1][0], T.step_shoup[1][0], p);
    base2 = mul_shoup(base2, T.step[1][1], T.step_shoup[1][1], p);
  }
}

#endif  // BIGMUL_HAVE_IFMA_CODE

}  // namespace

// Chunks of whole 64-j blocks; each starts its bases at w^(+-j0) 2^52 mod p.
void ntt52_plan::radix3_vector(u64* a, unsigned threads, bool inverse, std::size_t nonzero) const {
#if defined(BIGMUL_HAVE_IFMA_CODE)
  const u64 root = inverse ? radix3_.root_n_inv : radix3_.root_n;
  const std::size_t block = radix3_tables::block, blocks = (m_ + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    const std::size_t j0 = b0 * block, j1 = std::min(m_, b1 * block);
    const u64 base1 = mul_mod(pow_mod(root, j0, p_), radix3_vec_.r52_mod_p, p_);
    const u64 base2 = mul_mod(pow_mod(root, 2 * j0, p_), radix3_vec_.r52_mod_p, p_);
    (inverse ? radix3_inverse_run : radix3_forward_run)(a, m_, j0, j1, radix3_vec_, base1, base2, p_, nonzero);
  });
#else
  (void)nonzero;
  inverse ? radix3_.inverse(a, threads) : radix3_.forward(a, threads);
#endif
}

}  // namespace bigmul::fft
