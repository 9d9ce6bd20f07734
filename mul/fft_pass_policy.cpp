// SPDX-License-Identifier: LGPL-3.0-or-later
#include "mul/fft_pass_policy.hpp"

#include <algorithm>

#include "bigmul/mul.hpp"
#include "mul/algorithm_table.hpp"
#include "mul/fft_exactness.hpp"

namespace bigmul::detail {
namespace {

unsigned log2_ceil(std::size_t n) {
  unsigned l = 0;
  while ((std::size_t{1} << l) < n) ++l;
  return l;
}

}  // namespace

std::size_t fft_transform_length(algorithm algo, std::size_t coefficients) {
  const algorithm_desc* d = find_algorithm(algo);
  std::size_t n = d && d->min_length ? d->min_length : 1;
  while (n < coefficients) n <<= 1;
  return n;
}

fft_pass_shape fft_pass_shape_of(algorithm algo, coeff_format f, std::size_t an, std::size_t bn) {
  const std::size_t ca = f.count(an) + 1, cb = f.count(bn) + 1, nc = fft_product_coefficients(f, an, bn);
  fft_pass_shape s;
  s.length = fft_transform_length(algo, nc);
  const std::size_t half = s.length / 2;
  if (half >= fft_wrap_min_length && nc - half <= fft_max_wrap && ca <= half && cb <= half) {
    s.length = half;
    s.wrap = nc - half;
  }
  return s;
}

unsigned fft_pick_digits(algorithm algo, radix rx, std::size_t an, std::size_t bn) {
  const unsigned table_max = rx == radix::binary ? 24 : 7;  // the exactness table's largest rows
  unsigned best = 0;
  std::size_t best_n = 0;
  for (unsigned d = table_max; d >= 1; --d) {
    const coeff_format f{rx, d};
    const std::size_t n = fft_pass_length(algo, f, an, bn);
    if (d > fft_safe_digits(algo, rx, log2_ceil(n))) continue;
    if (best == 0 || n <= best_n) {
      best = d;
      best_n = n;
    } else {
      break;  // fewer digits only make the transform longer
    }
  }
  return best;
}

fft_digit_choice fft_choose_digits(algorithm algo, radix rx, std::size_t an, std::size_t bn, unsigned forced) {
  fft_digit_choice c;
  const unsigned table_pick = fft_pick_digits(algo, rx, an, bn);
  const unsigned digits = forced ? forced : table_pick;
  const unsigned max_digits = fft_max_digits(rx);
  if (digits > max_digits) {
    c.bad_size = true;
    c.why = "coefficient size " + std::to_string(digits) + " too large (at most " + std::to_string(max_digits) +
            (rx == radix::binary ? " bits)" : " decimal digits)");
    return c;
  }
  if (digits == 0) {
    c.why = std::string(algorithm_name(algo)) + " is not exact for a " + std::to_string(an) + " x " +
            std::to_string(bn) + "-limb product (no coefficient size passes the exactness table)";
    return c;
  }
  c.first = digits;
  c.lowest = std::max(1u, std::min(digits, table_pick ? table_pick : digits) - 1);
  return c;
}

}  // namespace bigmul::detail
