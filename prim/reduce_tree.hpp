// SPDX-License-Identifier: LGPL-3.0-or-later
// Tree reduction, order-preserving ([KOIKE15 §4.3] "modified tree-based",
// [NAKANO14 Thm. 1]): level by level, x[i] = x[2i] (+) x[2i+1], until one value
// is left. O(n) work like the others but log n passes over shrinking buffers;
// kept as the reference the pipeline and cascading versions are measured
// against. Correct for non-commutative operators.
#pragma once

#include <cstddef>
#include <vector>

#include "prim/parallel.hpp"
#include "prim/reduce_cascading.hpp"

namespace bigmul::prim {

template <class T, class Load, class Op>
T tree_reduce_by(std::size_t n, Load load, Op op, const T& identity, unsigned threads = 0) {
  if (n == 0) return identity;
  if (n == 1) return op(identity, load(0));
  // First level reads the input; later levels halve `level` in place.
  std::size_t m = (n + 1) / 2;
  std::vector<T> level(m);
  parallel_chunks(m, reduce_grain, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      level[i] = 2 * i + 1 < n ? op(load(2 * i), load(2 * i + 1)) : load(2 * i);
  });
  while (m > 1) {
    const std::size_t h = (m + 1) / 2;
    // A fresh buffer per level: in place, chunk c would overwrite inputs
    // that an earlier chunk, running in parallel, has not read yet.
    std::vector<T> next(h);
    parallel_chunks(h, reduce_grain, threads, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i)
        next[i] = 2 * i + 1 < m ? op(level[2 * i], level[2 * i + 1]) : level[2 * i];
    });
    level.swap(next);
    m = h;
  }
  return op(identity, level[0]);
}

template <class T, class Op>
T tree_reduce(const T* in, std::size_t n, Op op, const T& identity, unsigned threads = 0) {
  return tree_reduce_by<T>(n, [in](std::size_t i) -> const T& { return in[i]; }, op, identity, threads);
}

}  // namespace bigmul::prim
