// SPDX-License-Identifier: LGPL-3.0-or-later
// The product's carries across ranks: the problem-split scan of
// [DIEGUEZ18 §7.5] as one MPI collective.
//
// Each rank holds sums s_i < 3B of three base-B digits at its positions
// (dist/product.cpp sends every coefficient's three digits to the positions
// they land on). It normalizes them with carry-in 0 into limbs and an
// overflow H <= 2; a carry c <= 3 entering the rank then leaves it as
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

// Sums of three 64-bit digits (< 3 2^64): the low words, and the high
// parts (<= 2) as bytes, so a sum takes 9 bytes instead of 16 and the low
// words' array is the size of the other working arrays (dist/product.cpp
// reuses them from product to product).
struct sums_ref {
  std::uint64_t* lo;
  std::uint8_t* hi;
  // s[q] += v.
  void add(std::size_t q, std::uint64_t v) const {
    const std::uint64_t t = lo[q] + v;
    hi[q] = static_cast<std::uint8_t>(hi[q] + (t < v ? 1 : 0));
    lo[q] = t;
  }
};

// out[i] = the limbs of sum s[i] B^i (carry-in 0); returns this rank's table.
carry_table normalize_sums(const sums_ref& s, std::size_t len, limb_t* out, radix rx);

// out + c (c <= 3) in place; returns the carry out of the top limb.
unsigned add_carry(limb_t* out, std::size_t len, unsigned c, radix rx);

// The carry entering this rank: the exclusive scan of the tables (collective).
unsigned carry_in(MPI_Comm comm, const carry_table& mine);

}  // namespace bigmul::dist
