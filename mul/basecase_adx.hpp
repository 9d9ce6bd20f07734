// SPDX-License-Identifier: LGPL-3.0-or-later
// Binary schoolbook rows on MULX + ADCX/ADOX (x86-64 with BMI2 and ADX): two
// independent carry chains per row (CF: the low product halves plus r, OF:
// the previous high half), GMP's technique; faster than the Comba columns
// from 8 limbs up, slower below (the row set-up).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Whether the processor has BMI2 and ADX (and this build has the rows). Probed once.
bool basecase_adx_supported();

// Operand lengths from which mul_basecase uses the rows (an >= this).
inline constexpr std::size_t basecase_adx_min_limbs = 8;

// r[0 .. n) += a[0 .. n) * b, n >= 1; returns the carry limb. No branch
// depends on the values. Requires basecase_adx_supported().
limb_t addmul_1_adx(limb_t* r, const limb_t* a, std::size_t n, limb_t b);
// r[0 .. n) = a[0 .. n) * b, n >= 1; returns the carry limb (the first row
// of a product: nothing read from r). Requires basecase_adx_supported().
limb_t mul_1_adx(limb_t* r, const limb_t* a, std::size_t n, limb_t b);

// r[0 .. an+bn) = a * b, an >= bn >= 1, binary radix, no overlap. Requires
// basecase_adx_supported().
void mul_basecase_adx(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn);

}  // namespace bigmul::detail
