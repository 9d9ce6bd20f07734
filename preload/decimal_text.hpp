// SPDX-License-Identifier: LGPL-3.0-or-later
// GMP's raw-digit strings in base 10 (digit values 0-9, most significant
// first) <-> binary limbs, through bigmul's subquadratic radix converter
// (src/arith) and its digit text code (src/digits). Both throw on failure
// (out of memory, a digit value > 9); the caller then falls back to GMP.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::preload {

// mpn_get_str(str, 10, up, un) for up[un-1] != 0: writes the digits without
// leading zeros and returns their count; {up, un} is left unchanged.
std::size_t get_str10(unsigned char* str, const limb_t* up, std::size_t un);

// mpn_set_str(rp, str, len, 10) for len >= 1 and str[0] != 0: returns the
// limbs written, the top one non-zero.
std::size_t set_str10(limb_t* rp, const unsigned char* str, std::size_t len);

}  // namespace bigmul::preload
