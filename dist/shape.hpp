// SPDX-License-Identifier: LGPL-3.0-or-later
// The distributed transform's shape and layouts (dist/four_step.hpp).
//
// A cyclic transform of n = n1 n2 points [BAILEY90], point j = j1 + n1 j2
// (j1 < n1, j2 < n2). Rank r holds three layouts in turn:
//   columns: j1 in cols(r) = block_of(n1, P, r), each a contiguous vector over
//            j2 (col[t n2 + j2], t = j1 - cols(r).begin): the length-n2
//            transforms are local;
//   rows:    the n2 transform's output positions q in rows(r) =
//            block_of(n2, P, r), each a contiguous vector over j1
//            (row[u n1 + j1], u = q - rows(r).begin): the length-n1
//            transforms are local; the pointwise product runs here;
//   limbs:   the operands' and the product's limbs, contiguous blocks.
// Ranks may hold no columns or no rows (n1 or n2 below the rank count).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bigmul/mpi.hpp"

namespace bigmul::dist {

using mpi::range;

struct shape {
  std::size_t n = 0, n1 = 0, n2 = 0;
};

// The smallest supported length n >= count (2^k or 3 2^k, at least 16),
// split as n1 = a power of two near sqrt(n) and n2 = n / n1; n = 0 when
// count exceeds the engines' largest length.
shape four_step_shape(std::size_t count);

// Runs of points j in [b, e) whose j1 = j mod n1 lies in cols: fn(j, j1, j2,
// len) for each maximal run within one j2 (j1 .. j1 + len - 1), in order
// of j. The transposes' senders and receivers walk the same runs, so no
// index travels with the data.
template <class Fn>
void for_each_run(std::size_t b, std::size_t e, std::size_t n1, range cols, Fn&& fn) {
  if (b >= e || cols.size() == 0) return;
  for (std::size_t j2 = b / n1, last = (e - 1) / n1; j2 <= last; ++j2) {
    const std::size_t row = j2 * n1;
    const std::size_t lo = std::max(b, row + cols.begin), hi = std::min(e, row + cols.end);
    if (lo < hi) fn(lo, lo - row, j2, hi - lo);
  }
}

}  // namespace bigmul::dist
