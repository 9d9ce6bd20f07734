// SPDX-License-Identifier: LGPL-3.0-or-later
// Pipeline reduction for NON-COMMUTATIVE associative operators ([KOIKE15
// §4.6.3], the author's contribution, brought to the CPU).
//
// Paper: the input is a matrix with b columns; a multiprocessor reduces each
// row with an order-preserving binary tree and adds row totals to an
// accumulator, with successive rows at different tree levels at once so every
// core is busy. On a CPU the out-of-order core does the pipelining: the trees
// of successive rows do not depend on each other, only the accumulator chain
// acc = acc (+) row_total is serial, so we get the same overlap with b = 8.
// Chunks are contiguous and combined in index order: the result equals the
// left-to-right fold for any associative operator.
#pragma once

#include <cstddef>
#include <vector>

#include "prim/parallel.hpp"
#include "prim/reduce_cascading.hpp"

namespace bigmul::prim {

namespace detail {

template <class T, class Load, class Op>
T pipeline_fold(std::size_t begin, std::size_t end, const Load& load, const Op& op, const T& identity) {
  constexpr std::size_t row = 8;
  T acc = identity;
  std::size_t i = begin;
  for (; i + row <= end; i += row) {
    // Order-preserving tree over one row: ((x0 x1)(x2 x3))((x4 x5)(x6 x7)).
    const T a = op(load(i), load(i + 1)), b = op(load(i + 2), load(i + 3));
    const T c = op(load(i + 4), load(i + 5)), d = op(load(i + 6), load(i + 7));
    acc = op(acc, op(op(a, b), op(c, d)));
  }
  for (; i < end; ++i) acc = op(acc, load(i));
  return acc;
}

}  // namespace detail

// load(0) (+) load(1) (+) ... (+) load(n-1), operand order kept.
template <class T, class Load, class Op>
T pipeline_reduce_by(std::size_t n, Load load, Op op, const T& identity, unsigned threads = 0) {
  const std::size_t chunks = chunk_count(n, reduce_grain, threads);
  if (chunks <= 1) return detail::pipeline_fold<T>(0, n, load, op, identity);
  std::vector<T> partial(chunks, identity);
  parallel_for(chunks, threads, [&](std::size_t c) {
    partial[c] = detail::pipeline_fold<T>(n * c / chunks, n * (c + 1) / chunks, load, op, identity);
  });
  T acc = identity;
  for (const T& p : partial) acc = op(acc, p);
  return acc;
}

template <class T, class Op>
T pipeline_reduce(const T* in, std::size_t n, Op op, const T& identity, unsigned threads = 0) {
  return pipeline_reduce_by<T>(n, [in](std::size_t i) -> const T& { return in[i]; }, op, identity,
                               threads);
}

}  // namespace bigmul::prim
