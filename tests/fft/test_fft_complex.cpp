// SPDX-License-Identifier: LGPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "fft/fft_complex.hpp"
#include "reference_dft.hpp"
#include "test_support.hpp"

namespace {

using bigmul::fft::complex_fft;
using bigmul::fft::test::cld;
using bigmul::fft::test::naive_dft;
using bigmul::fft::test::reference_fft;

template <class Real>
struct signal {
  std::vector<Real> re, im;
  std::vector<cld> exact;  // the same values in long double
};

template <class Real>
signal<Real> random_signal(std::size_t n, std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  signal<Real> s;
  s.re.resize(n);
  s.im.resize(n);
  s.exact.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    s.re[i] = static_cast<Real>(d(g));
    s.im[i] = static_cast<Real>(d(g));
    s.exact[i] = cld(s.re[i], s.im[i]);
  }
  return s;
}

// Error bound for an n-point transform of values with |x| <= 1: the rounding
// error of an FFT grows like eps * log2(n) * rms(X), and rms(X) <= sqrt(2n).
template <class Real>
long double tolerance(std::size_t n) {
  const long double eps = std::numeric_limits<Real>::epsilon();
  const long double lg = std::max<long double>(1, std::log2(static_cast<long double>(n)));
  return 2 * eps * lg * std::sqrt(2.0L * static_cast<long double>(n));
}

// Max |got[pos] - want[frequency_at(pos)]|.
template <class Real>
long double spectrum_error(const complex_fft<Real>& plan, const std::vector<Real>& re,
                           const std::vector<Real>& im, const std::vector<cld>& want) {
  long double err = 0;
  for (std::size_t pos = 0; pos < re.size(); ++pos) {
    const cld w = want[plan.frequency_at(pos)];
    err = std::max(err, std::abs(cld(re[pos], im[pos]) - w));
  }
  return err;
}

template <class Real>
void check_against(std::size_t n, bool use_naive, std::uint64_t salt) {
  auto g = bigmul::test::rng(salt + n);
  const complex_fft<Real> plan(n);
  ASSERT_EQ(plan.size(), n);
  // forward
  signal<Real> s = random_signal<Real>(n, g);
  const std::vector<cld> want = use_naive ? naive_dft(s.exact, -1) : reference_fft(s.exact, -1);
  plan.forward(s.re.data(), s.im.data());
  EXPECT_LE(spectrum_error(plan, s.re, s.im, want), tolerance<Real>(n)) << "forward n=" << n;
  // inverse: input in plan order, output natural
  signal<Real> t = random_signal<Real>(n, g);
  std::vector<cld> spectrum(n);  // spectrum[freq]
  std::vector<Real> re(n), im(n);
  for (std::size_t pos = 0; pos < n; ++pos) {
    re[pos] = t.re[pos];
    im[pos] = t.im[pos];
    spectrum[plan.frequency_at(pos)] = t.exact[pos];
  }
  const std::vector<cld> back = use_naive ? naive_dft(spectrum, +1) : reference_fft(spectrum, +1);
  plan.inverse(re.data(), im.data());
  long double err = 0;
  for (std::size_t i = 0; i < n; ++i) err = std::max(err, std::abs(cld(re[i], im[i]) - back[i]));
  EXPECT_LE(err, tolerance<Real>(n)) << "inverse n=" << n;
}

TEST(FftReference, RecursiveMatchesNaive) {
  auto g = bigmul::test::rng(11);
  for (std::size_t n = 1; n <= 256; n *= 2) {
    signal<double> s = random_signal<double>(n, g);
    for (int sign : {-1, 1}) {
      const auto a = naive_dft(s.exact, sign), b = reference_fft(s.exact, sign);
      for (std::size_t k = 0; k < n; ++k) EXPECT_LT(std::abs(a[k] - b[k]), 1e-15L) << n;
    }
  }
}

TEST(ComplexFft, MatchesNaiveDftDouble) {
  for (std::size_t n = 1; n <= 2048; n *= 2) check_against<double>(n, true, 100);
}

TEST(ComplexFft, MatchesNaiveDftFloat) {
  for (std::size_t n = 1; n <= 2048; n *= 2) check_against<float>(n, true, 200);
}

// Sizes past the in-cache shapes: four-step, and four-step with a four-step row plan.
TEST(ComplexFft, LargeMatchesReferenceFft) {
  const unsigned top = bigmul::test::heavy() ? 22 : 16;
  for (unsigned k = 12; k <= top; ++k) {
    check_against<double>(std::size_t{1} << k, false, 300);
    check_against<float>(std::size_t{1} << k, false, 400);
  }
}

TEST(ComplexFft, FrequencyAtIsAPermutation) {
  for (unsigned k = 0; k <= 24; ++k) {
    const std::size_t n = std::size_t{1} << k;
    const complex_fft<double> plan(n);
    std::vector<char> seen(n, 0);
    for (std::size_t pos = 0; pos < n; ++pos) {
      const std::size_t f = plan.frequency_at(pos);
      ASSERT_LT(f, n);
      ASSERT_FALSE(seen[f]) << "n=" << n << " pos=" << pos;
      seen[f] = 1;
      ASSERT_EQ(plan.position_of(f), pos);
    }
    EXPECT_EQ(plan.frequency_at(0), 0u);
  }
}

template <class Real>
void check_round_trip(unsigned max_log2, std::uint64_t salt) {
  auto g = bigmul::test::rng(salt);
  for (unsigned k = 0; k <= max_log2; ++k) {
    const std::size_t n = std::size_t{1} << k;
    const complex_fft<Real> plan(n);
    signal<Real> s = random_signal<Real>(n, g);
    std::vector<Real> re = s.re, im = s.im;
    plan.forward(re.data(), im.data());
    plan.inverse(re.data(), im.data());
    const Real scale = plan.inverse_scale();
    long double err = 0;
    for (std::size_t i = 0; i < n; ++i)
      err = std::max(err, std::abs(cld(re[i] * scale, im[i] * scale) - s.exact[i]));
    // Relative to the input (|x| <= sqrt 2): eps * log2 n with a constant.
    const long double eps = std::numeric_limits<Real>::epsilon();
    EXPECT_LE(err, 4 * eps * std::max(1u, k)) << "n=" << n;
  }
}

TEST(ComplexFft, RoundTripDouble) { check_round_trip<double>(20, 500); }
TEST(ComplexFft, RoundTripFloat) { check_round_trip<float>(20, 600); }

template <class Real>
void check_threads_identical(std::size_t n) {
  auto g = bigmul::test::rng(700 + n);
  const complex_fft<Real> plan(n);
  const signal<Real> s = random_signal<Real>(n, g);
  std::vector<Real> ref_re = s.re, ref_im = s.im;
  plan.forward(ref_re.data(), ref_im.data(), 1);
  std::vector<Real> back_re = ref_re, back_im = ref_im;
  plan.inverse(back_re.data(), back_im.data(), 1);
  for (unsigned threads : {2u, 3u}) {
    std::vector<Real> re = s.re, im = s.im;
    plan.forward(re.data(), im.data(), threads);
    EXPECT_EQ(0, std::memcmp(re.data(), ref_re.data(), n * sizeof(Real))) << n << " " << threads;
    EXPECT_EQ(0, std::memcmp(im.data(), ref_im.data(), n * sizeof(Real))) << n << " " << threads;
    plan.inverse(re.data(), im.data(), threads);
    EXPECT_EQ(0, std::memcmp(re.data(), back_re.data(), n * sizeof(Real))) << n << " " << threads;
    EXPECT_EQ(0, std::memcmp(im.data(), back_im.data(), n * sizeof(Real))) << n << " " << threads;
  }
}

TEST(ComplexFft, ThreadCountsGiveIdenticalBits) {
  for (unsigned k : {4u, 12u, 13u, 17u, 24u}) {
    if (k == 24 && !bigmul::test::heavy()) continue;
    check_threads_identical<double>(std::size_t{1} << k);
    check_threads_identical<float>(std::size_t{1} << k);
  }
}

TEST(ComplexFft, MultiplySpectraIsComplexProduct) {
  auto g = bigmul::test::rng(800);
  const std::size_t n = 1 << 13;
  const complex_fft<double> plan(n);
  signal<double> a = random_signal<double>(n, g), b = random_signal<double>(n, g);
  std::vector<double> re = a.re, im = a.im;
  plan.multiply_spectra(re.data(), im.data(), b.re.data(), b.im.data(), 0.5, 3);
  std::vector<double> sre = a.re, sim = a.im;
  plan.square_spectrum(sre.data(), sim.data(), 0.25, 2);
  for (std::size_t i = 0; i < n; ++i) {
    const std::complex<double> p = std::complex<double>(a.re[i], a.im[i]) *
                                   std::complex<double>(b.re[i], b.im[i]) * 0.5;
    EXPECT_NEAR(re[i], p.real(), 1e-15);
    EXPECT_NEAR(im[i], p.imag(), 1e-15);
    const std::complex<double> q =
        std::complex<double>(a.re[i], a.im[i]) * std::complex<double>(a.re[i], a.im[i]) * 0.25;
    EXPECT_NEAR(sre[i], q.real(), 1e-15);
    EXPECT_NEAR(sim[i], q.imag(), 1e-15);
  }
}

TEST(ComplexFft, RejectsLengthsThatAreNotPowersOfTwo) {
  EXPECT_THROW(complex_fft<double>(0), std::invalid_argument);
  EXPECT_THROW(complex_fft<double>(12), std::invalid_argument);
  EXPECT_THROW(complex_fft<float>(1000), std::invalid_argument);
}

}  // namespace
