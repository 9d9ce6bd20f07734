// Newton iteration for the reciprocal of a normalized limb array (internal).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Below this many limbs the reciprocal comes from one schoolbook division.
inline constexpr std::size_t reciprocal_basecase_limbs = 48;

// x[0..n] (n + 1 limbs, x[n] == 1) with a * x < 2^(128 n) <= a * (x + 2), for
// a[0..n) normalized (top bit set). [BZ10] algorithm 3.5 (ApproximateReciprocal).
void approx_reciprocal(limb_t* x, const limb_t* a, std::size_t n);

}  // namespace bigmul::detail
