// SPDX-License-Identifier: LGPL-3.0-or-later
// Pieces of the distributed product (dist/product.cpp) that tests reach.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "bigmul/config.hpp"
#include "dist/shape.hpp"

namespace bigmul::dist {

// The local engines a product can run, least capable first: the portable
// one (three 62-bit primes), AVX2 + FMA and AVX-512 IFMA (both on the same
// four primes below 2^50, fft::ntt52_primes, so they share Garner's kernels).
enum class engine : unsigned { portable = 0, avx2 = 1, ifma = 2 };
inline bool on_ntt52(engine e) { return e != engine::portable; }
const char* engine_name(engine e);

// The global layout of a product: the operands' blocks and the transform.
struct plan_layout {
  std::vector<std::size_t> a_off, a_len, b_off, b_len;  // per rank
  std::size_t an = 0, bn = 0;
  shape s;
  engine eng = engine::portable;  // the least capable rank's (local_engine)
  bool four_primes = false;  // BIGMUL_DIST_PRIMES=4 on some rank (tests): four primes below 2^50 at any size
  // The limbs' radix: decimal limbs (< 10^19) keep three IFMA primes to
  // ~2^23.8 limbs where binary's take four past ~2^22 (mul/ntt_layout.cpp).
  radix rx = radix::binary;
};

// Words each buffer of this rank needs (preflight_bytes sums their peak).
struct buffer_words {
  unsigned primes = 3;  // the engine's (dist/four_step.hpp)
  std::size_t cols = 0, rows = 0, send = 0, recv = 0, out = 0;
  std::size_t limbs_in = 0, tails = 0;  // the coefficients' exchanges (dist/coefficients.hpp)
  std::size_t round = 0;  // words a side of an all-to-all's round (round_words)
  std::size_t scratch = 0;  // the threads' column gathers and strips of rows (four_step::scratch_words)
  // The row and residue arrays' words: they trade places (a prime's result
  // goes to a row array in position order, which becomes its residue array).
  std::size_t arr = 0;
  std::size_t peak_bytes() const;
  // The transforms' arrays at their peak (the last prime's): the residues
  // (its own: B's columns), A's row array, the round buffers, the
  // threads' scratch.
  std::size_t transform_words() const;
};
// The global layout from every rank's block sizes (collective; a product
// past the primes' cap is a bigmul::error on this rank).
plan_layout gather_layout(MPI_Comm comm, std::size_t a_local, std::size_t b_local, radix rx);
// threads: the rank's (the gather buffers are one a thread).
buffer_words plan_buffers(const plan_layout& L, int size, int rank, unsigned threads);

// The bytes of the working arrays (in use or kept between products) this
// process held at most since reset_held_peak(): what the plan bounds (tests).
std::size_t held_peak_bytes();
void reset_held_peak();

// The engine this rank runs best: BIGMUL_NTT_ENGINE where it is set (ifma,
// avx2 or portable, as the single-process product honours it; an unknown
// name or one this processor cannot run is a bigmul::error), else the
// fastest the processor has; BIGMUL_DIST_ENGINE=portable (tests) forces the
// portable one. The product runs the least capable rank's engine
// (plan_layout::eng).
engine local_engine();

}  // namespace bigmul::dist
