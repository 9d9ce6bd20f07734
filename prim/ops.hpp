// SPDX-License-Identifier: LGPL-3.0-or-later
// Associative operators shared by the CPU primitives and their CUDA twins.
//
// Three of them are associative but NOT commutative; they are what the tests
// use to prove that reduce and scan keep the order of their operands:
//   carry_op      (generate, propagate) pairs of a carry-lookahead adder
//   mat2_mul_op   2x2 matrix product mod 2^64
//   mss_op        maximum segment sum ([KOIKE15 §4.2]), a list homomorphism
#pragma once

#include <cstdint>

#include "bigmul/hd.hpp"

namespace bigmul::prim {

struct plus_op {
  template <class T>
  BIGMUL_HD T operator()(const T& a, const T& b) const { return a + b; }
};

struct max_op {
  template <class T>
  BIGMUL_HD T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

struct min_op {
  template <class T>
  BIGMUL_HD T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};

// Carry (generate, propagate) of a run of digit positions: g = the run emits a
// carry by itself, p = a carry entering the run leaves it. 32-bit fields keep
// the pair 8 bytes wide so the GPU moves it as one word.
struct carry_gp {
  std::uint32_t g;
  std::uint32_t p;
  friend BIGMUL_HD bool operator==(const carry_gp& a, const carry_gp& b) {
    return a.g == b.g && a.p == b.p;
  }
};

// (g,p) o (g',p') = (g' | (p' & g), p & p'), with (g,p) the LOWER run.
// Written as op(earlier, later) like every operator here: the later (more
// significant) run generates on its own, or propagates what the earlier emits.
struct carry_op {
  BIGMUL_HD carry_gp operator()(const carry_gp& lo, const carry_gp& hi) const {
    return carry_gp{hi.g | (hi.p & lo.g), lo.p & hi.p};
  }
};
inline constexpr carry_gp carry_identity{0, 1};

// 2x2 matrix, row-major, arithmetic mod 2^64.
struct mat2 {
  std::uint64_t a, b, c, d;
  friend BIGMUL_HD bool operator==(const mat2& x, const mat2& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
  }
};

struct mat2_mul_op {
  BIGMUL_HD mat2 operator()(const mat2& x, const mat2& y) const {
    return mat2{x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                x.c * y.b + x.d * y.d};
  }
};
inline constexpr mat2 mat2_identity{1, 0, 0, 1};

// Maximum segment sum summary of a list: best segment sum, total, best suffix,
// best prefix (the three maxima clamped at 0, so the empty segment counts).
struct mss {
  std::int64_t best, sum, suffix, prefix;
  friend BIGMUL_HD bool operator==(const mss& x, const mss& y) {
    return x.best == y.best && x.sum == y.sum && x.suffix == y.suffix && x.prefix == y.prefix;
  }
};

struct mss_op {
  BIGMUL_HD static std::int64_t max2(std::int64_t x, std::int64_t y) { return x < y ? y : x; }
  BIGMUL_HD mss operator()(const mss& l, const mss& r) const {
    return mss{max2(max2(l.best, r.best), l.suffix + r.prefix), l.sum + r.sum,
               max2(r.suffix, l.suffix + r.sum), max2(l.prefix, l.sum + r.prefix)};
  }
};
inline constexpr mss mss_identity{0, 0, 0, 0};

// The map half of the MSS list homomorphism: one element as a summary.
struct mss_of {
  BIGMUL_HD mss operator()(std::int64_t x) const {
    const std::int64_t c = x > 0 ? x : 0;
    return mss{c, x, c, c};
  }
};

// Segmented scan lifts any associative op to (head, value) pairs: a head
// starts a new segment, so the running value restarts there. Associative for
// every associative op; order-preserving.
template <class T>
struct seg_pair {
  T value;
  std::uint32_t head;
};

template <class Op>
struct seg_op {
  Op op;
  template <class T>
  BIGMUL_HD seg_pair<T> operator()(const seg_pair<T>& a, const seg_pair<T>& b) const {
    return seg_pair<T>{b.head ? b.value : op(a.value, b.value), a.head | b.head};
  }
};

}  // namespace bigmul::prim
