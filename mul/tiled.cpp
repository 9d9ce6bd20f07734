// SPDX-License-Identifier: LGPL-3.0-or-later
// CPU twin of the GPU tiled convolution. Output-stationary: each task owns a
// tile of T outputs and sweeps the T x T tile pairs that feed it, so no two
// tasks write the same output (the GPU's tile-pair + atomics variant needs no
// atomics here). Products of 32-bit coefficients are split into their low and
// high 32-bit halves and summed in two 64-bit accumulators: exact for up to
// 2^32 terms, and the loop vectorizes (no 128-bit adds in the inner loop).
#include "mul/tiled.hpp"

#include <algorithm>
#include <vector>

#include "bigmul/error.hpp"
#include "carry/carry.hpp"
#include "mul/coefficients.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {

void mul_tiled(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
               unsigned tile, unsigned threads) {
  const coeff_format f{rx, rx == radix::binary ? 32u : 9u};
  const std::size_t ca = f.count(an), cb = f.count(bn);
  std::vector<std::uint32_t> x(ca), y(cb);
  split_digits(a, an, f, x.data(), threads);
  split_digits(b, bn, f, y.data(), threads);
  const std::size_t nc = ca + cb - 1;
  const std::size_t T = std::clamp<std::size_t>(tile ? tile : 32, 1, 4096);
  std::vector<unsigned __int128> c(nc);
  const std::size_t out_tiles = (nc + T - 1) / T;
  prim::parallel_for(out_tiles, threads, [&](std::size_t ot) {
    const std::size_t k0 = ot * T, k1 = std::min(nc, k0 + T);
    std::vector<std::uint64_t> lo(T, 0), hi(T, 0);
    // a-tiles whose products can land in [k0, k1): i <= k1-1 and i >= k0-(cb-1).
    const std::size_t i_first = k0 >= cb - 1 ? k0 - (cb - 1) : 0;
    const std::size_t i_last = std::min(ca, k1);  // exclusive
    for (std::size_t i0 = i_first - i_first % T; i0 < i_last; i0 += T) {
      const std::size_t i1 = std::min(i_last, i0 + T);
      for (std::size_t i = std::max(i0, i_first); i < i1; ++i) {
        const std::uint64_t ai = x[i];
        // j = k - i must lie in [0, cb).
        const std::size_t kb = std::max(k0, i), ke = std::min(k1, i + cb);
        const std::uint32_t* yb = y.data() + (kb - i);
        std::uint64_t* lob = lo.data() + (kb - k0);
        std::uint64_t* hib = hi.data() + (kb - k0);
        for (std::size_t t = 0, e = ke > kb ? ke - kb : 0; t < e; ++t) {
          const std::uint64_t p = ai * yb[t];
          lob[t] += p & 0xffffffffu;
          hib[t] += p >> 32;
        }
      }
    }
    for (std::size_t k = k0; k < k1; ++k)
      c[k] = (static_cast<unsigned __int128>(hi[k - k0]) << 32) + lo[k - k0];
  });
  const std::size_t m = f.count(an + bn);
  std::vector<std::uint32_t> digits(m);
  if (!carry::carry_normalize<unsigned __int128>(c.data(), nc, carry::digit_base{rx == radix::decimal, f.digits},
                                                 digits.data(), m, threads))
    throw error(error::kind::internal, "tiled convolution: carry normalization overflow");
  join_digits(digits.data(), m, f, r, an + bn, threads);
}

}  // namespace bigmul::detail
