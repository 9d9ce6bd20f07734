// SPDX-License-Identifier: LGPL-3.0-or-later
// Cascading reduction for COMMUTATIVE operators ([KOIKE15 §4.4], [HARRIS07]
// kernel 7, brought to the CPU).
//
// The GPU version folds a column of a row-major matrix per core. Here each
// chunk keeps `lanes` independent accumulators, lane j folding the elements
// j, j+lanes, j+2*lanes, ... of the chunk: the folds do not depend on each
// other, so they fill the pipeline and the compiler vectorizes them. Then the
// lanes and the chunk partials are combined. The order of the operands is
// scrambled, which is why the operator must be commutative.
#pragma once

#include <cstddef>
#include <vector>

#include "prim/parallel.hpp"

namespace bigmul::prim {

inline constexpr std::size_t reduce_grain = 1 << 15;

namespace detail {

template <std::size_t Lanes, class T, class Load, class Op>
T cascade_fold(std::size_t begin, std::size_t end, const Load& load, const Op& op,
               const T& identity) {
  T acc[Lanes];
  for (std::size_t j = 0; j < Lanes; ++j) acc[j] = identity;
  std::size_t i = begin;
  for (; i + Lanes <= end; i += Lanes)
    for (std::size_t j = 0; j < Lanes; ++j) acc[j] = op(acc[j], load(i + j));
  for (std::size_t j = 0; i < end; ++i, ++j) acc[j] = op(acc[j], load(i));
  // Pairwise combine of the lanes.
  for (std::size_t w = Lanes / 2; w >= 1; w /= 2)
    for (std::size_t j = 0; j < w; ++j) acc[j] = op(acc[j], acc[j + w]);
  return acc[0];
}

}  // namespace detail

// op(load(0), ..., load(n-1)) in any order; `load(i)` maps index to value.
template <class T, class Load, class Op>
T cascading_reduce_by(std::size_t n, Load load, Op op, const T& identity, unsigned threads = 0) {
  constexpr std::size_t lanes = 16;
  const std::size_t chunks = chunk_count(n, reduce_grain, threads);
  if (chunks <= 1) return detail::cascade_fold<lanes, T>(0, n, load, op, identity);
  std::vector<T> partial(chunks, identity);
  parallel_for(chunks, threads, [&](std::size_t c) {
    partial[c] = detail::cascade_fold<lanes, T>(n * c / chunks, n * (c + 1) / chunks, load, op, identity);
  });
  T acc = identity;
  for (const T& p : partial) acc = op(acc, p);
  return acc;
}

template <class T, class Op>
T cascading_reduce(const T* in, std::size_t n, Op op, const T& identity, unsigned threads = 0) {
  return cascading_reduce_by<T>(n, [in](std::size_t i) -> const T& { return in[i]; }, op, identity,
                                threads);
}

}  // namespace bigmul::prim
