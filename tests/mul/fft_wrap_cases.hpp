// SPDX-License-Identifier: LGPL-3.0-or-later
// Products whose FFT pass wraps (mul/fft_wrap.hpp): one case per
// (radix, coefficient size, wrapped coefficients) found by search, balanced
// and unbalanced, every one at a coefficient size the exactness table allows
// at its length (so the pass runs wrapped and is not retried shorter). Shared
// by the CPU test (test_mul.cpp) and the GPU one (test_mul_gpu.cu).
#pragma once

#include <cstddef>
#include <set>
#include <tuple>
#include <vector>

#include "bigmul/mul.hpp"
#include "mul/coefficients.hpp"
#include "mul/fft_exactness.hpp"
#include "mul/fft_pass_policy.hpp"

namespace bigmul::test {

struct fft_wrap_case {
  radix rx;
  unsigned digits;
  std::size_t an, bn;  // an >= bn
  std::size_t length, wrap;
};

inline std::vector<fft_wrap_case> fft_wrap_cases(algorithm algo, std::size_t max_limbs) {
  std::vector<fft_wrap_case> out;
  std::set<std::tuple<radix, unsigned, std::size_t, bool>> seen;  // one per (rx, digits, wrap, unbalanced)
  const std::pair<radix, unsigned> formats[] = {
      {radix::binary, 16}, {radix::binary, 12}, {radix::binary, 10}, {radix::decimal, 4}, {radix::decimal, 3},
      {radix::decimal, 2}};
  for (const auto& [rx, digits] : formats) {
    const detail::coeff_format f{rx, digits};
    for (std::size_t an = 1; an <= max_limbs; ++an) {
      for (std::size_t back = 0; back <= 8; ++back) {
        const std::size_t bn = back < 7 ? an - back : back - 6;  // an .. an - 6, then 1 and 2
        if (bn == 0 || bn > an) continue;  // an - back wrapped round for small an
        const detail::fft_pass_shape s = detail::fft_pass_shape_of(algo, f, an, bn);
        if (s.wrap == 0) continue;
        unsigned log2_len = 0;
        while ((std::size_t{1} << log2_len) < s.length) ++log2_len;
        if (digits > detail::fft_safe_digits(algo, rx, log2_len)) continue;
        const bool unbalanced = bn * 4 < an;
        if (!seen.insert({rx, digits, s.wrap, unbalanced}).second) continue;
        out.push_back({rx, digits, an, bn, s.length, s.wrap});
      }
    }
  }
  return out;
}

}  // namespace bigmul::test
