// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/number_view.hpp"

namespace bigmul::cli {

number_view view_of(const integer& x) { return {x.magnitude().data(), x.size(), x.is_negative(), x.get_radix()}; }

integer to_integer(const number_view& v) { return integer(v.magnitude(), v.negative, v.rx); }

std::uint64_t digit_count(const number_view& x) {
  if (x.size == 0) return 1;
  limb_t top = x.limbs[x.size - 1];
  std::uint64_t top_digits = 0;
  const unsigned base = x.rx == radix::decimal ? 10 : 16;
  for (; top; top /= base) ++top_digits;
  const std::uint64_t per_limb = x.rx == radix::decimal ? decimal_limb_digits : 16;
  return per_limb * (x.size - 1) + top_digits;
}

std::string describe(const number_view& x) {
  const bool decimal = x.rx == radix::decimal;
  return std::to_string(digit_count(x)) + (decimal ? " decimal" : " hex") + " digits (" + std::to_string(x.size) +
         " limbs, " + (decimal ? "decimal" : "binary") + " radix)";
}

}  // namespace bigmul::cli
