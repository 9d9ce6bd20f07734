// Limbs -> b-bit NTT coefficients as residues (see mul/ntt_coefficients.hpp).
#include "mul/ntt_coefficients.hpp"

#include <algorithm>

#include "fft/ntt_arith.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {

void ntt_load_coefficients(std::uint64_t* dst, std::size_t n, const limb_t* src, std::size_t len, std::size_t count,
                           unsigned bits, std::uint64_t p, unsigned threads) {
  const std::uint64_t one_shoup = fft::shoup_companion(1, p);
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  // Coefficients below `safe` have a next limb to read: no bounds checks.
  const std::size_t safe = len >= 2 ? std::min(count, (64 * (len - 1)) / bits) : 0;
  prim::parallel_chunks(n, std::size_t{1} << 13, threads, [&](std::size_t b, std::size_t e) {
    const std::size_t fast_end = std::min(std::max(b, safe), e), mid = std::min(std::max(b, count), e);
    for (std::size_t j = b; j < fast_end; ++j) {
      const std::size_t off = j * bits, i = off >> 6;
      const unsigned s = static_cast<unsigned>(off & 63);
      // (hi << 1) << (63 - s): hi << (64 - s), 0 when s == 0.
      const std::uint64_t v = ((src[i] >> s) | ((src[i + 1] << 1) << (63 - s))) & mask;
      dst[j] = fft::mul_shoup_lazy(v, 1, one_shoup, p);
    }
    for (std::size_t j = fast_end; j < mid; ++j)
      dst[j] = fft::mul_shoup_lazy(ntt_coefficient_at(src, len, j, bits), 1, one_shoup, p);
    for (std::size_t j = mid; j < e; ++j) dst[j] = 0;
  });
}

void ntt_extract_coefficients(std::uint64_t* dst, const limb_t* src, std::size_t len, std::size_t b, std::size_t e,
                              unsigned bits) {
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::size_t safe = len >= 2 ? (64 * (len - 1)) / bits : 0;  // below it a next limb exists
  const std::size_t fast_end = std::min(std::max(b, safe), e);
  for (std::size_t j = b; j < fast_end; ++j) {
    const std::size_t off = j * bits, i = off >> 6;
    const unsigned s = static_cast<unsigned>(off & 63);
    dst[j - b] = ((src[i] >> s) | ((src[i + 1] << 1) << (63 - s))) & mask;
  }
  for (std::size_t j = fast_end; j < e; ++j) dst[j - b] = ntt_coefficient_at(src, len, j, bits);
}

void ntt_pack_residues(std::uint64_t* dst, const std::uint64_t* src, std::size_t count, unsigned width,
                       std::uint64_t p, unsigned threads) {
  const std::size_t units = (count + 63) / 64;
  prim::parallel_chunks(units, 256, threads, [&](std::size_t ub, std::size_t ue) {
    for (std::size_t u = ub; u < ue; ++u) {
      std::uint64_t* out = dst + width * u;
      std::uint64_t cur = 0;
      unsigned fill = 0;  // bits of cur in use, < 64
      for (std::size_t j = 64 * u, end = std::min(count, j + 64); j < end; ++j) {
        const std::uint64_t v = fft::reduce_2p_to_p(src[j], p);
        cur |= v << fill;
        if (fill + width >= 64) {  // fill > 0 here (width < 64)
          *out++ = cur;
          cur = fill ? v >> (64 - fill) : 0;
          fill = fill + width - 64;
        } else {
          fill += width;
        }
      }
      if (fill) *out = cur;
    }
  });
}

void ntt_unpack_residues(std::uint64_t* dst, const std::uint64_t* src, std::size_t count, unsigned width,
                         unsigned threads) {
  const std::size_t units = (count + 63) / 64;
  const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
  prim::parallel_chunks(units, 256, threads, [&](std::size_t ub, std::size_t ue) {
    for (std::size_t u = ub; u < ue; ++u) {
      const std::uint64_t* in = src + width * u;
      for (std::size_t j = 64 * u, end = std::min(count, j + 64), pos = 0; j < end; ++j, pos += width) {
        const std::size_t w = pos >> 6;
        const unsigned s = static_cast<unsigned>(pos & 63);
        std::uint64_t v = in[w] >> s;
        if (s + width > 64) v |= in[w + 1] << (64 - s);
        dst[j] = v & mask;
      }
    }
  });
}

}  // namespace bigmul::detail
