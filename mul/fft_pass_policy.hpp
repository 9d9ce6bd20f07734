// SPDX-License-Identifier: LGPL-3.0-or-later
// The FFT pass policy both backends follow (mul/fft_mul.cpp on the CPU,
// mul/cuda/mul_device.cu on the GPU): the transform length a product needs,
// the coefficient size of the first pass (exactness table or forced), how far
// down the retries go, and the retry loop itself (a pass whose round-off
// exceeds the guard is redone with one digit less per coefficient). Plain
// C++17, no CUDA: included by the .cu files and tested on the CPU.
#pragma once

#include <cstddef>
#include <string>

#include "bigmul/config.hpp"
#include "mul/coefficients.hpp"

namespace bigmul::detail {

// The largest max |x - round(x)| a pass may show and still be returned.
inline constexpr double fft_roundoff_guard = 0.25;

// Largest coefficient size a caller may force: 32 bits or 9 decimal digits.
constexpr unsigned fft_max_digits(radix rx) { return rx == radix::binary ? 32 : 9; }

// Coefficients of the product of an- and bn-limb operands in format f (each
// operand count(n) + 1 with its balanced top carry; the product one less).
inline std::size_t fft_product_coefficients(coeff_format f, std::size_t an, std::size_t bn) {
  return f.count(an) + f.count(bn) + 1;
}

// Transform length (points) for `coefficients` product coefficients: the
// smallest power of two that holds them and satisfies the algorithm's length
// rule (mul/algorithm_table.hpp: complex >= 2, real >= 4).
std::size_t fft_transform_length(algorithm algo, std::size_t coefficients);

// A pass may run at half that length when the product overhangs it by at most
// fft_max_wrap coefficients (mul/fft_wrap.hpp recovers them exactly), from
// fft_wrap_min_length points up: there the overhang adds at most 16 / 4096 of
// a coefficient's terms, far inside the exactness table's margin, and the
// guard checks every pass all the same.
inline constexpr std::size_t fft_max_wrap = 16;
inline constexpr std::size_t fft_wrap_min_length = 4096;

// The length a pass of an x bn limbs in format f runs at (what every backend
// plans, sizes and tabulates by), and how many coefficients wrap (0 or
// 1 .. fft_max_wrap). Each operand's coefficients fit the length unwrapped.
struct fft_pass_shape {
  std::size_t length = 0;
  std::size_t wrap = 0;
};
fft_pass_shape fft_pass_shape_of(algorithm algo, coeff_format f, std::size_t an, std::size_t bn);
inline std::size_t fft_pass_length(algorithm algo, coeff_format f, std::size_t an, std::size_t bn) {
  return fft_pass_shape_of(algo, f, an, bn).length;
}

// The coefficient size the exactness table allows for this algorithm and
// product size (0: none). Smallest transform first; within it the fewest
// digits that still fit (more accuracy margin at the same cost).
unsigned fft_pick_digits(algorithm algo, radix rx, std::size_t an, std::size_t bn);

// The first pass's coefficient size and the retries a caller must be ready
// for. first == 0: refused, with `why` (bad_size: a forced size above
// fft_max_digits, an invalid argument; otherwise no size is exact, a domain
// error). lowest: the smallest size a caller sizes memory for and must be able
// to plan, one digit below the smaller of the first size and the table's pick
// (a forced size above the table may need several retries).
struct fft_digit_choice {
  unsigned first = 0;
  unsigned lowest = 0;
  bool bad_size = false;
  std::string why;
};
fft_digit_choice fft_choose_digits(algorithm algo, radix rx, std::size_t an, std::size_t bn, unsigned forced);

// The retry loop. pass(d) runs one pass with d digits per coefficient and
// says whether it was accepted (round-off within the guard, product written),
// rejected (retry with d - 1) or failed (stop: an error the caller reports).
enum class fft_pass_verdict { accepted, rejected, failed };
struct fft_retry_result {
  unsigned digits = 0;   // the accepted size; 0 when none was
  unsigned retries = 0;  // rejected passes
  bool failed = false;   // a pass failed (the caller's error stands)
};
template <class Pass>
fft_retry_result fft_retry(unsigned first, Pass&& pass) {
  fft_retry_result r;
  for (unsigned d = first; d >= 1; --d) {
    const fft_pass_verdict v = pass(d);
    if (v == fft_pass_verdict::accepted) {
      r.digits = d;
      return r;
    }
    if (v == fft_pass_verdict::failed) {
      r.failed = true;
      return r;
    }
    ++r.retries;
  }
  return r;
}

}  // namespace bigmul::detail
