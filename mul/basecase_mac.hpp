// SPDX-License-Identifier: LGPL-3.0-or-later
// The product-scanning (Comba) step of the fixed-size schoolbook kernels
// (mul/basecase_small.cpp).
#pragma once

#include "mul/limb_ops.hpp"

namespace bigmul::detail {

// Column accumulator (c2 : c1 : c0) += x * y. On x86-64 the add chain is
// written out (add, adc, adc): compilers turn the portable form's
// comparisons into setc/movzx sequences twice as long.
[[gnu::always_inline]] inline void comba_mac(limb_t& c0, limb_t& c1, limb_t& c2, limb_t x, limb_t y) {
  const u128 p = static_cast<u128>(x) * y;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  asm("add %[pl], %[c0]\n\t"
      "adc %[ph], %[c1]\n\t"
      "adc $0, %[c2]"
      : [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2)
      : [pl] "r"(static_cast<limb_t>(p)), [ph] "r"(static_cast<limb_t>(p >> 64))
      : "cc");
#else
  const u128 s = (static_cast<u128>(c1) << 64 | c0) + p;
  c2 += s < p;
  c0 = static_cast<limb_t>(s);
  c1 = static_cast<limb_t>(s >> 64);
#endif
}

// (c2 : c1 : c0) += x.
[[gnu::always_inline]] inline void comba_add(limb_t& c0, limb_t& c1, limb_t& c2, limb_t x) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  asm("add %[x], %[c0]\n\t"
      "adc $0, %[c1]\n\t"
      "adc $0, %[c2]"
      : [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2)
      : [x] "r"(x)
      : "cc");
#else
  c0 += x;
  const limb_t k = c0 < x;
  c1 += k;
  c2 += c1 < k;
#endif
}

}  // namespace bigmul::detail
