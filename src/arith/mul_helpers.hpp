// SPDX-License-Identifier: LGPL-3.0-or-later
// Helpers around bigmul::mul for the division and conversion code (internal).
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "bigmul/mul.hpp"

namespace bigmul::detail {

// r[0..an+bn) = a * b for any sizes (zero sizes give zeros), binary radix.
inline void mul_any(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn) {
  if (an == 0 || bn == 0) {
    std::fill(r, r + an + bn, limb_t{0});
    return;
  }
  if (an >= bn) {
    bigmul::mul(r, a, an, b, bn, radix::binary);
  } else {
    bigmul::mul(r, b, bn, a, an, radix::binary);
  }
}

// Limb count without high zero limbs.
inline std::size_t trimmed(const limb_t* p, std::size_t n) {
  while (n > 0 && p[n - 1] == 0) --n;
  return n;
}

// p[0..n) -= 1; returns the borrow out of the top.
inline limb_t sub_1_in_place(limb_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i]-- != 0) return 0;
  return 1;
}

// p[0..n) += 1; returns the carry out of the top.
inline limb_t add_1_in_place(limb_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (++p[i] != 0) return 0;
  return 1;
}

inline void trim(std::vector<limb_t>& v) {
  while (!v.empty() && v.back() == 0) v.pop_back();
}

}  // namespace bigmul::detail
