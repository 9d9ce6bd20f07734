#pragma once

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Karatsuba product r[0..an+bn) = a * b (an >= bn >= 1, no overlap). Pieces
// below `basecase_below` limbs use the schoolbook; unbalanced operands are cut
// into bn-limb slices of a.
void mul_karatsuba(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                   std::size_t basecase_below);

}  // namespace bigmul::detail
