// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX2 engine's radix-3 stage (lengths 3 * 2^k): one pass over the three
// thirds of the array, u64 in and doubles out forward, the reverse inverse,
// with twiddles stepped per 64-j block from the plan's tables
// (fft/ntt_avx2.hpp, ntt_avx2_plan::radix3_tables).
#include <algorithm>

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_avx2_arith.hpp"
#include "fft/ntt_avx2_fill.hpp"
#include "fft/ntt_prefetch.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

using namespace avx2;

#if defined(BIGMUL_HAVE_AVX2_CODE)

using radix3_tables = ntt_avx2_plan::radix3_tables;

// The twiddles of j .. j + 4: Full, from the plan's full table (w^j, w^j / p,
// w^2j, w^2j / p, each m long), else a base times a 64-entry table entry.
// Multiplying by them: a Shoup product (|r| <= 0.5625p for |x| <= 2.57p)
// or a general one (|r| <= 0.84p).
template <bool Full>
struct twiddles3 {
  __m256d w1, w1p, w2, w2p;
};
template <bool Full>
BIGMUL_AVX2 inline twiddles3<Full> twiddles_at(const double* full, std::size_t m, std::size_t j, std::size_t i,
                                               __m256d b1, __m256d b2, const double* tw1, const double* tw1p,
                                               const double* tw2, const double* tw2p, const vconst& c) {
  if constexpr (Full) {
    const double* f = full + j;
    return {ld(f), ld(f + m), ld(f + 2 * m), ld(f + 3 * m)};
  } else {
    return {mulmod_shoup(b1, ld(tw1 + i), ld(tw1p + i), c), _mm256_setzero_pd(),
            mulmod_shoup(b2, ld(tw2 + i), ld(tw2p + i), c), _mm256_setzero_pd()};
  }
}
template <bool Full>
BIGMUL_AVX2 inline __m256d twiddle_mul(__m256d x, __m256d w, __m256d wp, const vconst& c) {
  if constexpr (Full)
    return mulmod_shoup(x, w, wp, c);
  else
    return mulmod(x, w, c);
}

// Radix-3 forward on j in [j_begin, j_end) (multiples of 4; j_begin of 64),
// u64 in, doubles out: y0 = x0 + x1 + x2, y1 = (x0 - x2 + u) w^j,
// y2 = (x0 - x1 - u) w^2j with u = w3 (x1 - x2). base1, base2: w^j_begin,
// w^2j_begin in [0, p). Ranges: x in [-p, p), |u| <= 0.5625p, |w^j| <= 0.52p
// (a base times a table entry), |x0 - x2 + u| <= 2.57p, so the products have
// |a b| <= 1.34 p^2 and |y1|, |y2| <= 0.84p (fft/ntt_avx2_arith.hpp).
// nonzero: a[nonzero ..) is zero (a zero-padded operand): blocks whose x2, or
// x1 and x2, are all zero skip their terms (x1 = x2 = 0: y_r = x0 w^jr).
// Src: where x_r at j + r m is read, in(r, j) (the u64 residues in place,
// the operand's limbs: from_limbs_src, or a fill callback's buffer:
// fill_chunk). The bases come back stepped to w^j_end, w^2j_end.
struct u64_src {
  const u64* a;
  std::size_t m;
  BIGMUL_AVX2 __m256d operator()(unsigned r, std::size_t j, const vconst& c) const {
    return load_u64(a + j + r * m, c);
  }
};
struct from_limbs_src {
  const limb_source& s;
  std::size_t m;
  BIGMUL_AVX2 __m256d operator()(unsigned r, std::size_t j, const vconst& c) const {
    return load_limbs(s, j + r * m, c);
  }
};
// The three thirds' lines `ahead` doubles ahead of x (ntt_prefetch_ahead of
// a third; 0: the lines at hand, the loop branch-free).
BIGMUL_AVX2 inline void prefetch3(const void* x, std::size_t m, std::size_t ahead) {
  const double* d = static_cast<const double*>(x);
  for (unsigned r = 0; r < 3; ++r) _mm_prefetch(reinterpret_cast<const char*>(d + r * m + ahead), _MM_HINT_T0);
}
template <bool Full, class Src>
BIGMUL_AVX2 void radix3_forward_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, const double* full, u64& base1, u64& base2, u64 p,
                                    std::size_t nonzero, const Src& in) {
  const vconst c = make_vconst(p);
  const __m256d c3 = _mm256_set1_pd(T.cube[0]), c3p = _mm256_set1_pd(T.cube_p[0]);
  const std::size_t ahead = ntt_prefetch_ahead(m);
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const __m256d b1 = _mm256_set1_pd(signed_rep(base1, p)), b2 = _mm256_set1_pd(signed_rep(base2, p));
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    const bool zero1 = j0 + m >= nonzero, zero2 = j0 + 2 * m >= nonzero;
    for (std::size_t i = 0; i < len; i += 4) {
      u64* x = a + j0 + i;
      prefetch3(x, m, ahead);
      const twiddles3<Full> w = twiddles_at<Full>(full, m, j0 + i, i, b1, b2, T.tw[0][0], T.tw_p[0][0], T.tw[0][1],
                                                  T.tw_p[0][1], c);
      const __m256d x0 = in(0, j0 + i, c);
      __m256d y0, y1, y2;
      if (zero1) {
        y0 = x0;
        y1 = twiddle_mul<Full>(x0, w.w1, w.w1p, c);
        y2 = twiddle_mul<Full>(x0, w.w2, w.w2p, c);
      } else if (zero2) {
        const __m256d x1 = in(1, j0 + i, c);
        const __m256d u = mulmod_shoup(x1, c3, c3p, c);
        y0 = reduce(_mm256_add_pd(x0, x1), c);
        y1 = twiddle_mul<Full>(_mm256_add_pd(x0, u), w.w1, w.w1p, c);
        y2 = twiddle_mul<Full>(_mm256_sub_pd(_mm256_sub_pd(x0, x1), u), w.w2, w.w2p, c);
      } else {
        const __m256d x1 = in(1, j0 + i, c), x2 = in(2, j0 + i, c);
        const __m256d u = mulmod_shoup(_mm256_sub_pd(x1, x2), c3, c3p, c);
        y0 = reduce(_mm256_add_pd(_mm256_add_pd(x0, x1), x2), c);
        y1 = twiddle_mul<Full>(_mm256_add_pd(_mm256_sub_pd(x0, x2), u), w.w1, w.w1p, c);
        y2 = twiddle_mul<Full>(_mm256_sub_pd(_mm256_sub_pd(x0, x1), u), w.w2, w.w2p, c);
      }
      double* d = reinterpret_cast<double*>(x);
      st(d, y0);
      st(d + m, y1);
      st(d + 2 * m, y2);
    }
    base1 = mul_shoup(base1, T.step[0][0], T.step_shoup[0][0], p);
    base2 = mul_shoup(base2, T.step[0][1], T.step_shoup[0][1], p);
  }
}

// The inverse, doubles in (|y| <= 2p), u64 out: z_r = y_r w^-jr,
// x_l = sum_r z_r w3^-lr (times 3). |z1|, |z2| <= 0.77p, sums < 3.6p, reduced.
// Scaled (built twiddles only): the bases carry the factor s = 1/n, and z0 =
// y0 s (a Shoup product, <= 0.5625p): the outputs times 1/n.
template <bool Full, bool Scaled = false>
BIGMUL_AVX2 void radix3_inverse_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, const double* full, u64 base1, u64 base2, u64 p,
                                    double s = 0, double sp = 0) {
  static_assert(!(Full && Scaled), "the full tables are not scaled");
  const vconst c = make_vconst(p);
  const __m256d S = _mm256_set1_pd(s), Sp = _mm256_set1_pd(sp);
  const __m256d c3 = _mm256_set1_pd(T.cube[1]), c3p = _mm256_set1_pd(T.cube_p[1]);
  const std::size_t ahead = ntt_prefetch_ahead(m);
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const __m256d b1 = _mm256_set1_pd(signed_rep(base1, p)), b2 = _mm256_set1_pd(signed_rep(base2, p));
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    for (std::size_t i = 0; i < len; i += 4) {
      double* x = reinterpret_cast<double*>(a + j0 + i);
      prefetch3(x, m, ahead);
      const twiddles3<Full> w = twiddles_at<Full>(full, m, j0 + i, i, b1, b2, T.tw[1][0], T.tw_p[1][0], T.tw[1][1],
                                                  T.tw_p[1][1], c);
      const __m256d z0 = Scaled ? mulmod_shoup(ld(x), S, Sp, c) : ld(x),
                    z1 = twiddle_mul<Full>(ld(x + m), w.w1, w.w1p, c),
                    z2 = twiddle_mul<Full>(ld(x + 2 * m), w.w2, w.w2p, c);
      const __m256d u = mulmod_shoup(_mm256_sub_pd(z1, z2), c3, c3p, c);
      u64* y = a + j0 + i;
      store_u64(y, reduce(_mm256_add_pd(_mm256_add_pd(z0, z1), z2), c), c);
      store_u64(y + m, reduce(_mm256_add_pd(_mm256_sub_pd(z0, z2), u), c), c);
      store_u64(y + 2 * m, reduce(_mm256_sub_pd(_mm256_sub_pd(z0, z1), u), c), c);
    }
    base1 = mul_shoup(base1, T.step[1][0], T.step_shoup[1][0], p);
    base2 = mul_shoup(base2, T.step[1][1], T.step_shoup[1][1], p);
  }
}
// The forward reading the operand's limbs (the vector constants built here,
// in code marked for AVX2).
BIGMUL_AVX2 void forward_from_limbs(u64* a, std::size_t m, std::size_t j0, std::size_t j1, const radix3_tables& T,
                                    const double* full, u64 base1, u64 base2, u64 p, std::size_t nonzero,
                                    const u64* src, double c32, double c32_p) {
  const limb_source s{src, nonzero, _mm256_set1_pd(c32), _mm256_set1_pd(c32_p)};
  const from_limbs_src in{s, m};
  if (full)
    radix3_forward_run<true>(a, m, j0, j1, T, full, base1, base2, p, nonzero, in);
  else
    radix3_forward_run<false>(a, m, j0, j1, T, full, base1, base2, p, nonzero, in);
}
// The forward on j in [j_begin, j_end) (j_begin a multiple of 64) reading
// its inputs from fill: a chunk of columns of each third at a time into
// in-cache buffers (x1 and x2 only up to the end of the last 64-block that
// reads them, as radix3_forward_run skips the rest), then the step on them.
BIGMUL_AVX2 void forward_filled_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, const double* full, u64 base1, u64 base2, u64 p,
                                    std::size_t nonzero, double c32, double c32_p, ntt_fill fill, void* ctx) {
  constexpr std::size_t block = radix3_tables::block;
  fill_chunk<3> in;
  in.conv = limb_source{nullptr, 0, _mm256_set1_pd(c32), _mm256_set1_pd(c32_p)};
  for (std::size_t cj = j_begin; cj < j_end; cj += fill_chunk<3>::chunk) {
    const std::size_t len = std::min(fill_chunk<3>::chunk, j_end - cj);
    in.at = cj;
    for (unsigned r = 0; r < 3; ++r) {
      const std::size_t at = cj + r * m;
      const std::size_t need =
          r == 0 ? len : at >= nonzero ? 0 : std::min(len, (nonzero - at + block - 1) / block * block);
      in.take(r, at, need, nonzero, fill, ctx);
    }
    if (full)
      radix3_forward_run<true>(a, m, cj, cj + len, T, full, base1, base2, p, nonzero, in);
    else
      radix3_forward_run<false>(a, m, cj, cj + len, T, full, base1, base2, p, nonzero, in);
  }
}
#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace

// Chunks of whole 64-j blocks; each starts its bases at w^(+-j0).
void ntt_avx2_plan::radix3_vector(u64* a, unsigned threads, bool inverse, std::size_t nonzero) const {
  radix3_from(a, threads, inverse, nonzero, nullptr, 0, 0);
}
// src: the forward reads the operand's limbs src[0 .. nonzero) instead of a
// (values past them zero; c32 = 2^32 mod p signed, c32_p = c32 / p).
// scaled (inverse, past radix3_full_max): the outputs times 1/n.
void ntt_avx2_plan::radix3_from(u64* a, unsigned threads, bool inverse, std::size_t nonzero, const u64* src,
                                double c32, double c32_p, bool scaled) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  const u64 root = inverse ? radix3_.root_n_inv : radix3_.root_n;
  const std::size_t block = radix3_tables::block, blocks = (m_ + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    const std::size_t j0 = b0 * block, j1 = std::min(m_, b1 * block);
    u64 base1 = pow_mod(root, j0, p_), base2 = pow_mod(root, 2 * j0, p_);
    const double* full = radix3_full_[inverse ? 1 : 0].empty() ? nullptr : radix3_full_[inverse ? 1 : 0].data();
    const auto& T = radix3_vec_;
    if (inverse && scaled && full == nullptr) {
      const u64 s = scale_ < 0 ? p_ - static_cast<u64>(-scale_) : static_cast<u64>(scale_);
      base1 = mul_mod(base1, s, p_);
      base2 = mul_mod(base2, s, p_);
      radix3_inverse_run<false, true>(a, m_, j0, j1, T, full, base1, base2, p_, scale_, scale_p_);
    } else if (inverse) {
      (full ? radix3_inverse_run<true> : radix3_inverse_run<false>)(a, m_, j0, j1, T, full, base1, base2, p_, 0, 0);
    } else if (src == nullptr) {
      const u64_src in{a, m_};
      (full ? radix3_forward_run<true, u64_src> : radix3_forward_run<false, u64_src>)(a, m_, j0, j1, T, full, base1,
                                                                                      base2, p_, nonzero, in);
    } else {
      forward_from_limbs(a, m_, j0, j1, T, full, base1, base2, p_, nonzero, src, c32, c32_p);
    }
  });
#else
  (void)a, (void)threads, (void)inverse, (void)nonzero, (void)src, (void)c32, (void)c32_p, (void)scaled;
#endif
}

// As radix3_from's forward, its chunks of whole 64-j blocks on each thread.
void ntt_avx2_plan::radix3_filled(u64* a, unsigned threads, std::size_t nonzero, ntt_fill fill, void* ctx) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  const u64 root = radix3_.root_n;
  const double c32 = signed_rep((u64{1} << 32) % p_, p_), c32_p = c32 / static_cast<double>(p_);
  const double* full = radix3_full_[0].empty() ? nullptr : radix3_full_[0].data();
  const std::size_t block = radix3_tables::block, blocks = (m_ + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    const std::size_t j0 = b0 * block, j1 = std::min(m_, b1 * block);
    forward_filled_run(a, m_, j0, j1, radix3_vec_, full, pow_mod(root, j0, p_), pow_mod(root, 2 * j0, p_), p_,
                       nonzero, c32, c32_p, fill, ctx);
  });
#else
  (void)a, (void)threads, (void)nonzero, (void)fill, (void)ctx;
#endif
}

}  // namespace bigmul::fft
