// SPDX-License-Identifier: LGPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "convolution.hpp"
#include "fft/fft_real.hpp"
#include "reference_dft.hpp"
#include "test_support.hpp"

namespace {

using bigmul::fft::real_fft;
using bigmul::fft::test::cld;

template <class Real>
std::vector<Real> random_reals(std::size_t n, std::mt19937_64& g) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<Real> x(n);
  for (auto& v : x) v = static_cast<Real>(d(g));
  return x;
}

template <class Real>
long double tolerance(std::size_t n) {
  const long double eps = std::numeric_limits<Real>::epsilon();
  const long double lg = std::max<long double>(1, std::log2(static_cast<long double>(n)));
  return 2 * eps * lg * std::sqrt(static_cast<long double>(n));
}

template <class Real>
void check_real(std::size_t n, bool use_naive, std::uint64_t salt) {
  auto g = bigmul::test::rng(salt + n);
  const real_fft<Real> plan(n);
  const std::size_t h = n / 2;
  const std::vector<Real> x = random_reals<Real>(n, g);
  std::vector<cld> exact(n);
  for (std::size_t i = 0; i < n; ++i) exact[i] = x[i];
  const auto want = use_naive ? bigmul::fft::test::naive_dft(exact, -1)
                              : bigmul::fft::test::reference_fft(exact, -1);
  std::vector<Real> re(h), im(h);
  for (std::size_t l = 0; l < h; ++l) {
    re[l] = x[2 * l];
    im[l] = x[2 * l + 1];
  }
  plan.forward(re.data(), im.data());
  long double err = 0;
  for (std::size_t k = 0; k <= h; ++k) {
    const std::complex<Real> b = plan.bin(re.data(), im.data(), k);
    err = std::max(err, std::abs(cld(b.real(), b.imag()) - want[k]));
  }
  EXPECT_LE(err, tolerance<Real>(n)) << "forward n=" << n;

  // Inverse from the exact spectrum written into the layout: gives n * x.
  std::vector<Real> sr(h), si(h);
  for (std::size_t k = 1; k < h; ++k) {
    const std::size_t p = plan.half_plan().position_of(k);
    sr[p] = static_cast<Real>(want[k].real());
    si[p] = static_cast<Real>(want[k].imag());
  }
  sr[0] = static_cast<Real>(want[0].real());
  si[0] = static_cast<Real>(want[h].real());
  plan.inverse(sr.data(), si.data());
  long double ierr = 0;
  for (std::size_t l = 0; l < h; ++l) {
    ierr = std::max(ierr, std::abs(sr[l] * static_cast<long double>(plan.inverse_scale()) -
                                   static_cast<long double>(x[2 * l])));
    ierr = std::max(ierr, std::abs(si[l] * static_cast<long double>(plan.inverse_scale()) -
                                   static_cast<long double>(x[2 * l + 1])));
  }
  // Relative to |x| <= 1, after dividing by n: the spectrum's own rounding plus the
  // transform's.
  EXPECT_LE(ierr, 8 * std::numeric_limits<Real>::epsilon() * std::log2(n)) << "inverse n=" << n;
}

TEST(RealFft, MatchesNaiveDft) {
  for (std::size_t n = 2; n <= 4096; n *= 2) {
    check_real<double>(n, true, 1000);
    check_real<float>(n, true, 1100);
  }
}

TEST(RealFft, LargeMatchesReferenceFft) {
  const unsigned top = bigmul::test::heavy() ? 22 : 16;
  for (unsigned k = 13; k <= top; ++k) {
    check_real<double>(std::size_t{1} << k, false, 1200);
    check_real<float>(std::size_t{1} << k, false, 1300);
  }
}

template <class Real>
void real_round_trip(unsigned max_log2, std::uint64_t salt) {
  auto g = bigmul::test::rng(salt);
  for (unsigned k = 1; k <= max_log2; ++k) {
    const std::size_t n = std::size_t{1} << k, h = n / 2;
    const real_fft<Real> plan(n);
    const std::vector<Real> re0 = random_reals<Real>(h, g), im0 = random_reals<Real>(h, g);
    std::vector<Real> re = re0, im = im0;
    plan.forward(re.data(), im.data());
    plan.inverse(re.data(), im.data());
    const Real s = plan.inverse_scale();
    long double err = 0;
    for (std::size_t l = 0; l < h; ++l) {
      err = std::max(err, static_cast<long double>(std::abs(re[l] * s - re0[l])));
      err = std::max(err, static_cast<long double>(std::abs(im[l] * s - im0[l])));
    }
    EXPECT_LE(err, 4 * std::numeric_limits<Real>::epsilon() * k) << "n=" << n;
  }
}

TEST(RealFft, RoundTripDouble) { real_round_trip<double>(20, 1400); }
TEST(RealFft, RoundTripFloat) { real_round_trip<float>(20, 1500); }

TEST(RealFft, ThreadCountsGiveIdenticalBits) {
  for (unsigned k : {5u, 14u, 18u}) {
    const std::size_t n = std::size_t{1} << k, h = n / 2;
    auto g = bigmul::test::rng(1600 + k);
    const real_fft<double> plan(n);
    const std::vector<double> re0 = random_reals<double>(h, g), im0 = random_reals<double>(h, g);
    std::vector<double> ref_re = re0, ref_im = im0;
    plan.forward(ref_re.data(), ref_im.data(), 1);
    for (unsigned threads : {2u, 3u}) {
      std::vector<double> re = re0, im = im0;
      plan.forward(re.data(), im.data(), threads);
      EXPECT_EQ(0, std::memcmp(re.data(), ref_re.data(), h * sizeof(double)));
      EXPECT_EQ(0, std::memcmp(im.data(), ref_im.data(), h * sizeof(double)));
    }
  }
}

TEST(RealFft, RejectsBadLengths) {
  EXPECT_THROW(real_fft<double>(1), std::invalid_argument);
  EXPECT_THROW(real_fft<double>(6), std::invalid_argument);
}

std::vector<std::int64_t> balanced_16bit(std::size_t n, std::mt19937_64& g) {
  std::uniform_int_distribution<std::int64_t> d(-(1 << 15) + 1, (1 << 15) - 1);
  std::vector<std::int64_t> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

// Small sizes: every coefficient against the int64 schoolbook product.
TEST(Convolution, SmallSizesExact) {
  auto g = bigmul::test::rng(1700);
  for (std::size_t n = 1; n <= 1024; n = n * 2 + (n % 3)) {
    const auto a = balanced_16bit(n, g), b = balanced_16bit(n + n / 3, g);
    std::size_t L = 2;
    while (L < a.size() + b.size() - 1) L *= 2;
    const auto c = bigmul::fft::test::convolve_complex<double>(a, b, L);
    const auto r = bigmul::fft::test::convolve_real<double>(a, b, L);
    for (std::size_t k = 0; k < c.c.size(); ++k) {
      const std::int64_t want = bigmul::fft::test::exact_coefficient(a, b, k);
      ASSERT_EQ(c.c[k], want) << "complex n=" << n << " k=" << k;
      ASSERT_EQ(r.c[k], want) << "real n=" << n << " k=" << k;
    }
    EXPECT_LT(c.max_rounding_error, 0.01);
    EXPECT_LT(r.max_rounding_error, 0.01);
  }
}

// Larger sizes (transform up to 2^18 real points): random positions checked exactly.
TEST(Convolution, LargeSizesAtRandomPositions) {
  auto g = bigmul::test::rng(1800);
  const unsigned top = bigmul::test::heavy() ? 24 : 18;
  for (unsigned k = 11; k <= top; k += 1) {
    const std::size_t L = std::size_t{1} << k, n = L / 2;
    const auto a = balanced_16bit(n, g), b = balanced_16bit(n, g);
    const auto r = bigmul::fft::test::convolve_real<double>(a, b, L);
    const auto c = bigmul::fft::test::convolve_complex<double>(a, b, L);
    std::uniform_int_distribution<std::size_t> pos(0, r.c.size() - 1);
    for (int t = 0; t < 64; ++t) {
      const std::size_t i = t == 0 ? 0 : t == 1 ? r.c.size() - 1 : t == 2 ? n - 1 : pos(g);
      const std::int64_t want = bigmul::fft::test::exact_coefficient(a, b, i);
      ASSERT_EQ(r.c[i], want) << "real L=" << L << " i=" << i;
      ASSERT_EQ(c.c[i], want) << "complex L=" << L << " i=" << i;
    }
    EXPECT_LT(r.max_rounding_error, 0.1) << "L=" << L;
    RecordProperty("max_rounding_error_2^" + std::to_string(k), std::to_string(r.max_rounding_error));
  }
}

// Float is exact only for small coefficients and lengths: 8-bit inputs at 2^12 points.
TEST(Convolution, FloatSmallCoefficients) {
  auto g = bigmul::test::rng(1900);
  std::uniform_int_distribution<std::int64_t> d(-7, 7);
  const std::size_t n = 2048;
  std::vector<std::int64_t> a(n), b(n);
  for (auto& x : a) x = d(g);
  for (auto& x : b) x = d(g);
  const auto r = bigmul::fft::test::convolve_real<float>(a, b, 2 * n);
  const auto c = bigmul::fft::test::convolve_complex<float>(a, b, 2 * n);
  for (std::size_t k = 0; k < r.c.size(); ++k) {
    const std::int64_t want = bigmul::fft::test::exact_coefficient(a, b, k);
    ASSERT_EQ(r.c[k], want) << k;
    ASSERT_EQ(c.c[k], want) << k;
  }
}

}  // namespace
