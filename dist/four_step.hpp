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

#include <algorithm>
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
// Rows a strip (rows_from_columns, product_inverse): about 256 KiB of
// rows, so that the strip's transforms find it in cache, and 8 to 32 (a
// whole cache line of each column, two at n1 = 2048: fewer TLB misses
// where the arrays are not on huge pages).
inline std::size_t row_group(std::size_t n1) { return std::clamp<std::size_t>((std::size_t{1} << 15) / n1, 8, 32); }
// The words of the threads' scratch (one buffer a thread): the column
// gathers (forward_from_limbs, columns; where `gathers`) and the second
// operand's strips of rows (product_inverse).
inline std::size_t scratch_words(const shape& s, unsigned threads, bool gathers) {
  return threads * std::max(gathers ? gathered_columns * s.n2 : 0, row_group(s.n1) * s.n1);
}
// Rows of the second operand a round of product_inverse moves: its
// buffers' ctx.round words over the n1 points of a row.
inline std::size_t product_rows(std::size_t round, std::size_t n1) { return std::max<std::size_t>(1, round / n1); }

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
  // only written. Needs fills_from_limbs(). scratch:
  // scratch_words(shape, ctx.threads, true) words.
  void forward_from_limbs(const u64* x, std::size_t limbs, u64* col, u64* row, u64* scratch) const;
  // The second operand's forward column transforms only, in col (loaded as
  // for forward; or, x not null, read from the limbs x as
  // forward_from_limbs does): product_inverse takes its rows from there.
  void columns(u64* col, std::size_t limbs, const u64* x, u64* scratch) const;
  // row (rows layout, the forward transform of one operand) times the
  // other's, whose column transforms are in col (columns), over n, then
  // back to pos (natural order, [0, 2p)): the product's inverse transform.
  // The other's rows never exist as a whole array: rounds of
  // product_rows(ctx.round, n1) rows of every rank move its columns' parts
  // to the rows' ranks (send and recv: ctx.round words or so), where each
  // strip of rows (scratch: scratch_words) takes its twiddles and forward
  // transforms and is multiplied into row while in cache; the rank's own
  // block of the result goes back to col at once, in the place the strip
  // was read from. The row transforms' pointwise product and inverse are
  // the engine's fused pass (1/n1 folded in), the remaining 1/n2 rides on
  // the inverse twiddles. row and col are overwritten.
  // The result goes to pos in position order: pos[j2 C + t] for column
  // cols().begin + t (C = cols().size(), t < C, j2 < n2); pos may be row.
  void product_inverse(u64* row, u64* col, u64* send, u64* recv, u64* scratch, u64* pos) const;

 private:
  std::size_t group_ = 8;  // row_group(n1)
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
  void product_rounds(u64* row, u64* col, u64* send, u64* recv, u64* scratch) const;
  void product_strip(u64* row, u64* col, const u64* recv, const std::vector<std::size_t>& from, std::size_t u0,
                     std::size_t m, u64* strip, unsigned threads) const;
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
