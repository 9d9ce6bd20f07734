// SPDX-License-Identifier: LGPL-3.0-or-later
// The product's coefficients to its limbs (dist/product.cpp). A rank's
// residues lie in position order (four_step::product_inverse): runs of C
// consecutive positions, one a row j2 at j1 + n1 j2 for its columns j1, or
// one run of all n positions where the rank holds every column. Each run is
// a segment for the single-process Garner and carry kernel
// (detail::ntt_crt_and_carry, mul/ntt_crt_carry.hpp): its limbs and a tail
// of three limbs carried past its end. The limbs go to the ranks that hold
// their positions (one word a position), the tails after them, added there
// with carries; what carries out of a rank's block is its carry table
// (dist/carry_scan.hpp). A rank that holds every column and every position
// (one rank) writes its limbs in place, as the single process does.
#pragma once

#include <cstdint>

#include "bigmul/config.hpp"
#include "dist/carry_scan.hpp"
#include "dist/exchange.hpp"
#include "dist/product.hpp"

namespace bigmul::dist {

// res[0 .. primes): the rank's residues of the product, each columns() x n2
// words in position order; res[0] is overwritten. out: the rank's block of
// product_block(an + bn, ...), written with carry-in 0. recv: scratch of
// min(ctx.round, the block's length) words, the limbs' all-to-all's rounds
// (unused by a rank that holds everything). Returns the
// block's carry table. Collective; a coefficient past its bound is a
// bigmul::error (internal) on every rank.
carry_table coefficients_to_limbs(const context& ctx, const plan_layout& L, unsigned primes,
                                  std::uint64_t* const res[], std::uint64_t* recv, limb_t* out);

// The carry table of a block of limbs out[0 .. len) whose sum with carry-in
// 0 carried `over` (<= 2) out of its top.
carry_table block_table(const limb_t* out, std::size_t len, unsigned over, radix rx);

}  // namespace bigmul::dist
