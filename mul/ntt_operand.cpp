// SPDX-License-Identifier: LGPL-3.0-or-later
// An NTT product's operands into residues: see mul/ntt_operand.hpp.
#include "mul/ntt_operand.hpp"

namespace bigmul::detail {

void ntt_load_residues(fft::u64* dst, std::size_t n, const limb_t* src, std::size_t len, fft::u64 p,
                       unsigned threads) {
  const fft::u64 one_shoup = fft::shoup_companion(1, p);
  prim::parallel_chunks(n, ntt_grain, threads, [&](std::size_t b, std::size_t e) {
    const std::size_t mid = std::min(std::max(b, len), e);
    for (std::size_t i = b; i < mid; ++i) dst[i] = fft::mul_shoup_lazy(src[i], 1, one_shoup, p);
    for (std::size_t i = mid; i < e; ++i) dst[i] = 0;
  });
}

}  // namespace bigmul::detail
