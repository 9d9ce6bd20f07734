// SPDX-License-Identifier: LGPL-3.0-or-later
#pragma once

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Tiled convolution ([DIEGUEZ18 §7.4]): operands split into 32-bit (binary) or
// 9-decimal-digit (decimal) coefficients, T x T tile pairs of exact products
// accumulated per output tile, then carry normalization. r[0..an+bn) = a*b.
void mul_tiled(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
               unsigned tile, unsigned threads);

}  // namespace bigmul::detail
