// SPDX-License-Identifier: LGPL-3.0-or-later
// Limb-level addition, subtraction, comparison and binary shifts.
#include <cstring>

#include "bigmul/arith.hpp"
#include "mul/limb_vec.hpp"

namespace bigmul {

limb_t add(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx) {
  if (an < bn) throw error(error::kind::invalid_argument, "bigmul::add: needs an >= bn");
  return detail::add(r, a, an, b, bn, rx);
}

limb_t sub(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx) {
  if (an < bn) throw error(error::kind::invalid_argument, "bigmul::sub: needs an >= bn");
  return detail::sub(r, a, an, b, bn, rx);
}

int compare(const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn) {
  while (an > 0 && a[an - 1] == 0) --an;
  while (bn > 0 && b[bn - 1] == 0) --bn;
  if (an != bn) return an < bn ? -1 : 1;
  return detail::cmp_n(a, b, an);
}

limb_t lshift(limb_t* r, const limb_t* a, std::size_t n, unsigned bits) {
  if (n == 0) return 0;
  if (bits == 0) {
    if (r != a) std::memmove(r, a, n * sizeof(limb_t));
    return 0;
  }
  // Top down, so r may overlap a at a higher address.
  const limb_t out = a[n - 1] >> (64 - bits);
  for (std::size_t i = n - 1; i > 0; --i) r[i] = (a[i] << bits) | (a[i - 1] >> (64 - bits));
  r[0] = a[0] << bits;
  return out;
}

limb_t rshift(limb_t* r, const limb_t* a, std::size_t n, unsigned bits) {
  if (n == 0) return 0;
  if (bits == 0) {
    if (r != a) std::memmove(r, a, n * sizeof(limb_t));
    return 0;
  }
  // Bottom up, so r may overlap a at a lower address.
  const limb_t out = a[0] << (64 - bits);
  for (std::size_t i = 0; i + 1 < n; ++i) r[i] = (a[i] >> bits) | (a[i + 1] << (64 - bits));
  r[n - 1] = a[n - 1] >> bits;
  return out;
}

}  // namespace bigmul
