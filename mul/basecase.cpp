// SPDX-License-Identifier: LGPL-3.0-or-later
// Schoolbook multiplication, product scanning (Comba [COMBA90]) in both radices: each
// output column sums its exact 128-bit products in a 192-bit accumulator, so
// the cost per product is a multiply and three adds (add, adc, adc) and each
// output limb is stored once.
//   binary: the column's low limb is the output, the rest carries on.
//   decimal: the column is reduced by 10^19 once (two 2-by-1 divisions)
//            instead of a 128-by-64 division per product.
// (Operand scanning, one addmul_1 row per limb of b, is slower: every row
// reloads and stores the whole partial product.)
#include "mul/basecase.hpp"

#include "mul/basecase_adx.hpp"
#include "mul/basecase_small.hpp"
#include "mul/limb_vec.hpp"
#include "mul/sqr_basecase.hpp"

namespace bigmul::detail {
namespace {

// Probed once at load time: the entry point's short path reaches the rows
// through here, and out-of-line probe calls are a visible part of a 9-limb product.
const bool have_adx_rows = basecase_adx_supported();

void mul_basecase_decimal(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn) {
  u128 carry = 0;  // < bn * 10^19 + 10^19: the quotient of the previous column
  for (std::size_t k = 0; k + 1 < an + bn; ++k) {
    // Column k: sum of a[i] b[k-i] for max(0, k-bn+1) <= i <= min(k, an-1).
    const std::size_t i0 = k + 1 > bn ? k + 1 - bn : 0, i1 = k < an ? k : an - 1;
    u128 low = carry;  // low 128 bits of the column sum
    limb_t high = 0;   // bits 128..191
    for (std::size_t i = i0; i <= i1; ++i) {
      const u128 p = static_cast<u128>(a[i]) * b[k - i];
      low += p;
      high += low < p;
    }
    // (high : low) = q * 10^19 + digit, by two 2-by-1 divisions (high < 10^19).
    const qr64 hi = div_1e19((static_cast<u128>(high) << 64) | static_cast<limb_t>(low >> 64));
    const qr64 lo = div_1e19((static_cast<u128>(hi.r) << 64) | static_cast<limb_t>(low));
    r[k] = lo.r;
    carry = (static_cast<u128>(hi.q) << 64) | lo.q;
  }
  r[an + bn - 1] = static_cast<limb_t>(carry);  // the product fits: the last carry is one limb
}

void mul_basecase_binary(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn) {
  u128 carry = 0;  // the previous column's sum >> 64 (< (bn + 1) 2^64)
  for (std::size_t k = 0; k + 1 < an + bn; ++k) {
    const std::size_t i0 = k + 1 > bn ? k + 1 - bn : 0, i1 = k < an ? k : an - 1;
    u128 low = carry;  // the column sum is high 2^128 + low
    limb_t high = 0;
    for (std::size_t i = i0; i <= i1; ++i) {
      const u128 p = static_cast<u128>(a[i]) * b[k - i];
      low += p;
      high += low < p;
    }
    r[k] = static_cast<limb_t>(low);
    carry = (static_cast<u128>(high) << 64) | static_cast<limb_t>(low >> 64);
  }
  r[an + bn - 1] = static_cast<limb_t>(carry);  // the product fits: the last carry is one limb
}

}  // namespace

void mul_basecase(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx) {
  if (rx == radix::decimal) {
    mul_basecase_decimal(r, a, an, b, bn);
    return;
  }
  // Squares by the schoolbook square: n(n+1)/2 limb products (mul/sqr_basecase.hpp).
  if (a == b && an == bn) {
    sqr_basecase(r, a, an);
    return;
  }
  // Up to basecase_small_max (10) limbs, a fixed unrolled kernel per shape (mul/basecase_small.hpp).
  if (an <= basecase_small_max) {
    mul_basecase_small(r, a, an, b, bn);
    return;
  }
  // Balanced shapes up to basecase_balanced_max (16) limbs: their fixed kernels.
  if (an == bn && an <= basecase_balanced_max) {
    basecase_balanced_kernels.f[an](r, a, b);
    return;
  }
  // Above, MULX/ADX rows where the processor has them (mul/basecase_adx.hpp).
  if (an >= basecase_adx_min_limbs && have_adx_rows) {
    mul_basecase_adx(r, a, an, b, bn);
    return;
  }
  mul_basecase_binary(r, a, an, b, bn);
}

}  // namespace bigmul::detail
