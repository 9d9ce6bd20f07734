// SPDX-License-Identifier: LGPL-3.0-or-later
#pragma once

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Schoolbook product on whole limbs: r[0..an+bn) = a * b, an >= bn >= 1, no overlap.
void mul_basecase(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx);

}  // namespace bigmul::detail
