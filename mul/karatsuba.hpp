#pragma once

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Karatsuba product r[0..an+bn) = a * b (an >= bn >= 1, no overlap). Pieces
// below `basecase_below` limbs use the schoolbook; unbalanced operands are cut
// into bn-limb slices of a.
void mul_karatsuba(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                   std::size_t basecase_below);

// Squares (a == b, an == bn, binary) take sqr_karatsuba from mul_karatsuba.
// Karatsuba squaring r[0 .. 2n) = a^2 (binary, n >= 1, no overlap): the three
// half-size products are squares, a0^2, a1^2 and (a0 - a1)^2 (never negative:
// the middle term is always z0 + z2 - z1). Pieces below
// sqr_karatsuba_min_limbs use the schoolbook square (mul/sqr_basecase.hpp),
// whose n(n+1)/2 products put its crossover above the product's: measured
// (bench_small, under load) 0.85-0.87x mpn_sqr's time by the fixed kernels up
// to 24 limbs, 0.93-0.97x by Karatsuba over them at 25-27.
inline constexpr std::size_t sqr_karatsuba_min_limbs = 25;
void sqr_karatsuba(limb_t* r, const limb_t* a, std::size_t n);

// Binary squares below this many limbs stay off the NTT (bigmul::mul's
// dispatcher): Karatsuba's and Toom-3's squares, which square their pieces,
// measured 0.90-0.99x mpn_sqr's time at 112-173 limbs against the IFMA NTT's
// square at 0.99-1.26x (one process, interleaved, under load), while general
// products take the NTT from 118 limbs (mul/params_cpu.inc).
inline constexpr std::size_t sqr_ntt_min_limbs = 174;

}  // namespace bigmul::detail
