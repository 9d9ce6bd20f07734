// SPDX-License-Identifier: LGPL-3.0-or-later
// Schoolbook squaring, binary radix: a^2 = 2 sum_{i<j} a_i a_j B^(i+j) +
// sum a_i^2 B^(2i), n(n+1)/2 limb products instead of the n^2 of a general
// product (GMP's mpn_sqr_basecase, which makes mpn_sqr markedly faster than
// mpn_mul(a, a)).
//   up to sqr_basecase_small_max limbs: one fully unrolled kernel per length
//     (2-4 limbs: the triangle's rows, then the doubling and the diagonal;
//     3-4 limbs on MULX/ADX where the processor has them), from 5 product-scanning
//     (Comba [COMBA90]): each column sums its off-diagonal
//     products once, doubles the sum and adds the diagonal square (longer
//     fixed kernels gain nothing for much more code, so Karatsuba takes over
//     at 25);
//   above, with BMI2 + ADX: the off-diagonal triangle by MULX/ADX rows
//     (mul/basecase_adx.hpp), then one pass that doubles it (an ADCX chain)
//     and adds the diagonal squares (an ADOX chain);
//   else product-scanning columns in a loop.
// No branch or memory address depends on the operand's value (Montgomery
// squaring in src/arith relies on it).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Largest length with a fixed kernel.
inline constexpr std::size_t sqr_basecase_small_max = 24;

using sqr_small_fn = void (*)(limb_t* r, const limb_t* a);
// sqr_small_kernels.f[n]: r[0 .. 2n) = a^2 for 1 <= n <= sqr_basecase_small_max; nullptr at 0.
struct sqr_small_table {
  sqr_small_fn f[sqr_basecase_small_max + 1];
};
extern const sqr_small_table sqr_small_kernels;

// The fixed kernels as on a processor without BMI2 + ADX (3 and 4 limbs have
// MULX/ADX versions that the table picks where it can), for tests.
void sqr_small_without_adx(limb_t* r, const limb_t* a, std::size_t n);

// r[0 .. 2n) = a[0 .. n)^2, n >= 1, binary, r not overlapping a.
void sqr_basecase(limb_t* r, const limb_t* a, std::size_t n);

// The same on the MULX/ADX rows, n >= 2; requires basecase_adx_supported().
void sqr_basecase_adx(limb_t* r, const limb_t* a, std::size_t n);

// The same by product-scanning columns in a loop (any processor).
void sqr_basecase_comba(limb_t* r, const limb_t* a, std::size_t n);

}  // namespace bigmul::detail
