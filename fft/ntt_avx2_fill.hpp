// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX2 engine's first forward step fed by an ntt_fill callback
// (ntt_avx2_plan::forward_filled): the callback writes a chunk of columns of
// each part of the step (the radix-3 thirds, or the first radix-4 step's
// quarters) into small buffers that stay in L1, and the step reads them,
// converting any 64-bit value to its residue in registers (from_limbs), so
// the operand is written once instead of loaded and then read and written
// again (FLINT's fft_small also converts inside its first pass [FFTSMALL]).
// Internal to fft/ntt_avx2_radix3.cpp and fft/ntt_avx2_transform.cpp.
#pragma once

#include <algorithm>
#include <cstddef>

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_avx2_arith.hpp"

namespace bigmul::fft::avx2 {

#if defined(BIGMUL_HAVE_AVX2_CODE)

// Columns [at, at + chunk) of R parts, part r's column j at buf[r][j - at].
template <unsigned R>
struct fill_chunk {
  static constexpr std::size_t chunk = 512;
  alignas(32) std::uint64_t buf[R][chunk];
  std::size_t at = 0;
  limb_source conv;  // 2^32 mod p for from_limbs (its src and len unused)

  // Part r's values [b, b + need) (need <= chunk, a multiple of 4 or the
  // chunk's end): from fill below nonzero, zero from it on (the values there
  // are zero by forward_filled's contract; the fill is not asked for them).
  void take(unsigned r, std::size_t b, std::size_t need, std::size_t nonzero, ntt_fill fill, void* ctx) {
    const std::size_t filled = b >= nonzero ? 0 : std::min(need, nonzero - b);
    if (filled != 0) fill(ctx, buf[r], b, b + filled);
    std::fill(buf[r] + filled, buf[r] + need, std::uint64_t{0});
  }
  // Part r at column j (at <= j, j + 4 <= at + the part's need): the residues
  // of 4 values in [-p, p), as from_limbs gives them.
  BIGMUL_AVX2 __m256d operator()(unsigned r, std::size_t j, const vconst& c) const {
    return from_limbs(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(buf[r] + (j - at))), conv, c);
  }
};

#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace bigmul::fft::avx2
