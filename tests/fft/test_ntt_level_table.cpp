// SPDX-License-Identifier: LGPL-3.0-or-later
// The NTT engines' shared per-prime twiddle tables (fft/ntt_level_table.hpp)
// against their definition, whatever way a table was built (from scratch,
// extended from a shorter one, one thread or several): IFMA and portable,
// level t holds w_2t^j = g^((p-1)/2t * j) and its Shoup companion (2^52,
// 2^64) for j = 0 .. t; AVX2, w_m^+-bitrev(k) for k < m/2 as signed doubles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <random>
#include <stdexcept>
#include <vector>

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_avx2_arith.hpp"
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
  using T52 = ntt52_level_table;
  const u64 p = ntt52_primes[k].p;
  const u64 w = pow_mod(level_root(k, t), j, p);
  if (t > T52::cap) {  // coarse x fine
    const std::size_t F = T52::fine(t);
    ASSERT_EQ(mul_mod(T.w[T52::offset(t / F) + j / F], T.fw[T52::fine_offset(t) + j % F], p), w)
        << "prime " << k << " level " << t << " j " << j;
    return;
  }
  const std::size_t at = ntt52_level_table::offset(t) + j;
  ASSERT_EQ(T.w[at], w) << "prime " << k << " level " << t << " j " << j;
  ASSERT_EQ(T.wq[at], shoup52_companion(w, p)) << "prime " << k << " level " << t << " j " << j;
}

// Every entry of levels 1 .. top: powers by a running product (exact mod p).
// Levels above the cap: the fine entries w_2t^jl (jl <= F) and, for sampled
// j, fine x coarse = w_2t^j, the coarse entry read from level t / F.
void expect_all(const ntt52_level_table& T, unsigned k) {
  using T52 = ntt52_level_table;
  const u64 p = ntt52_primes[k].p;
  ASSERT_EQ(T.p, p);
  ASSERT_EQ(T.w.size(), T52::entries(T.top));
  ASSERT_EQ(T.fw.size(), T52::fine_entries(T.top));
  for (std::size_t t = 1; t <= std::min(T.top, T52::cap); t *= 2) {
    const u64 root = level_root(k, t);
    u64 w = 1;
    for (std::size_t j = 0; j <= t; ++j, w = mul_mod(w, root, p)) {
      const std::size_t at = ntt52_level_table::offset(t) + j;
      ASSERT_EQ(T.w[at], w) << "prime " << k << " level " << t << " j " << j;
      ASSERT_EQ(T.wq[at], shoup52_companion(w, p)) << "prime " << k << " level " << t << " j " << j;
    }
  }
  std::mt19937_64 rng(k);
  for (std::size_t t = 2 * T52::cap; t <= T.top; t *= 2) {
    const std::size_t F = T52::fine(t);
    ASSERT_LE(t / F, T52::cap);
    ASSERT_GE(F, 64u);
    const u64 root = level_root(k, t);
    u64 w = 1;
    for (std::size_t j = 0; j <= F; ++j, w = mul_mod(w, root, p)) {
      const std::size_t at = T52::fine_offset(t) + j;
      ASSERT_EQ(T.fw[at], w) << "prime " << k << " level " << t << " fine " << j;
      ASSERT_EQ(T.fwq[at], shoup52_companion(w, p)) << "prime " << k << " level " << t << " fine " << j;
    }
    for (std::size_t j : {std::size_t{0}, F - 1, F, F + 1, t - 1, t, std::size_t(rng() % t)}) {
      const std::size_t jh = j / F, jl = j % F;
      const u64 c = T.w[T52::offset(t / F) + jh], f = T.fw[T52::fine_offset(t) + jl];
      ASSERT_EQ(mul_mod(c, f, p), pow_mod(root, j, p)) << "prime " << k << " level " << t << " j " << j;
      // The inverse's -w_2t^-j: w_2t^-jl times the reversed coarse level's entry jh.
      const u64 ic = T.iw[T52::offset(t / F) + jh], icq = T.iwq[T52::offset(t / F) + jh];
      const u64 fi = T.fiw[T52::fine_offset(t) + jl], fiq = T.fiwq[T52::fine_offset(t) + jl];
      ASSERT_EQ(mul_mod(ic, fi, p), p - pow_mod(inv_mod(root, p), j, p)) << "prime " << k << " level " << t << " j " << j;
      ASSERT_EQ(icq, shoup52_companion(ic, p));
      ASSERT_EQ(fiq, shoup52_companion(fi, p));
    }
  }
  // The inverse's full levels: each level reversed, companions included.
  ASSERT_EQ(T.iw.size(), T.w.size());
  ASSERT_EQ(T.fiw.size(), T.fw.size());
  for (std::size_t t = 1; t <= std::min(T.top, T52::cap); t *= 2)
    for (std::size_t j = 0; j <= t; ++j) {
      ASSERT_EQ(T.iw[T52::offset(t) + j], T.w[T52::offset(t) + t - j]) << "level " << t << " j " << j;
      ASSERT_EQ(T.iwq[T52::offset(t) + j], T.wq[T52::offset(t) + t - j]) << "level " << t << " j " << j;
    }
}

// memcmp of n bytes, where n == 0 may come with null pointers (an empty
// fine-span buffer below the cap): memcmp's arguments must not be null.
bool equal_bytes(const void* a, const void* b, std::size_t n) { return n == 0 || std::memcmp(a, b, n) == 0; }

bool same(const ntt52_level_table& a, const ntt52_level_table& b) {
  const std::size_t n = ntt52_level_table::entries(a.top), f = ntt52_level_table::fine_entries(a.top);
  return a.top == b.top && a.p == b.p && equal_bytes(a.w.data(), b.w.data(), n * sizeof(u64)) &&
         equal_bytes(a.wq.data(), b.wq.data(), n * sizeof(u64)) &&
         equal_bytes(a.fw.data(), b.fw.data(), f * sizeof(u64)) &&
         equal_bytes(a.fwq.data(), b.fwq.data(), f * sizeof(u64)) &&
         equal_bytes(a.iw.data(), b.iw.data(), n * sizeof(u64)) &&
         equal_bytes(a.iwq.data(), b.iwq.data(), n * sizeof(u64)) &&
         equal_bytes(a.fiw.data(), b.fiw.data(), f * sizeof(u64)) &&
         equal_bytes(a.fiwq.data(), b.fiwq.data(), f * sizeof(u64));
}

// The table's size: the full levels up to the cap, then F + 1 fine entries a
// big level, F = max(64, t / cap): about 2 cap + 2 top / cap entries, so a
// transform of 2^27 points takes ~2 MB a prime instead of 4 GB.
TEST(NttLevelTable, BigLevelsAreCoarseTimesFine) {
  using T52 = ntt52_level_table;
  EXPECT_EQ(T52::entries(T52::cap), T52::offset(2 * T52::cap));
  EXPECT_EQ(T52::entries(T52::cap * 64), T52::entries(T52::cap));
  EXPECT_EQ(T52::fine_entries(T52::cap), 0u);
  EXPECT_EQ(T52::fine_entries(2 * T52::cap), T52::fine_min + 1);
  EXPECT_EQ(T52::fine_offset(4 * T52::cap), T52::fine_min + 1);
  for (std::size_t t = 2 * T52::cap; t <= (std::size_t{1} << 33); t *= 2) {
    ASSERT_LE(t / T52::fine(t), T52::cap) << t;
    ASSERT_EQ(T52::fine_offset(2 * t), T52::fine_offset(t) + T52::fine(t) + 1);
  }
  EXPECT_LT(T52::bytes(std::size_t{1} << 26), std::size_t{4} << 20);  // 2^27 points: < 4 MiB (full: 4 GiB)
  EXPECT_EQ(T52::bytes(T52::cap), T52::entries(T52::cap) * 32);  // forward and inverse, with companions
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

// What every engine's shared-table builder promises about growth:
// build(p, g, top, prefix) from any shorter table equals a fresh build of
// `top`, a longer prefix is cut to the levels asked for (`cut`), and a
// prefix of another prime (p2, g2) is not used. same_table compares two
// tables; k names the prime in failure messages.
template <class Build, class Same>
void expect_growth_equals_fresh(Build build, Same same_table, unsigned k, u64 p, u64 g, u64 p2, u64 g2,
                                std::size_t top, std::initializer_list<std::size_t> froms, std::size_t cut) {
  const auto fresh = build(p, g, top, nullptr);
  for (std::size_t from : froms) {
    const auto shorter = build(p, g, from, nullptr);
    ASSERT_TRUE(same_table(fresh, build(p, g, top, &shorter))) << "prime " << k << " from " << from;
  }
  ASSERT_TRUE(same_table(build(p, g, cut, &fresh), build(p, g, cut, nullptr)));
  const auto foreign = build(p2, g2, 64, nullptr);
  ASSERT_TRUE(same_table(build(p, g, 128, &foreign), build(p, g, 128, nullptr)));
}

TEST(NttLevelTable, ExtendedTableEqualsAFreshOne) {
  for (unsigned k = 0; k < ntt52_prime_count; ++k) {
    const unsigned other = (k + 1) % ntt52_prime_count;
    expect_growth_equals_fresh(
        [](u64 p, u64 g, std::size_t top, const ntt52_level_table* prefix) {
          return ntt52_build_levels(p, g, top, prefix);
        },
        same, k, ntt52_primes[k].p, ntt52_primes[k].generator, ntt52_primes[other].p,
        ntt52_primes[other].generator, 1 << 15, {1u, 2u, 256u, 1u << 14, 1u << 15}, 1 << 10);
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

// ---- Portable engine (ntt_primes, 64-bit companions) ----

void expect_all64(const ntt64_level_table& T, unsigned k) {
  using T52 = ntt52_level_table;
  const u64 p = ntt_primes[k].p;
  ASSERT_EQ(T.p, p);
  ASSERT_EQ(T.tw.size(), T52::entries(T.top));
  ASSERT_EQ(T.fine.size(), T52::fine_entries(T.top));
  std::mt19937_64 rng(k);
  for (std::size_t t = 2 * T52::cap; t <= T.top; t *= 2) {
    const std::size_t F = T52::fine(t);
    const u64 root = pow_mod(ntt_primes[k].generator, (p - 1) / (2 * t), p);
    u64 w = 1;
    for (std::size_t j = 0; j <= F; ++j, w = mul_mod(w, root, p)) {
      ASSERT_EQ(T.fine_level(t)[j].w, w) << "prime " << k << " level " << t << " fine " << j;
      ASSERT_EQ(T.fine_level(t)[j].w_shoup, shoup_companion(w, p)) << "prime " << k << " level " << t << " fine " << j;
    }
    for (std::size_t j : {std::size_t{0}, F - 1, F, F + 1, t - 1, t, std::size_t(rng() % t)})
      ASSERT_EQ(mul_mod(T.coarse_level(t)[j / F].w, T.fine_level(t)[j % F].w, p), pow_mod(root, j, p))
          << "prime " << k << " level " << t << " j " << j;
  }
  for (std::size_t t = 1; t <= std::min(T.top, T52::cap); t *= 2) {
    const u64 root = pow_mod(ntt_primes[k].generator, (p - 1) / (2 * t), p);
    u64 w = 1;
    for (std::size_t j = 0; j <= t; ++j, w = mul_mod(w, root, p)) {
      ASSERT_EQ(T.level(t)[j].w, w) << "prime " << k << " level " << t << " j " << j;
      ASSERT_EQ(T.level(t)[j].w_shoup, shoup_companion(w, p)) << "prime " << k << " level " << t << " j " << j;
    }
  }
}

bool same64(const ntt64_level_table& a, const ntt64_level_table& b) {
  return a.top == b.top && a.p == b.p &&
         equal_bytes(a.tw.data(), b.tw.data(), ntt52_level_table::entries(a.top) * sizeof(ntt_twiddle)) &&
         equal_bytes(a.fine.data(), b.fine.data(), ntt52_level_table::fine_entries(a.top) * sizeof(ntt_twiddle));
}

TEST(NttLevelTable, PortableTablesEqualTheDefinitionEveryPrime) {
  for (unsigned k = 0; k < ntt_prime_count; ++k) {
    const u64 p = ntt_primes[k].p, g = ntt_primes[k].generator;
    for (std::size_t top : {1u, 2u, 8u, 4096u}) expect_all64(ntt64_build_levels(p, g, top), k);
    // Threaded levels (past 2^14) equal one thread's; extensions equal fresh builds.
    const auto one = ntt64_build_levels(p, g, 1 << 16, nullptr, 1);
    expect_all64(one, k);
    ASSERT_TRUE(same64(one, ntt64_build_levels(p, g, 1 << 16, nullptr, 3)));
    const unsigned other = (k + 1) % ntt_prime_count;
    expect_growth_equals_fresh(
        [](u64 p, u64 g, std::size_t top, const ntt64_level_table* prefix) {
          return ntt64_build_levels(p, g, top, prefix);
        },
        same64, k, p, g, ntt_primes[other].p, ntt_primes[other].generator, 1 << 16, {1u, 4u, 1u << 13, 1u << 16},
        256);
  }
  EXPECT_THROW(ntt64_build_levels(ntt_primes[0].p, ntt_primes[0].generator, 6), std::invalid_argument);
  EXPECT_THROW(ntt64_levels(ntt_prime_count, 4), std::invalid_argument);
}

// ---- AVX2 engine (ntt52_primes, bit-reversed signed doubles) ----

// Entry k of the table for m = 2 half: w_m^bitrev(k) and w_m^-bitrev(k),
// bitrev over log2(half) bits; stored whole for k < cap, and past it the
// coarse entries c[kh] = entry kh cap.
void expect_all_avx2(const ntt_avx2_twiddle_table& T, unsigned prime) {
  const u64 p = ntt52_primes[prime].p;
  ASSERT_EQ(T.p, p);
  const std::size_t half = T.half, m = 2 * half, cap = ntt_avx2_twiddle_table::cap;
  ASSERT_EQ(T.fw.size(), std::min(half, cap));
  ASSERT_EQ(T.cw.size(), half > cap ? half / cap : 0);
  ASSERT_EQ(T.ciw_p.size(), T.cw.size());
  const unsigned bits = avx2::ceil_log2(half);
  const u64 root = pow_mod(ntt52_primes[prime].generator, (p - 1) / m, p), root_inv = inv_mod(root, p);
  const double pd = static_cast<double>(p);
  const auto check = [&](std::size_t k, double fw, double fw_p, double iw, double iw_p) {
    const std::size_t r = avx2::bit_reverse(k, bits);
    const double f = avx2::signed_rep(pow_mod(root, r, p), p), i = avx2::signed_rep(pow_mod(root_inv, r, p), p);
    ASSERT_EQ(fw, f) << "prime " << prime << " half " << half << " k " << k;
    ASSERT_EQ(iw, i) << "prime " << prime << " half " << half << " k " << k;
    ASSERT_EQ(fw_p, f / pd);
    ASSERT_EQ(iw_p, i / pd);
  };
  for (std::size_t k = 0; k < T.fw.size(); ++k) check(k, T.fw[k], T.fw_p[k], T.iw[k], T.iw_p[k]);
  for (std::size_t kh = 0; kh < T.cw.size(); ++kh) check(kh * cap, T.cw[kh], T.cw_p[kh], T.ciw[kh], T.ciw_p[kh]);
}

bool same_avx2(const ntt_avx2_twiddle_table& a, const ntt_avx2_twiddle_table& b) {
  const auto eq = [](const bigmul::prim::buffer<double>& x, const bigmul::prim::buffer<double>& y) {
    return x.size() == y.size() && (x.size() == 0 || equal_bytes(x.data(), y.data(), x.size() * sizeof(double)));
  };
  return a.half == b.half && a.p == b.p && eq(a.fw, b.fw) && eq(a.fw_p, b.fw_p) && eq(a.iw, b.iw) &&
         eq(a.iw_p, b.iw_p) && eq(a.cw, b.cw) && eq(a.cw_p, b.cw_p) && eq(a.ciw, b.ciw) && eq(a.ciw_p, b.ciw_p);
}

TEST(NttLevelTable, Avx2TablesEqualTheDefinitionEveryPrime) {
  for (unsigned k = 0; k < ntt52_prime_count; ++k) {
    const u64 p = ntt52_primes[k].p, g = ntt52_primes[k].generator;
    for (std::size_t half : {1u, 2u, 8u, 1024u, 2048u, 4096u, 1u << 20})
      expect_all_avx2(ntt_avx2_build_twiddles(p, g, half), k);
    const auto one = ntt_avx2_build_twiddles(p, g, 1 << 16, nullptr, 1);
    expect_all_avx2(one, k);
    ASSERT_TRUE(same_avx2(one, ntt_avx2_build_twiddles(p, g, 1 << 16, nullptr, 3)));
    const unsigned other = (k + 1) % ntt52_prime_count;
    expect_growth_equals_fresh(
        [](u64 p, u64 g, std::size_t half, const ntt_avx2_twiddle_table* prefix) {
          return ntt_avx2_build_twiddles(p, g, half, prefix);
        },
        same_avx2, k, p, g, ntt52_primes[other].p, ntt52_primes[other].generator, 1 << 16,
        {1u, 16u, 2048u, 4096u, 1u << 14, 1u << 16}, 512);
  }
  EXPECT_THROW(ntt_avx2_build_twiddles(ntt52_primes[0].p, ntt52_primes[0].generator, 12), std::invalid_argument);
  EXPECT_THROW(ntt_avx2_twiddles(ntt52_prime_count, 4), std::invalid_argument);
}

// Plans of every engine built before and after their prime's shared table
// grew (short plan first, then a long one, then a short one again) invert
// their own transforms: x -> n x. test_ntt checks the transforms against the DFT.
template <class Plan>
void expect_round_trip(unsigned prime, std::size_t n, u64 p) {
  Plan plan(prime, n);
  std::mt19937_64 rng(n + prime);
  std::vector<u64> x(n), y;
  for (auto& v : x) v = rng() % p;
  y = x;
  plan.forward(y.data(), 1);
  plan.inverse(y.data(), 1);
  const u64 n_mod = n % p;
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(y[i] % p, mul_mod(x[i], n_mod, p)) << "n " << n << " i " << i;
}

TEST(NttLevelTable, PlansRoundTripAcrossTableGrowthEveryEngine) {
  const std::size_t lengths[] = {16, 3 << 4, 1 << 10, 3 << 13, 1 << 17, 1 << 9, 3 << 10};
  for (std::size_t n : lengths) expect_round_trip<ntt_plan>(1, n, ntt_primes[1].p);
  EXPECT_GE(ntt64_levels(1, 1)->top, std::size_t{1} << 16);
  if (ntt_avx2_supported())
    for (std::size_t n : lengths) expect_round_trip<ntt_avx2_plan>(2, n, ntt52_primes[2].p);
  EXPECT_GE(ntt_avx2_twiddles(2, 1)->half, std::size_t{1} << 16);
  if (ntt52_supported())
    for (std::size_t n : lengths) expect_round_trip<ntt52_plan>(1, n, ntt52_primes[1].p);
}

}  // namespace
