// SPDX-License-Identifier: LGPL-3.0-or-later
// Binary-radix limb loops for the Karatsuba and Toom-3 products (GMP's
// mpn_add_n, mpn_sub_n): add/adc and sub/sbb chains, four limbs a pass. The radix-generic loops (mul/limb_vec.hpp)
// cost 2-3x more per limb at the sizes where they are most of a
// Karatsuba level's overhead (20-100 limbs).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>
#define BIGMUL_LIMB_BINARY_X86 1
#endif

namespace bigmul::detail::bin {

#if defined(BIGMUL_LIMB_BINARY_X86)
using carry_t = unsigned char;
inline carry_t addc(carry_t c, limb_t x, limb_t y, limb_t* r) {
  unsigned long long s;
  c = _addcarry_u64(c, x, y, &s);
  *r = s;
  return c;
}
inline carry_t subb(carry_t b, limb_t x, limb_t y, limb_t* r) {
  unsigned long long d;
  b = _subborrow_u64(b, x, y, &d);
  *r = d;
  return b;
}
#else
using carry_t = limb_t;
inline carry_t addc(carry_t c, limb_t x, limb_t y, limb_t* r) {
  const limb_t s = x + y, t = s + c;
  *r = t;
  return (s < x) | (t < s);
}
inline carry_t subb(carry_t b, limb_t x, limb_t y, limb_t* r) {
  const limb_t d = x - y, e = d - b;
  *r = e;
  return (x < y) | (d < b);
}
#endif

#if defined(BIGMUL_LIMB_BINARY_X86)
// Four limbs a pass in one adc (sbb) chain: lea and dec leave CF alone, so
// the carry stays in the flag from the first limb to the last (the
// intrinsics' code parks each sum on the stack and reloads it).
#define BIGMUL_BIN_LOOP(OP)                                   \
  "add $-1, %[c]\n\t" /* CF = c */                            \
  "1:\n\t"                                                    \
  "mov (%[x]), %[t0]\n\t"                                     \
  "mov 8(%[x]), %[t1]\n\t" OP " (%[y]), %[t0]\n\t"            \
  OP " 8(%[y]), %[t1]\n\t"                                    \
  "mov %[t0], (%[r])\n\t"                                     \
  "mov %[t1], 8(%[r])\n\t"                                    \
  "mov 16(%[x]), %[t0]\n\t"                                   \
  "mov 24(%[x]), %[t1]\n\t" OP " 16(%[y]), %[t0]\n\t"         \
  OP " 24(%[y]), %[t1]\n\t"                                   \
  "mov %[t0], 16(%[r])\n\t"                                   \
  "mov %[t1], 24(%[r])\n\t"                                   \
  "lea 32(%[x]), %[x]\n\t"                                    \
  "lea 32(%[y]), %[y]\n\t"                                    \
  "lea 32(%[r]), %[r]\n\t"                                    \
  "dec %[q]\n\t"                                              \
  "jnz 1b\n\t"                                                \
  "setc %b[c]\n\t"                                            \
  "movzbl %b[c], %k[c]\n\t"

// The quads part of add_n / sub_n: q >= 1 passes, carry c in and out.
inline limb_t add_quads(limb_t* r, const limb_t* x, const limb_t* y, std::size_t q, limb_t c) {
  limb_t t0, t1;
  asm volatile(BIGMUL_BIN_LOOP("adc")
               : [r] "+&r"(r), [x] "+&r"(x), [y] "+&r"(y), [q] "+&r"(q), [c] "+&r"(c), [t0] "=&r"(t0),
                 [t1] "=&r"(t1)
               :
               : "cc", "memory");
  return c;
}
inline limb_t sub_quads(limb_t* r, const limb_t* x, const limb_t* y, std::size_t q, limb_t c) {
  limb_t t0, t1;
  asm volatile(BIGMUL_BIN_LOOP("sbb")
               : [r] "+&r"(r), [x] "+&r"(x), [y] "+&r"(y), [q] "+&r"(q), [c] "+&r"(c), [t0] "=&r"(t0),
                 [t1] "=&r"(t1)
               :
               : "cc", "memory");
  return c;
}
#undef BIGMUL_BIN_LOOP
#endif

// r[0 .. n) = x + y; returns the carry. r may alias x or y.
inline limb_t add_n(limb_t* r, const limb_t* x, const limb_t* y, std::size_t n) {
  carry_t c = 0;
  std::size_t i = 0;
  const std::size_t rem = n % 4;
  for (; i < rem; ++i) c = addc(c, x[i], y[i], r + i);
#if defined(BIGMUL_LIMB_BINARY_X86)
  return n >= 4 ? add_quads(r + rem, x + rem, y + rem, n / 4, c) : c;
#else
  for (; i < n; ++i) c = addc(c, x[i], y[i], r + i);
  return c;
#endif
}

// r[0 .. n) = x - y; returns the borrow. r may alias x or y.
inline limb_t sub_n(limb_t* r, const limb_t* x, const limb_t* y, std::size_t n) {
  carry_t b = 0;
  std::size_t i = 0;
  const std::size_t rem = n % 4;
  for (; i < rem; ++i) b = subb(b, x[i], y[i], r + i);
#if defined(BIGMUL_LIMB_BINARY_X86)
  return n >= 4 ? sub_quads(r + rem, x + rem, y + rem, n / 4, b) : b;
#else
  for (; i < n; ++i) b = subb(b, x[i], y[i], r + i);
  return b;
#endif
}

// r[0 .. n) += c at limb 0; returns the carry out of the top.
inline limb_t add_1(limb_t* r, std::size_t n, limb_t c) {
  for (std::size_t i = 0; i < n && c; ++i) {
    r[i] += c;
    c = r[i] < c;
  }
  return c;
}

// r[0 .. n) -= b at limb 0; returns the borrow out of the top.
inline limb_t sub_1(limb_t* r, std::size_t n, limb_t b) {
  for (std::size_t i = 0; i < n && b; ++i) {
    const limb_t v = r[i];
    r[i] = v - b;
    b = v < b;
  }
  return b;
}

// Compares x and y (n limbs each): -1, 0, 1.
inline int cmp_n(const limb_t* x, const limb_t* y, std::size_t n) {
  for (std::size_t i = n; i-- > 0;)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

}  // namespace bigmul::detail::bin
