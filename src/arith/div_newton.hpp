// SPDX-License-Identifier: LGPL-3.0-or-later
// Blockwise Barrett division by a Newton reciprocal (internal).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Newton division pays once both the divisor and the quotient are this long
// (measured with bench/src/bench_arith); below, schoolbook division.
inline constexpr std::size_t newton_divisor_limbs = 150;
inline constexpr std::size_t newton_quotient_limbs = 150;

// Divides u[0..un) by the normalized d[0..dn) (top bit set), where u's top
// dn limbs are below d. x[0..k] is approx_reciprocal of d's top k limbs
// (1 <= k <= dn). Quotient blocks of at most k limbs are estimated from the
// dividend's top limbs times x (the estimate is within a few units of the
// true block, then corrected). Writes un - dn quotient limbs to q and leaves
// the remainder in u[0..dn) (u[dn..un) = 0).
void div_newton(limb_t* q, limb_t* u, std::size_t un, const limb_t* d, std::size_t dn, const limb_t* x,
                std::size_t k);

}  // namespace bigmul::detail
