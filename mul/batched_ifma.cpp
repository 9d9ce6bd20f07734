// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched products in AVX-512 IFMA lanes: see mul/batched_ifma.hpp.
//
// The vector code lives in functions with a target attribute (as in
// fft/ntt_ifma_*.cpp), so nothing AVX-512 leaks into code that runs on
// processors without it; batched_ifma_supported() gates every call.
//
// One group of eight products:
//   1. transpose in: lane l's limbs become column vectors T[q] (limb q of
//      every lane), then 52-bit digit vectors D[j] = bits [52j, 52j + 52) of
//      T, the same shifts for all lanes;
//   2. product scanning: column k sums lo52(a_i b_j) over i + j = k and
//      hi52(a_i b_j) over i + j = k - 1, in 64-bit lanes without carries (at
//      most 2m terms below 2^52 each: < 2^61 for m <= 256 digits); eight
//      independent accumulators hide the multiply-add latency;
//   3. the columns are carried into 52-bit digits as they come, then cut
//      into 64-bit limbs (a limb spans two or three digits) and transposed
//      back into each product's slot.
#include "mul/batched_ifma.hpp"

#include "bigmul/error.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "prim/cpu_features.hpp"
#include "prim/ifma_target.hpp"

namespace bigmul::detail {
namespace {

using u64 = std::uint64_t;

#if defined(BIGMUL_HAVE_IFMA_CODE)

constexpr u64 mask52 = (u64{1} << 52) - 1;

// Most 52-bit digits of an operand: m = ceil(64 n / 52) for n <= batched_ifma_max_limbs.
constexpr std::size_t max_digits = (64 * batched_ifma_max_limbs + 51) / 52;

// One call's scratch, on the stack (about 60 KB at the largest size): the
// dispatcher calls this per task of a few groups, and four aligned heap
// allocations a call cost as much as a 1024-bit group's product.
struct lane_scratch {
  alignas(64) u64 T[8 * batched_ifma_max_limbs];
  alignas(64) u64 A[8 * max_digits];
  alignas(64) u64 B[8 * max_digits];
  alignas(64) u64 C[8 * (2 * max_digits + 2)];
};

BIGMUL_IFMA inline __m512i load(const u64* p) { return _mm512_load_si512(p); }
BIGMUL_IFMA inline void store(u64* p, __m512i v) { _mm512_store_si512(p, v); }

// T[q] (limb q of each lane's operand, q < n) -> D[j] (52-bit digit j, j < m).
BIGMUL_IFMA void limbs_to_digits(u64* D, const u64* T, std::size_t n, std::size_t m) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(mask52));
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t bit = 52 * j, q = bit / 64;
    const unsigned s = static_cast<unsigned>(bit % 64);
    __m512i d = _mm512_srl_epi64(load(T + 8 * q), _mm_cvtsi32_si128(static_cast<int>(s)));
    if (s > 12 && q + 1 < n)  // the digit continues into the next limb
      d = _mm512_or_si512(d, _mm512_sll_epi64(load(T + 8 * (q + 1)), _mm_cvtsi32_si128(static_cast<int>(64 - s))));
    store(D + 8 * j, _mm512_and_si512(d, mask));
  }
}

// 8 x 8 transpose of 64-bit elements: r[i][j] <- r[j][i] (unpack pairs, then
// 128-bit and 256-bit blocks by two-source permutes: 24 shuffles).
BIGMUL_IFMA inline void transpose8(__m512i r[8]) {
  __m512i t[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]);      // r0[0] r1[0] r0[2] r1[2] ...
    t[2 * i + 1] = _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]);  // r0[1] r1[1] r0[3] r1[3] ...
  }
  const __m512i even128 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), odd128 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  __m512i u[8];  // u[0] = r0[0] r1[0] r2[0] r3[0] r0[4] r1[4] r2[4] r3[4], ...
  for (int h = 0; h < 2; ++h)
    for (int p = 0; p < 2; ++p) {
      const __m512i x = t[4 * h + p], y = t[4 * h + 2 + p];
      u[4 * h + p] = _mm512_permutex2var_epi64(x, even128, y);      // elements p, p + 4
      u[4 * h + 2 + p] = _mm512_permutex2var_epi64(x, odd128, y);   // elements p + 2, p + 6
    }
  const __m512i low256 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), high256 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
  for (int e = 0; e < 4; ++e) {
    r[e] = _mm512_permutex2var_epi64(u[e], low256, u[4 + e]);
    r[e + 4] = _mm512_permutex2var_epi64(u[e], high256, u[4 + e]);
  }
}

// Transposes lanes [0, L) of x (lane l at x + l * n) into T[q * 8 + l];
// missing lanes are zero.
BIGMUL_IFMA void transpose_in(u64* T, const u64* x, std::size_t n, std::size_t L) {
  for (std::size_t q0 = 0; q0 < n; q0 += 8) {
    const std::size_t w = std::min<std::size_t>(8, n - q0);
    const __mmask8 mask = static_cast<__mmask8>((1u << w) - 1);
    __m512i r[8];
    for (std::size_t l = 0; l < 8; ++l)
      r[l] = l < L ? _mm512_maskz_loadu_epi64(mask, x + l * n + q0) : _mm512_setzero_si512();
    transpose8(r);
    // A constant trip count: with `j < w` as the bound GCC spilled r[] and
    // copied it with rep movsq (a quarter of the time at 1024 bits).
#pragma GCC unroll 8
    for (std::size_t j = 0; j < 8; ++j)
      if (j < w) store(T + 8 * (q0 + j), r[j]);
  }
}

// C[0 .. 2m) = A * B in 52-bit digit vectors, C[2m], C[2m + 1] = 0 (the
// limb cut reads up to two digits past the last). Two columns
// at a time: column k + 1 at row i uses the B digit that column k used at
// row i - 1, so a row costs two loads for four multiply-adds; the
// accumulators (low and high halves of both columns, even and odd rows) are
// eight independent chains.
BIGMUL_IFMA void product_columns(u64* C, const u64* A, const u64* B, std::size_t m) {
  const __m512i zero = _mm512_setzero_si512(), mask = _mm512_set1_epi64(static_cast<long long>(mask52));
  __m512i carry_hi = zero;  // the high halves of column k - 1's products
  __m512i c = zero;         // the carry out of column k - 1's digit
  for (std::size_t k = 0; k + 1 < 2 * m; k += 2) {
    // Rows of column k: [lo0, hi0]; of column k + 1: [lo1, hi1] (empty past the last column).
    const std::size_t lo0 = k + 1 > m ? k + 1 - m : 0, hi0 = std::min(k, m - 1);
    const std::size_t lo1 = k + 2 > m ? k + 2 - m : 0, hi1 = std::min(k + 1, m - 1);
    __m512i l0 = zero, h0 = zero, l1 = zero, h1 = zero;
    std::size_t i = lo0;
    if (lo0 < lo1) {  // column k's first row has no partner in column k + 1
      const __m512i a = load(A + 8 * i), b = load(B + 8 * (k - i));
      l0 = _mm512_madd52lo_epu64(l0, a, b);
      h0 = _mm512_madd52hi_epu64(h0, a, b);
      ++i;
    }
    __m512i b1 = load(B + 8 * (k + 1 - i));
    // Rows two at a time into a second set of four accumulators: eight
    // independent chains keep both IFMA pipes busy through the 4-cycle
    // latency (four chains left half of them idle).
    __m512i l0b = zero, h0b = zero, l1b = zero, h1b = zero;
    for (; i + 1 <= hi0; i += 2) {
      const __m512i a = load(A + 8 * i), b0 = load(B + 8 * (k - i));
      l0 = _mm512_madd52lo_epu64(l0, a, b0);
      h0 = _mm512_madd52hi_epu64(h0, a, b0);
      l1 = _mm512_madd52lo_epu64(l1, a, b1);
      h1 = _mm512_madd52hi_epu64(h1, a, b1);
      const __m512i a2 = load(A + 8 * (i + 1)), b2 = load(B + 8 * (k - i - 1));
      l0b = _mm512_madd52lo_epu64(l0b, a2, b2);
      h0b = _mm512_madd52hi_epu64(h0b, a2, b2);
      l1b = _mm512_madd52lo_epu64(l1b, a2, b0);
      h1b = _mm512_madd52hi_epu64(h1b, a2, b0);
      b1 = b2;
    }
    if (i <= hi0) {
      const __m512i a = load(A + 8 * i), b0 = load(B + 8 * (k - i));
      l0 = _mm512_madd52lo_epu64(l0, a, b0);
      h0 = _mm512_madd52hi_epu64(h0, a, b0);
      l1 = _mm512_madd52lo_epu64(l1, a, b1);
      h1 = _mm512_madd52hi_epu64(h1, a, b1);
      ++i;
    }
    l0 = _mm512_add_epi64(l0, l0b);
    h0 = _mm512_add_epi64(h0, h0b);
    l1 = _mm512_add_epi64(l1, l1b);
    h1 = _mm512_add_epi64(h1, h1b);
    if (hi1 > hi0 && hi1 >= lo1) {  // column k + 1's last row has no partner in column k
      const __m512i a = load(A + 8 * hi1), b = load(B + 8 * (k + 1 - hi1));
      l1 = _mm512_madd52lo_epu64(l1, a, b);
      h1 = _mm512_madd52hi_epu64(h1, a, b);
    }
    // Carried as they come: the carry's two-op chain runs beside the next
    // columns' multiply-adds instead of in a pass of its own.
    const __m512i t0 = _mm512_add_epi64(_mm512_add_epi64(l0, carry_hi), c);
    store(C + 8 * k, _mm512_and_si512(t0, mask));
    const __m512i t1 = _mm512_add_epi64(_mm512_add_epi64(l1, h0), _mm512_srli_epi64(t0, 52));
    store(C + 8 * (k + 1), _mm512_and_si512(t1, mask));
    c = _mm512_srli_epi64(t1, 52);
    carry_hi = h1;
  }
  // c is zero: the product is below 2^(128 n) <= 2^(104 m).
  store(C + 8 * (2 * m), zero);
  store(C + 8 * (2 * m + 1), zero);
}

// Digits D -> limbs 0 .. rn of lanes [0, L), lane l written at r + l * rn:
// eight limb vectors at a time, transposed into eight rows of eight limbs.
BIGMUL_IFMA void digits_to_lanes(u64* r, const u64* D, std::size_t rn, std::size_t L) {
  for (std::size_t q0 = 0; q0 < rn; q0 += 8) {
    const std::size_t w = std::min<std::size_t>(8, rn - q0);
    __m512i v[8];
    for (std::size_t j = 0; j < 8; ++j) {
      const std::size_t q = q0 + (j < w ? j : 0), bit = 64 * q, k = bit / 52;
      const int s = static_cast<int>(bit % 52);
      __m512i x = _mm512_srl_epi64(load(D + 8 * k), _mm_cvtsi32_si128(s));
      x = _mm512_or_si512(x, _mm512_sll_epi64(load(D + 8 * (k + 1)), _mm_cvtsi32_si128(52 - s)));
      x = _mm512_or_si512(x, _mm512_sll_epi64(load(D + 8 * (k + 2)), _mm_cvtsi32_si128(104 - s)));  // 0 when s <= 40
      v[j] = x;
    }
    transpose8(v);
    const __mmask8 mask = static_cast<__mmask8>((1u << w) - 1);
    for (std::size_t l = 0; l < L; ++l) _mm512_mask_storeu_epi64(r + l * rn + q0, mask, v[l]);
  }
}

BIGMUL_IFMA void mul_batched_ifma_impl(u64* r, const u64* a, const u64* b, std::size_t n, std::size_t G) {
  const std::size_t m = (64 * n + 51) / 52;
  lane_scratch s;  // not value-initialised: every digit read is written first
  for (std::size_t g0 = 0; g0 < G; g0 += 8) {
    const std::size_t L = std::min<std::size_t>(8, G - g0);
    // The next group's operands (n lines each of a and b) on their way to L1
    // while this one computes.
    const std::size_t ahead = g0 + 8 < G ? std::min<std::size_t>(8, G - g0 - 8) * n : 0;
    for (std::size_t q = 0; q < ahead; q += 8) {
      _mm_prefetch(reinterpret_cast<const char*>(a + (g0 + 8) * n + q), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(b + (g0 + 8) * n + q), _MM_HINT_T0);
    }
    transpose_in(s.T, a + g0 * n, n, L);
    limbs_to_digits(s.A, s.T, n, m);
    if (b == a) {
      std::memcpy(s.B, s.A, 8 * m * sizeof(u64));
    } else {
      transpose_in(s.T, b + g0 * n, n, L);
      limbs_to_digits(s.B, s.T, n, m);
    }
    product_columns(s.C, s.A, s.B, m);
    digits_to_lanes(r + g0 * 2 * n, s.C, 2 * n, L);
  }
}

#endif  // BIGMUL_HAVE_IFMA_CODE

}  // namespace

bool batched_ifma_supported() {
#if defined(BIGMUL_HAVE_IFMA_CODE)
  return batched_engine_chosen() == batched_engine::ifma;
#else
  return false;
#endif
}

void mul_batched_ifma(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G) {
#if defined(BIGMUL_HAVE_IFMA_CODE)
  mul_batched_ifma_impl(r, a, b, n, G);
#else
  (void)r, (void)a, (void)b, (void)n, (void)G;
  throw error(error::kind::internal, "bigmul: the IFMA lane engine is not compiled into this build");
#endif
}

}  // namespace bigmul::detail
