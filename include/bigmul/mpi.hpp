// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief The distributed product over MPI (library bigmul::mpi, layer dist/): two
/// integers block-distributed by limbs over the ranks of a communicator,
/// multiplied collectively, the product left block-distributed. Built only
/// when CMake finds MPI (BIGMUL_MPI=AUTO|ON|OFF); docs/distributed.md.
///
/// Every function here is collective over `comm`: each rank calls it with its
/// own block. An error on any rank (bad argument, allocation, a memory cap)
/// becomes the same bigmul::error on every rank at the next phase boundary,
/// its message naming the rank; no rank is left waiting.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::mpi {

/// A half-open range [begin, end) of limb (or point) indices.
struct range {
  std::size_t begin = 0;  ///< the first index
  std::size_t end = 0;    ///< one past the last index
  std::size_t size() const { return end - begin; }  ///< end - begin
};

/// The block rule for `count` items over `parts` ranks: rank r holds
/// [count r / parts, count (r + 1) / parts) (sizes differ by at most one).
inline range block_of(std::size_t count, int parts, int rank) {
  const auto r = static_cast<unsigned __int128>(rank), c = static_cast<unsigned __int128>(count);
  return {static_cast<std::size_t>(c * r / parts), static_cast<std::size_t>(c * (r + 1) / parts)};
}

/// The product's layout: blocks of max(4, ceil(limbs / parts)) limbs in rank
/// order, so every rank that holds limbs holds at least 4 (except the last
/// such, which holds the rest) and ranks past the end hold none. 4 limbs make
/// every carry between ranks at most 3 (docs/distributed.md).
///@{
inline constexpr std::size_t product_min_block = 4;
inline range product_block(std::size_t limbs, int parts, int rank) {
  const std::size_t chunk = std::max(product_min_block, (limbs + parts - 1) / static_cast<std::size_t>(parts));
  const std::size_t r = static_cast<std::size_t>(rank);
  return {std::min(limbs, chunk * r), std::min(limbs, chunk * (r + 1))};
}
///@}

/// The largest product (an + bn limbs) the three primes' transforms reach:
/// a cyclic transform of at most 3 2^32 points, one limb a point. Larger
/// products are refused (bigmul::error, kind invalid_argument).
std::size_t max_product_limbs();

/// How the distributed product runs.
struct options {
  radix rx = radix::binary;  ///< of both operands and the product
  unsigned threads = 0;      ///< per rank; 0: the library's default
  bool modular_check = true; ///< the product checked modulo 2^61 - 1 (one MPI_Allreduce)
  std::size_t memory_cap = 0;  ///< this rank's cap in bytes (0: none); checked before any work
};

/// What -t prints: seconds per phase (this rank) and each all-to-all's bytes
/// sent by this rank and its seconds.
struct exchange_record {
  std::string what;           ///< which exchange
  std::size_t bytes_sent = 0;  ///< bytes this rank sent
  double seconds = 0;          ///< its wall time on this rank
};
/// What one distributed product did on this rank.
struct stats {
  std::vector<std::pair<std::string, double>> phases;  ///< (phase, seconds) in order
  std::vector<exchange_record> exchanges;              ///< every all-to-all
  std::size_t planned_bytes = 0;  ///< preflight_bytes for this rank
  unsigned primes = 0;            ///< how many of the engine's primes (3 or 4)
  bool ifma = false;              ///< the AVX-512 IFMA engine (primes below 2^50)
  std::string engine = "portable";  ///< the engine every rank ran: "ifma", "avx2" or "portable"
};

/// Frees the working arrays mul() keeps between products on this process
/// (it reuses them, as bigmul::mul keeps its scratch; bigmul::release_scratch
/// does not reach them). Call it when no product runs.
void release_scratch();

/// Bytes of working memory this rank needs for the product of operands whose
/// blocks here hold a_local and b_local limbs (collective: the global sizes
/// and layout come from every rank). Throws bigmul::error on every rank when
/// the product exceeds max_product_limbs(). rx: the limbs' radix (decimal
/// limbs may need fewer primes, so fewer bytes; binary's figure covers both).
std::size_t preflight_bytes(MPI_Comm comm, std::size_t a_local, std::size_t b_local, radix rx = radix::binary);

/// a[0 .. a_local), b[0 .. b_local): this rank's blocks of A and B; the
/// blocks in rank order are the operands' limbs, least significant first
/// (any sizes, zero included; trailing zero limbs are kept). Returns this
/// rank's block product_block(an + bn, size, rank) of A B (an, bn: the
/// operands' global limb counts; A B is 0 when either is empty).
std::vector<limb_t> mul(MPI_Comm comm, const limb_t* a, std::size_t a_local, const limb_t* b, std::size_t b_local,
                        const options& opt = {}, stats* st = nullptr);

/// The same into out[0 .. out_size), the caller's memory (out_size must be
/// product_block(an + bn, size, rank).size(), else bigmul::error on every
/// rank): for a caller that keeps the product's memory between products,
/// as bigmul::mul writes into the caller's r, so no product pays for
/// fresh pages of its output.
void mul(MPI_Comm comm, const limb_t* a, std::size_t a_local, const limb_t* b, std::size_t b_local, limb_t* out,
         std::size_t out_size, const options& opt = {}, stats* st = nullptr);

}  // namespace bigmul::mpi
