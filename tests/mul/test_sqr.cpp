// SPDX-License-Identifier: LGPL-3.0-or-later
// Squaring (mul/sqr_basecase.hpp, sqr_karatsuba in mul/karatsuba.hpp, Toom-3's squares) and
// bigmul::mul(a, a) through every path that reaches it, against GMP's mpz_mul:
// every fixed kernel, the MULX/ADX and portable schoolbook squares and the
// Karatsuba square at every length up to a few hundred limbs, on random,
// all-maximum, run, sparse, power and zero operands and on operands whose
// halves are equal or ordered either way (the Karatsuba difference's sign);
// the public entry's crossovers (mul/params_cpu.inc) +-1 on every NTT
// engine, with and without options that send it down the full path; and pointer-equal operands of unequal lengths (not a
// square).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigmul/mul.hpp"
#include "mul/basecase_adx.hpp"
#include "mul/basecase_small.hpp"
#include "mul/karatsuba.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/params_cpu.hpp"
#include "mul/sqr_basecase.hpp"
#include "mul/toom3.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;
using bigmul::test::operand_kind;

std::vector<limb_t> gmp_square(const std::vector<limb_t>& a) {
  return bigmul::test::gmp_product(a.data(), a.size(), a.data(), a.size(), radix::binary);
}

// Operands of n limbs: the test kinds, zero, and halves equal / low < high / low > high.
std::vector<std::vector<limb_t>> operands(std::size_t n, std::mt19937_64& g) {
  std::vector<std::vector<limb_t>> v;
  for (operand_kind k : {operand_kind::random, operand_kind::all_max, operand_kind::runs, operand_kind::sparse,
                         operand_kind::power})
    v.push_back(bigmul::test::make_operand(k, n, radix::binary, g));
  v.emplace_back(n, limb_t{0});
  if (n >= 2) {
    // Halves a0 = a[0 .. lo), a1 = a[lo .. n) zero-extended to lo limbs.
    const std::size_t lo = (n + 1) / 2, hi = n - lo;
    auto eq = bigmul::test::make_operand(operand_kind::random, n, radix::binary, g);
    for (std::size_t i = 0; i < hi; ++i) eq[lo + i] = eq[i];
    if (lo > hi) eq[lo - 1] = 0;
    auto up = eq, down = eq;
    up[hi - 1] = 0, up[n - 1] = ~limb_t{0};    // a0 < a1
    down[hi - 1] = ~limb_t{0}, down[n - 1] = 0;  // a0 > a1
    v.push_back(eq);
    v.push_back(up);
    v.push_back(down);
  }
  return v;
}

// f(r, a, n) against GMP with guard limbs either side of r.
template <class F>
void check_square(F&& f, const std::vector<limb_t>& a, const char* what) {
  const std::size_t n = a.size();
  std::vector<limb_t> r(2 * n + 2, 0x5555);
  f(r.data() + 1, a.data(), n);
  ASSERT_EQ(r[0], 0x5555u) << what << " n=" << n << " wrote below r";
  ASSERT_EQ(r[2 * n + 1], 0x5555u) << what << " n=" << n << " wrote past r + 2n";
  ASSERT_EQ(std::vector<limb_t>(r.begin() + 1, r.end() - 1), gmp_square(a)) << what << " n=" << n;
}

TEST(Sqr, FixedKernels) {
  auto g = bigmul::test::rng(2301);
  EXPECT_EQ(detail::sqr_small_kernels.f[0], nullptr);
  for (std::size_t n = 1; n <= detail::sqr_basecase_small_max; ++n) {
    ASSERT_NE(detail::sqr_small_kernels.f[n], nullptr);
    for (const auto& a : operands(n, g)) {
      check_square([](limb_t* r, const limb_t* x, std::size_t k) { detail::sqr_small_kernels.f[k](r, x); }, a,
                   "kernel");
      check_square(detail::sqr_small_without_adx, a, "kernel without MULX/ADX");
    }
  }
}

// The hand-scheduled 3- and 4-limb kernels (and their neighbours): every
// operand whose limbs come from {0, 1, 2^63, B-2, B-1, random}, so that every
// carry of the rows, the doubling and the diagonal is taken and not taken.
TEST(Sqr, SmallKernelsEveryLimbPattern) {
  auto g = bigmul::test::rng(2306);
  for (std::size_t n = 2; n <= 5; ++n) {
    std::size_t combos = 1;
    for (std::size_t i = 0; i < n; ++i) combos *= 6;
    for (std::size_t c = 0; c < combos; ++c) {
      std::vector<limb_t> a(n);
      for (std::size_t i = 0, k = c; i < n; ++i, k /= 6) {
        const limb_t values[] = {0, 1, limb_t{1} << 63, ~limb_t{1}, ~limb_t{0}, g()};
        a[i] = values[k % 6];
      }
      check_square([](limb_t* r, const limb_t* x, std::size_t k) { detail::sqr_small_kernels.f[k](r, x); }, a,
                   "kernel");
      check_square(detail::sqr_small_without_adx, a, "kernel without MULX/ADX");
    }
  }
}

TEST(Sqr, SchoolbookEveryLength) {
  auto g = bigmul::test::rng(2302);
  for (std::size_t n = 1; n <= 140; ++n)
    for (const auto& a : operands(n, g)) {
      check_square(detail::sqr_basecase_comba, a, "comba");
      check_square(detail::sqr_basecase, a, "sqr_basecase");
      if (n >= 2 && detail::basecase_adx_supported()) check_square(detail::sqr_basecase_adx, a, "adx");
    }
}

TEST(Sqr, KaratsubaEveryLength) {
  auto g = bigmul::test::rng(2303);
  std::vector<std::size_t> sizes;
  for (std::size_t n = 1; n <= 260; ++n) sizes.push_back(n);
  for (std::size_t n : {383u, 511u, 512u, 513u, 1000u, 2049u}) sizes.push_back(n);
  for (std::size_t n : sizes)
    for (const auto& a : operands(n, g)) {
      check_square([](limb_t* r, const limb_t* x, std::size_t k) { detail::sqr_karatsuba(r, x, k); }, a,
                   "sqr_karatsuba");
      // Other cut-offs: down to 2-limb pieces, and one level (tune_cpu's timing).
      check_square([](limb_t* r, const limb_t* x, std::size_t k) { detail::sqr_karatsuba(r, x, k, 2); }, a,
                   "sqr_karatsuba cut 2");
      check_square([](limb_t* r, const limb_t* x, std::size_t k) { detail::sqr_karatsuba(r, x, k, k); }, a,
                   "sqr_karatsuba one level");
      // mul_karatsuba hands squares to it, at any cut-off.
      check_square([](limb_t* r, const limb_t* x,
                      std::size_t k) { detail::mul_karatsuba(r, x, k, x, k, radix::binary, 4); },
                   a, "mul_karatsuba(a, a)");
    }
}

// Toom-3 with a == b: one evaluation, five squares, down to the schoolbook
// square (Toom-3 from 9 limbs) or through Karatsuba squares (from 12 and 24).
TEST(Sqr, Toom3Squares) {
  auto g = bigmul::test::rng(2307);
  std::vector<std::size_t> sizes;
  for (std::size_t n = 1; n <= 130; ++n) sizes.push_back(n);
  for (std::size_t n : {150u, 173u, 244u, 501u, 1000u}) sizes.push_back(n);
  for (std::size_t n : sizes)
    for (const auto& a : operands(n, g)) {
      check_square([](limb_t* r, const limb_t* x, std::size_t k) { detail::mul_toom3(r, x, k, x, k, 9, 1000); },
                   a, "toom3 from 9");
      check_square([](limb_t* r, const limb_t* x, std::size_t k) { detail::mul_toom3(r, x, k, x, k, 12, 24); },
                   a, "toom3 from 12");
    }
}

// Runs body(engine) with BIGMUL_NTT_ENGINE set to each engine this processor
// runs, then restores the variable.
template <class F>
void for_each_engine(F&& body) {
  const char* v = std::getenv("BIGMUL_NTT_ENGINE");
  const bool had = v != nullptr;
  const std::string saved = had ? v : "";
  for (detail::ntt_engine e : {detail::ntt_engine::ifma, detail::ntt_engine::avx2, detail::ntt_engine::portable}) {
    if (!detail::ntt_engine_available(e)) continue;
    setenv("BIGMUL_NTT_ENGINE", detail::ntt_engine_name(e), 1);
    body(e);
  }
  if (had)
    setenv("BIGMUL_NTT_ENGINE", saved.c_str(), 1);
  else
    unsetenv("BIGMUL_NTT_ENGINE");
}

// bigmul::mul(r, a, n, a, n): the short path and the full one (stats,
// modular check, algorithms by name) around every crossover a square meets
// (the tuned values of mul/params_cpu.inc), on every NTT engine.
TEST(Sqr, PublicEntryAroundCrossovers) {
  auto g = bigmul::test::rng(2304);
  namespace p = detail::params_cpu;
  const auto& x = p::binary_radix;
  for_each_engine([&](detail::ntt_engine e) {
    std::vector<std::size_t> edges = {1,
                                      2,
                                      detail::basecase_small_max,
                                      detail::sqr_basecase_small_max,
                                      p::sqr_karatsuba,
                                      p::sqr_ntt,
                                      p::sqr_ntt_avx2,
                                      p::sqr_ntt_portable,
                                      x.karatsuba,
                                      x.ntt,
                                      x.ntt_avx2,
                                      x.ntt_portable,
                                      x.toom3,
                                      p::sqr_toom3};
    std::vector<std::size_t> sizes;
    for (std::size_t edge : edges)
      for (std::size_t d : {0u, 1u, 2u})
        for (std::size_t n : {edge + d, edge - d})
          if (n >= 1 && n < 5000) sizes.push_back(n);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (std::size_t n : sizes)
      for (operand_kind k : {operand_kind::random, operand_kind::all_max}) {
        const auto a = bigmul::test::make_operand(k, n, radix::binary, g);
        const auto want = gmp_square(a);
        for (int variant = 0; variant < 5; ++variant) {
          mul_options o;
          mul_stats st;
          if (variant == 1) o.stats = &st;
          if (variant == 2) o.modular_check = true;
          if (variant == 3) o.algo = algorithm::basecase;
          if (variant == 4) o.algo = algorithm::karatsuba;
          o.where = backend::cpu;
          std::vector<limb_t> r(2 * n, 0x7777);
          mul(r.data(), a.data(), n, a.data(), n, radix::binary, o);
          ASSERT_EQ(r, want) << detail::ntt_engine_name(e) << " n=" << n << " variant=" << variant;
        }
      }
  });
}

// On each engine, squares below its sqr_ntt never take the NTT, whatever the
// engine's crossover for products, and from where both its square and its
// product crossovers are reached (below the FFT's) they do; both paths
// (short, and full with statistics) agree with GMP.
TEST(Sqr, SquaresTakeTheNttFromTheirCrossover) {
  auto g = bigmul::test::rng(2308);
  namespace p = detail::params_cpu;
  const auto& x = p::binary_radix;
  for_each_engine([&](detail::ntt_engine e) {
    const std::size_t sq = p::sqr_ntt_crossover(e), from = std::max(sq, p::ntt_crossover(x, e));
    std::vector<std::size_t> sizes;
    for (std::size_t n = x.karatsuba; n < std::min<std::size_t>(sq, 1500); n += 7) sizes.push_back(n);
    for (std::size_t d : {1u, 2u, 3u})
      if (sq >= d + 1) sizes.push_back(sq - d);
    for (std::size_t d : {0u, 1u, 2u}) sizes.push_back(from + d);
    for (std::size_t n : sizes) {
      const auto a = bigmul::test::make_operand(operand_kind::random, n, radix::binary, g);
      mul_stats st;
      mul_options o;
      o.stats = &st;
      o.where = backend::cpu;
      std::vector<limb_t> r(2 * n);
      mul(r.data(), a.data(), n, a.data(), n, radix::binary, o);
      if (n < sq) {
        EXPECT_NE(st.used, algorithm::ntt) << detail::ntt_engine_name(e) << ": square of " << n << " limbs";
      } else if (n >= from && n < x.fft) {
        EXPECT_EQ(st.used, algorithm::ntt) << detail::ntt_engine_name(e) << ": square of " << n << " limbs";
      }
      ASSERT_EQ(r, gmp_square(a)) << detail::ntt_engine_name(e) << " " << n;
      // The short path (no statistics) gives the same square.
      std::vector<limb_t> r2(2 * n);
      mul(r2.data(), a.data(), n, a.data(), n);
      ASSERT_EQ(r2, r) << detail::ntt_engine_name(e) << " " << n;
      // The same values in two buffers are a product: the dispatcher's choice for products.
      const std::vector<limb_t> b = a;
      mul(r.data(), a.data(), n, b.data(), n, radix::binary, o);
      ASSERT_EQ(r, gmp_square(a)) << n;
    }
  });
}

// The same pointer with a shorter b is a product, not a square.
TEST(Sqr, SamePointerUnequalLengths) {
  auto g = bigmul::test::rng(2305);
  for (std::size_t an : {2u, 5u, 11u, 24u, 25u, 40u, 90u, 300u})
    for (std::size_t bn : {std::size_t{1}, an / 2, an - 1}) {
      if (bn == 0) continue;
      const auto a = bigmul::test::make_operand(operand_kind::random, an, radix::binary, g);
      const auto want = bigmul::test::gmp_product(a.data(), an, a.data(), bn, radix::binary);
      std::vector<limb_t> r(an + bn);
      mul(r.data(), a.data(), an, a.data(), bn);
      ASSERT_EQ(r, want) << an << " x " << bn;
      detail::mul_karatsuba(r.data(), a.data(), an, a.data(), bn, radix::binary, 4);
      ASSERT_EQ(r, want) << "karatsuba " << an << " x " << bn;
    }
}

// Decimal squares keep the decimal schoolbook and Karatsuba.
TEST(Sqr, DecimalSquares) {
  auto g = bigmul::test::rng(2306);
  for (std::size_t n : {1u, 3u, 10u, 24u, 25u, 67u, 68u, 69u, 150u}) {
    const auto a = bigmul::test::make_operand(operand_kind::all_max, n, radix::decimal, g);
    const auto want = bigmul::test::gmp_product(a.data(), n, a.data(), n, radix::decimal);
    std::vector<limb_t> r(2 * n);
    mul(r.data(), a.data(), n, a.data(), n, radix::decimal);
    ASSERT_EQ(r, want) << n;
  }
}

}  // namespace
