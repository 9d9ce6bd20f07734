// SPDX-License-Identifier: LGPL-3.0-or-later
// Carry normalization against GMP: the sequential reference and the
// two-phase algorithm, every base 2^k and 10^k, signed and unsigned
// coefficients, every thread count giving the same digits.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "carry/carry.hpp"
#include "test_support.hpp"

using bigmul::carry::digit_base;

namespace {

std::string base_name(digit_base b) { return (b.decimal ? "10^" : "2^") + std::to_string(b.digits); }

std::vector<digit_base> all_bases() {
  std::vector<digit_base> v;
  for (unsigned k = 1; k <= 32; ++k) v.push_back({false, k});
  for (unsigned k = 1; k <= 9; ++k) v.push_back({true, k});
  return v;
}

void set_coeff(mpz_t z, std::int64_t x) { mpz_set_si(z, x); }
void set_coeff(mpz_t z, unsigned __int128 x) {
  mpz_set_ui(z, static_cast<unsigned long>(x >> 64));
  mpz_mul_2exp(z, z, 64);
  mpz_add_ui(z, z, static_cast<unsigned long>(x));
}

// v = sum_{i<n} c_i B^i, divide and conquer (linear-time Horner is quadratic in GMP).
template <class T>
void horner_dc(mpz_t v, const T* c, std::size_t n, std::uint64_t B) {
  if (n <= 32) {
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(v, 0);
    for (std::size_t i = n; i-- > 0;) {
      mpz_mul_ui(v, v, B);
      set_coeff(t, c[i]);
      mpz_add(v, v, t);
    }
    mpz_clear(t);
    return;
  }
  const std::size_t h = n / 2;
  mpz_t hi, p;
  mpz_inits(hi, p, nullptr);
  horner_dc(v, c, h, B);
  horner_dc(hi, c + h, n - h, B);
  mpz_ui_pow_ui(p, B, h);
  mpz_addmul(v, hi, p);
  mpz_clears(hi, p, nullptr);
}

// The oracle: V = sum c_i B^i by GMP; returns whether 0 <= V < B^m and, if
// so, V's m base-B digits.
template <class T>
bool gmp_digits(const std::vector<T>& c, digit_base b, std::size_t m, std::vector<std::uint32_t>& digits) {
  mpz_t v, t, Bm;
  mpz_inits(v, t, Bm, nullptr);
  const std::uint64_t B = b.value();
  horner_dc(v, c.data(), c.size(), B);
  mpz_ui_pow_ui(Bm, B, m);
  const bool fits = mpz_sgn(v) >= 0 && mpz_cmp(v, Bm) < 0;
  digits.assign(m, 0);
  if (fits) {
    if (b.decimal) {
      std::string s(mpz_sizeinbase(v, 10) + 2, '\0');
      mpz_get_str(s.data(), 10, v);
      s.resize(std::char_traits<char>::length(s.c_str()));
      if (s == "0") s.clear();
      for (std::size_t i = 0; i < m; ++i) {
        std::uint32_t d = 0;
        for (unsigned j = b.digits; j-- > 0;) {
          const std::size_t pos = i * b.digits + j;  // digit position from the bottom
          d = d * 10 + (pos < s.size() ? static_cast<std::uint32_t>(s[s.size() - 1 - pos] - '0') : 0);
        }
        digits[i] = d;
      }
    } else {
      for (std::size_t i = 0; i < m; ++i) {
        std::uint32_t d = 0;
        for (unsigned j = 0; j < b.digits; ++j) d |= static_cast<std::uint32_t>(mpz_tstbit(v, i * b.digits + j)) << j;
        digits[i] = d;
      }
    }
  }
  mpz_clears(v, t, Bm, nullptr);
  return fits;
}

// Runs every implementation on c and compares with GMP.
template <class T>
void check(const std::vector<T>& c, digit_base b, std::size_t m, const std::string& what, std::uint64_t max_abs = 0) {
  SCOPED_TRACE(what + " base " + base_name(b) + " nc " + std::to_string(c.size()) + " m " + std::to_string(m));
  std::vector<std::uint32_t> want;
  const bool fits = gmp_digits(c, b, m, want);
  std::vector<std::uint32_t> got(m, 0xdeadbeef);
  ASSERT_EQ(bigmul::carry::carry_normalize_sequential(c.data(), c.size(), b, got.data(), m), fits) << "sequential";
  if (fits) {
    ASSERT_EQ(got, want) << "sequential";
  }
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    std::fill(got.begin(), got.end(), 0xdeadbeef);
    ASSERT_EQ(bigmul::carry::carry_normalize_two_phase(c.data(), c.size(), b, got.data(), m, threads, max_abs),
              fits)
        << "two-phase, " << threads << " threads";
    if (fits) {
      ASSERT_EQ(got, want) << "two-phase, " << threads << " threads";
    }
  }
}

// Digits of a known value, then redistributed between neighbours without
// changing it (c_i += d B, c_(i+1) -= d): large coefficients of both signs
// whose normalized digits are `digits`.
std::vector<std::int64_t> disguise(const std::vector<std::uint32_t>& digits, digit_base b, std::int64_t spread,
                                   std::mt19937_64& g) {
  std::vector<std::int64_t> c(digits.begin(), digits.end());
  const auto B = static_cast<std::int64_t>(b.value());
  const std::int64_t lim = std::numeric_limits<std::int64_t>::max() / 4 / B;
  const std::int64_t s = std::min(spread, lim);
  for (std::size_t i = 0; i + 1 < c.size(); ++i) {
    const std::int64_t d = static_cast<std::int64_t>(g() % (2 * static_cast<std::uint64_t>(s) + 1)) - s;
    c[i] += d * B;
    c[i + 1] -= d;
  }
  return c;
}

}  // namespace

TEST(Carry, SmallSignedEveryBase) {
  auto g = bigmul::test::rng(0xca11);
  for (digit_base b : all_bases()) {
    for (std::size_t n : {0u, 1u, 2u, 3u, 5u, 17u, 64u}) {
      std::vector<std::int64_t> c(n);
      const std::uint64_t B = b.value();
      const std::uint64_t R = B <= (1u << 30) ? 4 * B * B : std::uint64_t{1} << 62;
      for (auto& x : c) x = static_cast<std::int64_t>(g() % R) - static_cast<std::int64_t>(R / 2);
      if (n) c.back() = std::abs(c.back()) + 1;  // positive top: V > 0 most of the time
      for (std::size_t m : {n, n + 1, n + 3, n + 6})
        check(c, b, m, "random signed");
    }
  }
}

TEST(Carry, ExtremeInt64Coefficients) {
  const std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  for (digit_base b : all_bases()) {
    // V >= 0 needs the negative coefficients below positive ones.
    check(std::vector<std::int64_t>{lo, hi, hi}, b, 200, "min,max,max");
    check(std::vector<std::int64_t>{hi, hi, hi, hi}, b, 300, "all max");
    check(std::vector<std::int64_t>{lo, lo, 1}, b, 200, "negative total");  // V < 0 when B^2 < 2^64 * ...
    check(std::vector<std::int64_t>{-1}, b, 4, "minus one");
    check(std::vector<std::int64_t>{0, 0, 0}, b, 0, "zero into no digits");
    check(std::vector<std::int64_t>{1}, b, 0, "one into no digits");
  }
}

TEST(Carry, UnsignedWideCoefficients) {
  auto g = bigmul::test::rng(0xca12);
  for (digit_base b : all_bases()) {
    std::vector<unsigned __int128> c(40);
    for (auto& x : c) x = (static_cast<unsigned __int128>(g() >> 4) << 64) | g();  // < 2^124
    check(c, b, 40 + 130, "u128 random");
    std::fill(c.begin(), c.end(), ~static_cast<unsigned __int128>(0) >> 4);
    check(c, b, 40 + 130, "u128 max");
  }
}

// Values right at the edges of B^m: B^m - 1 (every digit B-1: the longest
// carry chains, in disguise) fits; B^m does not; neither does -1.
TEST(Carry, LongCarryChainsAndEdges) {
  auto g = bigmul::test::rng(0xca13);
  for (digit_base b : all_bases()) {
    const std::size_t m = 3000;
    const auto top = static_cast<std::uint32_t>(b.value() - 1);
    std::vector<std::uint32_t> digits(m, top);
    for (std::int64_t spread : {0, 1, 1000, 1 << 30}) {
      auto c = disguise(digits, b, spread, g);
      check(c, b, m, "B^m - 1, spread " + std::to_string(spread));
      c[0] += 1;  // B^m
      check(c, b, m, "B^m");
      c[0] -= 2;  // B^m - 2
      check(c, b, m, "B^m - 2");
    }
    std::vector<std::uint32_t> zero(m, 0);
    auto c = disguise(zero, b, 1 << 20, g);
    check(c, b, m, "zero in disguise");
    c[0] -= 1;
    check(c, b, m, "-1 in disguise");
  }
}

// Sizes around the chunk grain (two_phase::grain) so chunk edges cut the
// spread windows; results identical for every thread count.
TEST(Carry, ChunkEdges) {
  auto g = bigmul::test::rng(0xca14);
  const std::size_t grain = bigmul::carry::two_phase_grain;
  for (digit_base b : {digit_base{false, 16}, digit_base{false, 24}, digit_base{true, 4}, digit_base{true, 7},
                       digit_base{false, 1}, digit_base{true, 1}}) {
    for (std::size_t m : {grain - 1, grain, grain + 1, 2 * grain + 3, 5 * grain + 7}) {
      std::vector<std::uint32_t> digits(m);
      for (auto& d : digits) d = static_cast<std::uint32_t>(g() % b.value());
      if (m % 2) std::fill(digits.begin() + m / 3, digits.end(), static_cast<std::uint32_t>(b.value() - 1));
      check(disguise(digits, b, 1 << 16, g), b, m, "grain edges");
    }
  }
}

TEST(Carry, LargeRandomFftLike) {
  auto g = bigmul::test::rng(0xca15);
  // Balanced-digit convolution magnitudes: |c| up to ~2^50, positive total.
  for (digit_base b : {digit_base{false, 20}, digit_base{true, 6}}) {
    const std::size_t n = bigmul::test::heavy() ? (1u << 22) : (1u << 18);
    std::vector<std::int64_t> c(n);
    for (auto& x : c) x = static_cast<std::int64_t>(g() >> 14) - (std::int64_t{1} << 49);
    c.back() = std::int64_t{1} << 49;
    check(c, b, n + 4, "fft-like");
    check(c, b, n + 4, "fft-like, bound given", std::uint64_t{1} << 49);
  }
}
