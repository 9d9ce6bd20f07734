// SPDX-License-Identifier: LGPL-3.0-or-later
// Toom-3 (Toom-Cook 3-way) multiplication, binary radix, with Bodrato's
// evaluation points and interpolation sequence [BODRATO07]: five products of
// a third of the size instead of Karatsuba's three of half (O(n^1.465)).
// Sits between Karatsuba and the NTT where it pays (the crossover is
// params_cpu's toom3 entry, measured by bench/tune/tune_cpu).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Smallest operand (bn) for which mul_toom3 splits; below, Karatsuba.
inline constexpr std::size_t toom3_min_limbs = 9;

// r[0 .. an+bn) = a * b, binary radix, an >= bn >= 1, no overlap. Pieces of
// at least `toom3_below` limbs (>= toom3_min_limbs) split three ways,
// smaller ones go to Karatsuba (pieces below `karatsuba_below` limbs: the
// schoolbook). Unbalanced operands are cut into bn-limb slices of a.
void mul_toom3(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
               std::size_t toom3_below, std::size_t karatsuba_below);

}  // namespace bigmul::detail
