// SPDX-License-Identifier: LGPL-3.0-or-later
// Newton iteration for the reciprocal of a normalized limb array (internal).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Below this many limbs the reciprocal comes from one schoolbook division.
inline constexpr std::size_t reciprocal_basecase_limbs = 48;
// From this many limbs a Newton step runs its two products as cyclic ones by
// one cached transform of the half reciprocal (reciprocal.cpp). Below it the
// full products win: the cyclic length rounds up to 2^k or 3 2^k, while the
// multiply folds its transforms to the product's length.
inline constexpr std::size_t reciprocal_cyclic_limbs = std::size_t{1} << 18;

// x[0..n] (n + 1 limbs, x[n] == 1) with a * x < 2^(128 n) <= a * (x + 2), for
// a[0..n) normalized (top bit set). [BZ10] algorithm 3.5 (ApproximateReciprocal).
void approx_reciprocal(limb_t* x, const limb_t* a, std::size_t n);

}  // namespace bigmul::detail
