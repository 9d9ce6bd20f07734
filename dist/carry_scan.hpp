// SPDX-License-Identifier: LGPL-3.0-or-later
// The product's carries across ranks: the problem-split scan of
// [DIEGUEZ18 §7.5] as one MPI collective.
//
// Each rank holds the limbs of its block with carry-in 0 and what carried
// out of its top, H <= 2 (dist/coefficients.hpp: a limb a position and the
// segments' tails added). With every rank holding at least 4 limbs
// (product_block), a carry c <= 3 entering the rank then leaves it as
// f(c) = H + [limbs + c >= B^len] <= 3. So a rank is one function
// {0..3} -> {0..3} (a 4-entry table; an empty rank is the identity), and
// the carry into rank r is (f_(r-1) o ... o f_0)(0): an exclusive scan with
// composition, associative but not commutative, by MPI_Exscan with an
// operator created with commute = 0. On carries {0, 1} a table is prim's
// (generate, propagate) pair, f(0) = g, f(1) = g | p, and composition is
// prim::carry_op (tests/dist check both).
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"

namespace bigmul::dist {

using carry_table = std::array<std::uint8_t, 4>;

// h o g: first g (the lower ranks), then h.
inline carry_table compose(const carry_table& g, const carry_table& h) {
  return {h[g[0]], h[g[1]], h[g[2]], h[g[3]]};
}

// out + c (c <= 3) in place; returns the carry out of the top limb.
unsigned add_carry(limb_t* out, std::size_t len, unsigned c, radix rx);

// The carry entering this rank: the exclusive scan of the tables (collective).
unsigned carry_in(MPI_Comm comm, const carry_table& mine);

}  // namespace bigmul::dist
