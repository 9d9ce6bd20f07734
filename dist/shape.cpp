// SPDX-License-Identifier: LGPL-3.0-or-later
// The distributed transform's shape (dist/shape.hpp).
#include "dist/shape.hpp"

#include "fft/ntt.hpp"

namespace bigmul::dist {

shape four_step_shape(std::size_t count) {
  const std::size_t n = fft::ntt_fit_length(std::max<std::size_t>(count, 16));
  if (n == 0) return {};
  const std::size_t pow2 = n % 3 == 0 ? n / 3 : n;
  std::size_t n1 = 1;
  while (n1 * n1 < pow2) n1 *= 2;
  if (n1 * n1 > pow2) n1 /= 2;  // n1 = 2^floor(log2(pow2) / 2): n2 >= n1
  return {n, n1, n / n1};
}

}  // namespace bigmul::dist
