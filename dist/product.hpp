// SPDX-License-Identifier: LGPL-3.0-or-later
// Pieces of the distributed product (dist/product.cpp) that tests reach.
#pragma once

#include <cstddef>
#include <vector>

#include "bigmul/config.hpp"
#include "dist/shape.hpp"

namespace bigmul::dist {

// The global layout of a product: the operands' blocks and the transform.
struct plan_layout {
  std::vector<std::size_t> a_off, a_len, b_off, b_len;  // per rank
  std::size_t an = 0, bn = 0;
  shape s;
  bool ifma = false;  // every rank runs the IFMA engine
  bool four_primes = false;  // BIGMUL_DIST_PRIMES=4 on some rank (tests): IFMA's four at any size
  // The limbs' radix: decimal limbs (< 10^19) keep three IFMA primes to
  // ~2^23.8 limbs where binary's take four past ~2^22 (mul/ntt_layout.cpp).
  radix rx = radix::binary;
};

// Words each buffer of this rank needs (preflight_bytes sums their peak).
struct buffer_words {
  unsigned primes = 3;  // the engine's (dist/four_step.hpp)
  std::size_t cols = 0, rows = 0, send = 0, recv = 0, out = 0;
  std::size_t limbs_in = 0, tails = 0;  // the coefficients' exchanges (dist/coefficients.hpp)
  // The row and residue arrays' words: they trade places (a prime's result
  // goes to a row array in position order, which becomes its residue array).
  std::size_t arr = 0;
  std::size_t peak_bytes() const;
};
buffer_words plan_buffers(const plan_layout& L, int size, int rank);

// Whether this rank can run the IFMA engine (four primes below 2^50) rather
// than the portable one (three 62-bit primes): where the processor has it,
// unless BIGMUL_DIST_ENGINE=portable (the tests take both). The product
// takes IFMA only when every rank can (plan_layout::ifma).
bool use_ifma_engine();

}  // namespace bigmul::dist
