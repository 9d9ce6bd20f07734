// The IFMA engine's shared per-prime twiddle tables (fft/ntt_level_table.hpp)
// against their definition: level t holds w_2t^j = g^((p-1)/2t * j) and
// floor(w 2^52 / p) for j = 0 .. t, whatever way the table was built
// (from scratch, extended from a shorter one, one thread or several).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "fft/ntt_ifma.hpp"
#include "fft/ntt_level_table.hpp"

namespace {

using namespace bigmul::fft;

u64 level_root(unsigned k, std::size_t t) {
  const u64 p = ntt52_primes[k].p;
  return pow_mod(ntt52_primes[k].generator, (p - 1) / (2 * t), p);
}

// Entry j of level t equals the definition (power and divided companion).
void expect_entry(const ntt52_level_table& T, unsigned k, std::size_t t, std::size_t j) {
  const u64 p = ntt52_primes[k].p;
  const u64 w = pow_mod(level_root(k, t), j, p);
  const std::size_t at = ntt52_level_table::offset(t) + j;
  ASSERT_EQ(T.w[at], w) << "prime " << k << " level " << t << " j " << j;
  ASSERT_EQ(T.wq[at], shoup52_companion(w, p)) << "prime " << k << " level " << t << " j " << j;
}

// Every entry of levels 1 .. top: powers by a running product (exact mod p).
void expect_all(const ntt52_level_table& T, unsigned k) {
  const u64 p = ntt52_primes[k].p;
  ASSERT_EQ(T.p, p);
  for (std::size_t t = 1; t <= T.top; t *= 2) {
    const u64 root = level_root(k, t);
    u64 w = 1;
    for (std::size_t j = 0; j <= t; ++j, w = mul_mod(w, root, p)) {
      const std::size_t at = ntt52_level_table::offset(t) + j;
      ASSERT_EQ(T.w[at], w) << "prime " << k << " level " << t << " j " << j;
      ASSERT_EQ(T.wq[at], shoup52_companion(w, p)) << "prime " << k << " level " << t << " j " << j;
    }
  }
}

bool same(const ntt52_level_table& a, const ntt52_level_table& b) {
  const std::size_t n = ntt52_level_table::entries(a.top);
  return a.top == b.top && a.p == b.p && std::memcmp(a.w.data(), b.w.data(), n * sizeof(u64)) == 0 &&
         std::memcmp(a.wq.data(), b.wq.data(), n * sizeof(u64)) == 0;
}

TEST(NttLevelTable, LayoutPacksLevelsInOrder) {
  EXPECT_EQ(ntt52_level_table::offset(1), 0u);
  EXPECT_EQ(ntt52_level_table::offset(2), 2u);
  EXPECT_EQ(ntt52_level_table::offset(4), 5u);
  for (std::size_t t = 1; t <= (std::size_t{1} << 31); t *= 2)
    ASSERT_EQ(ntt52_level_table::offset(2 * t), ntt52_level_table::offset(t) + t + 1);
  EXPECT_EQ(ntt52_level_table::entries(0), 0u);
  EXPECT_EQ(ntt52_level_table::entries(1), 2u);
}

TEST(NttLevelTable, EstimatedCompanionEqualsTheDivision) {
  std::mt19937_64 rng(19);
  for (unsigned k = 0; k < ntt52_prime_count; ++k) {
    const u64 p = ntt52_primes[k].p;
    const double inv = 4503599627370496.0 / static_cast<double>(p);
    std::vector<u64> ws = {0, 1, 2, p - 1, p - 2, p / 2, p / 2 + 1, (u64{1} << 49), (u64{1} << 49) - 1};
    // Values whose quotient w 2^52 / p is just below or at an integer: w = ceil(q p / 2^52) +- 1.
    for (u64 q : {u64{1}, u64{3}, u64{1} << 20, (u64{1} << 52) - 5, (u64{1} << 51) + 7}) {
      const u64 w = static_cast<u64>((static_cast<u128>(q) * p + ((u64{1} << 52) - 1)) >> 52);
      for (u64 d : {w - 1, w, w + 1})
        if (d < p) ws.push_back(d);
    }
    for (int i = 0; i < 200000; ++i) ws.push_back(rng() % p);
    for (u64 w : ws) ASSERT_EQ(shoup52_companion_estimated(w, p, inv), shoup52_companion(w, p)) << "p " << p << " w " << w;
  }
}

TEST(NttLevelTable, SmallTablesEqualTheDefinitionEveryPrime) {
  for (unsigned k = 0; k < ntt52_prime_count; ++k)
    for (std::size_t top : {1u, 2u, 4u, 8u, 64u, 4096u}) {
      const auto T = ntt52_build_levels(ntt52_primes[k].p, ntt52_primes[k].generator, top);
      ASSERT_EQ(T.top, top);
      expect_all(T, k);
    }
}

// Past the single-thread threshold (2^14) the levels are split over threads:
// whole table checked, sampled entries against the power definition.
TEST(NttLevelTable, LargeTableEqualsTheDefinitionAndIsThreadIndependent) {
  const unsigned k = 2;
  const std::size_t top = std::size_t{1} << 17;
  const auto a = ntt52_build_levels(ntt52_primes[k].p, ntt52_primes[k].generator, top, nullptr, 1);
  const auto b = ntt52_build_levels(ntt52_primes[k].p, ntt52_primes[k].generator, top, nullptr, 2);
  const auto c = ntt52_build_levels(ntt52_primes[k].p, ntt52_primes[k].generator, top, nullptr, 5);
  EXPECT_TRUE(same(a, b));
  EXPECT_TRUE(same(a, c));
  expect_all(b, k);
  std::mt19937_64 rng(5);
  for (std::size_t t = 1; t <= top; t *= 2) {
    expect_entry(b, k, t, 0);
    expect_entry(b, k, t, t);
    for (int i = 0; i < 16; ++i) expect_entry(b, k, t, rng() % (t + 1));
  }
}

TEST(NttLevelTable, ExtendedTableEqualsAFreshOne) {
  for (unsigned k = 0; k < ntt52_prime_count; ++k) {
    const u64 p = ntt52_primes[k].p, g = ntt52_primes[k].generator;
    const auto fresh = ntt52_build_levels(p, g, 1 << 15);
    for (std::size_t from : {1u, 2u, 256u, 1u << 14, 1u << 15}) {
      const auto shorter = ntt52_build_levels(p, g, from);
      const auto extended = ntt52_build_levels(p, g, 1 << 15, &shorter);
      ASSERT_TRUE(same(fresh, extended)) << "prime " << k << " from " << from;
    }
    // A longer prefix is cut to the levels asked for.
    const auto cut = ntt52_build_levels(p, g, 1 << 10, &fresh);
    const auto direct = ntt52_build_levels(p, g, 1 << 10);
    ASSERT_TRUE(same(cut, direct));
    // A prefix of another prime is not used.
    const unsigned other = (k + 1) % ntt52_prime_count;
    const auto foreign = ntt52_build_levels(ntt52_primes[other].p, ntt52_primes[other].generator, 64);
    ASSERT_TRUE(same(ntt52_build_levels(p, g, 128, &foreign), ntt52_build_levels(p, g, 128)));
  }
}

TEST(NttLevelTable, RejectsTopsThatAreNotPowersOfTwo) {
  const u64 p = ntt52_primes[0].p, g = ntt52_primes[0].generator;
  EXPECT_THROW(ntt52_build_levels(p, g, 0), std::invalid_argument);
  EXPECT_THROW(ntt52_build_levels(p, g, 3), std::invalid_argument);
  EXPECT_THROW(ntt52_levels(ntt52_prime_count, 4), std::invalid_argument);
}

// The shared table: one per prime, grown for a longer length (a plan keeps
// the table it took), never shrunk, a longer one serving shorter requests.
TEST(NttLevelTable, SharedTableGrowsAndServesShorterLengths) {
  const unsigned k = 3;
  const auto small = ntt52_levels(k, 1 << 9);
  ASSERT_GE(small->top, std::size_t{1} << 9);
  const std::size_t big_top = std::max<std::size_t>(small->top * 4, 1 << 16);
  const auto big = ntt52_levels(k, big_top);
  EXPECT_EQ(big->top, big_top);
  EXPECT_EQ(ntt52_levels(k, 1 << 9).get(), big.get());
  EXPECT_EQ(ntt52_levels(k, 100)->top, big_top);  // rounded up to 2^7, served by the big one
  expect_all(*small, k);
  expect_all(*big, k);
  // Plans of shorter and longer lengths built on the grown table still
  // invert their own transforms (test_ntt checks them against the DFT).
  if (!ntt52_supported()) GTEST_SKIP() << "this processor has no AVX-512 IFMA (tables checked above)";
  for (std::size_t n : {std::size_t{1} << 10, std::size_t{3} << 12, std::size_t{1} << 17}) {
    ntt52_plan plan(k, n);
    const u64 p = ntt52_primes[k].p;
    std::mt19937_64 rng(n);
    std::vector<u64> x(n), y;
    for (auto& v : x) v = rng() % p;
    y = x;
    plan.forward(y.data(), 1);
    plan.inverse(y.data(), 1);
    const u64 n_mod = n % p;
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(y[i] % p, mul_mod(x[i], n_mod, p)) << "n " << n << " i " << i;
  }
}

}  // namespace
