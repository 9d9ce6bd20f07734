// SPDX-License-Identifier: LGPL-3.0-or-later
// Sequential carry normalization: the reference every other carry algorithm
// is tested against ([DIEGUEZ18 Fig. 7.4], with a signed multi-digit carry).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "carry/digit_base.hpp"

namespace bigmul::carry {

// Writes the base-B digits of V = sum_i c[i] B^i into out[0..m) and returns
// true when 0 <= V < B^m. Coefficients may be negative (balanced FFT
// products); |c[i]| < 2^125. When it returns false, out holds garbage.
template <class T>
bool carry_normalize_sequential(const T* c, std::size_t nc, digit_base b, std::uint32_t* out, std::size_t m) {
  return with_base(b, [&](auto base) {
    __int128 carry = 0;
    for (std::size_t p = 0, end = std::max(m, nc); p < end; ++p) {
      const __int128 x = carry + (p < nc ? static_cast<__int128>(c[p]) : 0);
      __int128 r;
      carry = base.div_floor(x, r);
      if (p < m)
        out[p] = static_cast<std::uint32_t>(r);
      else if (r != 0)
        return false;  // a nonzero digit at or above B^m
    }
    return carry == 0;  // a negative V leaves carry -1
  });
}

}  // namespace bigmul::carry
