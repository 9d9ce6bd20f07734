// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX2 engine's power-of-two transforms (see fft/ntt_avx2.hpp): radix-4
// passes (radix 16 on blocks from quad_min points), recursive down to an
// in-cache leaf whose last two levels run in registers, and the scalar path
// for m < 16. Plan and tables:
// fft/ntt_avx2.cpp; radix-3 stage: ntt_avx2_radix3.cpp.
//
// The vector code lives in functions with a target attribute (BIGMUL_AVX2),
// not in a file compiled with -mavx2, so nothing AVX2 can leak into code
// that runs on older processors; ntt_avx2_supported() gates every call.
//
// Ranges (multiples of p, doubles): every value stored between passes lies in
// [-2p, 2p]. The forward radix-4 step reduces x0 to p/2 + 1 and multiplies
// the rest (products <= 0.58p); after two levels the outputs are <= 1.65p.
// The inverse step reduces the first level's sums (<= 4p) and multiplies its
// differences (< 2^52); its outputs are <= 1.25p. u64 residues in [0, 2p)
// enter as x - p and leave reduced, as r + p.
#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_avx2_arith.hpp"
#include "fft/ntt_prefetch.hpp"
#include "fft/ntt_avx2_fill.hpp"
#include "fft/ntt_level_table.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

using namespace avx2;

// Sub-transforms of at most this many values (16 KiB) run pass by pass in
// L1; larger ones recurse. Measured with bench_ntt (bench/fft).
constexpr std::size_t leaf_size = std::size_t{1} << 11;
constexpr std::size_t vector_grain = std::size_t{1} << 11;  // 4-lane butterflies per parallel task
// Blocks from these sizes take four levels a pass (quad_forward_cols)
// instead of two: past the last-level cache the radix-4 passes wait on
// memory ([FFTSMALL] and the IFMA engine do the same); at least 16 leaves
// (ntt_avx2_set_quad_min). The defaults come from bench_ntt's avx2_quad
// rows (bench/fft): a one-thread block's radix-4 passes were as fast or
// faster at every size measured, the threaded whole-array levels gained
// from the quads (fft/ntt_avx2.hpp).
std::atomic<std::size_t> quad_min_points{~std::size_t{0}};                 // a one-thread block
std::atomic<std::size_t> threaded_quad_min_points{std::size_t{1} << 21};  // whole-array levels
// ---- m < 16: scalar u64 butterflies on the same twisted tree ------------------

void scalar_forward(u64* a, std::size_t m, u64 p, const u64* w, const u64* ws) {
  for (std::size_t s = m; s >= 2; s /= 2) {
    const std::size_t t = s / 2;
    for (std::size_t b = 0; b < m / s; ++b)
      for (std::size_t j = 0; j < t; ++j) {
        u64& x = a[b * s + j];
        u64& y = a[b * s + j + t];
        const u64 v = mul_shoup_lazy(y, w[b], ws[b], p);  // [0, 2p)
        const u64 x0 = x;
        x = reduce_4p_to_2p(x0 + v, p);
        y = reduce_4p_to_2p(x0 + 2 * p - v, p);
      }
  }
}
void scalar_inverse(u64* a, std::size_t m, u64 p, const u64* w, const u64* ws) {
  for (std::size_t s = 2; s <= m; s *= 2) {
    const std::size_t t = s / 2;
    for (std::size_t b = 0; b < m / s; ++b)
      for (std::size_t j = 0; j < t; ++j) {
        u64& x = a[b * s + j];
        u64& y = a[b * s + j + t];
        const u64 x0 = x, y0 = y;
        x = reduce_4p_to_2p(x0 + y0, p);
        y = mul_shoup_lazy(x0 + 2 * p - y0, w[b], ws[b], p);
      }
  }
}

#if defined(BIGMUL_HAVE_AVX2_CODE)
// The twiddle tables of one direction: w[k] and w[k] / p.
// doubles: the forward leaves its outputs as unreduced doubles (|x| <= 3.15p)
// and the inverse takes doubles in (|x| <= 2p): a product's own layout
// between its transforms (forward_product, pointwise_inverse_product).
// cw, cwp: the coarse entries w[kh cap] when the prime's table stores only
// the first cap entries whole (fft/ntt_level_table.hpp); null otherwise.
// scaled: the inverse's last step multiplies its u64 outputs by s = 1/n mod
// p (signed, sp = s / p) instead of only reducing them: the product's
// scaling folded into the inverse (pointwise_inverse_product).
// y_off (pointwise, doubles only): the inverse's first levels multiply
// their input a[i] by a[i + y_off] first, the other factor of a product
// (pointwise_inverse_product without its own pass over memory).
struct tables {
  const double* w;
  const double* wp;
  bool doubles = false;
  const double* cw = nullptr;
  const double* cwp = nullptr;
  bool scaled = false;
  double s = 0, sp = 0;
  bool pointwise = false;
  std::ptrdiff_t y_off = 0;
  std::size_t ahead = 0;  // the radix-4 passes' prefetch distance (prefetch4, ntt_prefetch_ahead)
};
constexpr std::size_t cap = ntt_avx2_twiddle_table::cap;
constexpr unsigned cap_bits = 13;
static_assert(cap == std::size_t{1} << cap_bits && cap >= leaf_size / 2, "a leaf's widest run is one fine range");

// Entry k (w[k], w[k] / p) of a split table: coarse times fine, reduced
// exactly to the stored representative, so it equals the whole table's.
inline void entry(const tables& T, std::size_t k, u64 p, double& w, double& wp) {
  if (T.cw == nullptr || k < cap) {
    w = T.w[k], wp = T.wp[k];
    return;
  }
  const auto residue = [p](double x) { return x < 0 ? p - static_cast<u64>(-x) : static_cast<u64>(x); };
  w = signed_rep(mul_mod(residue(T.cw[k >> cap_bits]), residue(T.w[k & (cap - 1)]), p), p);
  wp = w / static_cast<double>(p);
}
template <bool U64>
BIGMUL_AVX2 inline __m256d ld_as(const double* p, const vconst& c) {
  if constexpr (U64)
    return load_u64(reinterpret_cast<const u64*>(p), c);
  else
    return ld(p);
}
BIGMUL_AVX2 inline __m256d bc(const double* p) { return _mm256_broadcast_sd(p); }

// Where a forward transform's first step reads quarter q's column j,
// in(q, j) = x[j + q h]: in place, as doubles or u64 residues, from the
// operand's limbs (load_limbs: the multiply's load and first step in one
// pass; it writes all of a), or from a fill callback's buffer (fill_chunk).
template <bool InU64>
struct in_place {
  const double* a;
  std::size_t h;
  BIGMUL_AVX2 __m256d operator()(unsigned q, std::size_t j, const vconst& c) const {
    return ld_as<InU64>(a + j + q * h, c);
  }
};
struct from_limbs_at {
  const limb_source& s;
  std::size_t h;
  BIGMUL_AVX2 __m256d operator()(unsigned q, std::size_t j, const vconst& c) const {
    return load_limbs(s, j + q * h, c);
  }
};

// A block's twiddles gathered into a small table read as block 1 of its
// level (the tree's entries in heap order): local[2^j + b] = w[k 2^j + b]
// for 2^j < 2 top, b < 2^j, so a kernel called with block index 1 instead
// of k reads exactly block k's entries. Why: with a split table, entries
// past cap are coarse x fine; building a leaf's 2^(j + 1) entries once
// (one product and one division each, ~1/11 of the leaf's products) keeps
// the kernels' single broadcast per block.
struct local_tables {
  alignas(32) double w[leaf_size], wp[leaf_size];
  tables t;
};
// Builds entries for levels 2^j = 1 .. top (top <= leaf_size / 2, and cap:
// each level's run [k 2^j, (k + 1) 2^j) then lies in one fine range).
BIGMUL_AVX2 void build_local(const tables& T, std::size_t k, std::size_t top, u64 p, local_tables& L) {
  L.t = tables{L.w, L.wp, T.doubles, nullptr, nullptr, T.scaled, T.s, T.sp, T.pointwise, T.y_off, T.ahead};
  const vconst c = make_vconst(p);
  const double half_p = static_cast<double>((p - 1) / 2);
  const __m256d hp = _mm256_set1_pd(half_p), nhp = _mm256_set1_pd(-half_p);
  for (std::size_t r = 1; r <= top; r *= 2) {
    const std::size_t at = k * r;  // the level's first entry
    if (r < 4) {
      for (std::size_t b = 0; b < r; ++b) entry(T, at + b, p, L.w[r + b], L.wp[r + b]);
      continue;
    }
    if (at + r <= cap) {  // all fine entries: copied (the low blocks of every level)
      std::copy(T.w + at, T.w + at + r, L.w + r);
      std::copy(T.wp + at, T.wp + at + r, L.wp + r);
      continue;
    }
    const __m256d C = bc(T.cw + (at >> cap_bits)), Cp = bc(T.cwp + (at >> cap_bits));
    const double* fine = T.w + (at & (cap - 1));
    for (std::size_t b = 0; b < r; b += 4) {
      // |fine| <= (p - 1) / 2: the product is within p / 64 of (-p/2, p/2); one step each way makes it exact.
      __m256d x = mulmod_shoup(ld(fine + b), C, Cp, c);
      x = _mm256_sub_pd(x, _mm256_and_pd(_mm256_cmp_pd(x, hp, _CMP_GT_OQ), c.p));
      x = _mm256_add_pd(x, _mm256_and_pd(_mm256_cmp_pd(x, nhp, _CMP_LT_OQ), c.p));
      st(L.w + r + b, x);
      st(L.wp + r + b, quotient(x, c));
    }
  }
}

// Forward radix-4 step of block k: level (x0, x2), (x1, x3) with w[k], then
// (x0, x1) with w[2k] and (x2, x3) with w[2k + 1]. In [-2p, 2p], out <= 1.65p:
// only x0 needs reducing (to p/2 + 1); x1 +- w x3 (<= 2.57p < 2^52) is only
// ever multiplied, giving <= 0.58p, so x0'' <= p/2 + 1 + 0.5625p + 0.58p.
// ReduceX0 = false (the last levels, whose outputs are reduced anyway): out
// <= 2p + 0.5625p + 0.58p = 3.15p < 2^52.
template <bool ReduceX0 = true>
BIGMUL_AVX2 inline void fwd4(__m256d& x0, __m256d& x1, __m256d& x2, __m256d& x3, __m256d w1, __m256d w1p, __m256d w2,
                             __m256d w2p, __m256d w3, __m256d w3p, const vconst& c) {
  if constexpr (ReduceX0) x0 = reduce(x0, c);
  __m256d t = mulmod_shoup(x2, w1, w1p, c);
  x2 = _mm256_sub_pd(x0, t);
  x0 = _mm256_add_pd(x0, t);
  t = mulmod_shoup(x3, w1, w1p, c);
  x3 = _mm256_sub_pd(x1, t);
  x1 = _mm256_add_pd(x1, t);
  t = mulmod_shoup(x1, w2, w2p, c);  // |x1| <= 2.57p
  x1 = _mm256_sub_pd(x0, t);
  x0 = _mm256_add_pd(x0, t);
  t = mulmod_shoup(x3, w3, w3p, c);
  x3 = _mm256_sub_pd(x2, t);
  x2 = _mm256_add_pd(x2, t);
}
// Its inverse (times 4) with w1 = w[k]^-1, w2 = w[2k]^-1, w3 = w[2k + 1]^-1.
// In [-2p, 2p], out <= 1.25p.
BIGMUL_AVX2 inline void inv4(__m256d& x0, __m256d& x1, __m256d& x2, __m256d& x3, __m256d w1, __m256d w1p, __m256d w2,
                             __m256d w2p, __m256d w3, __m256d w3p, const vconst& c) {
  __m256d s = _mm256_add_pd(x0, x1);
  x1 = mulmod_shoup(_mm256_sub_pd(x0, x1), w2, w2p, c);  // |x0 - x1| <= 4p < 2^52
  x0 = reduce(s, c);
  s = _mm256_add_pd(x2, x3);
  x3 = mulmod_shoup(_mm256_sub_pd(x2, x3), w3, w3p, c);
  x2 = reduce(s, c);
  s = _mm256_add_pd(x0, x2);
  x2 = mulmod_shoup(_mm256_sub_pd(x0, x2), w1, w1p, c);
  x0 = s;
  s = _mm256_add_pd(x1, x3);
  x3 = mulmod_shoup(_mm256_sub_pd(x1, x3), w1, w1p, c);
  x1 = s;
}

// The four quarters' lines `ahead` doubles ahead of column j (tables::ahead,
// fft/ntt_prefetch.hpp says how far and why); past a quarter's end they reach
// the next block. Where it is 0 they are the lines at hand: a loop-invariant
// distance keeps the loop branch-free.
BIGMUL_AVX2 inline void prefetch4(const double* a, std::size_t j, std::size_t h, std::size_t ahead) {
  for (unsigned q = 0; q < 4; ++q) _mm_prefetch(reinterpret_cast<const char*>(a + j + q * h + ahead), _MM_HINT_T0);
}
// Block 0 of a level (every transform's first step): w[0] = 1, so only
// (x1 - x3) w[1] is a product, on j in [j0, j1). In [-2p, 2p] (sums < 4p <
// 2^52), out <= 1.13p. Z: how many of the top quarters are zero (a
// zero-padded u64 operand, in [-p, p)): Z = 1, x3 = 0: out <= 1.5p + 1;
// Z = 2, x2 = x3 = 0: out <= 2p; Z = 3, only x0: out = x0; no reductions
// past the first pair of sums.
template <class Src, int Z>
BIGMUL_AVX2 void first_run(double* a, std::size_t h, std::size_t j0, std::size_t j1, __m256d w3, __m256d w3p,
                           const vconst& c, const Src& in, std::size_t ahead) {
  for (std::size_t j = j0; j < j1; j += 4) {
    prefetch4(a, j, h, ahead);
    const __m256d x0 = in(0, j, c);
    __m256d y0, y1, y2, t;
    if constexpr (Z == 3) {
      y0 = y1 = y2 = x0;
      t = _mm256_setzero_pd();
    } else if constexpr (Z == 2) {
      const __m256d x1 = in(1, j, c);
      y0 = _mm256_add_pd(x0, x1);
      y1 = _mm256_sub_pd(x0, x1);
      y2 = x0;
      t = mulmod_shoup(x1, w3, w3p, c);
    } else if constexpr (Z == 1) {
      const __m256d x1 = in(1, j, c), x2 = in(2, j, c);
      const __m256d s02 = reduce(_mm256_add_pd(x0, x2), c);
      y0 = _mm256_add_pd(s02, x1);
      y1 = _mm256_sub_pd(s02, x1);
      y2 = reduce(_mm256_sub_pd(x0, x2), c);
      t = mulmod_shoup(x1, w3, w3p, c);
    } else {
      const __m256d x1 = in(1, j, c), x2 = in(2, j, c), x3 = in(3, j, c);
      const __m256d s02 = reduce(_mm256_add_pd(x0, x2), c), s13 = reduce(_mm256_add_pd(x1, x3), c);
      y0 = _mm256_add_pd(s02, s13);
      y1 = _mm256_sub_pd(s02, s13);
      y2 = reduce(_mm256_sub_pd(x0, x2), c);
      t = mulmod_shoup(_mm256_sub_pd(x1, x3), w3, w3p, c);
    }
    st(a + j, y0);
    st(a + j + h, y1);
    st(a + j + 2 * h, _mm256_add_pd(y2, t));
    st(a + j + 3 * h, _mm256_sub_pd(y2, t));
  }
}
template <bool InU64>
BIGMUL_AVX2 void pass4_forward_first(double* a, std::size_t h, const tables& T, const vconst& c) {
  first_run<in_place<InU64>, 0>(a, h, 0, h, bc(T.w + 1), bc(T.wp + 1), c, in_place<InU64>{a, h}, T.ahead);
}
// The first step of a u64 operand whose a[nonzero ..) is zero: x_q at j is
// zero from j = nonzero - q h on, so the loop splits into runs with 0 .. 3
// zero quarters (run ends rounded up to whole vectors; x0 is read on all of
// them). Src: where it reads; [cb, ce): the columns done (a fill's chunk).
inline std::size_t first_zero_column(std::size_t h, std::size_t nonzero, std::size_t q) {
  const std::size_t at = nonzero > q * h ? nonzero - q * h : 0;
  return std::min(h, (at + 3) / 4 * 4);
}
template <class Src = in_place<true>>
BIGMUL_AVX2 void pass4_forward_first_partial(double* a, std::size_t h, const tables& T, const vconst& c,
                                             std::size_t nonzero, const Src& in, std::size_t cb = 0,
                                             std::size_t ce = ~std::size_t{0}) {
  const std::size_t e3 = first_zero_column(h, nonzero, 3), e2 = first_zero_column(h, nonzero, 2),
                    e1 = first_zero_column(h, nonzero, 1);
  const __m256d w3 = bc(T.w + 1), w3p = bc(T.wp + 1);
  first_run<Src, 0>(a, h, cb, std::min(e3, ce), w3, w3p, c, in, T.ahead);
  first_run<Src, 1>(a, h, std::max(e3, cb), std::min(e2, ce), w3, w3p, c, in, T.ahead);
  first_run<Src, 2>(a, h, std::max(e2, cb), std::min(e1, ce), w3, w3p, c, in, T.ahead);
  first_run<Src, 3>(a, h, std::max(e1, cb), std::min(h, ce), w3, w3p, c, in, T.ahead);
}
// The same reading fill (forward_filled): a chunk of columns of each quarter
// at a time into in-cache buffers (x_q only up to its first zero column),
// then the step on them; columns [cb, ce) (multiples of 4).
BIGMUL_AVX2 void pass4_forward_first_filled(double* a, std::size_t h, const tables& T, const vconst& c,
                                            std::size_t nonzero, double c32, double c32_p, ntt_fill fill,
                                            void* ctx, std::size_t cb, std::size_t ce) {
  fill_chunk<4> in;
  in.conv = limb_source{nullptr, 0, _mm256_set1_pd(c32), _mm256_set1_pd(c32_p)};
  for (std::size_t cj = cb; cj < ce; cj += fill_chunk<4>::chunk) {
    const std::size_t len = std::min(fill_chunk<4>::chunk, ce - cj);
    in.at = cj;
    for (unsigned q = 0; q < 4; ++q) {
      const std::size_t end = q == 0 ? h : first_zero_column(h, nonzero, q);
      in.take(q, cj + q * h, end > cj ? std::min(len, end - cj) : 0, nonzero, fill, ctx);
    }
    pass4_forward_first_partial(a, h, T, c, nonzero, in, cj, cj + len);
  }
}

// One radix-4 step over a block of 4h values (h a multiple of 4), block index k.
template <bool InU64>
BIGMUL_AVX2 void pass4_forward(double* a, std::size_t h, const tables& T, std::size_t k, const vconst& c) {
  if (k == 0) return pass4_forward_first<InU64>(a, h, T, c);
  const __m256d w1 = bc(T.w + k), w1p = bc(T.wp + k), w2 = bc(T.w + 2 * k), w2p = bc(T.wp + 2 * k),
                w3 = bc(T.w + 2 * k + 1), w3p = bc(T.wp + 2 * k + 1);
  for (std::size_t j = 0, ahead = T.ahead; j < h; j += 4) {
    prefetch4(a, j, h, ahead);
    __m256d x0 = ld_as<InU64>(a + j, c), x1 = ld_as<InU64>(a + j + h, c), x2 = ld_as<InU64>(a + j + 2 * h, c),
            x3 = ld_as<InU64>(a + j + 3 * h, c);
    fwd4(x0, x1, x2, x3, w1, w1p, w2, w2p, w3, w3p, c);
    st(a + j, x0);
    st(a + j + h, x1);
    st(a + j + 2 * h, x2);
    st(a + j + 3 * h, x3);
  }
}
// An inverse level pair's four outputs at a[j + q h]: as doubles, or reduced
// and stored as u64 in place (the transform's last pass).
template <bool OutU64>
BIGMUL_AVX2 inline void store4(double* a, std::size_t j, std::size_t h, __m256d x0, __m256d x1, __m256d x2,
                               __m256d x3, const vconst& c) {
  if constexpr (OutU64) {
    u64* b = reinterpret_cast<u64*>(a);
    store_u64(b + j, reduce(x0, c), c);
    store_u64(b + j + h, reduce(x1, c), c);
    store_u64(b + j + 2 * h, reduce(x2, c), c);
    store_u64(b + j + 3 * h, reduce(x3, c), c);
  } else {
    st(a + j, x0);
    st(a + j + h, x1);
    st(a + j + 2 * h, x2);
    st(a + j + 3 * h, x3);
  }
}

// Block 0 of an inverse level pair (every transform's last step): the
// inverse twiddles w[0]^-1 = 1 leave one product, (x2 - x3) w[1]^-1. In
// [-2p, 2p], out <= 1.13p, or reduced as u64.
// Scaled (u64 out): each output times s, a Shoup product of |y| <= 1.13p
// (<= 0.54p) in place of its reduction.
template <bool OutU64>
BIGMUL_AVX2 void pass4_inverse_first(double* a, std::size_t h, const tables& T, const vconst& c) {
  const __m256d w3 = bc(T.w + 1), w3p = bc(T.wp + 1);
  if (OutU64 && T.scaled) {
    const __m256d S = _mm256_set1_pd(T.s), Sp = _mm256_set1_pd(T.sp);
    u64* b = reinterpret_cast<u64*>(a);
    for (std::size_t j = 0, ahead = T.ahead; j < h; j += 4) {
      prefetch4(a, j, h, ahead);
      const __m256d x0 = ld(a + j), x1 = ld(a + j + h), x2 = ld(a + j + 2 * h), x3 = ld(a + j + 3 * h);
      const __m256d s01 = reduce(_mm256_add_pd(x0, x1), c), s23 = reduce(_mm256_add_pd(x2, x3), c);
      const __m256d d01 = reduce(_mm256_sub_pd(x0, x1), c);
      const __m256d t = mulmod_shoup(_mm256_sub_pd(x2, x3), w3, w3p, c);
      store_u64(b + j, mulmod_shoup(_mm256_add_pd(s01, s23), S, Sp, c), c);
      store_u64(b + j + h, mulmod_shoup(_mm256_add_pd(d01, t), S, Sp, c), c);
      store_u64(b + j + 2 * h, mulmod_shoup(_mm256_sub_pd(s01, s23), S, Sp, c), c);
      store_u64(b + j + 3 * h, mulmod_shoup(_mm256_sub_pd(d01, t), S, Sp, c), c);
    }
    return;
  }
  for (std::size_t j = 0, ahead = T.ahead; j < h; j += 4) {
    prefetch4(a, j, h, ahead);
    const __m256d x0 = ld(a + j), x1 = ld(a + j + h), x2 = ld(a + j + 2 * h), x3 = ld(a + j + 3 * h);
    const __m256d s01 = reduce(_mm256_add_pd(x0, x1), c), s23 = reduce(_mm256_add_pd(x2, x3), c);
    const __m256d d01 = reduce(_mm256_sub_pd(x0, x1), c);
    const __m256d t = mulmod_shoup(_mm256_sub_pd(x2, x3), w3, w3p, c);
    const __m256d y0 = _mm256_add_pd(s01, s23), y1 = _mm256_add_pd(d01, t), y2 = _mm256_sub_pd(s01, s23),
                  y3 = _mm256_sub_pd(d01, t);
    store4<OutU64>(a, j, h, y0, y1, y2, y3, c);
  }
}

template <bool OutU64>
BIGMUL_AVX2 void pass4_inverse(double* a, std::size_t h, const tables& T, std::size_t k, const vconst& c) {
  if (k == 0) return pass4_inverse_first<OutU64>(a, h, T, c);
  const __m256d w1 = bc(T.w + k), w1p = bc(T.wp + k), w2 = bc(T.w + 2 * k), w2p = bc(T.wp + 2 * k),
                w3 = bc(T.w + 2 * k + 1), w3p = bc(T.wp + 2 * k + 1);
  for (std::size_t j = 0, ahead = T.ahead; j < h; j += 4) {
    prefetch4(a, j, h, ahead);
    __m256d x0 = ld(a + j), x1 = ld(a + j + h), x2 = ld(a + j + 2 * h), x3 = ld(a + j + 3 * h);
    inv4(x0, x1, x2, x3, w1, w1p, w2, w2p, w3, w3p, c);
    store4<OutU64>(a, j, h, x0, x1, x2, x3, c);
  }
}

// The radix-4 steps of a whole level inside a leaf: every block of s values
// in a[0 .. size), block indices kfirst, kfirst + 1, ..., in one call (at the
// small blocks, 16 and 64 values, a call a block cost more than its loop).
// Inverse: the inverse butterflies, else the forward ones.
template <bool Inverse>
BIGMUL_AVX2 void level4(double* a, std::size_t size, std::size_t s, const tables& T, std::size_t kfirst,
                        const vconst& c) {
  const std::size_t h = s / 4;
  std::size_t b = 0;
  if (kfirst == 0) {
    if constexpr (Inverse)
      pass4_inverse_first<false>(a, h, T, c);
    else
      pass4_forward_first<false>(a, h, T, c);
    b = 1;
  }
  for (; b < size / s; ++b) {
    const std::size_t k = kfirst + b;
    double* x = a + b * s;
    const __m256d w1 = bc(T.w + k), w1p = bc(T.wp + k), w2 = bc(T.w + 2 * k), w2p = bc(T.wp + 2 * k),
                  w3 = bc(T.w + 2 * k + 1), w3p = bc(T.wp + 2 * k + 1);
    for (std::size_t j = 0; j < h; j += 4) {
      __m256d x0 = ld(x + j), x1 = ld(x + j + h), x2 = ld(x + j + 2 * h), x3 = ld(x + j + 3 * h);
      if constexpr (Inverse)
        inv4(x0, x1, x2, x3, w1, w1p, w2, w2p, w3, w3p, c);
      else
        fwd4(x0, x1, x2, x3, w1, w1p, w2, w2p, w3, w3p, c);
      st(x + j, x0);
      st(x + j + h, x1);
      st(x + j + 2 * h, x2);
      st(x + j + 3 * h, x3);
    }
  }
}

// One radix-2 level on butterflies (x[j], y[j]), j < len (a multiple of 4),
// twiddle w (or its inverse), w_p = w / p.
template <bool InU64>
BIGMUL_AVX2 void level_forward_run(double* x, double* y, std::size_t len, const double* w, const double* wp,
                                   const vconst& c) {
  const __m256d W = bc(w), WP = bc(wp);
  for (std::size_t j = 0; j < len; j += 4) {
    const __m256d X = reduce(ld_as<InU64>(x + j, c), c);
    const __m256d t = mulmod_shoup(ld_as<InU64>(y + j, c), W, WP, c);
    st(x + j, _mm256_add_pd(X, t));
    st(y + j, _mm256_sub_pd(X, t));
  }
}
// sx (u64 out only): {s, s / p}, the sums times s too (Shoup, |X + Y| <=
// 4p: <= 0.625p), and w then holds w s: the scaled last level.
template <bool OutU64>
BIGMUL_AVX2 void level_inverse_run(double* x, double* y, std::size_t len, const double* w, const double* wp,
                                   const vconst& c, const double* sx = nullptr) {
  const __m256d W = bc(w), WP = bc(wp);
  if (OutU64 && sx != nullptr) {
    const __m256d S = bc(sx), Sp = bc(sx + 1);
    for (std::size_t j = 0; j < len; j += 4) {
      const __m256d X = ld(x + j), Y = ld(y + j);
      store_u64(reinterpret_cast<u64*>(x + j), mulmod_shoup(_mm256_add_pd(X, Y), S, Sp, c), c);
      store_u64(reinterpret_cast<u64*>(y + j), mulmod_shoup(_mm256_sub_pd(X, Y), W, WP, c), c);
    }
    return;
  }
  for (std::size_t j = 0; j < len; j += 4) {
    const __m256d X = ld(x + j), Y = ld(y + j);
    const __m256d s = reduce(_mm256_add_pd(X, Y), c);
    const __m256d d = mulmod_shoup(_mm256_sub_pd(X, Y), W, WP, c);
    if constexpr (OutU64) {
      store_u64(reinterpret_cast<u64*>(x + j), s, c);
      store_u64(reinterpret_cast<u64*>(y + j), reduce(d, c), c);
    } else {
      st(x + j, s);
      st(y + j, d);
    }
  }
}

// 4 x 4 transpose: row b of the input is lane b of the output.
BIGMUL_AVX2 inline void transpose4(__m256d& r0, __m256d& r1, __m256d& r2, __m256d& r3) {
  const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
  const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
  r0 = _mm256_permute2f128_pd(t0, t2, 0x20);
  r1 = _mm256_permute2f128_pd(t1, t3, 0x20);
  r2 = _mm256_permute2f128_pd(t0, t2, 0x31);
  r3 = _mm256_permute2f128_pd(t1, t3, 0x31);
}
// Table entries 2k and 2k + 1 for the four k of a vector: p[2k0 .. 2k0 + 8)
// split into evens and odds.
BIGMUL_AVX2 inline void load_pairs(const double* p, __m256d& even, __m256d& odd) {
  const __m256d A = ld(p), B = ld(p + 4);
  even = _mm256_permute4x64_pd(_mm256_unpacklo_pd(A, B), 0xD8);
  odd = _mm256_permute4x64_pd(_mm256_unpackhi_pd(A, B), 0xD8);
}

// The last two forward levels in registers: blocks of 4 values, four blocks
// (16 values) a step, transposed so that each lane is one block; k0 = the
// index of the first block. Output reduced, as u64 in [0, 2p), or as
// doubles left unreduced (|x| <= 3.15p, fwd4<false>: the pointwise product
// reduces one factor, half the reductions of reducing both operands), and left
// transposed (output i of block b at 4 i + b of the 16, not 4 b + i):
// the pointwise product does not care, first_levels_inverse reads it so,
// and two of the four transposes of a round trip are saved.
template <bool OutDouble>
BIGMUL_AVX2 void last_levels_forward(double* a, std::size_t size, const tables& T, std::size_t k0, const vconst& c) {
  for (std::size_t g = 0; g < size; g += 16) {
    const std::size_t k = k0 + g / 4;
    __m256d x0 = ld(a + g), x1 = ld(a + g + 4), x2 = ld(a + g + 8), x3 = ld(a + g + 12);
    transpose4(x0, x1, x2, x3);
    __m256d w2, w3, w2p, w3p;
    load_pairs(T.w + 2 * k, w2, w3);
    load_pairs(T.wp + 2 * k, w2p, w3p);
    fwd4<false>(x0, x1, x2, x3, ld(T.w + k), ld(T.wp + k), w2, w2p, w3, w3p, c);
    if constexpr (OutDouble) {
      st(a + g, x0);
      st(a + g + 4, x1);
      st(a + g + 8, x2);
      st(a + g + 12, x3);
    } else {
      u64* b = reinterpret_cast<u64*>(a + g);
      store_u64(b, reduce(x0, c), c);
      store_u64(b + 4, reduce(x1, c), c);
      store_u64(b + 8, reduce(x2, c), c);
      store_u64(b + 12, reduce(x3, c), c);
    }
  }
}
// The first two inverse levels, u64 in [0, 2p) in (as last_levels_forward
// leaves them: lane b = block b), doubles out in natural order.
// Pointwise (InDouble, T.pointwise): the input is a[i] a[i + T.y_off], both
// forward_product outputs, as pointwise_doubles_run (fft/ntt_avx2.cpp)
// computes it unscaled: |x y| <= 0.9p, within the levels' 2p.
template <bool InDouble, bool Pointwise>
BIGMUL_AVX2 inline __m256d inverse_input(const double* a, std::ptrdiff_t y_off, const vconst& c) {
  static_assert(InDouble || !Pointwise, "the pointwise product takes doubles");
  if constexpr (Pointwise) return mulmod(reduce(ld(a), c), ld(a + y_off), c);
  return ld_as<!InDouble>(a, c);
}
template <bool InDouble, bool Pointwise = false>
BIGMUL_AVX2 void first_levels_inverse(double* a, std::size_t size, const tables& T, std::size_t k0, const vconst& c) {
  for (std::size_t g = 0; g < size; g += 16) {
    const std::size_t k = k0 + g / 4;
    __m256d x0 = inverse_input<InDouble, Pointwise>(a + g, T.y_off, c),
            x1 = inverse_input<InDouble, Pointwise>(a + g + 4, T.y_off, c),
            x2 = inverse_input<InDouble, Pointwise>(a + g + 8, T.y_off, c),
            x3 = inverse_input<InDouble, Pointwise>(a + g + 12, T.y_off, c);
    __m256d w2, w3, w2p, w3p;
    load_pairs(T.w + 2 * k, w2, w3);
    load_pairs(T.wp + 2 * k, w2p, w3p);
    inv4(x0, x1, x2, x3, ld(T.w + k), ld(T.wp + k), w2, w2p, w3, w3p, c);
    transpose4(x0, x1, x2, x3);
    st(a + g, x0);
    st(a + g + 4, x1);
    st(a + g + 8, x2);
    st(a + g + 12, x3);
  }
}

// A whole in-cache block of `size` values (16 <= size <= leaf_size), block
// index kb at its level: radix-4 passes while blocks hold >= 16 values, one
// radix-2 level when log2(size) is odd, then the last two levels in registers.
// leaf_forward_rest: all but the first radix-4 step.
BIGMUL_AVX2 void leaf_forward_rest(double* a, std::size_t size, std::size_t kb, const tables& T, const vconst& c) {
  std::size_t s = size / 4;
  for (; s >= 16; s /= 4)
    level4<false>(a, size, s, T, kb * (size / s), c);
  if (s == 8)
    for (std::size_t b = 0; b < size / 8; ++b) {
      const std::size_t k = kb * (size / 8) + b;
      level_forward_run<false>(a + 8 * b, a + 8 * b + 4, 4, T.w + k, T.wp + k, c);
    }
  if (T.doubles)
    last_levels_forward<true>(a, size, T, kb * (size / 4), c);
  else
    last_levels_forward<false>(a, size, T, kb * (size / 4), c);
}
// nonzero < size (u64 input, kb = 0): a[nonzero ..) is zero.
template <bool InU64>
BIGMUL_AVX2 void leaf_forward(double* a, std::size_t size, std::size_t kb, const tables& T, u64 p,
                              std::size_t nonzero = ~std::size_t{0}) {
  const vconst c = make_vconst(p);
  if (InU64 && kb == 0 && nonzero < size)
    pass4_forward_first_partial(a, size / 4, T, c, nonzero, in_place<true>{a, size / 4});
  else
    pass4_forward<InU64>(a, size / 4, T, kb, c);
  leaf_forward_rest(a, size, kb, T, c);
}
// The whole leaf (kb = 0) of an operand read from its limbs.
BIGMUL_AVX2 void leaf_forward_limbs(double* a, std::size_t size, const tables& T, u64 p, const limb_source& s) {
  const vconst c = make_vconst(p);
  pass4_forward_first_partial(a, size / 4, T, c, std::min(s.len, size), from_limbs_at{s, size / 4});
  leaf_forward_rest(a, size, 0, T, c);
}
template <bool OutU64>
BIGMUL_AVX2 void leaf_inverse(double* a, std::size_t size, std::size_t kb, const tables& T, u64 p) {
  const vconst c = make_vconst(p);
  if (T.doubles && T.pointwise)
    first_levels_inverse<true, true>(a, size, T, kb * (size / 4), c);
  else if (T.doubles)
    first_levels_inverse<true>(a, size, T, kb * (size / 4), c);
  else
    first_levels_inverse<false>(a, size, T, kb * (size / 4), c);
  std::size_t s = 16;
  if (ceil_log2(size) % 2 == 1) {
    for (std::size_t b = 0; b < size / 8; ++b) {
      const std::size_t k = kb * (size / 8) + b;
      level_inverse_run<false>(a + 8 * b, a + 8 * b + 4, 4, T.w + k, T.wp + k, c);
    }
    s = 32;
  }
  for (; s < size; s *= 4)
    level4<true>(a, size, s, T, kb * (size / s), c);
  pass4_inverse<OutU64>(a, size / 4, T, kb, c);
}

// Entry points taking the prime (the constants built once a call).
template <bool InU64>
BIGMUL_AVX2 void pass4_forward_p(double* a, std::size_t h, const tables& T, std::size_t k, u64 p) {
  pass4_forward<InU64>(a, h, T, k, make_vconst(p));
}
template <bool OutU64>
BIGMUL_AVX2 void pass4_inverse_p(double* a, std::size_t h, const tables& T, std::size_t k, u64 p) {
  pass4_inverse<OutU64>(a, h, T, k, make_vconst(p));
}
template <bool InU64>
BIGMUL_AVX2 void level_forward_p(double* x, double* y, std::size_t len, const double* w, const double* wp, u64 p) {
  level_forward_run<InU64>(x, y, len, w, wp, make_vconst(p));
}
template <bool OutU64>
BIGMUL_AVX2 void level_inverse_p(double* x, double* y, std::size_t len, const double* w, const double* wp, u64 p,
                                 const double* sx) {
  level_inverse_run<OutU64>(x, y, len, w, wp, make_vconst(p), sx);
}

// Depth first: a radix-4 step over the block, then its quarters.
// Whether block k of a level of blocks of `size` values reads entries past
// the fine ones (its last: 2 (k + 1) size / 4 - 1): then it runs on gathered ones.
inline bool needs_local(const tables& T, std::size_t size, std::size_t k) {
  return T.cw != nullptr && (k + 1) * (size / 2) > cap;
}
// Entries k, 2k, 2k + 1 at 1, 2, 3 (a radix-4 step above the leaves).
inline tables step_tables(const tables& T, std::size_t k, u64 p, double (&w)[4], double (&wp)[4]) {
  entry(T, k, p, w[1], wp[1]);
  entry(T, 2 * k, p, w[2], wp[2]);
  entry(T, 2 * k + 1, p, w[3], wp[3]);
  return tables{w, wp, T.doubles, nullptr, nullptr, T.scaled, T.s, T.sp, T.pointwise, T.y_off, T.ahead};
}
// ---- Radix 16: four levels a pass over memory ------------------------------
// A block of 16 h values (h = size / 16, block index k) as two radix-4 steps
// on the 16 rows x_r = a[j + r h] of each column j, held in registers: first
// block k's step on rows (i, 4 + i, 8 + i, 12 + i) for each i, then each
// quarter q's step (block 4k + q) on rows 4q .. 4q + 3; the same butterflies
// and twiddles as the radix-4 passes they replace, in the same order per
// value, so the outputs are the same bit for bit. Why: above the leaves the
// radix-4 passes stream the whole block through memory once per two levels;
// past the last-level cache that traffic, not arithmetic, bounds them.
// Block 0's step (w[0] = 1) is pass4_forward_first's (first_run, no zero
// quarters) / pass4_inverse_first's, a vector at a time.
BIGMUL_AVX2 inline void fwd_first4(__m256d& x0, __m256d& x1, __m256d& x2, __m256d& x3, __m256d w3, __m256d w3p,
                                   const vconst& c) {
  const __m256d s02 = reduce(_mm256_add_pd(x0, x2), c), s13 = reduce(_mm256_add_pd(x1, x3), c);
  const __m256d y2 = reduce(_mm256_sub_pd(x0, x2), c);
  const __m256d t = mulmod_shoup(_mm256_sub_pd(x1, x3), w3, w3p, c);
  x0 = _mm256_add_pd(s02, s13);
  x1 = _mm256_sub_pd(s02, s13);
  x2 = _mm256_add_pd(y2, t);
  x3 = _mm256_sub_pd(y2, t);
}
BIGMUL_AVX2 inline void inv_first4(__m256d& x0, __m256d& x1, __m256d& x2, __m256d& x3, __m256d w3, __m256d w3p,
                                   const vconst& c) {
  const __m256d s01 = reduce(_mm256_add_pd(x0, x1), c), s23 = reduce(_mm256_add_pd(x2, x3), c);
  const __m256d d01 = reduce(_mm256_sub_pd(x0, x1), c);
  const __m256d t = mulmod_shoup(_mm256_sub_pd(x2, x3), w3, w3p, c);
  x0 = _mm256_add_pd(s01, s23);
  x1 = _mm256_add_pd(d01, t);
  x2 = _mm256_sub_pd(s01, s23);
  x3 = _mm256_sub_pd(d01, t);
}
// A quad's twiddles: [0] block k's step, [1 + q] block 4k + q's; each
// w[k'], w[2k'], w[2k' + 1] and their quotients (entry: whole or split table).
struct quad_twiddles {
  double w[5][3], wp[5][3];
};
inline quad_twiddles quad_entries(const tables& T, std::size_t k, u64 p) {
  quad_twiddles q;
  for (std::size_t s = 0; s < 5; ++s) {
    const std::size_t kk = s == 0 ? k : 4 * k + (s - 1);
    entry(T, kk, p, q.w[s][0], q.wp[s][0]);
    entry(T, 2 * kk, p, q.w[s][1], q.wp[s][1]);
    entry(T, 2 * kk + 1, p, q.w[s][2], q.wp[s][2]);
  }
  return q;
}
BIGMUL_AVX2 inline void quad_step_fwd(__m256d& x0, __m256d& x1, __m256d& x2, __m256d& x3, const quad_twiddles& Q,
                                      unsigned s, bool first, const vconst& c) {
  if (first) return fwd_first4(x0, x1, x2, x3, bc(&Q.w[s][2]), bc(&Q.wp[s][2]), c);
  fwd4(x0, x1, x2, x3, bc(&Q.w[s][0]), bc(&Q.wp[s][0]), bc(&Q.w[s][1]), bc(&Q.wp[s][1]), bc(&Q.w[s][2]),
       bc(&Q.wp[s][2]), c);
}
BIGMUL_AVX2 inline void quad_step_inv(__m256d& x0, __m256d& x1, __m256d& x2, __m256d& x3, const quad_twiddles& Q,
                                      unsigned s, bool first, const vconst& c) {
  if (first) return inv_first4(x0, x1, x2, x3, bc(&Q.w[s][2]), bc(&Q.wp[s][2]), c);
  inv4(x0, x1, x2, x3, bc(&Q.w[s][0]), bc(&Q.wp[s][0]), bc(&Q.w[s][1]), bc(&Q.wp[s][1]), bc(&Q.w[s][2]),
       bc(&Q.wp[s][2]), c);
}
// The 16 rows' lines 512 bytes ahead (16 streams: more than the hardware
// prefetcher follows).
constexpr std::size_t quad_pf_dist = 64;
BIGMUL_AVX2 inline void prefetch_rows(const double* a, std::size_t h) {
  for (unsigned r = 0; r < 16; ++r) _mm_prefetch(reinterpret_cast<const char*>(a + r * h + quad_pf_dist), _MM_HINT_T0);
}
// Columns [j0, j1) (multiples of 8) of block k's quad, 8 at a time: the 16
// rows' 64-byte lines copied whole into an L1 buffer, two groups of 4
// columns transformed there, the lines written back whole. Why: the rows
// lie a power of two apart (>= 16 KiB), all in one L1 set; 4 columns at a
// time would touch each line twice, 16 lines apart, and miss both times.
// InU64: the rows are u64 residues in [0, 2p) (the transform's input).
template <bool InU64>
BIGMUL_AVX2 void quad_forward_cols(double* a, std::size_t h, std::size_t k, const quad_twiddles& Q, std::size_t j0,
                                   std::size_t j1, const vconst& c) {
  alignas(32) double buf[16 * 8];
  for (std::size_t j = j0; j < j1; j += 8) {
    prefetch_rows(a + j, h);
    for (unsigned r = 0; r < 16; ++r) {
      st(buf + 8 * r, ld_as<InU64>(a + j + r * h, c));
      st(buf + 8 * r + 4, ld_as<InU64>(a + j + 4 + r * h, c));
    }
    for (unsigned half = 0; half < 8; half += 4) {
      __m256d x[16];
      for (unsigned r = 0; r < 16; ++r) x[r] = ld(buf + 8 * r + half);
      for (unsigned i = 0; i < 4; ++i) quad_step_fwd(x[i], x[4 + i], x[8 + i], x[12 + i], Q, 0, k == 0, c);
      for (unsigned q = 0; q < 4; ++q)
        quad_step_fwd(x[4 * q], x[4 * q + 1], x[4 * q + 2], x[4 * q + 3], Q, 1 + q, k == 0 && q == 0, c);
      for (unsigned r = 0; r < 16; ++r) st(buf + 8 * r + half, x[r]);
    }
    for (unsigned r = 0; r < 16; ++r) {
      st(a + j + r * h, ld(buf + 8 * r));
      st(a + j + 4 + r * h, ld(buf + 8 * r + 4));
    }
  }
}
// One output of quad_inverse_cols (a function, not a lambda: a lambda
// taking a vector does not get the AVX2 target).
template <bool OutU64>
BIGMUL_AVX2 inline void quad_out(double* to, __m256d v, bool scaled, __m256d S, __m256d Sp, const vconst& c) {
  if constexpr (OutU64)
    store_u64(reinterpret_cast<u64*>(to), scaled ? mulmod_shoup(v, S, Sp, c) : reduce(v, c), c);
  else
    st(to, v);
}
// The inverse: the quarters' steps, then block k's; OutU64: its outputs
// reduced to u64 (the transform's last pass), scaled by T.s where T.scaled
// (block 0 only, as pass4_inverse_first).
template <bool OutU64>
BIGMUL_AVX2 void quad_inverse_cols(double* a, std::size_t h, std::size_t k, const quad_twiddles& Q,
                                   const tables& T, std::size_t j0, std::size_t j1, const vconst& c) {
  const bool scaled = OutU64 && T.scaled && k == 0;
  const __m256d S = _mm256_set1_pd(T.s), Sp = _mm256_set1_pd(T.sp);
  alignas(32) double buf[16 * 8];
  for (std::size_t j = j0; j < j1; j += 8) {
    prefetch_rows(a + j, h);
    for (unsigned r = 0; r < 16; ++r) {
      st(buf + 8 * r, ld(a + j + r * h));
      st(buf + 8 * r + 4, ld(a + j + 4 + r * h));
    }
    for (unsigned half = 0; half < 8; half += 4) {
      __m256d x[16];
      for (unsigned r = 0; r < 16; ++r) x[r] = ld(buf + 8 * r + half);
      for (unsigned q = 0; q < 4; ++q)
        quad_step_inv(x[4 * q], x[4 * q + 1], x[4 * q + 2], x[4 * q + 3], Q, 1 + q, k == 0 && q == 0, c);
      for (unsigned i = 0; i < 4; ++i) quad_step_inv(x[i], x[4 + i], x[8 + i], x[12 + i], Q, 0, k == 0, c);
      for (unsigned r = 0; r < 16; ++r) st(buf + 8 * r + half, x[r]);
    }
    for (unsigned r = 0; r < 16; ++r) {
      quad_out<OutU64>(a + j + r * h, ld(buf + 8 * r), scaled, S, Sp, c);
      quad_out<OutU64>(a + j + 4 + r * h, ld(buf + 8 * r + 4), scaled, S, Sp, c);
    }
  }
}
template <bool InU64>
BIGMUL_AVX2 void quad_forward_p(double* a, std::size_t size, std::size_t k, const tables& T, u64 p, std::size_t j0,
                                std::size_t j1) {
  quad_forward_cols<InU64>(a, size / 16, k, quad_entries(T, k, p), j0, j1, make_vconst(p));
}
template <bool OutU64>
BIGMUL_AVX2 void quad_inverse_p(double* a, std::size_t size, std::size_t k, const tables& T, u64 p, std::size_t j0,
                                std::size_t j1) {
  quad_inverse_cols<OutU64>(a, size / 16, k, quad_entries(T, k, p), T, j0, j1, make_vconst(p));
}
// Whether a block of `size` values takes a quad: from quad_min (>= 16
// leaves, so its sixteenths are sub-transforms of their own).
inline bool takes_quad(std::size_t size) { return size >= quad_min_points.load(std::memory_order_relaxed); }
// Where the threaded whole-array levels take quads (>= 16 leaves too).
inline std::size_t threaded_quad_min() { return threaded_quad_min_points.load(std::memory_order_relaxed); }
// The sub-transform size of a threaded transform: ntt_task_size, but at
// most m / 16 where the whole-array levels take a quad (so that one can).
inline std::size_t threaded_task_size(std::size_t m, unsigned threads) {
  const std::size_t size = ntt_task_size(m, leaf_size, threads);
  return m >= threaded_quad_min() ? std::min(size, m / 16) : size;
}
// Quads over every block of `size` values in a[0 .. m) (block k = at / size),
// their columns split over the threads.
template <bool Inverse, bool U64>
void quad_level_threaded(double* d, std::size_t m, std::size_t size, const tables& T, u64 p, unsigned threads) {
  const std::size_t h = size / 16;  // a multiple of 8 (size >= 2^15)
  prim::parallel_chunks(m / 16 / 8, vector_grain / 8, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t v = 8 * b, ve = 8 * e; v < ve;) {
      const std::size_t k = v / h, j0 = v % h, j1 = std::min(h, j0 + (ve - v));
      if constexpr (Inverse)
        quad_inverse_p<U64>(d + k * size, size, k, T, p, j0, j1);
      else
        quad_forward_p<U64>(d + k * size, size, k, T, p, j0, j1);
      v += j1 - j0;
    }
  });
}
template <bool InU64>
void rec_forward(double* a, std::size_t size, std::size_t k, const tables& T, u64 p) {
  if (size <= leaf_size) {
    if (!needs_local(T, size, k)) return leaf_forward<InU64>(a, size, k, T, p);
    local_tables L;
    build_local(T, k, size / 2, p, L);
    return leaf_forward<InU64>(a, size, 1, L.t, p);
  }
  if (takes_quad(size)) {
    quad_forward_p<InU64>(a, size, k, T, p, 0, size / 16);
    for (std::size_t r = 0; r < 16; ++r) rec_forward<false>(a + r * (size / 16), size / 16, 16 * k + r, T, p);
    return;
  }
  if (needs_local(T, 4, k)) {
    double w[4], wp[4];
    pass4_forward_p<InU64>(a, size / 4, step_tables(T, k, p, w, wp), 1, p);
  } else {
    pass4_forward_p<InU64>(a, size / 4, T, k, p);
  }
  for (std::size_t q = 0; q < 4; ++q) rec_forward<false>(a + q * (size / 4), size / 4, 4 * k + q, T, p);
}
// The whole transform of a u64 input whose a[nonzero ..) is zero (a zero-padded operand).
BIGMUL_AVX2 void forward_partial(double* a, std::size_t size, const tables& T, u64 p, std::size_t nonzero) {
  if (size <= leaf_size) return leaf_forward<true>(a, size, 0, T, p, nonzero);
  pass4_forward_first_partial(a, size / 4, T, make_vconst(p), nonzero, in_place<true>{a, size / 4});
  for (std::size_t q = 0; q < 4; ++q) rec_forward<false>(a + q * (size / 4), size / 4, q, T, p);
}
// The same from an operand's limbs src[0 .. len) (values past them zero).
BIGMUL_AVX2 void forward_limbs_at(double* a, std::size_t size, const tables& T, u64 p, const u64* src,
                                  std::size_t len, double c32, double c32_p) {
  const limb_source s{src, len, _mm256_set1_pd(c32), _mm256_set1_pd(c32_p)};
  if (size <= leaf_size) return leaf_forward_limbs(a, size, T, p, s);
  pass4_forward_first_partial(a, size / 4, T, make_vconst(p), std::min(len, size), from_limbs_at{s, size / 4});
  for (std::size_t q = 0; q < 4; ++q) rec_forward<false>(a + q * (size / 4), size / 4, q, T, p);
}
// Columns [cb, ce) of the first radix-4 step of a length 4h, read from fill
// or from an operand's limbs src[0 .. len) (a share of a threaded step).
BIGMUL_AVX2 void first_filled_columns(double* a, std::size_t h, const tables& T, u64 p, std::size_t nonzero,
                                      double c32, double c32_p, ntt_fill fill, void* ctx, std::size_t cb,
                                      std::size_t ce) {
  pass4_forward_first_filled(a, h, T, make_vconst(p), nonzero, c32, c32_p, fill, ctx, cb, ce);
}
BIGMUL_AVX2 void first_limbs_columns(double* a, std::size_t h, const tables& T, u64 p, const u64* src,
                                     std::size_t len, double c32, double c32_p, std::size_t cb, std::size_t ce) {
  const limb_source s{src, len, _mm256_set1_pd(c32), _mm256_set1_pd(c32_p)};
  pass4_forward_first_partial(a, h, T, make_vconst(p), std::min(len, 4 * h), from_limbs_at{s, h}, cb, ce);
}
// The rest of a length-m forward after its first radix-4 step, on several
// threads: pow2_forward's whole-array radix-2 levels from the third on, then
// the sub-transforms (at most m/4 each: the step made 4 independent ones;
// radix 16 from threaded_quad_min as pow2_forward).
void forward_after_first_threaded(double* d, std::size_t m, const tables& T, u64 p, unsigned threads) {
  const std::size_t h = m / 4,
                    size = std::min(h >= threaded_quad_min() ? h / 16 : h, ntt_task_size(m, leaf_size, threads));
  for (std::size_t s = h; s > size; s /= 2) {
    if (s >= threaded_quad_min() && s / 16 >= size) {  // levels s/2 .. s/16 in one pass
      quad_level_threaded<false, false>(d, m, s, T, p, threads);
      s /= 8;
      continue;
    }
    const std::size_t t = s / 2;
    ntt_parallel_level(m, t, 4, vector_grain, threads, [&](std::size_t at, std::size_t, std::size_t len) {
      double w, wp;
      entry(T, at / s, p, w, wp);
      level_forward_p<false>(d + at, d + at + t, len, &w, &wp, p);
    });
  }
  prim::parallel_for(m / size, threads, [&](std::size_t b) { rec_forward<false>(d + b * size, size, b, T, p); });
}
// The whole transform of the values fill writes (zero from nonzero on), on one thread.
BIGMUL_AVX2 void forward_filled_at(double* a, std::size_t size, const tables& T, u64 p, std::size_t nonzero,
                                   double c32, double c32_p, ntt_fill fill, void* ctx) {
  const vconst c = make_vconst(p);
  pass4_forward_first_filled(a, size / 4, T, c, nonzero, c32, c32_p, fill, ctx, 0, size / 4);
  if (size <= leaf_size) return leaf_forward_rest(a, size, 0, T, c);
  for (std::size_t q = 0; q < 4; ++q) rec_forward<false>(a + q * (size / 4), size / 4, q, T, p);
}
template <bool OutU64>
void rec_inverse(double* a, std::size_t size, std::size_t k, const tables& T, u64 p) {
  if (size <= leaf_size) {
    if (!needs_local(T, size, k)) return leaf_inverse<OutU64>(a, size, k, T, p);
    local_tables L;
    build_local(T, k, size / 2, p, L);
    return leaf_inverse<OutU64>(a, size, 1, L.t, p);
  }
  if (takes_quad(size)) {
    for (std::size_t r = 0; r < 16; ++r) rec_inverse<false>(a + r * (size / 16), size / 16, 16 * k + r, T, p);
    return quad_inverse_p<OutU64>(a, size, k, T, p, 0, size / 16);
  }
  for (std::size_t q = 0; q < 4; ++q) rec_inverse<false>(a + q * (size / 4), size / 4, 4 * k + q, T, p);
  if (needs_local(T, 4, k)) {
    double w[4], wp[4];
    pass4_inverse_p<OutU64>(a, size / 4, step_tables(T, k, p, w, wp), 1, p);
  } else {
    pass4_inverse_p<OutU64>(a, size / 4, T, k, p);
  }
}

// The three thirds' power-of-two transforms of a radix-3 length on one
// thread: the radix-4 steps above the leaves third by third, then each leaf
// index for the three thirds in a row, so that a leaf's gathered twiddles
// (split tables, past 2 cap points) are built once for the three instead of
// three times.
std::size_t leaf_of(std::size_t size) {
  while (size > leaf_size) size /= 4;
  return size;
}
void steps_forward(double* a, std::size_t size, std::size_t k, const tables& T, u64 p) {
  if (size <= leaf_size) return;
  if (takes_quad(size)) {
    quad_forward_p<false>(a, size, k, T, p, 0, size / 16);
    for (std::size_t r = 0; r < 16; ++r) steps_forward(a + r * (size / 16), size / 16, 16 * k + r, T, p);
    return;
  }
  if (needs_local(T, 4, k)) {
    double w[4], wp[4];
    pass4_forward_p<false>(a, size / 4, step_tables(T, k, p, w, wp), 1, p);
  } else {
    pass4_forward_p<false>(a, size / 4, T, k, p);
  }
  for (std::size_t q = 0; q < 4; ++q) steps_forward(a + q * (size / 4), size / 4, 4 * k + q, T, p);
}
void steps_inverse(double* a, std::size_t size, std::size_t k, const tables& T, u64 p) {
  if (size <= leaf_size) return;
  if (takes_quad(size)) {
    for (std::size_t r = 0; r < 16; ++r) steps_inverse(a + r * (size / 16), size / 16, 16 * k + r, T, p);
    return quad_inverse_p<false>(a, size, k, T, p, 0, size / 16);
  }
  for (std::size_t q = 0; q < 4; ++q) steps_inverse(a + q * (size / 4), size / 4, 4 * k + q, T, p);
  if (needs_local(T, 4, k)) {
    double w[4], wp[4];
    pass4_inverse_p<false>(a, size / 4, step_tables(T, k, p, w, wp), 1, p);
  } else {
    pass4_inverse_p<false>(a, size / 4, T, k, p);
  }
}
// Leaf k (of size ls) of each third, a[r m + k ls ..), forward or inverse.
template <bool Inverse>
void leaves_of_thirds(double* a, std::size_t m, const tables& T, u64 p) {
  const std::size_t ls = leaf_of(m);
  for (std::size_t k = 0; k < m / ls; ++k) {
    const bool local = needs_local(T, ls, k);
    local_tables L;
    if (local) build_local(T, k, ls / 2, p, L);
    for (std::size_t r = 0; r < 3; ++r) {
      double* x = a + r * m + k * ls;
      if constexpr (Inverse)
        local ? leaf_inverse<false>(x, ls, 1, L.t, p) : leaf_inverse<false>(x, ls, k, T, p);
      else
        local ? leaf_forward<false>(x, ls, 1, L.t, p) : leaf_forward<false>(x, ls, k, T, p);
    }
  }
}
#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace

ntt_avx2_quad_thresholds ntt_avx2_quad_min() {
  return {quad_min_points.load(std::memory_order_relaxed), threaded_quad_min_points.load(std::memory_order_relaxed)};
}
ntt_avx2_quad_thresholds ntt_avx2_set_quad_min(ntt_avx2_quad_thresholds points) {
  const std::size_t least = 16 * leaf_size;
  return {quad_min_points.exchange(std::max(points.serial, least), std::memory_order_relaxed),
          threaded_quad_min_points.exchange(std::max(points.threaded, least), std::memory_order_relaxed)};
}

// With several threads: whole-array radix-2 levels until there are enough
// independent sub-transforms to share out, then one task per sub-transform.
void ntt_avx2_plan::pow2_forward(u64* a, unsigned threads, bool in_u64, std::size_t nonzero, bool doubles) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  double* d = reinterpret_cast<double*>(a);
  const tables T{fw_.data(), fw_p_.data(), doubles, cw_.data(), cw_p_.data(), false, 0, 0, false, 0, ntt_prefetch_ahead(m_)};
  if (threads <= 1 || m_ <= leaf_size) {
    if (in_u64 && nonzero < m_) return forward_partial(d, m_, T, p_, nonzero);
    return in_u64 ? rec_forward<true>(d, m_, 0, T, p_) : rec_forward<false>(d, m_, 0, T, p_);
  }
  const std::size_t size = threaded_task_size(m_, threads);
  for (std::size_t s = m_; s > size; s /= 2) {
    if (s >= threaded_quad_min() && s / 16 >= size) {  // levels s/2 .. s/16 in one pass
      (s == m_ && in_u64 ? quad_level_threaded<false, true> : quad_level_threaded<false, false>)(d, m_, s, T, p_,
                                                                                                 threads);
      s /= 8;
      continue;
    }
    const std::size_t t = s / 2;
    const bool first = s == m_ && in_u64;
    ntt_parallel_level(m_, t, 4, vector_grain, threads, [&](std::size_t at, std::size_t, std::size_t len) {
      double w, wp;
      entry(T, at / s, p_, w, wp);
      (first ? level_forward_p<true> : level_forward_p<false>)(d + at, d + at + t, len, &w, &wp, p_);
    });
  }
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_forward<false>(d + b * size, size, b, T, p_); });
#else
  (void)a, (void)threads, (void)in_u64, (void)nonzero, (void)doubles;
#endif
}

void ntt_avx2_plan::pow2_inverse(u64* a, unsigned threads, bool out_u64, bool doubles, bool scaled,
                                 const u64* y) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  double* d = reinterpret_cast<double*>(a);
  const tables T{iw_.data(), iw_p_.data(), doubles, ciw_.data(), ciw_p_.data(), scaled && out_u64,
                 scale_, scale_p_, y != nullptr, y ? y - a : 0, ntt_prefetch_ahead(m_)};
  if (threads <= 1 || m_ <= leaf_size)
    return out_u64 ? rec_inverse<true>(d, m_, 0, T, p_) : rec_inverse<false>(d, m_, 0, T, p_);
  std::size_t size = threaded_task_size(m_, threads);
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_inverse<false>(d + b * size, size, b, T, p_); });
  for (; size < m_; size *= 2) {
    if (16 * size <= m_ && 16 * size >= threaded_quad_min()) {  // levels size .. 8 size in one pass
      (16 * size == m_ && out_u64 ? quad_level_threaded<true, true> : quad_level_threaded<true, false>)(
          d, m_, 16 * size, T, p_, threads);
      size *= 8;
      continue;
    }
    const std::size_t t = size;
    const bool last = 2 * t == m_ && out_u64;
    ntt_parallel_level(m_, t, 4, vector_grain, threads, [&](std::size_t at, std::size_t, std::size_t len) {
      double w, wp;
      entry(T, at / (2 * t), p_, w, wp);
      if (last && T.scaled) {  // w s and s (fft/ntt_avx2.hpp: scale_)
        const auto residue = [this](double v) { return v < 0 ? p_ - static_cast<u64>(-v) : static_cast<u64>(v); };
        const double sx[2] = {scale_, scale_p_};
        w = signed_rep(mul_mod(residue(w), residue(scale_), p_), p_);
        wp = w / static_cast<double>(p_);
        return level_inverse_p<true>(d + at, d + at + t, len, &w, &wp, p_, sx);
      }
      (last ? level_inverse_p<true> : level_inverse_p<false>)(d + at, d + at + t, len, &w, &wp, p_, nullptr);
    });
  }
#else
  (void)a, (void)threads, (void)out_u64, (void)doubles, (void)scaled, (void)y;
#endif
}
// The three thirds after (before) the radix-3 stage: leaves shared on one thread.
void ntt_avx2_plan::pow2_forward_thirds(u64* a, unsigned threads, bool doubles) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (threads <= 1 && m_ > leaf_size) {
    double* d = reinterpret_cast<double*>(a);
    const tables T{fw_.data(), fw_p_.data(), doubles, cw_.data(), cw_p_.data(), false, 0, 0, false, 0, ntt_prefetch_ahead(m_)};
    for (std::size_t r = 0; r < 3; ++r) steps_forward(d + r * m_, m_, 0, T, p_);
    return leaves_of_thirds<false>(d, m_, T, p_);
  }
#endif
  for (std::size_t r = 0; r < 3; ++r) pow2_forward(a + r * m_, threads, false, m_, doubles);
}
void ntt_avx2_plan::pow2_inverse_thirds(u64* a, unsigned threads, bool doubles, const u64* y) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (threads <= 1 && m_ > leaf_size) {
    double* d = reinterpret_cast<double*>(a);
    const tables T{iw_.data(), iw_p_.data(), doubles, ciw_.data(), ciw_p_.data(), false, 0, 0,
                   y != nullptr, y ? y - a : 0, ntt_prefetch_ahead(m_)};
    leaves_of_thirds<true>(d, m_, T, p_);
    for (std::size_t r = 0; r < 3; ++r) steps_inverse(d + r * m_, m_, 0, T, p_);
    return;
  }
#endif
  for (std::size_t r = 0; r < 3; ++r)
    pow2_inverse(a + r * m_, threads, false, doubles, false, y ? y + r * m_ : nullptr);
}
void ntt_avx2_plan::forward(u64* a, unsigned threads) const { forward(a, threads, n_); }

void ntt_avx2_plan::forward(u64* a, unsigned threads, std::size_t nonzero) const {
  forward_as(a, threads, nonzero, false);
}
void ntt_avx2_plan::forward_product(u64* a, unsigned threads, std::size_t nonzero) const {
  forward_as(a, threads, nonzero, true);
}

void ntt_avx2_plan::load_forward_product(u64* dst, const u64* src, std::size_t len, unsigned threads) const {
  threads = prim::resolve_threads(threads);
  len = std::min(len, n_);
  if (m_ < 16) {
    load(dst, src, len, threads);
    return forward_product(dst, threads, len);
  }
  if (!ntt_avx2_supported()) throw std::logic_error("ntt_avx2_plan: this processor has no AVX2 and FMA");
  const double c32 = signed_rep((u64{1} << 32) % p_, p_), c32_p = c32 / static_cast<double>(p_);
  if (n_ != m_) {
    radix3_from(dst, threads, false, len, src, c32, c32_p);
    return pow2_forward_thirds(dst, threads, true);
  }
#if defined(BIGMUL_HAVE_AVX2_CODE)
  double* d = reinterpret_cast<double*>(dst);
  const tables T{fw_.data(), fw_p_.data(), true, cw_.data(), cw_p_.data(), false, 0, 0, false, 0, ntt_prefetch_ahead(m_)};
  if (threads <= 1 || m_ <= leaf_size) return forward_limbs_at(d, m_, T, p_, src, len, c32, c32_p);
  const std::size_t h = m_ / 4;
  prim::parallel_chunks(h / 4, vector_grain / 4, threads, [&](std::size_t b, std::size_t e) {
    first_limbs_columns(d, h, T, p_, src, len, c32, c32_p, 4 * b, 4 * e);
  });
  forward_after_first_threaded(d, m_, T, p_, threads);
#endif
}

bool ntt_avx2_plan::forward_fill_applies() const { return m_ >= 16 && ntt_avx2_supported(); }

void ntt_avx2_plan::forward_filled(u64* a, unsigned threads, std::size_t nonzero, ntt_fill fill, void* ctx) const {
  if (!ntt_avx2_supported()) throw std::logic_error("ntt_avx2_plan: this processor has no AVX2 and FMA");
  threads = prim::resolve_threads(threads);
  nonzero = std::min(nonzero, n_);
  if (!forward_fill_applies()) {  // m < 16: the scalar transforms
    fill(ctx, a, 0, nonzero);
    reduce(a, nonzero);
    std::fill(a + nonzero, a + n_, u64{0});
    return forward_as(a, threads, nonzero, true);
  }
  if (n_ != m_) {
    radix3_filled(a, threads, nonzero, fill, ctx);
    return pow2_forward_thirds(a, threads, true);
  }
  pow2_filled(a, threads, nonzero, fill, ctx);
}

// One thread (or m within a leaf): the first radix-4 step reads fill, then
// the recursion. Several: the first step's columns split over the threads,
// then pow2_forward's threaded levels from the third on and the sub-transforms.
void ntt_avx2_plan::pow2_filled(u64* a, unsigned threads, std::size_t nonzero, ntt_fill fill, void* ctx) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  double* d = reinterpret_cast<double*>(a);
  const tables T{fw_.data(), fw_p_.data(), true, cw_.data(), cw_p_.data(), false, 0, 0, false, 0, ntt_prefetch_ahead(m_)};
  const double c32 = signed_rep((u64{1} << 32) % p_, p_), c32_p = c32 / static_cast<double>(p_);
  if (threads <= 1 || m_ <= leaf_size) return forward_filled_at(d, m_, T, p_, nonzero, c32, c32_p, fill, ctx);
  const std::size_t h = m_ / 4;
  prim::parallel_chunks(h / 4, fill_chunk<4>::chunk / 4, threads, [&](std::size_t b, std::size_t e) {
    first_filled_columns(d, h, T, p_, nonzero, c32, c32_p, fill, ctx, 4 * b, 4 * e);
  });
  forward_after_first_threaded(d, m_, T, p_, threads);
#else
  (void)a, (void)threads, (void)nonzero, (void)fill, (void)ctx;
#endif
}

void ntt_avx2_plan::forward_as(u64* a, unsigned threads, std::size_t nonzero, bool doubles) const {
  if (!ntt_avx2_supported()) throw std::logic_error("ntt_avx2_plan: this processor has no AVX2 and FMA");
  threads = prim::resolve_threads(threads);
  if (m_ < 16) {
    if (n_ != m_) radix3_.forward(a, threads);
    for (std::size_t r = 0; r < n_ / m_; ++r) scalar_forward(a + r * m_, m_, p_, sfw_.data(), sfw_shoup_.data());
    return;
  }
  if (n_ == m_) return pow2_forward(a, threads, true, nonzero, doubles);
  radix3_vector(a, threads, false, nonzero);
  pow2_forward_thirds(a, threads, doubles);
}

void ntt_avx2_plan::inverse(u64* a, unsigned threads) const { inverse_as(a, threads, false); }

void ntt_avx2_plan::inverse_as(u64* a, unsigned threads, bool doubles, bool scaled, const u64* y) const {
  if (!ntt_avx2_supported()) throw std::logic_error("ntt_avx2_plan: this processor has no AVX2 and FMA");
  threads = prim::resolve_threads(threads);
  if (m_ < 16) {
    for (std::size_t r = 0; r < n_ / m_; ++r) scalar_inverse(a + r * m_, m_, p_, siw_.data(), siw_shoup_.data());
    if (n_ != m_) radix3_.inverse(a, threads);
    return;
  }
  if (n_ == m_) return pow2_inverse(a, threads, true, doubles, scaled, y);
  pow2_inverse_thirds(a, threads, doubles, y);
  radix3_from(a, threads, true, n_, nullptr, 0, 0, scaled);
}
}  // namespace bigmul::fft
