// SPDX-License-Identifier: LGPL-3.0-or-later
// Fixed-size binary schoolbook products for operands of at most 10 limbs:
// one fully unrolled product-scanning (Comba [COMBA90]) kernel per shape
// an x bn, chosen from a table. At these sizes the generic loops spend more
// on loop bounds and set-up than on the multiplications (1.3-1.6x GMP's
// mpn_mul here); unrolled, every a[i] b[j] is a mul and three adds into a
// 192-bit column accumulator, no branch, no stack.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Largest an (and so bn) with a fixed kernel.
inline constexpr std::size_t basecase_small_max = 10;

using basecase_small_fn = void (*)(limb_t* r, const limb_t* a, const limb_t* b);

// basecase_small_kernels[an][bn]: r[0 .. an+bn) = a * b, binary, for
// 1 <= bn <= an <= basecase_small_max, r not overlapping a or b; nullptr
// elsewhere.
struct basecase_small_table {
  basecase_small_fn f[basecase_small_max + 1][basecase_small_max + 1];
};
extern const basecase_small_table basecase_small_kernels;

inline void mul_basecase_small(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn) {
  basecase_small_kernels.f[an][bn](r, a, b);
}

// Balanced shapes n x n past the table, up to basecase_balanced_max: the same
// unrolled columns beat the MULX/ADX rows at 11-16 limbs (the lengths
// Karatsuba's and Toom-3's pieces bottom out at).
inline constexpr std::size_t basecase_balanced_max = 16;
struct basecase_balanced_table {
  basecase_small_fn f[basecase_balanced_max + 1];  // nullptr up to basecase_small_max
};
extern const basecase_balanced_table basecase_balanced_kernels;

}  // namespace bigmul::detail
