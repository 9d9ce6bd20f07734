// SPDX-License-Identifier: LGPL-3.0-or-later
// The IFMA engine's radix-3 stage (lengths 3 * 2^k): one pass over the three
// thirds of the array, before the forward's three power-of-two transforms and
// after the inverse's, with twiddles stepped per 64-j block from the plan's
// tables (fft/ntt_ifma.hpp, ntt52_plan::radix3_tables).
#include <algorithm>
#include <stdexcept>

#include "fft/ntt_ifma.hpp"
#include "fft/ntt_ifma_arith.hpp"
#include "fft/ntt_prefetch.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

using namespace ifma;

#if defined(BIGMUL_HAVE_IFMA_CODE)

using radix3_tables = ntt52_plan::radix3_tables;

// The thirds' lines `ahead` u64 ahead of column i (ntt_prefetch_ahead of a
// third; 0: none).
BIGMUL_IFMA inline void prefetch3(const u64* s0, const u64* s1, const u64* s2, std::size_t ahead) {
  if (ahead == 0) return;
  _mm_prefetch(reinterpret_cast<const char*>(s0 + ahead), _MM_HINT_T0);
  _mm_prefetch(reinterpret_cast<const char*>(s1 + ahead), _MM_HINT_T0);
  _mm_prefetch(reinterpret_cast<const char*>(s2 + ahead), _MM_HINT_T0);
}

// Radix-3 forward on one block of len columns (len <= 64, a multiple of 8):
// x_r read from s_r[i], y_r written to d_r[i] (in place or not), with
// y0 = x0 + x1 + x2, y1 = (x0 - x2 + u) w^j, y2 = (x0 - x1 - u) w^2j,
// u = w3 (x1 - x2); b1, b2: the block's w^j0, w^2j0 times 2^52 mod p.
// zero1 / zero2: x1 and x2, or x2 alone, are zero (a zero-padded operand)
// and not read (x1 = x2 = 0: y_r = x0 w^jr).
BIGMUL_IFMA inline void radix3_forward_block(const u64* s0, const u64* s1, const u64* s2, u64* d0, u64* d1, u64* d2,
                                             std::size_t len, bool zero1, bool zero2, __m512i b1, __m512i b2,
                                             const radix3_tables& T, __m512i c3, __m512i c3q, const vconst& c,
                                             std::size_t ahead = 0) {
  for (std::size_t i = 0; i < len; i += 8) {
    prefetch3(s0 + i, s1 + i, s2 + i, ahead);
    const __m512i x0 = load(s0 + i);
    const __m512i w1 = reduce_2p(shoup_lazy(b1, load(T.tw[0][0] + i), load(T.tw_q[0][0] + i), c), c);
    const __m512i w2 = reduce_2p(shoup_lazy(b2, load(T.tw[0][1] + i), load(T.tw_q[0][1] + i), c), c);
    __m512i y0, s1v, s2v;
    if (zero1) {  // x0 < 2p is a valid Montgomery operand as it is
      y0 = s1v = s2v = x0;
    } else if (zero2) {  // x2 = 0: u = w3 x1, x0 + u < 4p
      const __m512i x1 = load(s1 + i);
      const __m512i u = shoup_lazy(x1, c3, c3q, c);
      s1v = reduce_2p(_mm512_add_epi64(x0, u), c);
      s2v = reduce_6p(_mm512_sub_epi64(_mm512_sub_epi64(_mm512_add_epi64(x0, c.four_p), x1), u), c);
      y0 = reduce_2p(_mm512_add_epi64(x0, x1), c);
    } else {
      const __m512i x1 = load(s1 + i), x2 = load(s2 + i);
      const __m512i u = shoup_lazy(_mm512_add_epi64(_mm512_sub_epi64(x1, x2), c.two_p), c3, c3q, c);
      s1v = reduce_6p(_mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(x0, u), x2), c.two_p), c);
      s2v = reduce_6p(_mm512_sub_epi64(_mm512_sub_epi64(_mm512_add_epi64(x0, c.four_p), x1), u), c);
      y0 = reduce_6p(_mm512_add_epi64(_mm512_add_epi64(x0, x1), x2), c);
    }
    store(d0 + i, y0);
    store(d1 + i, mont52(s1v, w1, c));
    store(d2 + i, mont52(s2v, w2, c));
  }
}

// Radix-3 forward on j in [j_begin, j_end) (multiples of 8; j_begin of 64)
// in place; base1, base2: w^j_begin, w^2j_begin times 2^52 mod p. nonzero:
// a[nonzero ..) is zero: blocks past it skip their terms.
BIGMUL_IFMA void radix3_forward_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, u64 base1, u64 base2, u64 p, std::size_t nonzero) {
  const vconst c = make_vconst(p);
  const __m512i c3 = _mm512_set1_epi64(ll(T.cube[0])), c3q = _mm512_set1_epi64(ll(T.cube_q[0]));
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    u64* x = a + j0;
    radix3_forward_block(x, x + m, x + 2 * m, x, x + m, x + 2 * m, len, j0 + m >= nonzero, j0 + 2 * m >= nonzero,
                         _mm512_set1_epi64(ll(base1)), _mm512_set1_epi64(ll(base2)), T, c3, c3q, c, ntt_prefetch_ahead(m));
    base1 = mul_shoup(base1, T.step[0][0], T.step_shoup[0][0], p);
    base2 = mul_shoup(base2, T.step[0][1], T.step_shoup[0][1], p);
  }
}

// The same with the input coming from fill (coefficient j to dst[j - b],
// any 64-bit values) instead of a: chunks of up to 512 columns are filled
// into an in-cache buffer, third by third (x1 and x2 only up to the last
// block that starts below nonzero), reduced, and sent through the radix-3
// step into a: the operand is written once instead of loaded, then read
// and written again. j_end: a multiple of 64.
BIGMUL_IFMA void radix3_forward_fill_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                         const radix3_tables& T, u64 base1, u64 base2, u64 p, std::size_t nonzero,
                                         u64 c32, ntt_fill fill, void* ctx) {
  constexpr std::size_t chunk = 512, block = radix3_tables::block;
  alignas(64) u64 buf[3][chunk];
  const vconst c = make_vconst(p);
  const __m512i c3 = _mm512_set1_epi64(ll(T.cube[0])), c3q = _mm512_set1_epi64(ll(T.cube_q[0]));
  const __m512i w = _mm512_set1_epi64(ll(c32)), wq = _mm512_set1_epi64(ll(shoup52_companion(c32, p)));
  for (std::size_t cj = j_begin; cj < j_end; cj += chunk) {
    const std::size_t len = std::min(chunk, j_end - cj);
    for (unsigned r = 0; r < 3; ++r) {
      const std::size_t at = cj + r * m;  // the third's first column of this chunk
      // Columns of this third that any block reads: all of x0; x1, x2 up to
      // the end of the last block starting below nonzero.
      const std::size_t need =
          r == 0 ? len : at >= nonzero ? 0 : std::min(len, (nonzero - at + block - 1) / block * block);
      if (need == 0) continue;
      fill(ctx, buf[r], at, at + need);
      for (std::size_t i = 0; i < need; i += 8) store(buf[r] + i, reduce_u64(load(buf[r] + i), w, wq, c));
    }
    for (std::size_t j0 = cj; j0 < cj + len; j0 += block) {
      const std::size_t o = j0 - cj;
      radix3_forward_block(buf[0] + o, buf[1] + o, buf[2] + o, a + j0, a + j0 + m, a + j0 + 2 * m, block,
                           j0 + m >= nonzero, j0 + 2 * m >= nonzero, _mm512_set1_epi64(ll(base1)),
                           _mm512_set1_epi64(ll(base2)), T, c3, c3q, c);
      base1 = mul_shoup(base1, T.step[0][0], T.step_shoup[0][0], p);
      base2 = mul_shoup(base2, T.step[0][1], T.step_shoup[0][1], p);
    }
  }
}

// The inverse: z_r = y_r w^-jr, x_l = sum_r z_r w3^-lr (times 3 overall).
BIGMUL_IFMA void radix3_inverse_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, u64 base1, u64 base2, u64 p, std::size_t) {
  const vconst c = make_vconst(p);
  const __m512i c3 = _mm512_set1_epi64(ll(T.cube[1])), c3q = _mm512_set1_epi64(ll(T.cube_q[1]));
  const std::size_t ahead = ntt_prefetch_ahead(m);
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const __m512i b1 = _mm512_set1_epi64(ll(base1)), b2 = _mm512_set1_epi64(ll(base2));
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    for (std::size_t i = 0; i < len; i += 8) {
      u64* x = a + j0 + i;
      prefetch3(x, x + m, x + 2 * m, ahead);
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

bool ntt52_plan::forward_fill_applies() const { return n_ != m_ && m_ % radix3_tables::block == 0 && ntt52_supported(); }

void ntt52_plan::forward_filled(u64* a, unsigned threads, std::size_t nonzero, ntt_fill fill, void* ctx) const {
  if (!forward_fill_applies()) throw std::logic_error("ntt52_plan::forward_filled: needs n = 3m, 64 | m, and IFMA");
#if defined(BIGMUL_HAVE_IFMA_CODE)
  threads = prim::resolve_threads(threads);
  const u64 root = radix3_.root_n, c32 = (u64{1} << 32) % p_;
  const std::size_t block = radix3_tables::block, blocks = m_ / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    const std::size_t j0 = b0 * block, j1 = b1 * block;
    const u64 base1 = mul_mod(pow_mod(root, j0, p_), radix3_vec_.r52_mod_p, p_);
    const u64 base2 = mul_mod(pow_mod(root, 2 * j0, p_), radix3_vec_.r52_mod_p, p_);
    radix3_forward_fill_run(a, m_, j0, j1, radix3_vec_, base1, base2, p_, nonzero, c32, fill, ctx);
  });
  for (int r = 0; r < 3; ++r) pow2_forward(a + r * m_, threads);
#else
  (void)a, (void)threads, (void)nonzero, (void)fill, (void)ctx;
#endif
}

}  // namespace bigmul::fft
