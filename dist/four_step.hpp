// SPDX-License-Identifier: LGPL-3.0-or-later
// The distributed three-prime NTT of one prime: the four-step transform
// [BAILEY90] over the layouts of dist/shape.hpp. Forward: the length-n2
// transforms of the rank's columns (an engine's plan: the AVX-512 IFMA or
// AVX2 engine's four primes below 2^50 where every rank has one, else the
// portable engine's three 62-bit primes), one all-to-all to rows, the
// twiddles w^(j1 k2), the length-n1 transforms. The
// output stays in the rows layout, each transform's digit-reversed order
// (as FFTW's MPI transforms' TRANSPOSED_OUT): the pointwise product does not
// care, and the inverse undoes the steps in reverse order, so a product costs
// one all-to-all a transform (each way) and no reordering.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "dist/exchange.hpp"
#include "dist/product.hpp"
#include "dist/shape.hpp"
#include "fft/ntt.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"

namespace bigmul::dist {

using u64 = std::uint64_t;

// Whether a whole-array transpose of `words` words writes around the cache
// (dist/transpose.hpp): only where the arrays are past the caches anyway;
// below, the next pass would read back from memory what it could have found
// in cache.
inline bool streams(std::size_t words) { return words * sizeof(u64) >= (std::size_t{4} << 20); }

// Columns gather_columns takes at once (forward_from_limbs): 32 touch a
// page of the limbs a quarter as often as 8, and their buffer (32 n2
// words) still fits L3.
constexpr std::size_t gathered_columns = 32;
// The words of forward_from_limbs's gather buffers: one a thread.
inline std::size_t gather_words(const shape& s, unsigned threads) { return threads * gathered_columns * s.n2; }

class four_step {
 public:
  // prime: an index into the engine's primes (fft/ntt_arith.hpp).
  four_step(const context& ctx, shape s, unsigned prime, engine e);

  range cols() const { return cols_; }
  range rows() const { return rows_; }
  std::size_t col_words() const { return cols_.size() * s_.n2; }
  std::size_t row_words() const { return rows_.size() * s_.n1; }
  u64 modulus() const { return p_; }

  // col (columns layout: an operand of `limbs` limbs, any 64-bit values,
  // only its limbs' positions written) -> row (rows layout), the
  // forward transform; col is overwritten. send and recv: scratch of
  // ctx.round words each (or the whole parts where fewer), the
  // all-to-all's rounds' (exchange_rounds).
  void forward(u64* col, std::size_t limbs, u64* row, u64* send, u64* recv) const;
  // Whether a rank that holds every column and the operand's every limb
  // (one rank) transforms its columns straight from the limbs
  // (forward_from_limbs): the IFMA engine's filled forward, where it applies
  // to the columns' length. One pass over the array fewer than loading col.
  bool fills_from_limbs() const;
  // forward(col, limbs, ..) with col's values read from x[j1 + n1 j2] (the
  // operand's limbs, any 64-bit values) by the column transforms; col is
  // only written. Needs fills_from_limbs(). gather: scratch of
  // gather_words(shape, ctx.threads) words.
  void forward_from_limbs(const u64* x, std::size_t limbs, u64* col, u64* row, u64* gather) const;
  // row (rows layout, the forward transform of one operand) times y (the
  // other's) over n, then back to pos (natural order, [0, 2p)): the
  // product's inverse transform. The row transforms' pointwise
  // product and inverse are the engine's fused pass (1/n1 folded in), the
  // remaining 1/n2 rides on the inverse twiddles. row is overwritten.
  // The result goes to pos in position order: pos[j2 C + t] for column
  // cols().begin + t (C = cols().size(), t < C, j2 < n2); col is scratch.
  void product_inverse(u64* row, const u64* y, u64* col, u64* send, u64* recv, u64* pos) const;

 private:
  // Rows a strip (rows_from_columns, rows_to_columns): about 256 KiB of
  // rows, so that the strip's transforms find it in cache, and 8 to 32 (a
  // whole cache line of each column, two at n1 = 2048: fewer TLB misses
  // where the arrays are not on huge pages).
  std::size_t group_ = 8;
  bool stream_ = true;  // the transposes' whole-array writes around the cache (streams())
  void transform(u64* x, bool along_columns, bool inverse, unsigned threads) const;
  void reduce(u64* x, std::size_t len) const;
  template <class Fn>
  void each(std::size_t count, Fn&& fn) const;
  void twiddle_row(u64* x, std::size_t u, bool inverse) const;
  // own: column j1's limbs, contiguous (gather_columns), for the filled forward; or null.
  void column(u64* x, std::size_t j1, bool inverse, std::size_t limbs, unsigned threads,
              const u64* own = nullptr) const;
  const u64* gather_columns(const u64* x, std::size_t j0, std::size_t m, std::size_t limbs, u64* buf) const;
  void column_pass(u64* col, bool inverse, std::size_t limbs, u64* row, const u64* whole = nullptr,
                   u64* gather = nullptr) const;
  void rows_from_columns(u64* row) const;
  void rows_to_columns(u64* row, const u64* y, u64* col) const;
  void transpose_exchange(u64* col, u64* row, u64* send, u64* recv, bool inverse) const;
  void row_forward(u64* x, unsigned threads) const;
  void row_product(u64* x, const u64* y, unsigned threads) const;

  context ctx_;
  shape s_;
  range cols_, rows_;
  u64 p_, p_neg_inv_, root_, root_inv_, n2_inv_;
  std::shared_ptr<const fft::ntt_plan> plan1_, plan2_;      // lengths n1, n2 (portable)
  std::shared_ptr<const fft::ntt52_plan> plan1v_, plan2v_;  // the same (IFMA)
  std::shared_ptr<const fft::ntt_avx2_plan> plan1a_, plan2a_;  // the same (AVX2)
  std::vector<u64> row_base_;  // w^k2, w^-k2 of the rank's row u at [2 u], [2 u + 1]
};

}  // namespace bigmul::dist
