// SPDX-License-Identifier: LGPL-3.0-or-later
// Reduction front door: picks cascading (commutative operators) or pipeline
// (operand order kept) by the caller's statement about the operator, and
// transform_reduce (map, then reduce: Bird's list-homomorphism form).
//
// Results are identical for every thread count when the operator is exactly
// associative (integers, carry pairs, matrices mod 2^m); floating-point sums
// may differ in the last bits because the grouping depends on the threads.
#pragma once

#include <cstddef>

#include "prim/reduce_cascading.hpp"
#include "prim/reduce_pipeline.hpp"
#include "prim/reduce_tree.hpp"

namespace bigmul::prim {

enum class operand_order {
  commutative,  // op(a, b) == op(b, a): any grouping and order is allowed
  ordered,      // associative only: the result must equal the left-to-right fold
};

template <class T, class Op>
T reduce(const T* in, std::size_t n, Op op, const T& identity,
         operand_order order = operand_order::ordered, unsigned threads = 0) {
  return order == operand_order::commutative ? cascading_reduce(in, n, op, identity, threads)
                                             : pipeline_reduce(in, n, op, identity, threads);
}

// op over map(in[0]), ..., map(in[n-1]); the map is fused into the fold, no
// temporary array.
template <class T, class In, class Map, class Op>
T transform_reduce(const In* in, std::size_t n, Map map, Op op, const T& identity,
                   operand_order order = operand_order::ordered, unsigned threads = 0) {
  auto load = [in, &map](std::size_t i) -> T { return map(in[i]); };
  return order == operand_order::commutative ? cascading_reduce_by<T>(n, load, op, identity, threads)
                                             : pipeline_reduce_by<T>(n, load, op, identity, threads);
}

}  // namespace bigmul::prim
