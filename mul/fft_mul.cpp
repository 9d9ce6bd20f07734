// SPDX-License-Identifier: LGPL-3.0-or-later
#include "mul/fft_mul.hpp"

#include <algorithm>
#include <limits>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "bigmul/error.hpp"
#include "carry/carry.hpp"
#include "fft/fft_complex.hpp"
#include "fft/fft_real.hpp"
#include "mul/coefficients.hpp"
#include "mul/fft_exactness.hpp"
#include "mul/fft_round.hpp"
#include "mul/fft_wrap.hpp"
#include "prim/buffer.hpp"
#include "prim/parallel.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul::detail {
namespace {

using clock_type = prim::steady_clock;
using prim::seconds_since;

// Plans are costly to build (twiddle tables) and immutable once built: one
// per (kind, length), shared by every thread.
template <class Plan>
std::shared_ptr<const Plan> cached_plan(std::size_t n) {
  static std::mutex mutex;
  static std::map<std::size_t, std::shared_ptr<const Plan>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[n];
  if (!slot) slot = std::make_shared<const Plan>(n);
  return slot;
}

template <class T>
using buffer = prim::buffer<T>;

// One FFT pass with coefficient format f. Returns the max round-off; writes
// r only when the pass is accepted (round-off within the guard and the
// carried value fits).
template <class Real, class Plan>
double fft_pass(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, coeff_format f,
                bool real_layout, const mul_options& opt, mul_stats& st) {
  const unsigned threads = opt.threads;
  const bool square = a == b && an == bn;
  const std::size_t ca = f.count(an) + 1, cb = f.count(bn) + 1;  // +1: balanced top carry
  const std::size_t nc = ca + cb - 1;                               // product coefficients
  const fft_pass_shape shape =
      fft_pass_shape_of(real_layout ? algorithm::fft_real : algorithm::fft_complex, f, an, bn);
  const std::size_t n = shape.length, wrap = shape.wrap;  // n + wrap >= nc (mul/fft_wrap.hpp)
  const std::size_t rounded = nc - wrap;                  // coefficients the transform holds
  const std::size_t half = real_layout ? n / 2 : n;  // length of each of re[], im[]
  const auto plan = cached_plan<Plan>(n);
  st.transform_length = n;

  auto t0 = clock_type::now();
  // Uninitialized buffers: every element is written before it is read
  // (load zero-fills the padding), so no memset pass and no extra page touch.
  buffer<Real> A(2 * half), B;
  // Coefficient i of a transform buffer (the real layout interleaves re, im).
  const auto at = [real_layout](Real* re, Real* im, std::size_t i) -> Real& {
    return real_layout ? ((i & 1) ? im[i >> 1] : re[i >> 1]) : re[i];
  };
  // The lowest digits of each operand, for the wrapped coefficients.
  std::int64_t low_a[fft_max_wrap] = {}, low_b[fft_max_wrap] = {};
  const auto load = [&](const limb_t* p, std::size_t pn, Real* re, Real* im, std::int64_t* low) {
    const std::size_t used = f.count(pn) + 1;
    if (real_layout) {
      split_balanced(p, pn, f,
                     [&](std::size_t i, std::int64_t v) { ((i & 1) ? im[i >> 1] : re[i >> 1]) = static_cast<Real>(v); },
                     threads);
      const std::size_t from = used / 2;  // first slot not fully written
      if (used & 1) im[from] = 0;
      std::fill(re + from + (used & 1), re + half, Real(0));
      std::fill(im + from + (used & 1), im + half, Real(0));
    } else {
      split_balanced(p, pn, f, [&](std::size_t i, std::int64_t v) { re[i] = static_cast<Real>(v); }, threads);
      std::fill(re + used, re + half, Real(0));
      std::fill(im, im + half, Real(0));
    }
    // Read back off the split (digits of an accepted pass are exact in Real),
    // rather than a test in the split's per-digit loop.
    for (std::size_t i = 0; i < wrap && i < used; ++i) low[i] = static_cast<std::int64_t>(at(re, im, i));
  };
  load(a, an, A.data(), A.data() + half, low_a);
  if (!square) {
    B = buffer<Real>(2 * half);
    load(b, bn, B.data(), B.data() + half, low_b);
  }
  st.t_split += seconds_since(t0);

  t0 = clock_type::now();
  plan->forward(A.data(), A.data() + half, threads);
  if (!square) plan->forward(B.data(), B.data() + half, threads);
  st.t_forward += seconds_since(t0);

  t0 = clock_type::now();
  if (square) {
    plan->square_spectrum(A.data(), A.data() + half, plan->inverse_scale(), threads);
  } else {
    plan->multiply_spectra(A.data(), A.data() + half, B.data(), B.data() + half, plan->inverse_scale(), threads);
    B = buffer<Real>();  // release before the coefficient array exists
  }
  st.t_pointwise += seconds_since(t0);

  t0 = clock_type::now();
  plan->inverse(A.data(), A.data() + half, threads);
  st.t_inverse += seconds_since(t0);

  // Round to integers and measure the round-off; in the complex layout the
  // imaginary parts must round to zero as well.
  t0 = clock_type::now();
  buffer<std::int64_t> c(nc);
  Real* re = A.data();
  Real* im = A.data() + half;
  const std::size_t chunks = prim::chunk_count(rounded, 1 << 15, threads);
  std::vector<double> chunk_err(std::max<std::size_t>(chunks, 1), 0.0);
  const auto round_range = [&](std::size_t chunk, std::size_t b0, std::size_t b1) {
    double err = 0;
    for (std::size_t i = b0; i < b1; ++i) {
      const Real x = at(re, im, i);
      err = std::max(err, static_cast<double>(round_coefficient(x, c[i])));
      if (!real_layout) err = std::max(err, static_cast<double>(std::fabs(im[i])));
    }
    chunk_err[chunk] = err;
  };
  if (chunks <= 1) {
    round_range(0, 0, rounded);
  } else {
    prim::parallel_for(chunks, threads,
                       [&](std::size_t k) { round_range(k, rounded * k / chunks, rounded * (k + 1) / chunks); });
  }
  double max_err = *std::max_element(chunk_err.begin(), chunk_err.end());
  // Slots past the product must be (near) zero: a large value there means the
  // transform wrapped around, which is as fatal as a large round-off.
  for (std::size_t i = nc; i < (real_layout ? n : half); ++i) {
    const Real x = at(re, im, i);
    max_err = std::max(max_err, static_cast<double>(std::fabs(x)));
  }
  A = buffer<Real>();
  st.t_round += seconds_since(t0);
  if (!(max_err <= fft_roundoff_guard)) return max_err;  // NaN fails too
  // The wrapped coefficients: c[j] held c_j + c_{n+j} (mul/fft_wrap.hpp).
  for (std::size_t j = 0; j < wrap; ++j)
    fft_unwrap_coefficient(c.data(), n, j, low_a, wrap, square ? low_a : low_b, wrap);

  t0 = clock_type::now();
  const std::size_t m = f.count(an + bn);
  buffer<std::uint32_t> digits(m);
  const bool fits = carry::carry_normalize<std::int64_t>(c.data(), nc, carry::digit_base{f.rx == radix::decimal, f.digits},
                                                         digits.data(), m, threads,
                                                         static_cast<std::uint64_t>(fft_rounding<Real>::precise_limit));
  c = buffer<std::int64_t>();
  if (!fits) return std::max(max_err, 1.0);  // cannot happen when the round-off is small; never return it
  join_digits(digits.data(), m, f, r, an + bn, threads);
  st.t_carry += seconds_since(t0);
  st.coefficient_digits = f.digits;
  return max_err;
}

}  // namespace

void mul_fft(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
             algorithm algo, const mul_options& options, mul_stats& stats) {
  const fft_digit_choice choice = fft_choose_digits(algo, rx, an, bn, options.coefficient_digits);
  if (choice.first == 0)
    throw error(choice.bad_size ? error::kind::invalid_argument : error::kind::domain, choice.why);
  const fft_retry_result done = fft_retry(choice.first, [&](unsigned digits) {
    const coeff_format f{rx, digits};
    double err;
    switch (algo) {
      case algorithm::fft_real:
        err = fft_pass<double, fft::real_fft<double>>(r, a, an, b, bn, f, true, options, stats);
        break;
      case algorithm::fft_complex:
        err = fft_pass<double, fft::complex_fft<double>>(r, a, an, b, bn, f, false, options, stats);
        break;
      case algorithm::fft_complex_f32:
        err = fft_pass<float, fft::complex_fft<float>>(r, a, an, b, bn, f, false, options, stats);
        break;
      case algorithm::fft_real_f32:
        err = fft_pass<float, fft::real_fft<float>>(r, a, an, b, bn, f, true, options, stats);
        break;
      default:
        throw error(error::kind::invalid_argument, "mul_fft: not an FFT algorithm");
    }
    stats.max_roundoff = err;
    return err <= fft_roundoff_guard ? fft_pass_verdict::accepted : fft_pass_verdict::rejected;
  });
  stats.retries += done.retries;
  if (done.digits) {
    stats.used = algo;
    return;
  }
  throw error(error::kind::internal, std::string(algorithm_name(algo)) +
                                         ": rounding guard failed at every coefficient size");
}

}  // namespace bigmul::detail

namespace bigmul::detail {

double fft_measure_roundoff(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
                            radix rx, algorithm algo, unsigned digits, unsigned threads) {
  mul_options opt;
  opt.threads = threads;
  mul_stats st;
  const coeff_format f{rx, digits};
  switch (algo) {
    case algorithm::fft_real: return fft_pass<double, fft::real_fft<double>>(r, a, an, b, bn, f, true, opt, st);
    case algorithm::fft_complex:
      return fft_pass<double, fft::complex_fft<double>>(r, a, an, b, bn, f, false, opt, st);
    case algorithm::fft_complex_f32:
      return fft_pass<float, fft::complex_fft<float>>(r, a, an, b, bn, f, false, opt, st);
    case algorithm::fft_real_f32: return fft_pass<float, fft::real_fft<float>>(r, a, an, b, bn, f, true, opt, st);
    default: throw error(error::kind::invalid_argument, "fft_measure_roundoff: not an FFT algorithm");
  }
}

}  // namespace bigmul::detail
