// SPDX-License-Identifier: LGPL-3.0-or-later
// Limb-vector loops (GMP's mpn_add_n, mpn_addmul_1, ...) for both radices.
// Internal to the multiplication layer.
#pragma once

#include "mul/limb_ops.hpp"

namespace bigmul::detail {

// r[0..n) = a + b; returns the carry. r may alias a or b.
inline limb_t add_n(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, radix rx) {
  limb_t c = 0;
  for (std::size_t i = 0; i < n; ++i) r[i] = add_limb(a[i], b[i], c, rx);
  return c;
}

// r[0..an) = a + b, an >= bn; returns the carry. r may alias a.
inline limb_t add(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx) {
  limb_t c = add_n(r, a, b, bn, rx);
  for (std::size_t i = bn; i < an; ++i) r[i] = add_limb(a[i], 0, c, rx);
  return c;
}

// r[0..n) = a - b; returns the borrow. r may alias a or b.
inline limb_t sub_n(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, radix rx) {
  limb_t br = 0;
  for (std::size_t i = 0; i < n; ++i) r[i] = sub_limb(a[i], b[i], br, rx);
  return br;
}

// r[0..an) = a - b, an >= bn; returns the borrow.
inline limb_t sub(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx) {
  limb_t br = sub_n(r, a, b, bn, rx);
  for (std::size_t i = bn; i < an; ++i) r[i] = sub_limb(a[i], 0, br, rx);
  return br;
}

// Adds c into r[0..n) at position 0; returns the carry out of the top.
inline limb_t add_1(limb_t* r, std::size_t n, limb_t c, radix rx) {
  for (std::size_t i = 0; i < n && c; ++i) r[i] = add_limb(r[i], 0, c, rx);
  return c;
}

// r[0..n) += a[0..n) * b; returns the carry limb.
inline limb_t addmul_1(limb_t* r, const limb_t* a, std::size_t n, limb_t b, radix rx) {
  limb_t c = 0;
  for (std::size_t i = 0; i < n; ++i) r[i] = mul_add_limb(a[i], b, r[i], c, rx);
  return c;
}

// r[0..n) = a[0..n) * b; returns the carry limb.
inline limb_t mul_1(limb_t* r, const limb_t* a, std::size_t n, limb_t b, radix rx) {
  limb_t c = 0;
  for (std::size_t i = 0; i < n; ++i) r[i] = mul_add_limb(a[i], b, 0, c, rx);
  return c;
}

// Compares a and b of n limbs each: -1, 0, 1.
inline int cmp_n(const limb_t* a, const limb_t* b, std::size_t n) {
  for (std::size_t i = n; i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

}  // namespace bigmul::detail
