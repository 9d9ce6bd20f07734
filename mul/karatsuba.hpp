// SPDX-License-Identifier: LGPL-3.0-or-later
#pragma once

#include "bigmul/config.hpp"
#include "mul/params_cpu.hpp"

namespace bigmul::detail {

// Karatsuba product r[0..an+bn) = a * b (an >= bn >= 1, no overlap). Pieces
// below `basecase_below` limbs use the schoolbook; unbalanced operands are cut
// into bn-limb slices of a.
void mul_karatsuba(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                   std::size_t basecase_below);

// Squares (a == b, an == bn, binary) take sqr_karatsuba from mul_karatsuba.
// Karatsuba squaring r[0 .. 2n) = a^2 (binary, n >= 1, no overlap): the three
// half-size products are squares, a0^2, a1^2 and (a0 - a1)^2 (never negative:
// the middle term is always z0 + z2 - z1). Pieces below `basecase_below`
// (default: params_cpu's sqr_karatsuba, measured by bench/tune/tune_cpu) use
// the schoolbook square (mul/sqr_basecase.hpp), whose n(n+1)/2 products put
// its crossover above the product's. tune_cpu passes other cut-offs to time
// one level of splitting.
inline const std::size_t& sqr_karatsuba_min_limbs = params_cpu::sqr_karatsuba;  // the table in use
void sqr_karatsuba(limb_t* r, const limb_t* a, std::size_t n,
                   std::size_t basecase_below = sqr_karatsuba_min_limbs);

// Binary squares stay off an NTT engine below params_cpu's sqr_ntt for it
// (params_cpu::sqr_ntt_crossover; the dispatcher): Karatsuba's and Toom-3's
// squares, which square their pieces, beat the NTT's square further up than
// they beat its general product.

}  // namespace bigmul::detail
