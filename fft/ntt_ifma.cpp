// NTT on AVX-512 IFMA: see fft/ntt_ifma.hpp.
//
// The vector code lives in functions with a target attribute (not in a file
// compiled with -mavx512*), so nothing AVX-512 can leak into code that runs
// on processors without it; ntt52_supported() gates every call.
#include "fft/ntt_ifma.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "fft/ntt_crt.hpp"
#include "prim/cpu_features.hpp"
#include "prim/ifma_target.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

constexpr std::size_t leaf_size = std::size_t{1} << 11;  // 16 KiB: levels below run from L1
constexpr std::size_t vector_grain = std::size_t{1} << 11;  // 8-lane butterflies per parallel task
constexpr u64 mask52 = (u64{1} << 52) - 1;

// Smallest l with 2^l >= t (exact log2 for the powers of two it is used on).
unsigned ceil_log2(std::size_t t) {
  unsigned l = 0;
  while ((std::size_t{1} << l) < t) ++l;
  return l;
}


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

struct vconst {
  __m512i two_p, p_neg52, mask, p, p_neg_inv52, four_p, one, rev;
};

inline long long ll(u64 x) { return static_cast<long long>(x); }

BIGMUL_IFMA inline vconst make_vconst(u64 p) {
  return {_mm512_set1_epi64(ll(2 * p)),          _mm512_set1_epi64(ll(((u64{1} << 52) - p) & mask52)),
          _mm512_set1_epi64(ll(mask52)),         _mm512_set1_epi64(ll(p)),
          _mm512_set1_epi64(ll(neg_inverse_mod_2_64(p) & mask52)), _mm512_set1_epi64(ll(4 * p)),
          _mm512_set1_epi64(1),
          _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7)};  // lane i takes lane 7 - i
}

// x w mod p in [0, 2p) for x < 2^52: q = hi52(x wq), r = lo52(x w) - lo52(q p) mod 2^52.
BIGMUL_IFMA inline __m512i shoup_lazy(__m512i x, __m512i w, __m512i wq, const vconst& c) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i q = _mm512_madd52hi_epu64(zero, x, wq);
  const __m512i lo = _mm512_madd52lo_epu64(zero, x, w);
  return _mm512_and_si512(_mm512_madd52lo_epu64(lo, q, c.p_neg52), c.mask);
}
// [0, 4p) -> [0, 2p): the wrapped difference is huge when s < 2p, so min picks s.
BIGMUL_IFMA inline __m512i reduce_2p(__m512i s, const vconst& c) {
  return _mm512_min_epu64(s, _mm512_sub_epi64(s, c.two_p));
}
// [0, 6p) -> [0, 2p).
BIGMUL_IFMA inline __m512i reduce_6p(__m512i s, const vconst& c) {
  s = _mm512_min_epu64(s, _mm512_sub_epi64(s, c.four_p));
  return reduce_2p(s, c);
}
// x y / 2^52 mod p in [0, 2p) for x, y < 2p (Montgomery, R = 2^52): the low
// half plus lo52(m p) is 0 or exactly 2^52, so the carry is (lo != 0).
BIGMUL_IFMA inline __m512i mont52(__m512i x, __m512i y, const vconst& c) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i lo = _mm512_madd52lo_epu64(zero, x, y);
  const __m512i hi = _mm512_madd52hi_epu64(zero, x, y);
  const __m512i m = _mm512_madd52lo_epu64(zero, lo, c.p_neg_inv52);
  const __m512i r = _mm512_madd52hi_epu64(hi, m, c.p);
  return _mm512_mask_add_epi64(r, _mm512_test_epi64_mask(lo, lo), r, c.one);
}

BIGMUL_IFMA inline void bf_dif(__m512i& x, __m512i& y, __m512i w, __m512i wq, const vconst& c) {
  const __m512i s = _mm512_add_epi64(x, y);
  const __m512i d = _mm512_add_epi64(_mm512_sub_epi64(x, y), c.two_p);
  x = reduce_2p(s, c);
  y = shoup_lazy(d, w, wq, c);
}
BIGMUL_IFMA inline void bf_dit_negated(__m512i& x, __m512i& y, __m512i w, __m512i wq, const vconst& c) {
  const __m512i t = shoup_lazy(y, w, wq, c);
  const __m512i a = _mm512_add_epi64(_mm512_sub_epi64(x, t), c.two_p);
  const __m512i b = _mm512_add_epi64(x, t);
  x = reduce_2p(a, c);
  y = reduce_2p(b, c);
}
// Twiddle 1: (x + y, x - y).
BIGMUL_IFMA inline void bf_plain(__m512i& x, __m512i& y, const vconst& c) {
  const __m512i s = _mm512_add_epi64(x, y);
  const __m512i d = _mm512_add_epi64(_mm512_sub_epi64(x, y), c.two_p);
  x = reduce_2p(s, c);
  y = reduce_2p(d, c);
}

BIGMUL_IFMA inline __m512i load(const u64* p) { return _mm512_loadu_si512(static_cast<const void*>(p)); }
BIGMUL_IFMA inline void store(u64* p, __m512i v) { _mm512_storeu_si512(static_cast<void*>(p), v); }
BIGMUL_IFMA inline __m512i idx(const long long (&i)[8]) { return _mm512_loadu_si512(static_cast<const void*>(i)); }

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
alignas(64) constexpr long long reverse4x2[8] = {3, 2, 1, 0, 7, 6, 5, 4};
alignas(64) constexpr long long reverse2x4[8] = {1, 0, 3, 2, 5, 4, 7, 6};

// One radix-2 level on a run of butterflies (x[j], y[j]), j < len (a multiple of 8).
BIGMUL_IFMA inline void level_forward_run(u64* x, u64* y, std::size_t len, const u64* w, const u64* wq,
                                          const vconst& c) {
  for (std::size_t j = 0; j < len; j += 8) {
    __m512i X = load(x + j), Y = load(y + j);
    bf_dif(X, Y, load(w + j), load(wq + j), c);
    store(x + j, X);
    store(y + j, Y);
  }
}
// The inverse level t on butterflies j0 .. j0 + len of a block: twiddle
// -w_2t^(t - j), read backwards from the level table (w, wq: level t's entries).
BIGMUL_IFMA inline void level_inverse_run(u64* x, u64* y, std::size_t t, std::size_t j0, std::size_t len,
                                          const u64* w, const u64* wq, const vconst& c) {
  const __m512i rev = c.rev;
  for (std::size_t i = 0; i < len; i += 8) {
    const std::size_t j = j0 + i;
    __m512i X = load(x + i), Y = load(y + i);
    const __m512i W = _mm512_permutexvar_epi64(rev, load(w + t - j - 7));
    const __m512i WQ = _mm512_permutexvar_epi64(rev, load(wq + t - j - 7));
    bf_dit_negated(X, Y, W, WQ, c);
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

// Levels t = 4, 2, 1 on 16 values at a time, in registers.
BIGMUL_IFMA void last_levels_forward(u64* a, std::size_t size, const small_twiddles& s, const vconst& c) {
  const __m512i i4x = idx(t4_x), i4y = idx(t4_y), i2x = idx(t2_x), i2y = idx(t2_y), b2a = idx(t2_back_a),
                b2b = idx(t2_back_b), i1x = idx(t1_x), i1y = idx(t1_y), b1a = idx(t1_back_a), b1b = idx(t1_back_b);
  for (std::size_t k = 0; k < size; k += 16) {
    __m512i A = load(a + k), B = load(a + k + 8);
    __m512i X = _mm512_permutex2var_epi64(A, i4x, B), Y = _mm512_permutex2var_epi64(A, i4y, B);
    bf_dif(X, Y, s.w4, s.wq4, c);
    A = _mm512_permutex2var_epi64(X, i4x, Y);
    B = _mm512_permutex2var_epi64(X, i4y, Y);
    X = _mm512_permutex2var_epi64(A, i2x, B);
    Y = _mm512_permutex2var_epi64(A, i2y, B);
    bf_dif(X, Y, s.w2, s.wq2, c);
    A = _mm512_permutex2var_epi64(X, b2a, Y);
    B = _mm512_permutex2var_epi64(X, b2b, Y);
    X = _mm512_permutex2var_epi64(A, i1x, B);
    Y = _mm512_permutex2var_epi64(A, i1y, B);
    bf_plain(X, Y, c);
    store(a + k, _mm512_permutex2var_epi64(X, b1a, Y));
    store(a + k + 8, _mm512_permutex2var_epi64(X, b1b, Y));
  }
}

BIGMUL_IFMA void first_levels_inverse(u64* a, std::size_t size, const small_twiddles& s, const vconst& c) {
  const __m512i i4x = idx(t4_x), i4y = idx(t4_y), i2x = idx(t2_x), i2y = idx(t2_y), b2a = idx(t2_back_a),
                b2b = idx(t2_back_b), i1x = idx(t1_x), i1y = idx(t1_y), b1a = idx(t1_back_a), b1b = idx(t1_back_b);
  for (std::size_t k = 0; k < size; k += 16) {
    __m512i A = load(a + k), B = load(a + k + 8);
    __m512i X = _mm512_permutex2var_epi64(A, i1x, B), Y = _mm512_permutex2var_epi64(A, i1y, B);
    bf_plain(X, Y, c);
    A = _mm512_permutex2var_epi64(X, b1a, Y);
    B = _mm512_permutex2var_epi64(X, b1b, Y);
    X = _mm512_permutex2var_epi64(A, i2x, B);
    Y = _mm512_permutex2var_epi64(A, i2y, B);
    bf_dit_negated(X, Y, s.w2, s.wq2, c);
    A = _mm512_permutex2var_epi64(X, b2a, Y);
    B = _mm512_permutex2var_epi64(X, b2b, Y);
    X = _mm512_permutex2var_epi64(A, i4x, B);
    Y = _mm512_permutex2var_epi64(A, i4y, B);
    bf_dit_negated(X, Y, s.w4, s.wq4, c);
    store(a + k, _mm512_permutex2var_epi64(X, i4x, Y));
    store(a + k + 8, _mm512_permutex2var_epi64(X, i4y, Y));
  }
}

using radix3_tables = ntt52_plan::radix3_tables;

// Radix-3 forward on j in [j_begin, j_end) (multiples of 8; j_begin of 64):
// y0 = x0 + x1 + x2, y1 = (x0 - x2 + u) w^j, y2 = (x0 - x1 - u) w^2j with
// u = w3 (x1 - x2). base1, base2: w^j_begin, w^2j_begin times 2^52 mod p.
BIGMUL_IFMA void radix3_forward_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, u64 base1, u64 base2, u64 p) {
  const vconst c = make_vconst(p);
  const __m512i c3 = _mm512_set1_epi64(ll(T.cube[0])), c3q = _mm512_set1_epi64(ll(T.cube_q[0]));
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const __m512i b1 = _mm512_set1_epi64(ll(base1)), b2 = _mm512_set1_epi64(ll(base2));
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    for (std::size_t i = 0; i < len; i += 8) {
      u64* x = a + j0 + i;
      const __m512i x0 = load(x), x1 = load(x + m), x2 = load(x + 2 * m);
      const __m512i w1 = reduce_2p(shoup_lazy(b1, load(T.tw[0][0] + i), load(T.tw_q[0][0] + i), c), c);
      const __m512i w2 = reduce_2p(shoup_lazy(b2, load(T.tw[0][1] + i), load(T.tw_q[0][1] + i), c), c);
      const __m512i u = shoup_lazy(_mm512_add_epi64(_mm512_sub_epi64(x1, x2), c.two_p), c3, c3q, c);
      const __m512i s1 = reduce_6p(_mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(x0, u), x2), c.two_p), c);
      const __m512i s2 = reduce_6p(_mm512_sub_epi64(_mm512_sub_epi64(_mm512_add_epi64(x0, c.four_p), x1), u), c);
      store(x, reduce_6p(_mm512_add_epi64(_mm512_add_epi64(x0, x1), x2), c));
      store(x + m, mont52(s1, w1, c));
      store(x + 2 * m, mont52(s2, w2, c));
    }
    base1 = mul_shoup(base1, T.step[0][0], T.step_shoup[0][0], p);
    base2 = mul_shoup(base2, T.step[0][1], T.step_shoup[0][1], p);
  }
}

// The inverse: z_r = y_r w^-jr, x_l = sum_r z_r w3^-lr (times 3 overall).
BIGMUL_IFMA void radix3_inverse_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, u64 base1, u64 base2, u64 p) {
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

// x = mont52(x, y) * (2^52 / n): x y / n, for i in [b, e) (multiples of 8).
BIGMUL_IFMA void pointwise_run(u64* x, const u64* y, std::size_t b, std::size_t e, u64 scale, u64 scale_q, u64 p) {
  const vconst c = make_vconst(p);
  const __m512i s = _mm512_set1_epi64(ll(scale)), sq = _mm512_set1_epi64(ll(scale_q));
  for (std::size_t i = b; i < e; i += 8) store(x + i, shoup_lazy(mont52(load(x + i), load(y + i), c), s, sq, c));
}

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

// Level tables of a plan: level t's t + 1 entries start at (t - 1) + log2 t.
struct level_tables {
  const u64* w;
  const u64* wq;
  static std::size_t offset(std::size_t t) { return (t - 1) + ceil_log2(t); }
  const u64* w_at(std::size_t t) const { return w + offset(t); }
  const u64* wq_at(std::size_t t) const { return wq + offset(t); }
};

// A whole in-cache sub-transform, 16 <= size <= leaf_size.
// Levels t and t/2 fused (radix 4) on one block of 2t values: x0..x3 =
// a[j], a[j + t/2], a[j + t], a[j + 3t/2] for j < t/2 (t/2 a multiple of 8).
// Half the loads and stores of two radix-2 passes, the same multiplies.
BIGMUL_IFMA inline void level_pair_forward(u64* a, std::size_t t, const level_tables& L, const vconst& c) {
  const std::size_t h = t / 2;
  const u64 *wt = L.w_at(t), *wqt = L.wq_at(t), *wh = L.w_at(h), *wqh = L.wq_at(h);
  for (std::size_t j = 0; j < h; j += 8) {
    __m512i x0 = load(a + j), x1 = load(a + j + h), x2 = load(a + j + t), x3 = load(a + j + t + h);
    bf_dif(x0, x2, load(wt + j), load(wqt + j), c);
    bf_dif(x1, x3, load(wt + j + h), load(wqt + j + h), c);
    const __m512i w = load(wh + j), wq = load(wqh + j);
    bf_dif(x0, x1, w, wq, c);
    bf_dif(x2, x3, w, wq, c);
    store(a + j, x0);
    store(a + j + h, x1);
    store(a + j + t, x2);
    store(a + j + t + h, x3);
  }
}
// Entries end - 7 .. end, lane i holding entry end - i.
BIGMUL_IFMA inline __m512i load_back(__m512i rev, const u64* end) { return _mm512_permutexvar_epi64(rev, load(end - 7)); }

// The inverse of level_pair_forward: level t/2 then level t, negated twiddles
// read backwards (see level_inverse_run).
BIGMUL_IFMA inline void level_pair_inverse(u64* a, std::size_t t, const level_tables& L, const vconst& c) {
  const __m512i rev = c.rev;
  const std::size_t h = t / 2;
  const u64 *wt = L.w_at(t), *wqt = L.wq_at(t), *wh = L.w_at(h), *wqh = L.wq_at(h);
  for (std::size_t j = 0; j < h; j += 8) {
    __m512i x0 = load(a + j), x1 = load(a + j + h), x2 = load(a + j + t), x3 = load(a + j + t + h);
    const __m512i w = load_back(rev, wh + h - j), wq = load_back(rev, wqh + h - j);
    bf_dit_negated(x0, x1, w, wq, c);
    bf_dit_negated(x2, x3, w, wq, c);
    bf_dit_negated(x0, x2, load_back(rev, wt + t - j), load_back(rev, wqt + t - j), c);
    bf_dit_negated(x1, x3, load_back(rev, wt + t - j - h), load_back(rev, wqt + t - j - h), c);
    store(a + j, x0);
    store(a + j + h, x1);
    store(a + j + t, x2);
    store(a + j + t + h, x3);
  }
}

BIGMUL_IFMA void leaf_forward(u64* a, std::size_t size, const level_tables& L, u64 p) {
  const vconst c = make_vconst(p);
  std::size_t t = size / 2;
  for (; t >= 16; t /= 4)  // pairs of levels while both have >= 8 butterflies a block
    for (std::size_t k = 0; k < size; k += 2 * t) level_pair_forward(a + k, t, L, c);
  if (t == 8)
    for (std::size_t k = 0; k < size; k += 16) level_forward_run(a + k, a + k + 8, 8, L.w_at(8), L.wq_at(8), c);
  last_levels_forward(a, size, forward_small(L.w_at(4), L.wq_at(4), L.w_at(2), L.wq_at(2)), c);
}
BIGMUL_IFMA void leaf_inverse(u64* a, std::size_t size, const level_tables& L, u64 p) {
  const vconst c = make_vconst(p);
  first_levels_inverse(a, size, inverse_small(L.w_at(4), L.wq_at(4), L.w_at(2), L.wq_at(2)), c);
  // The forward's pairs, in reverse: a lone level t = 8 when log2(size) - 3 is odd.
  std::size_t t = 8;
  if ((ceil_log2(size) - 3) % 2 == 1) {
    for (std::size_t k = 0; k < size; k += 16)
      level_inverse_run(a + k, a + k + 8, 8, 0, 8, L.w_at(8), L.wq_at(8), c);
    t = 32;
  } else {
    t = 16;
  }
  for (; t < size; t *= 4)
    for (std::size_t k = 0; k < size; k += 2 * t) level_pair_inverse(a + k, t, L, c);
}

// Entry points for the plan's (non-vector) members: the constants built once a call.
BIGMUL_IFMA void level_forward_run_p(u64* x, u64* y, std::size_t len, const u64* w, const u64* wq, u64 p) {
  level_forward_run(x, y, len, w, wq, make_vconst(p));
}
BIGMUL_IFMA void level_inverse_run_p(u64* x, u64* y, std::size_t t, std::size_t j0, std::size_t len, const u64* w,
                                     const u64* wq, u64 p) {
  level_inverse_run(x, y, t, j0, len, w, wq, make_vconst(p));
}
BIGMUL_IFMA void level_pair_forward_p(u64* a, std::size_t t, const level_tables& L, u64 p) {
  level_pair_forward(a, t, L, make_vconst(p));
}
BIGMUL_IFMA void level_pair_inverse_p(u64* a, std::size_t t, const level_tables& L, u64 p) {
  level_pair_inverse(a, t, L, make_vconst(p));
}

#endif  // BIGMUL_HAVE_IFMA_CODE

}  // namespace

bool ntt52_supported() {
#if defined(BIGMUL_HAVE_IFMA_CODE)
  return prim::cpu_has_avx512_ifma();
#else
  return false;
#endif
}

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

std::size_t ntt52_plan::level_offset(std::size_t t) { return (t - 1) + ceil_log2(t); }  // as level_tables

ntt52_plan::ntt52_plan(unsigned prime, std::size_t length) : prime_(prime), n_(length) {
  if (prime >= ntt52_prime_count) throw std::invalid_argument("ntt52_plan: prime index out of range");
  if (length == 0 || length > ntt_max_length || ntt_fit_length(length) != length)
    throw std::invalid_argument("ntt52_plan: length " + std::to_string(length) + " is not 2^k or 3*2^k <= 3*2^32");
  p_ = ntt52_primes[prime].p;
  m_ = n_ % 3 == 0 ? n_ / 3 : n_;
  const u64 root_n = pow_mod(ntt52_primes[prime].generator, (p_ - 1) / n_, p_);
  const u64 root_m = n_ == m_ ? root_n : pow_mod(root_n, 3, p_);
  if (m_ >= 2) {
    w_.resize(level_offset(m_));
    wq_.resize(w_.size());
    // Top level t = m/2: w_m^j, j = 0 .. m/2; each lower level takes every other entry.
    const std::size_t top = m_ / 2, off = level_offset(top);
    const u64 root_shoup = shoup_companion(root_m, p_);
    prim::parallel_chunks(top + 1, std::size_t{1} << 12, 0, [&](std::size_t b, std::size_t e) {
      u64 w = pow_mod(root_m, b, p_);
      for (std::size_t j = b; j < e; ++j) {
        w_[off + j] = w;
        wq_[off + j] = shoup52_companion(w, p_);
        w = mul_shoup(w, root_m, root_shoup, p_);
      }
    });
    for (std::size_t t = top / 2; t >= 1; t /= 2) {
      const std::size_t o = level_offset(t), up = level_offset(2 * t);
      for (std::size_t j = 0; j <= t; ++j) {
        w_[o + j] = w_[up + 2 * j];
        wq_[o + j] = wq_[up + 2 * j];
      }
    }
  }
  pointwise_ = ntt_pointwise_scale(p_, n_);
  // mont52 leaves x y / 2^52; the scale 2^52 / n mod p restores it and divides by n.
  scale52_ = mul_mod((u64{1} << 52) % p_, inv_mod(n_ % p_, p_), p_);
  scale52_q_ = shoup52_companion(scale52_, p_);
  if (n_ != m_) {
    radix3_ = ntt_radix3_stage(p_, ntt52_primes[prime].generator, n_);
    auto& T = radix3_vec_;
    T.r52_mod_p = (u64{1} << 52) % p_;
    T.p_neg_inv52 = neg_inverse_mod_2_64(p_) & mask52;
    for (int d = 0; d < 2; ++d) {
      const u64 w = d == 0 ? radix3_.root_n : radix3_.root_n_inv;
      for (int r = 0; r < 2; ++r) {
        const u64 wr = pow_mod(w, r + 1, p_);
        u64 x = 1;
        for (std::size_t i = 0; i < radix3_tables::block; ++i, x = mul_mod(x, wr, p_)) {
          T.tw[d][r][i] = x;
          T.tw_q[d][r][i] = shoup52_companion(x, p_);
        }
        T.step[d][r] = x;  // wr^block
        T.step_shoup[d][r] = shoup_companion(x, p_);
      }
      T.cube[d] = d == 0 ? radix3_.cube_root : radix3_.cube_root_inv;
      T.cube_q[d] = shoup52_companion(T.cube[d], p_);
    }
  }
}

std::shared_ptr<const ntt52_plan> ntt52_plan::get(unsigned prime, std::size_t length) {
  return cached_ntt_plan<ntt52_plan>(prime, length, 4 * 24);  // radix conversion trees use one or two lengths a level
}

#if defined(BIGMUL_HAVE_IFMA_CODE)

void ntt52_plan::rec_forward(u64* a, std::size_t size) const {
  if (size <= leaf_size) return leaf_forward(a, size, {w_.data(), wq_.data()}, p_);
  level_pair_forward_p(a, size / 2, {w_.data(), wq_.data()}, p_);  // two levels, then four quarters
  for (int q = 0; q < 4; ++q) rec_forward(a + q * (size / 4), size / 4);
}

void ntt52_plan::rec_inverse(u64* a, std::size_t size) const {
  if (size <= leaf_size) return leaf_inverse(a, size, {w_.data(), wq_.data()}, p_);
  for (int q = 0; q < 4; ++q) rec_inverse(a + q * (size / 4), size / 4);
  level_pair_inverse_p(a, size / 2, {w_.data(), wq_.data()}, p_);
}

#else

void ntt52_plan::rec_forward(u64*, std::size_t) const { throw std::logic_error("ntt52: no IFMA code in this build"); }
void ntt52_plan::rec_inverse(u64*, std::size_t) const { throw std::logic_error("ntt52: no IFMA code in this build"); }

#endif

namespace {

// Whole-array level t (a multiple of 8) split over the threads in 8-lane units.

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
  const std::size_t size = ntt_task_size(m_, leaf_size, threads);
  for (std::size_t s = m_; s > size; s /= 2) {
    const std::size_t t = s / 2;
#if defined(BIGMUL_HAVE_IFMA_CODE)
    ntt_parallel_level(m_, t, 8, vector_grain, threads, [&](std::size_t at, std::size_t j, std::size_t len) {
      level_forward_run_p(a + at, a + at + t, len, level_w(t) + j, level_wq(t) + j, p_);
    });
#endif
  }
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_forward(a + b * size, size); });
}

void ntt52_plan::pow2_inverse(u64* a, unsigned threads) const {
  if (m_ < 16) {
    scalar_inverse(a, m_, p_, [&](std::size_t t) { return std::make_pair(level_w(t), level_wq(t)); });
    return;
  }
  if (threads <= 1 || m_ <= leaf_size) return rec_inverse(a, m_);
  std::size_t size = ntt_task_size(m_, leaf_size, threads);
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_inverse(a + b * size, size); });
  for (; size < m_; size *= 2) {
    const std::size_t t = size;
#if defined(BIGMUL_HAVE_IFMA_CODE)
    ntt_parallel_level(m_, t, 8, vector_grain, threads, [&](std::size_t at, std::size_t j, std::size_t len) {
      level_inverse_run_p(a + at, a + at + t, t, j, len, level_w(t), level_wq(t), p_);
    });
#endif
  }
}

void ntt52_plan::forward(u64* a, unsigned threads) const {
  if (!ntt52_supported()) throw std::logic_error("ntt52_plan: this processor has no AVX-512 IFMA");
  threads = prim::resolve_threads(threads);
  if (n_ == m_) return pow2_forward(a, threads);
  if (m_ >= 8)
    radix3_vector(a, threads, false);
  else
    radix3_.forward(a, threads);
  for (int r = 0; r < 3; ++r) pow2_forward(a + r * m_, threads);
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

// Chunks of whole 64-j blocks; each starts its bases at w^(+-j0) 2^52 mod p.
void ntt52_plan::radix3_vector(u64* a, unsigned threads, bool inverse) const {
#if defined(BIGMUL_HAVE_IFMA_CODE)
  const u64 root = inverse ? radix3_.root_n_inv : radix3_.root_n;
  const std::size_t block = radix3_tables::block, blocks = (m_ + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    const std::size_t j0 = b0 * block, j1 = std::min(m_, b1 * block);
    const u64 base1 = mul_mod(pow_mod(root, j0, p_), radix3_vec_.r52_mod_p, p_);
    const u64 base2 = mul_mod(pow_mod(root, 2 * j0, p_), radix3_vec_.r52_mod_p, p_);
    (inverse ? radix3_inverse_run : radix3_forward_run)(a, m_, j0, j1, radix3_vec_, base1, base2, p_);
  });
#else
  inverse ? radix3_.inverse(a, threads) : radix3_.forward(a, threads);
#endif
}

void ntt52_plan::pointwise(u64* x, const u64* y, unsigned threads) const {
  threads = prim::resolve_threads(threads);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (n_ % 8 == 0 && ntt52_supported()) {
    prim::parallel_chunks(n_ / 8, 1024, threads, [&](std::size_t b, std::size_t e) {
      pointwise_run(x, y, 8 * b, 8 * e, scale52_, scale52_q_, p_);
    });
    return;
  }
#endif
  pointwise_.run(x, y, threads);
}

}  // namespace bigmul::fft
