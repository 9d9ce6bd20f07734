// SPDX-License-Identifier: LGPL-3.0-or-later
// Blocked transposes of 64-bit words (dist/four_step.cpp's layouts, the
// operands' limbs into columns in dist/product.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fft/ntt_ifma.hpp"
#include "prim/ifma_target.hpp"

namespace bigmul::dist {

using u64 = std::uint64_t;

#if defined(BIGMUL_HAVE_IFMA_CODE)
// One whole 8 x 8 tile of transpose below in AVX-512 registers: 64-bit
// unpacks pair rows, then two rounds of two-source permutes gather each
// column's 2 x 2 and 4 x 4 blocks. stream: dst's rows are whole aligned
// cache lines, written around the cache (no read for ownership).
template <bool stream = false>
BIGMUL_IFMA inline void transpose8x8(const u64* src, std::size_t ss, u64* dst, std::size_t ds) {
  __m512i r[8], t[8], u[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm512_loadu_si512(static_cast<const void*>(src + i * ss));
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm512_unpacklo_epi64(r[i], r[i + 1]);      // [i_0 i+1_0 i_2 i+1_2 ..]
    t[i + 1] = _mm512_unpackhi_epi64(r[i], r[i + 1]);  // [i_1 i+1_1 i_3 i+1_3 ..]
  }
  const __m512i lo2 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), hi2 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  for (int h = 0; h < 8; h += 4)
    for (int odd = 0; odd < 2; ++odd) {  // rows h .. h+3, columns of parity odd
      u[h + odd] = _mm512_permutex2var_epi64(t[h + odd], lo2, t[h + 2 + odd]);      // columns odd, 4 + odd
      u[h + 2 + odd] = _mm512_permutex2var_epi64(t[h + odd], hi2, t[h + 2 + odd]);  // columns 2 + odd, 6 + odd
    }
  const __m512i lo4 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), hi4 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
  const int col_of[4] = {0, 1, 2, 3};  // u[k] (k < 4) holds columns col_of[k] and col_of[k] + 4
  for (int k = 0; k < 4; ++k) {
    const __m512i a = _mm512_permutex2var_epi64(u[k], lo4, u[k + 4]), b = _mm512_permutex2var_epi64(u[k], hi4, u[k + 4]);
    if constexpr (stream) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + col_of[k] * ds), a);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + (col_of[k] + 4) * ds), b);
    } else {
      _mm512_storeu_si512(static_cast<void*>(dst + col_of[k] * ds), a);
      _mm512_storeu_si512(static_cast<void*>(dst + (col_of[k] + 4) * ds), b);
    }
  }
}
BIGMUL_IFMA inline void stream_fence() { _mm_sfence(); }
#endif

// dst[c dst_stride + r] = src[r src_stride + c] for r < rows, c < cols, in
// 8 x 8 tiles: the transposes' strided side then touches whole cache lines.
// Whole tiles in vector registers where the processor has AVX-512 (the
// IFMA engine's processors). around: the destination is not read again
// soon (a whole array's transpose, read back by the next pass): where its
// tile rows are whole aligned cache lines they are written around the cache,
// without the read for ownership of each line (its strided side touches a
// line a row).
inline void transpose(const u64* src, std::size_t src_stride, u64* dst, std::size_t dst_stride, std::size_t rows,
                      std::size_t cols, bool around = false) {
  constexpr std::size_t tile = 8;
#if defined(BIGMUL_HAVE_IFMA_CODE)
  static const bool vector = fft::ntt52_supported();
  const bool stream = around && vector && dst_stride % tile == 0 && reinterpret_cast<std::uintptr_t>(dst) % 64 == 0;
#endif
  for (std::size_t r0 = 0; r0 < rows; r0 += tile)
    for (std::size_t c0 = 0; c0 < cols; c0 += tile) {
      const std::size_t r1 = std::min(rows, r0 + tile), c1 = std::min(cols, c0 + tile);
#if defined(BIGMUL_HAVE_IFMA_CODE)
      if (vector && r1 - r0 == tile && c1 - c0 == tile) {
        const u64* s = src + r0 * src_stride + c0;
        u64* d = dst + c0 * dst_stride + r0;
        // d is 64-byte aligned when dst is: r0 and the stride are multiples of 8.
        stream ? transpose8x8<true>(s, src_stride, d, dst_stride) : transpose8x8(s, src_stride, d, dst_stride);
        continue;
      }
#endif
      for (std::size_t c = c0; c < c1; ++c)
        for (std::size_t r = r0; r < r1; ++r) dst[c * dst_stride + r] = src[r * src_stride + c];
    }
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (stream) stream_fence();
#endif
}

}  // namespace bigmul::dist
