// SPDX-License-Identifier: LGPL-3.0-or-later
// Splitting limbs into small coefficients for a convolution, and joining
// normalized digits back into limbs, in both radices.
//
// A coefficient format is a base B = 2^k (binary limbs, 1 <= k <= 32) or
// B = 10^k (decimal limbs, 1 <= k <= 9). Coefficient i holds the number's
// base-B digit i. Both directions work period by period: a period is the
// shortest run of limbs that holds a whole number of digits (binary: k/g limbs
// = 64/g digits, g = gcd(k, 64); decimal: k limbs = 19 digits since 19 is
// prime), so every period is independent and the decimal digit offsets are
// compile-time constants (division by constant powers of ten, no runtime
// division).
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"

namespace bigmul::detail {

struct coeff_format {
  radix rx = radix::binary;
  unsigned digits = 16;  // k: bits (binary) or decimal digits (decimal) per coefficient

  std::uint64_t base() const;
  // Coefficients needed to hold `limbs` limbs.
  std::size_t count(std::size_t limbs) const;
  bool valid() const;
};

// Splits a[0..n) into base-B digits, balanced to [-B/2, B/2): the value is
// sum c_i B^i with the top carry in c[count(n)]. Calls sink(i, c_i) for
// every i in [0, count(n)], in parallel chunks (sink must be thread-safe for
// distinct i). T is the sink's value type (double, float, int64_t).
// Chunks get their carry-in by carry look-ahead over the chunks, so the result
// does not depend on the chunking.
template <class Sink>
void split_balanced(const limb_t* a, std::size_t n, coeff_format f, Sink&& sink, unsigned threads);

// Splits a[0..n) into plain digits in [0, B): out[0..count(n)).
void split_digits(const limb_t* a, std::size_t n, coeff_format f, std::uint32_t* out, unsigned threads);

// Joins digits d[0..m) (each < B) into out[0..out_n) limbs; digits past the
// limbs' capacity must be zero (they are ignored).
void join_digits(const std::uint32_t* d, std::size_t m, coeff_format f, limb_t* out, std::size_t out_n,
                 unsigned threads);

}  // namespace bigmul::detail

#include "mul/coefficients_impl.hpp"
