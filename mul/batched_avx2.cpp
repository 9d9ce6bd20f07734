// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched products in AVX2 lanes: see mul/batched_avx2.hpp.
//
// The structure of mul/batched_ifma.cpp with four lanes: one group of four
// products is transposed into 52-bit digit columns (as doubles), multiplied by
// product scanning and transposed back. Column k subtracts bits(lo) of every
// digit product a_i b_j with i + j = k and adds bits(hi) of those with
// i + j = k - 1 (mul/batched_avx2_arith.hpp), in 64-bit lanes that wrap; the
// true column value (|value| < 2m 2^52 < 2^62) is recovered by one add of a
// per-column constant, which also biases it by 2^63 so that the carry is a
// logical shift. The vector code lives in functions with a target attribute,
// gated by the processor check.
#include "mul/batched_avx2.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "bigmul/error.hpp"
#include "mul/batched_avx2_arith.hpp"
#include "mul/batched_ifma.hpp"
#include "mul/limb_binary.hpp"
#include "prim/cpu_features.hpp"

namespace bigmul::detail {
namespace {

using namespace lanes_avx2;

#if defined(BIGMUL_HAVE_AVX2_CODE)

// Most 52-bit digits of an operand.
constexpr std::size_t max_digits = (64 * batched_avx2_max_limbs + 51) / 52;

// One call's scratch, on the stack (about 33 KB at the largest size).
struct lane_scratch {
  alignas(32) u64 T[4 * batched_avx2_max_limbs];
  alignas(32) double A[4 * max_digits];
  alignas(32) double B[4 * max_digits];
  alignas(32) u64 C[4 * (2 * max_digits + 2)];
  alignas(32) u64 R[4 * 2 * batched_avx2_max_limbs];
};

BIGMUL_AVX2 inline __m256i load(const u64* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
BIGMUL_AVX2 inline void store(u64* p, __m256i v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
BIGMUL_AVX2 inline __m128i count(std::size_t s) { return _mm_cvtsi32_si128(static_cast<int>(s)); }

// Lanes w' < w of a 64-bit mask vector set (maskload/maskstore of w limbs).
BIGMUL_AVX2 inline __m256i first_lanes(std::size_t w) {
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(w)), _mm256_set_epi64x(3, 2, 1, 0));
}

// 4 x 4 transpose of 64-bit elements: r[i][j] <- r[j][i].
BIGMUL_AVX2 inline void transpose4(__m256i r[4]) {
  const __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
  const __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
  r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
  r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
  r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
  r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

// Lanes [0, L) of x (lane l at x + l * n) into T[q * 4 + l]; missing lanes are zero.
BIGMUL_AVX2 void transpose_in(u64* T, const u64* x, std::size_t n, std::size_t L) {
  for (std::size_t q0 = 0; q0 < n; q0 += 4) {
    const std::size_t w = std::min<std::size_t>(4, n - q0);
    const __m256i mask = first_lanes(w);
    __m256i r[4];
    for (std::size_t l = 0; l < 4; ++l)
      r[l] = l < L ? _mm256_maskload_epi64(reinterpret_cast<const long long*>(x + l * n + q0), mask)
                   : _mm256_setzero_si256();
    transpose4(r);
#pragma GCC unroll 4
    for (std::size_t j = 0; j < 4; ++j)
      if (j < w) store(T + 4 * (q0 + j), r[j]);
  }
}

// Both conversions below repeat every 13 limbs = 16 digits (832 bits): whole
// blocks take immediate shifts from a pattern known at compile time (a shift
// by a register count is two micro-ops and needs its count moved to a vector
// register); what is left of an operand takes the loop.
constexpr std::size_t limbs_per_block = 13, digits_per_block = 16;

// Digit J of a block from its limbs T[0 .. 13) (limb q of each lane at T + 4 q).
template <std::size_t J>
BIGMUL_AVX2 inline void block_digit(double* D, const u64* T) {
  constexpr std::size_t bit = 52 * J, q = bit / 64, s = bit % 64;
  __m256i d = _mm256_srli_epi64(load(T + 4 * q), static_cast<int>(s));
  if constexpr (s > 12) d = _mm256_or_si256(d, _mm256_slli_epi64(load(T + 4 * (q + 1)), static_cast<int>(64 - s)));
  _mm256_store_pd(D + 4 * J, to_double(_mm256_and_si256(d, bcast(mask52))));
}
template <std::size_t... J>
BIGMUL_AVX2 inline void block_digits(double* D, const u64* T, std::index_sequence<J...>) {
  (block_digit<J>(D, T), ...);
}

// T[q] (limb q of each lane, q < n) -> D[j] (52-bit digit j as a double, j < m).
BIGMUL_AVX2 void limbs_to_digits(double* D, const u64* T, std::size_t n, std::size_t m) {
  std::size_t j = 0;
  for (; (j / digits_per_block + 1) * limbs_per_block <= n; j += digits_per_block)
    block_digits(D + 4 * j, T + 4 * (j / digits_per_block * limbs_per_block),
                 std::make_index_sequence<digits_per_block>{});
  for (; j < m; ++j) {
    const std::size_t bit = 52 * j, q = bit / 64, s = bit % 64;
    __m256i d = _mm256_srl_epi64(load(T + 4 * q), count(s));
    if (s > 12 && q + 1 < n) d = _mm256_or_si256(d, _mm256_sll_epi64(load(T + 4 * (q + 1)), count(64 - s)));
    _mm256_store_pd(D + 4 * j, to_double(_mm256_and_si256(d, bcast(mask52))));
  }
}

// Limb Q of a block from its digits C[0 .. 16) (normalized: below 2^52).
template <std::size_t Q>
BIGMUL_AVX2 inline void block_limb(u64* R, const u64* C) {
  constexpr std::size_t bit = 64 * Q, k = bit / 52, s = bit % 52;
  __m256i x = _mm256_or_si256(_mm256_srli_epi64(load(C + 4 * k), static_cast<int>(s)),
                              _mm256_slli_epi64(load(C + 4 * (k + 1)), static_cast<int>(52 - s)));
  if constexpr (s > 40) x = _mm256_or_si256(x, _mm256_slli_epi64(load(C + 4 * (k + 2)), static_cast<int>(104 - s)));
  store(R + 4 * Q, x);
}
template <std::size_t... Q>
BIGMUL_AVX2 inline void block_limbs(u64* R, const u64* C, std::index_sequence<Q...>) {
  (block_limb<Q>(R, C), ...);
}

// Digits C -> limb vectors R[0 .. rn) (limb q of each lane at R + 4 q).
BIGMUL_AVX2 void digits_to_limbs(u64* R, const u64* C, std::size_t rn) {
  std::size_t q = 0;
  for (; q + limbs_per_block <= rn; q += limbs_per_block)
    block_limbs(R + 4 * q, C + 4 * (q / limbs_per_block * digits_per_block),
                std::make_index_sequence<limbs_per_block>{});
  for (; q < rn; ++q) {
    const std::size_t bit = 64 * q, k = bit / 52, s = bit % 52;
    __m256i x = _mm256_srl_epi64(load(C + 4 * k), count(s));
    x = _mm256_or_si256(x, _mm256_sll_epi64(load(C + 4 * (k + 1)), count(52 - s)));
    x = _mm256_or_si256(x, _mm256_sll_epi64(load(C + 4 * (k + 2)), count(104 - s)));  // 0 when s <= 40
    store(R + 4 * q, x);
  }
}

// Limb vectors R[0 .. rn) -> limbs 0 .. rn of lanes [0, L), lane l written at r + l * rn.
BIGMUL_AVX2 void limbs_to_lanes(u64* r, const u64* R, std::size_t rn, std::size_t L) {
  for (std::size_t q0 = 0; q0 < rn; q0 += 4) {
    const std::size_t w = std::min<std::size_t>(4, rn - q0);
    __m256i v[4];
    for (std::size_t j = 0; j < 4; ++j) v[j] = load(R + 4 * (q0 + (j < w ? j : 0)));
    transpose4(v);
    // Plain stores for whole groups: a masked store is microcoded and slow
    // on AMD Zen 2 and Zen 3 [UOPSINFO].
    if (w == 4) {
      for (std::size_t l = 0; l < L; ++l) _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + l * rn + q0), v[l]);
      continue;
    }
    const __m256i mask = first_lanes(w);
    for (std::size_t l = 0; l < L; ++l) _mm256_maskstore_epi64(reinterpret_cast<long long*>(r + l * rn + q0), mask, v[l]);
  }
}

BIGMUL_AVX2 void mul_batched_avx2_impl(u64* r, const u64* a, const u64* b, std::size_t n, std::size_t G) {
  const std::size_t m = (64 * n + 51) / 52;
  lane_scratch s;  // not value-initialised: every digit read is written first
  for (std::size_t g0 = 0; g0 < G; g0 += 4) {
    const std::size_t L = std::min<std::size_t>(4, G - g0);
    transpose_in(s.T, a + g0 * n, n, L);
    limbs_to_digits(s.A, s.T, n, m);
    if (b != a) {
      transpose_in(s.T, b + g0 * n, n, L);
      limbs_to_digits(s.B, s.T, n, m);
    }
    product_columns(s.C, s.A, b == a ? s.A : s.B, m);
    digits_to_limbs(s.R, s.C, 2 * n);
    limbs_to_lanes(r + g0 * 2 * n, s.R, 2 * n, L);
  }
}

#endif  // BIGMUL_HAVE_AVX2_CODE

// From this size a batch splits into three batches of half-size products
// (Karatsuba [KARATSUBA62], subtractive so that every factor fits h limbs):
// 3 h^2 instead of 4 h^2 lane digit products, for O(n) limb additions and two
// more transposes a product. 48 limbs is an estimate from those counts.
constexpr std::size_t karatsuba_min_limbs = 48;
// Products per Karatsuba chunk: the halves and half-size products of 16
// products of 128 limbs take about 100 KB.
constexpr std::size_t karatsuba_chunk = 16;

// One Karatsuba level over the batch: x = x1 B^h + x0 for each operand, the
// three products x0 y0, x1 y1 and |x0 - x1| |y0 - y1| as batches (which may
// split again), combined per product. Squares stay squares.
[[maybe_unused]] void mul_batched_avx2_karatsuba(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G) {
  const std::size_t h = (n + 1) / 2, l = n - h, gh = G * h;
  const bool square = a == b;
  // Per operand: the low halves, the high halves (zero above l limbs),
  // |low - high|; then the three products and the middle sum. Every limb is
  // written before it is read: no zero-filling.
  const std::size_t halves_size = (square ? 3 : 6) * gh;
  const std::unique_ptr<limb_t[]> buffer(new limb_t[halves_size + 6 * gh + 2 * h + 1]);
  limb_t *halves = buffer.get(), *z = halves + halves_size, *mid = z + 6 * gh;
  std::vector<unsigned char> neg(G, 0);  // whether (a0 - a1)(b0 - b1) < 0
  for (std::size_t k = 0; k < (square ? 1u : 2u); ++k) {
    const limb_t* x = k ? b : a;
    limb_t *lo = halves + 3 * k * gh, *hi = lo + gh, *d = hi + gh;
    for (std::size_t g = 0; g < G; ++g) {
      std::copy_n(x + g * n, h, lo + g * h);
      std::copy_n(x + g * n + h, l, hi + g * h);
      if (l < h) hi[g * h + l] = 0;
      const bool below = bin::cmp_n(lo + g * h, hi + g * h, h) < 0;
      if (below) bin::sub_n(d + g * h, hi + g * h, lo + g * h, h);
      else bin::sub_n(d + g * h, lo + g * h, hi + g * h, h);
      neg[g] ^= static_cast<unsigned char>(below && !square);
    }
  }
  const limb_t* x = halves;
  const limb_t* y = square ? x : x + 3 * gh;
  limb_t *z0 = z, *z2 = z0 + 2 * gh, *z1 = z2 + 2 * gh;
  mul_batched_avx2(z0, x, y, h, G);
  mul_batched_avx2(z2, x + gh, y + gh, h, G);
  mul_batched_avx2(z1, x + 2 * gh, y + 2 * gh, h, G);
  for (std::size_t g = 0; g < G; ++g) {
    limb_t* rg = r + g * 2 * n;
    const limb_t *p0 = z0 + g * 2 * h, *p2 = z2 + g * 2 * h, *p1 = z1 + g * 2 * h;
    std::copy_n(p0, 2 * h, rg);
    std::copy_n(p2, 2 * l, rg + 2 * h);  // x1 y1 < B^(2l)
    // a0 b1 + a1 b0 = x0 y0 + x1 y1 - (a0 - a1)(b0 - b1), at limb h.
    limb_t c = bin::add_n(mid, p0, p2, 2 * h);
    if (neg[g]) c += bin::add_n(mid, mid, p1, 2 * h);
    else c -= bin::sub_n(mid, mid, p1, 2 * h);
    mid[2 * h] = c;
    const limb_t carry = bin::add_n(rg + h, rg + h, mid, 2 * h + 1);
    bin::add_1(rg + 3 * h + 1, 2 * n - 3 * h - 1, carry);  // the product fits 2n limbs: nothing leaves
  }
}

}  // namespace

bool batched_avx2_supported() {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  return batched_engine_chosen() == batched_engine::avx2;
#else
  return false;
#endif
}

void mul_batched_avx2(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G) {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (n >= karatsuba_min_limbs && prim::cpu_has_avx2_fma()) {
    // A chunk of products at a time, so that the halves and the three
    // half-size products stay in cache instead of streaming the whole
    // batch through memory three times.
    for (std::size_t g0 = 0; g0 < G; g0 += karatsuba_chunk)
      mul_batched_avx2_karatsuba(r + g0 * 2 * n, a + g0 * n, b == a ? a + g0 * n : b + g0 * n, n,
                                 std::min(karatsuba_chunk, G - g0));
    return;
  }
  if (prim::cpu_has_avx2_fma()) return mul_batched_avx2_impl(r, a, b, n, G);
#endif
  (void)r, (void)a, (void)b, (void)n, (void)G;
  throw error(error::kind::internal, "bigmul: the AVX2 lane engine is not available in this build or on this processor");
}

}  // namespace bigmul::detail
