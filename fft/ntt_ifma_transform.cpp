// SPDX-License-Identifier: LGPL-3.0-or-later
// The IFMA engine's transforms (see fft/ntt_ifma.hpp): the radix-2 levels,
// fused in pairs (radix 4), recursive down to an in-cache leaf whose last
// three levels run in registers; forward decimation in frequency, inverse in
// time. Plan and tables: fft/ntt_ifma.cpp; radix-3 stage: ntt_ifma_radix3.cpp.
//
// The vector code lives in functions with a target attribute (not in a file
// compiled with -mavx512*), so nothing AVX-512 can leak into code that runs
// on processors without it; ntt52_supported() gates every call.
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <utility>

#include "fft/ntt_ifma.hpp"
#include "fft/ntt_ifma_arith.hpp"
#include "fft/ntt_level_table.hpp"
#include "fft/ntt_prefetch.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

using namespace ifma;

// 32 KiB (about L1): levels below run in cache. Against 2^11: the same leaves where log2 m
// is odd; where it is even the recursion by fours bottoms out at 2^12
// instead of 2^10, so more of the inverse (with the pointwise product fused
// into the leaves) runs in cache.
constexpr std::size_t leaf_size = std::size_t{1} << 12;
static_assert(leaf_size / 2 <= ntt52_level_table::cap, "a leaf's levels come from the full table");
constexpr std::size_t vector_grain = std::size_t{1} << 11;  // 8-lane butterflies per parallel task
// Blocks from quad_min points take four levels a pass (quad_run)
// instead of two; at least 16 leaves, so that a quad's sixteenths are
// transforms of their own (ntt52_set_quad_min). 2^23 points (64 MB) is
// past the last-level cache, where the pairs' passes wait on memory and the
// quads win; below it the pairs' second pass still runs in cache and the
// quads gain nothing (the crossover is measured by bench/fft/bench_ntt).
std::atomic<std::size_t> quad_min_points{std::size_t{1} << 23};

// Scalar 52-bit Shoup product and butterflies (transforms shorter than 16).
inline u64 shoup52_lazy(u64 x, u64 w, u64 wq, u64 p) {
  const u64 q = static_cast<u64>((static_cast<u128>(x) * wq) >> 52);
  return x * w - q * p;  // in [0, 2p) for x < 2^52
}
inline void scalar_dif(u64& x, u64& y, u64 w, u64 wq, u64 p) {
  const u64 s = x + y, d = x - y + 2 * p;
  x = s >= 2 * p ? s - 2 * p : s;
  y = shoup52_lazy(d, w, wq, p);
}
inline void scalar_dit_negated(u64& x, u64& y, u64 w, u64 wq, u64 p) {
  const u64 t = shoup52_lazy(y, w, wq, p);
  const u64 a = x - t + 2 * p, b = x + t;
  x = a >= 2 * p ? a - 2 * p : a;
  y = b >= 2 * p ? b - 2 * p : b;
}

#if defined(BIGMUL_HAVE_IFMA_CODE)

// Lane shuffles for the last three levels, on 16 values A = a[0..8), B = a[8..16):
// X holds the first element of each butterfly pair, Y the second; the "back"
// indices put X and Y back into A and B.
alignas(64) constexpr long long t4_x[8] = {0, 1, 2, 3, 8, 9, 10, 11};
alignas(64) constexpr long long t4_y[8] = {4, 5, 6, 7, 12, 13, 14, 15};
alignas(64) constexpr long long t2_x[8] = {0, 1, 4, 5, 8, 9, 12, 13};
alignas(64) constexpr long long t2_y[8] = {2, 3, 6, 7, 10, 11, 14, 15};
alignas(64) constexpr long long t2_back_a[8] = {0, 1, 8, 9, 2, 3, 10, 11};
alignas(64) constexpr long long t2_back_b[8] = {4, 5, 12, 13, 6, 7, 14, 15};
alignas(64) constexpr long long t1_x[8] = {0, 2, 4, 6, 8, 10, 12, 14};
alignas(64) constexpr long long t1_y[8] = {1, 3, 5, 7, 9, 11, 13, 15};
alignas(64) constexpr long long t1_back_a[8] = {0, 8, 1, 9, 2, 10, 3, 11};
alignas(64) constexpr long long t1_back_b[8] = {4, 12, 5, 13, 6, 14, 7, 15};
alignas(64) constexpr long long reverse8[8] = {7, 6, 5, 4, 3, 2, 1, 0};

// A split straight from the previous level's (X, Y): element l of
// split(back(X, Y)) as an index into (X, Y), so that one pair of permutes
// replaces "back, then split" (two pairs).
struct lanes8 {
  alignas(64) long long i[8];
};
constexpr lanes8 compose(const long long (&back_a)[8], const long long (&back_b)[8], const long long (&split)[8]) {
  lanes8 r{};
  for (int l = 0; l < 8; ++l) r.i[l] = split[l] < 8 ? back_a[split[l]] : back_b[split[l] - 8];
  return r;
}
constexpr lanes8 f2x = compose(t4_x, t4_y, t2_x), f2y = compose(t4_x, t4_y, t2_y);  // forward: after t = 4
constexpr lanes8 f1x = compose(t2_back_a, t2_back_b, t1_x), f1y = compose(t2_back_a, t2_back_b, t1_y);
constexpr lanes8 v2x = compose(t1_back_a, t1_back_b, t2_x), v2y = compose(t1_back_a, t1_back_b, t2_y);  // inverse
constexpr lanes8 v4x = compose(t2_back_a, t2_back_b, t4_x), v4y = compose(t2_back_a, t2_back_b, t4_y);
alignas(64) constexpr long long reverse4x2[8] = {3, 2, 1, 0, 7, 6, 5, 4};
alignas(64) constexpr long long reverse2x4[8] = {1, 0, 3, 2, 5, 4, 7, 6};

// Where a level's twiddles come from: its full table (levels <= cap) or the
// product of a coarse and a fine entry (bigger levels; fft/ntt_level_table.hpp).
// mul: x w(j + l) in lane l, j a multiple of 8, w the forward's w_2t^j or
// the inverse's -w_2t^-j (its own tables, in the same increasing order).
struct table_tw {
  const u64 *w, *wq;  // level t's entries
  BIGMUL_IFMA __m512i mul(__m512i x, std::size_t j, const vconst& c) const {
    return shoup_lazy(x, load(w + j), load(wq + j), c);
  }
};
// Two Shoup products in turn: x < 4p < 2^52, then the first's [0, 2p).
struct split_tw {
  const u64 *f, *fq;  // the fine factors, jl = 0 .. F
  const u64 *cw, *cq;  // the coarse factors: level t / F's entries
  unsigned shift;      // log2 F (F >= 64: 8 lanes share one jh)
  BIGMUL_IFMA __m512i mul(__m512i x, std::size_t j, const vconst& c) const {
    const std::size_t jh = j >> shift, jl = j - (jh << shift);
    x = shoup_lazy(x, load(f + jl), load(fq + jl), c);
    return shoup_lazy(x, _mm512_set1_epi64(ll(cw[jh])), _mm512_set1_epi64(ll(cq[jh])), c);
  }
};

template <class TW>
BIGMUL_IFMA inline void dif(__m512i& x, __m512i& y, const TW& L, std::size_t j, const vconst& c) {
  const __m512i s = _mm512_add_epi64(x, y);
  const __m512i d = _mm512_add_epi64(_mm512_sub_epi64(x, y), c.two_p);
  x = reduce_2p(s, c);
  y = L.mul(d, j, c);
}
template <class TW>
BIGMUL_IFMA inline void dit_negated(__m512i& x, __m512i& y, const TW& L, std::size_t j, const vconst& c) {
  const __m512i t = L.mul(y, j, c);
  const __m512i a = _mm512_add_epi64(_mm512_sub_epi64(x, t), c.two_p);
  const __m512i b = _mm512_add_epi64(x, t);
  x = reduce_2p(a, c);
  y = reduce_2p(b, c);
}

// One radix-2 level t on butterflies j0 .. j0 + len of a block (x[i], y[i])
// = block[j0 + i], block[j0 + t + i] (len a multiple of 8).
template <class TW>
BIGMUL_IFMA inline void level_forward_run(u64* x, u64* y, std::size_t j0, std::size_t len, const TW& L,
                                          const vconst& c) {
  for (std::size_t i = 0; i < len; i += 8) {
    __m512i X = load(x + i), Y = load(y + i);
    dif(X, Y, L, j0 + i, c);
    store(x + i, X);
    store(y + i, Y);
  }
}
// The inverse level on butterflies j0 .. j0 + len of a block (L: the
// inverse's twiddles, -w_2t^-j).
template <class TW>
BIGMUL_IFMA inline void level_inverse_run(u64* x, u64* y, std::size_t j0, std::size_t len, const TW& L,
                                          const vconst& c) {
  for (std::size_t i = 0; i < len; i += 8) {
    __m512i X = load(x + i), Y = load(y + i);
    dit_negated(X, Y, L, j0 + i, c);
    store(x + i, X);
    store(y + i, Y);
  }
}

struct small_twiddles {
  __m512i w4, wq4, w2, wq2;
};

BIGMUL_IFMA small_twiddles forward_small(const u64* w4, const u64* wq4, const u64* w2, const u64* wq2) {
  return {_mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(w4))),
          _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(wq4))),
          _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w2))),
          _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(wq2)))};
}
// Inverse: lane j of level t needs entry t - j: entries 1..t, reversed per group.
BIGMUL_IFMA small_twiddles inverse_small(const u64* w4, const u64* wq4, const u64* w2, const u64* wq2) {
  const small_twiddles s = forward_small(w4 + 1, wq4 + 1, w2 + 1, wq2 + 1);
  const __m512i r4 = idx(reverse4x2), r2 = idx(reverse2x4);
  return {_mm512_permutexvar_epi64(r4, s.w4), _mm512_permutexvar_epi64(r4, s.wq4),
          _mm512_permutexvar_epi64(r2, s.w2), _mm512_permutexvar_epi64(r2, s.wq2)};
}

// Levels t = 4, 2, 1 on 16 values at a time, in registers. The outputs
// stay split as the last level leaves them (the first elements of its pairs,
// natural positions 0, 2, .. 14, in a[0 .. 8), the second in a[8 .. 16)):
// the pointwise product does not care, first_levels_inverse reads them so,
// and each level's split comes straight from the previous one's: 6 permutes
// of 16 values instead of 12.
BIGMUL_IFMA void last_levels_forward(u64* a, std::size_t size, const small_twiddles& s, const vconst& c) {
  const __m512i i4x = idx(t4_x), i4y = idx(t4_y), i2x = idx(f2x.i), i2y = idx(f2y.i), i1x = idx(f1x.i),
                i1y = idx(f1y.i);
  for (std::size_t k = 0; k < size; k += 16) {
    const __m512i A = load(a + k), B = load(a + k + 8);
    __m512i X = _mm512_permutex2var_epi64(A, i4x, B), Y = _mm512_permutex2var_epi64(A, i4y, B);
    bf_dif(X, Y, s.w4, s.wq4, c);
    __m512i X2 = _mm512_permutex2var_epi64(X, i2x, Y), Y2 = _mm512_permutex2var_epi64(X, i2y, Y);
    bf_dif(X2, Y2, s.w2, s.wq2, c);
    X = _mm512_permutex2var_epi64(X2, i1x, Y2);
    Y = _mm512_permutex2var_epi64(X2, i1y, Y2);
    bf_plain(X, Y, c);
    store(a + k, X);
    store(a + k + 8, Y);
  }
}

BIGMUL_IFMA void first_levels_inverse(u64* a, std::size_t size, const small_twiddles& s, const vconst& c) {
  const __m512i i2x = idx(v2x.i), i2y = idx(v2y.i), i4x = idx(v4x.i), i4y = idx(v4y.i), b4x = idx(t4_x),
                b4y = idx(t4_y);
  for (std::size_t k = 0; k < size; k += 16) {
    __m512i X = load(a + k), Y = load(a + k + 8);  // as last_levels_forward leaves them
    bf_plain(X, Y, c);
    __m512i X2 = _mm512_permutex2var_epi64(X, i2x, Y), Y2 = _mm512_permutex2var_epi64(X, i2y, Y);
    bf_dit_negated(X2, Y2, s.w2, s.wq2, c);
    X = _mm512_permutex2var_epi64(X2, i4x, Y2);
    Y = _mm512_permutex2var_epi64(X2, i4y, Y2);
    bf_dit_negated(X, Y, s.w4, s.wq4, c);
    store(a + k, _mm512_permutex2var_epi64(X, b4x, Y));
    store(a + k + 8, _mm512_permutex2var_epi64(X, b4y, Y));
  }
}
// Level tables of a plan: levels <= cap whole (level t's t + 1 entries at
// (t - 1) + log2 t), bigger ones as coarse x fine (fft/ntt_level_table.hpp).
struct level_tables {
  const u64 *w, *wq, *fw, *fwq;     // forward: w_2t^j
  const u64 *iw, *iwq, *fiw, *fiwq;  // inverse: -w_2t^-j
  using T52 = ntt52_level_table;
  const u64* w_at(std::size_t t) const { return w + T52::offset(t); }
  const u64* wq_at(std::size_t t) const { return wq + T52::offset(t); }
  table_tw table(std::size_t t) const { return {w_at(t), wq_at(t)}; }
  split_tw split(std::size_t t) const {
    const std::size_t F = T52::fine(t), at = T52::fine_offset(t);
    return {fw + at, fwq + at, w_at(t / F), wq_at(t / F), ceil_log2(F)};
  }
  table_tw table_inv(std::size_t t) const { return {iw + T52::offset(t), iwq + T52::offset(t)}; }
  split_tw split_inv(std::size_t t) const {
    const std::size_t F = T52::fine(t), at = T52::fine_offset(t), c = T52::offset(t / F);
    return {fiw + at, fiwq + at, iw + c, iwq + c, ceil_log2(F)};
  }
  static bool big(std::size_t t) { return t > T52::cap; }
  // The pairs' prefetch distance in u64 (ntt_prefetch_ahead; the quads' a
  // quarter of it); 0: the loops run without prefetch instructions.
  std::size_t ahead = 0;
};
BIGMUL_IFMA inline void prefetch_at(const u64* x) { _mm_prefetch(reinterpret_cast<const char*>(x), _MM_HINT_T0); }

// The first pair of levels of a u64 operand whose a[nonzero ..) is zero
// (block 0, t = size / 2): x_q at j is zero from j = nonzero - q h on, so
// the first level runs in spans with 0 .. 3 zero quarters (span ends rounded
// up to whole vectors). A zero y in (x, y) leaves x (< 2p) as it is and
// makes y = x w, a Shoup product of x < 2p < 2^52: no sums, no reductions.
// Z = 0 is the whole pair: levels t and t/2 fused (radix 4) on one block of
// 2t values, x0..x3 = a[j], a[j + t/2], a[j + t], a[j + 3t/2] for j < t/2:
// half the loads and stores of two radix-2 passes, the same multiplies.
// Prefetch: whether ahead > 0 (the loop without the prefetches otherwise).
template <int Z, bool Prefetch, class TT, class TH>
BIGMUL_IFMA inline void pair_first_loop(u64* a, std::size_t t, std::size_t j0, std::size_t j1, const TT& Lt,
                                        const TH& Lh, const vconst& c, std::size_t ahead) {
  const std::size_t h = t / 2;
  for (std::size_t j = j0; j < j1; j += 8) {
    if constexpr (Prefetch) {
      const u64* f = a + j + ahead;
      prefetch_at(f), prefetch_at(f + h), prefetch_at(f + t), prefetch_at(f + t + h);
    }
    __m512i x0 = load(a + j), x1, x2, x3;
    if constexpr (Z == 0) {
      x1 = load(a + j + h);
      x2 = load(a + j + t);
      x3 = load(a + j + t + h);
      dif(x0, x2, Lt, j, c);
      dif(x1, x3, Lt, j + h, c);
    } else if constexpr (Z == 1) {
      x1 = load(a + j + h);
      x2 = load(a + j + t);
      dif(x0, x2, Lt, j, c);
      x3 = Lt.mul(x1, j + h, c);
    } else if constexpr (Z == 2) {
      x1 = load(a + j + h);
      x2 = Lt.mul(x0, j, c);
      x3 = Lt.mul(x1, j + h, c);
    }
    if constexpr (Z == 3) {  // only x0: x2 = x0 w_t, then x1 = x0 w_h, x3 = x2 w_h
      x2 = Lt.mul(x0, j, c);
      x1 = Lh.mul(x0, j, c);
      x3 = Lh.mul(x2, j, c);
    } else {
      dif(x0, x1, Lh, j, c);
      dif(x2, x3, Lh, j, c);
    }
    store(a + j, x0);
    store(a + j + h, x1);
    store(a + j + t, x2);
    store(a + j + t + h, x3);
  }
}
template <int Z, class TT, class TH>
BIGMUL_IFMA inline void pair_first_run(u64* a, std::size_t t, std::size_t j0, std::size_t j1, const TT& Lt,
                                       const TH& Lh, const vconst& c, std::size_t ahead) {
  if (ahead != 0) return pair_first_loop<Z, true>(a, t, j0, j1, Lt, Lh, c, ahead);
  pair_first_loop<Z, false>(a, t, j0, j1, Lt, Lh, c, 0);
}
template <class TT, class TH>
BIGMUL_IFMA void pair_forward_partial(u64* a, std::size_t t, const TT& Lt, const TH& Lh, const vconst& c,
                                      std::size_t nonzero, std::size_t ahead) {
  const std::size_t h = t / 2;
  const auto end = [&](std::size_t q) {  // the first j where x_q is zero
    const std::size_t at = nonzero > q * h ? nonzero - q * h : 0;
    return std::min(h, (at + 7) / 8 * 8);
  };
  const std::size_t e3 = end(3), e2 = end(2), e1 = end(1);
  pair_first_run<0>(a, t, 0, e3, Lt, Lh, c, ahead);
  pair_first_run<1>(a, t, e3, e2, Lt, Lh, c, ahead);
  pair_first_run<2>(a, t, e2, e1, Lt, Lh, c, ahead);
  pair_first_run<3>(a, t, e1, h, Lt, Lh, c, ahead);
}
// The inverse of a whole pair: level t/2 then level t, with the inverse's
// twiddles (see level_inverse_run).
template <bool Prefetch, class TT, class TH>
BIGMUL_IFMA inline void pair_inverse_loop(u64* a, std::size_t t, const TT& Lt, const TH& Lh, const vconst& c,
                                          std::size_t ahead, std::size_t j0, std::size_t j1) {
  const std::size_t h = t / 2;
  for (std::size_t j = j0; j < std::min(j1, h); j += 8) {
    if constexpr (Prefetch) {
      const u64* f = a + j + ahead;
      prefetch_at(f), prefetch_at(f + h), prefetch_at(f + t), prefetch_at(f + t + h);
    }
    __m512i x0 = load(a + j), x1 = load(a + j + h), x2 = load(a + j + t), x3 = load(a + j + t + h);
    dit_negated(x0, x1, Lh, j, c);
    dit_negated(x2, x3, Lh, j, c);
    dit_negated(x0, x2, Lt, j, c);
    dit_negated(x1, x3, Lt, j + h, c);
    store(a + j, x0);
    store(a + j + h, x1);
    store(a + j + t, x2);
    store(a + j + t + h, x3);
  }
}
template <class TT, class TH>
BIGMUL_IFMA inline void pair_inverse(u64* a, std::size_t t, const TT& Lt, const TH& Lh, const vconst& c,
                                     std::size_t ahead, std::size_t j0 = 0, std::size_t j1 = ~std::size_t{0}) {
  if (ahead != 0) return pair_inverse_loop<true>(a, t, Lt, Lh, c, ahead, j0, j1);
  pair_inverse_loop<false>(a, t, Lt, Lh, c, 0, j0, j1);
}

// Four levels (t, t/2, t/4, t/8: radix 16) on one block of 2t values in
// one pass, the 16 vectors x_k = a[j + k t/8] in registers: the same
// butterflies and twiddles as two pairs, half the passes over memory. For
// blocks past the last-level cache, where the pairs' passes wait on DRAM
// (a butterfly there costs about twice one in cache).
// One of the four levels on the 16 vectors (S = 8, 4, 2, 1 for levels t,
// t/2, t/4, t/8): the pairs (x_lo, x_lo+S) in each group of 2S, butterfly k
// of a group at twiddle index j + (k mod S) t/8.
template <int S, bool Inverse, class TW>
BIGMUL_IFMA inline void radix16_level(__m512i (&x)[16], const TW& L, std::size_t j, std::size_t q, const vconst& c) {
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    const int lo = k / S * 2 * S + k % S;
    if constexpr (Inverse)
      dit_negated(x[lo], x[lo + S], L, j + (k % S) * q, c);
    else
      dif(x[lo], x[lo + S], L, j + (k % S) * q, c);
  }
}
// Forward: levels t .. t/8 (decimation in frequency); inverse: t/8 .. t
// with the inverse's twiddles. L1 .. L8: levels t, t/2, t/4, t/8.
template <bool Inverse, class T1, class T2, class T4, class T8>
BIGMUL_IFMA inline void quad_run(u64* a, std::size_t t, std::size_t j0, std::size_t j1, const T1& L1, const T2& L2,
                                 const T4& L4, const T8& L8, const vconst& c, std::size_t ahead) {
  const std::size_t q = t / 8;
  for (std::size_t j = j0; j < j1; j += 8) {
    if (ahead != 0)  // 16 rows: more than the hardware prefetcher follows
#pragma GCC unroll 16
      for (int k = 0; k < 16; ++k) prefetch_at(a + j + k * q + ahead);
    __m512i x[16];
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k) x[k] = load(a + j + k * q);
    if constexpr (Inverse) {
      radix16_level<1, true>(x, L8, j, q, c);
      radix16_level<2, true>(x, L4, j, q, c);
      radix16_level<4, true>(x, L2, j, q, c);
      radix16_level<8, true>(x, L1, j, q, c);
    } else {
      radix16_level<8, false>(x, L1, j, q, c);
      radix16_level<4, false>(x, L2, j, q, c);
      radix16_level<2, false>(x, L4, j, q, c);
      radix16_level<1, false>(x, L8, j, q, c);
    }
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k) store(a + j + k * q, x[k]);
  }
}
// Butterfly groups j0 .. j1 (< t/8) of the four levels from t down on one
// block. Quads run on blocks of 16 leaves or more (2t >= 2^16), so levels
// t, t/2 and t/4 are always past the full table's cap (coarse x fine).
static_assert(16 * leaf_size / 8 > ntt52_level_table::cap, "a quad's top three levels are big");
BIGMUL_IFMA void quad_forward_range_p(u64* a, std::size_t t, std::size_t j0, std::size_t j1, const level_tables& L,
                                      u64 p) {
  const vconst c = make_vconst(p);
  if (!L.big(t / 8))
    return quad_run<false>(a, t, j0, j1, L.split(t), L.split(t / 2), L.split(t / 4), L.table(t / 8), c, L.ahead / 4);
  quad_run<false>(a, t, j0, j1, L.split(t), L.split(t / 2), L.split(t / 4), L.split(t / 8), c, L.ahead / 4);
}
BIGMUL_IFMA void quad_inverse_range_p(u64* a, std::size_t t, std::size_t j0, std::size_t j1, const level_tables& L,
                                      u64 p) {
  const vconst c = make_vconst(p);
  if (!L.big(t / 8))
    return quad_run<true>(a, t, j0, j1, L.split_inv(t), L.split_inv(t / 2), L.split_inv(t / 4), L.table_inv(t / 8),
                          c, L.ahead / 4);
  quad_run<true>(a, t, j0, j1, L.split_inv(t), L.split_inv(t / 2), L.split_inv(t / 4), L.split_inv(t / 8), c,
                 L.ahead / 4);
}

// A pair of levels (t, t/2) with each level's twiddle source.
BIGMUL_IFMA void level_pair_forward_partial(u64* a, std::size_t t, const level_tables& L, const vconst& c,
                                            std::size_t nonzero = ~std::size_t{0}) {
  const std::size_t h = t / 2;
  if (nonzero >= 2 * t) {
    if (!L.big(t)) return pair_first_run<0>(a, t, 0, h, L.table(t), L.table(h), c, L.ahead);
    if (!L.big(h)) return pair_first_run<0>(a, t, 0, h, L.split(t), L.table(h), c, L.ahead);
    return pair_first_run<0>(a, t, 0, h, L.split(t), L.split(h), c, L.ahead);
  }
  if (!L.big(t)) return pair_forward_partial(a, t, L.table(t), L.table(h), c, nonzero, L.ahead);
  if (!L.big(h)) return pair_forward_partial(a, t, L.split(t), L.table(h), c, nonzero, L.ahead);
  pair_forward_partial(a, t, L.split(t), L.split(h), c, nonzero, L.ahead);
}
BIGMUL_IFMA inline void level_pair_forward(u64* a, std::size_t t, const level_tables& L, const vconst& c) {
  level_pair_forward_partial(a, t, L, c);
}
BIGMUL_IFMA inline void level_pair_inverse(u64* a, std::size_t t, const level_tables& L, const vconst& c) {
  const std::size_t h = t / 2;
  if (!L.big(t)) return pair_inverse(a, t, L.table_inv(t), L.table_inv(h), c, L.ahead);
  if (!L.big(h)) return pair_inverse(a, t, L.split_inv(t), L.table_inv(h), c, L.ahead);
  pair_inverse(a, t, L.split_inv(t), L.split_inv(h), c, L.ahead);
}

// nonzero < size (block 0 of a zero-padded operand): a[nonzero ..) is zero.
BIGMUL_IFMA void leaf_forward(u64* a, std::size_t size, const level_tables& L, u64 p,
                              std::size_t nonzero = ~std::size_t{0}) {
  const vconst c = make_vconst(p);
  std::size_t t = size / 2;
  if (nonzero < size && t >= 16) {
    level_pair_forward_partial(a, t, L, c, nonzero);
    t /= 4;
  }
  for (; t >= 16; t /= 4) {  // pairs of levels while both have >= 8 butterflies a block
    const table_tw Lt = L.table(t), Lh = L.table(t / 2);  // leaf levels are below the cap
    const std::size_t ahead = 2 * t == size ? L.ahead : 0;  // the leaf's first pair: the next leaf ahead
    for (std::size_t k = 0; k < size; k += 2 * t) pair_first_run<0>(a + k, t, 0, t / 2, Lt, Lh, c, ahead);
  }
  if (t == 8)
    for (std::size_t k = 0; k < size; k += 16) level_forward_run(a + k, a + k + 8, 0, 8, L.table(8), c);
  last_levels_forward(a, size, forward_small(L.w_at(4), L.wq_at(4), L.w_at(2), L.wq_at(2)), c);
}
// a = a y (2^52 / n) / 2^52 = a y / n: the pointwise product, on the block
// the leaf is about to transform (y: the other operand's transform).
BIGMUL_IFMA void pointwise_block(u64* a, const u64* y, std::size_t size, u64 scale, u64 scale_q, const vconst& c) {
  const __m512i s = _mm512_set1_epi64(ll(scale)), sq = _mm512_set1_epi64(ll(scale_q));
  for (std::size_t i = 0; i < size; i += 8) store(a + i, shoup_lazy(mont52(load(a + i), load(y + i), c), s, sq, c));
}

BIGMUL_IFMA void leaf_inverse(u64* a, std::size_t size, const level_tables& L, u64 p, const u64* y = nullptr,
                              u64 scale = 0, u64 scale_q = 0) {
  const vconst c = make_vconst(p);
  if (y) pointwise_block(a, y, size, scale, scale_q, c);
  first_levels_inverse(a, size, inverse_small(L.w_at(4), L.wq_at(4), L.w_at(2), L.wq_at(2)), c);
  // The forward's pairs, in reverse: a lone level t = 8 when log2(size) - 3 is odd.
  std::size_t t = 8;
  if ((ceil_log2(size) - 3) % 2 == 1) {
    for (std::size_t k = 0; k < size; k += 16)
      level_inverse_run(a + k, a + k + 8, 0, 8, L.table_inv(8), c);
    t = 32;
  } else {
    t = 16;
  }
  for (; t < size; t *= 4) {
    const table_tw Lt = L.table_inv(t), Lh = L.table_inv(t / 2);
    const std::size_t ahead = 2 * t == size ? L.ahead : 0;  // the leaf's last pair
    for (std::size_t k = 0; k < size; k += 2 * t) pair_inverse(a + k, t, Lt, Lh, c, ahead);
  }
}

// Entry points for the plan's (non-vector) members: the constants built once a call.
BIGMUL_IFMA void level_forward_run_p(u64* x, u64* y, std::size_t t, std::size_t j0, std::size_t len,
                                     const level_tables& L, u64 p) {
  const vconst c = make_vconst(p);
  if (L.big(t))
    level_forward_run(x, y, j0, len, L.split(t), c);
  else
    level_forward_run(x, y, j0, len, L.table(t), c);
}
BIGMUL_IFMA void level_inverse_run_p(u64* x, u64* y, std::size_t t, std::size_t j0, std::size_t len,
                                     const level_tables& L, u64 p) {
  const vconst c = make_vconst(p);
  if (L.big(t))
    level_inverse_run(x, y, j0, len, L.split_inv(t), c);
  else
    level_inverse_run(x, y, j0, len, L.table_inv(t), c);
}
// Butterfly groups j0 .. j1 of a pair of levels (t, t/2) on one block: the
// threaded transforms' whole-array pairs, split over the threads by j.
BIGMUL_IFMA void pair_forward_range_p(u64* a, std::size_t t, std::size_t j0, std::size_t j1, const level_tables& L,
                                      u64 p) {
  const vconst c = make_vconst(p);
  const std::size_t h = t / 2;
  if (!L.big(t)) return pair_first_run<0>(a, t, j0, j1, L.table(t), L.table(h), c, L.ahead);
  if (!L.big(h)) return pair_first_run<0>(a, t, j0, j1, L.split(t), L.table(h), c, L.ahead);
  pair_first_run<0>(a, t, j0, j1, L.split(t), L.split(h), c, L.ahead);
}
BIGMUL_IFMA void pair_inverse_range_p(u64* a, std::size_t t, std::size_t j0, std::size_t j1, const level_tables& L,
                                      u64 p) {
  const vconst c = make_vconst(p);
  const std::size_t h = t / 2;
  if (!L.big(t)) return pair_inverse(a, t, L.table_inv(t), L.table_inv(h), c, L.ahead, j0, j1);
  if (!L.big(h)) return pair_inverse(a, t, L.split_inv(t), L.table_inv(h), c, L.ahead, j0, j1);
  pair_inverse(a, t, L.split_inv(t), L.split_inv(h), c, L.ahead, j0, j1);
}
BIGMUL_IFMA void level_pair_forward_p(u64* a, std::size_t t, const level_tables& L, u64 p) {
  level_pair_forward(a, t, L, make_vconst(p));
}
BIGMUL_IFMA void level_pair_inverse_p(u64* a, std::size_t t, const level_tables& L, u64 p) {
  level_pair_inverse(a, t, L, make_vconst(p));
}
BIGMUL_IFMA void level_pair_forward_partial_p(u64* a, std::size_t t, const level_tables& L, u64 p,
                                              std::size_t nonzero) {
  level_pair_forward_partial(a, t, L, make_vconst(p), nonzero);
}

level_tables tables(const ntt52_level_table& T, std::size_t points) {
  return {T.w.data(),  T.wq.data(),  T.fw.data(),   T.fwq.data(),          T.iw.data(),
          T.iwq.data(), T.fiw.data(), T.fiwq.data(), ntt_prefetch_ahead(points)};
}

#endif  // BIGMUL_HAVE_IFMA_CODE

}  // namespace

std::size_t ntt52_quad_min() { return quad_min_points.load(std::memory_order_relaxed); }
std::size_t ntt52_set_quad_min(std::size_t points) {
  return quad_min_points.exchange(std::max(points, 16 * leaf_size), std::memory_order_relaxed);
}

#if defined(BIGMUL_HAVE_IFMA_CODE)

void ntt52_plan::rec_forward(u64* a, std::size_t size) const {
  if (size <= leaf_size) return leaf_forward(a, size, tables(*levels_, m_), p_);
  if (size >= quad_min_points.load(std::memory_order_relaxed)) {  // four levels, then sixteen sixteenths
    quad_forward_range_p(a, size / 2, 0, size / 16, tables(*levels_, m_), p_);
    for (int q = 0; q < 16; ++q) rec_forward(a + q * (size / 16), size / 16);
    return;
  }
  level_pair_forward_p(a, size / 2, tables(*levels_, m_), p_);  // two levels, then four quarters
  for (int q = 0; q < 4; ++q) rec_forward(a + q * (size / 4), size / 4);
}

void ntt52_plan::rec_inverse(u64* a, std::size_t size, const u64* y) const {
  if (size <= leaf_size) return leaf_inverse(a, size, tables(*levels_, m_), p_, y, scale52_, scale52_q_);
  if (size >= quad_min_points.load(std::memory_order_relaxed)) {
    for (int q = 0; q < 16; ++q) rec_inverse(a + q * (size / 16), size / 16, y ? y + q * (size / 16) : nullptr);
    quad_inverse_range_p(a, size / 2, 0, size / 16, tables(*levels_, m_), p_);
    return;
  }
  for (int q = 0; q < 4; ++q) rec_inverse(a + q * (size / 4), size / 4, y ? y + q * (size / 4) : nullptr);
  level_pair_inverse_p(a, size / 2, tables(*levels_, m_), p_);
}

#else

void ntt52_plan::rec_forward(u64*, std::size_t) const { throw std::logic_error("ntt52: no IFMA code in this build"); }
void ntt52_plan::rec_inverse(u64*, std::size_t, const u64*) const {
  throw std::logic_error("ntt52: no IFMA code in this build");
}

#endif

namespace {

// Whole-array level t (a multiple of 8) split over the threads in 8-lane units.

// A pair of levels (t, t/2) over the whole array of m values, its m/4
// butterfly groups (blocks of 2t, j < t/2) split over the threads in runs of
// 8 lanes: pair(block start, j0, j1).
template <class Pair>
void parallel_pairs(std::size_t m, std::size_t t, unsigned threads, Pair&& pair) {
  const std::size_t h = t / 2;
  ntt_parallel_level(m / 2, h, 8, vector_grain, threads, [&](std::size_t at, std::size_t j0, std::size_t len) {
    pair(at / t * 2 * t, j0, j0 + len);  // ntt_parallel_level's at is k 2h + j0 = k t + j0 for group k
  });
}

// Four levels (t .. t/8) over the whole array, its m/16 butterfly groups
// (blocks of 2t, j < t/8) split over the threads the same way.
template <class Quad>
void parallel_quads(std::size_t m, std::size_t t, unsigned threads, Quad&& quad) {
  const std::size_t e = t / 8;
  ntt_parallel_level(m / 8, e, 8, vector_grain, threads, [&](std::size_t at, std::size_t j0, std::size_t len) {
    quad(at / (2 * e) * 2 * t, j0, j0 + len);  // group k of e j-values: block k of 2t
  });
}

// Threaded transforms take a quad over the whole array from half the
// recursion's threshold: there the pairs' second pass is a whole-array
// pass too, not four in cache (measured faster at 3 * 2^22 points on two
// threads, the 10^8-digit product's size).
std::size_t threaded_quad_min() { return std::max(ntt52_quad_min() / 2, 16 * leaf_size); }

// The size of the threaded transforms' tasks: ntt_task_size's, or a quad's
// sixteenths where the whole array takes one (its levels then split over
// the threads like a pair's).
std::size_t task_size(std::size_t m, unsigned threads) {
  const std::size_t size = ntt_task_size(m, leaf_size, threads);
  return m >= threaded_quad_min() ? std::min(size, m / 16) : size;
}

// Transforms shorter than 16: scalar, level by level, same tables.
template <class LevelW>
void scalar_forward(u64* a, std::size_t m, u64 p, LevelW&& level) {
  for (std::size_t t = m / 2; t >= 1; t /= 2) {
    const auto [w, wq] = level(t);
    for (std::size_t k = 0; k < m; k += 2 * t)
      for (std::size_t j = 0; j < t; ++j) scalar_dif(a[k + j], a[k + j + t], w[j], wq[j], p);
  }
}
template <class LevelW>
void scalar_inverse(u64* a, std::size_t m, u64 p, LevelW&& level) {
  for (std::size_t t = 1; t < m; t *= 2) {
    const auto [w, wq] = level(t);
    for (std::size_t k = 0; k < m; k += 2 * t)
      for (std::size_t j = 0; j < t; ++j) scalar_dit_negated(a[k + j], a[k + j + t], w[t - j], wq[t - j], p);
  }
}

}  // namespace

void ntt52_plan::pow2_forward(u64* a, unsigned threads) const {
  if (m_ < 16) {
    scalar_forward(a, m_, p_, [&](std::size_t t) { return std::make_pair(level_w(t), level_wq(t)); });
    return;
  }
  if (threads <= 1 || m_ <= leaf_size) return rec_forward(a, m_);
  const std::size_t size = task_size(m_, threads);
  // Whole-array levels down to the task size, four at a time from
  // threaded_quad_min, else in pairs where two are left (one pass over memory for
  // four or two levels, as rec_forward), then the tasks.
  for (std::size_t s = m_; s > size;) {
    const std::size_t t = s / 2;
#if defined(BIGMUL_HAVE_IFMA_CODE)
    const level_tables L = tables(*levels_, m_);
    if (s >= threaded_quad_min() && s / 16 >= size) {
      parallel_quads(m_, t, threads, [&](std::size_t block, std::size_t j0, std::size_t j1) {
        quad_forward_range_p(a + block, t, j0, j1, L, p_);
      });
      s /= 16;
      continue;
    }
    if (s / 4 >= size) {
      parallel_pairs(m_, t, threads, [&](std::size_t block, std::size_t j0, std::size_t j1) {
        pair_forward_range_p(a + block, t, j0, j1, L, p_);
      });
      s /= 4;
      continue;
    }
    ntt_parallel_level(m_, t, 8, vector_grain, threads, [&](std::size_t at, std::size_t j, std::size_t len) {
      level_forward_run_p(a + at, a + at + t, t, j, len, L, p_);
    });
#endif
    s /= 2;
  }
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_forward(a + b * size, size); });
}

void ntt52_plan::pow2_inverse(u64* a, unsigned threads, const u64* y) const {
  if (m_ < 16) {  // (pointwise_inverse never passes y here)
    scalar_inverse(a, m_, p_, [&](std::size_t t) { return std::make_pair(level_w(t), level_wq(t)); });
    return;
  }
  if (threads <= 1 || m_ <= leaf_size) return rec_inverse(a, m_, y);
  std::size_t size = task_size(m_, threads);
  prim::parallel_for(m_ / size, threads,
                     [&](std::size_t b) { rec_inverse(a + b * size, size, y ? y + b * size : nullptr); });
  while (size < m_) {
    const std::size_t t = size;
#if defined(BIGMUL_HAVE_IFMA_CODE)
    const level_tables L = tables(*levels_, m_);
    if (16 * t <= m_ && 16 * t >= threaded_quad_min()) {  // levels t .. 8t in one pass
      parallel_quads(m_, 8 * t, threads, [&](std::size_t block, std::size_t j0, std::size_t j1) {
        quad_inverse_range_p(a + block, 8 * t, j0, j1, L, p_);
      });
      size *= 16;
      continue;
    }
    if (4 * t <= m_) {  // levels t and 2t in one pass
      parallel_pairs(m_, 2 * t, threads, [&](std::size_t block, std::size_t j0, std::size_t j1) {
        pair_inverse_range_p(a + block, 2 * t, j0, j1, L, p_);
      });
      size *= 4;
      continue;
    }
    ntt_parallel_level(m_, t, 8, vector_grain, threads, [&](std::size_t at, std::size_t j, std::size_t len) {
      level_inverse_run_p(a + at, a + at + t, t, j, len, L, p_);
    });
#endif
    size *= 2;
  }
}

void ntt52_plan::forward(u64* a, unsigned threads) const { forward(a, threads, n_); }

void ntt52_plan::forward(u64* a, unsigned threads, std::size_t nonzero) const {
  if (!ntt52_supported()) throw std::logic_error("ntt52_plan: this processor has no AVX-512 IFMA");
  threads = prim::resolve_threads(threads);
  if (n_ == m_) {
#if defined(BIGMUL_HAVE_IFMA_CODE)
    // One thread, m >= 32: the first pair of levels skips the zero part
    // (the threaded path starts with whole-array levels instead).
    if (nonzero < m_ && m_ >= 32 && (threads <= 1 || m_ <= leaf_size)) {
      const level_tables L = tables(*levels_, m_);
      if (m_ <= leaf_size) return leaf_forward(a, m_, L, p_, nonzero);
      level_pair_forward_partial_p(a, m_ / 2, L, p_, nonzero);
      for (int q = 0; q < 4; ++q) rec_forward(a + q * (m_ / 4), m_ / 4);
      return;
    }
#endif
    return pow2_forward(a, threads);
  }
  if (m_ >= 8)
    radix3_vector(a, threads, false, nonzero);
  else
    radix3_.forward(a, threads);
  for (int r = 0; r < 3; ++r) pow2_forward(a + r * m_, threads);
}

// What forward(a, threads, nonzero) reads: the first pair of levels on one
// thread (pair_forward_partial) reads x0 = a[j], j < m/4, and the other
// quarters up to nonzero rounded to a vector; the radix-3 step reads all of
// x0 = a[0 .. m) and x1, x2 in 64-j blocks that start below nonzero.
// Everything else reads the whole array.
std::size_t ntt52_plan::forward_extent(std::size_t nonzero, unsigned threads) const {
  if (nonzero >= n_ || !ntt52_supported()) return n_;
#if defined(BIGMUL_HAVE_IFMA_CODE)
  threads = prim::resolve_threads(threads);
  if (n_ == m_) {
    if (m_ >= 32 && (threads <= 1 || m_ <= leaf_size)) return std::max(m_ / 4, (nonzero + 7) / 8 * 8);
    return n_;
  }
  if (m_ >= 8) return std::min(n_, std::max(m_, nonzero + radix3_tables::block));
#endif
  return n_;
}

void ntt52_plan::pointwise_inverse(u64* x, const u64* y, unsigned threads) const {
  // The vector leaves fuse the product where every block is whole vectors.
  if (m_ < 16 || !ntt52_supported()) {
    pointwise(x, y, threads);
    return inverse(x, threads);
  }
  threads = prim::resolve_threads(threads);
  for (std::size_t r = 0; r < n_ / m_; ++r) pow2_inverse(x + r * m_, threads, y + r * m_);
  if (n_ == m_) return;
  if (m_ >= 8)
    radix3_vector(x, threads, true);
  else
    radix3_.inverse(x, threads);
}

void ntt52_plan::inverse(u64* a, unsigned threads) const {
  if (!ntt52_supported()) throw std::logic_error("ntt52_plan: this processor has no AVX-512 IFMA");
  threads = prim::resolve_threads(threads);
  if (n_ == m_) return pow2_inverse(a, threads);
  for (int r = 0; r < 3; ++r) pow2_inverse(a + r * m_, threads);
  if (m_ >= 8)
    radix3_vector(a, threads, true);
  else
    radix3_.inverse(a, threads);
}

}  // namespace bigmul::fft
