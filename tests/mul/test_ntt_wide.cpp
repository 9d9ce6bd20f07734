// SPDX-License-Identifier: LGPL-3.0-or-later
// Wide NTT coefficients (64 < b <= 127 bits of binary limbs, four primes):
// the layout rule, the cut into residues, the four-limb sum at bit offsets,
// and whole products on every engine against GMP (mul/ntt_coefficients.hpp).
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "fft/ntt.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_mul.hpp"
#include "test_support.hpp"

using namespace bigmul;
using bigmul::test::operand_kind;
using detail::ntt_engine;

namespace {

constexpr ntt_engine engines[] = {ntt_engine::portable, ntt_engine::avx2, ntt_engine::ifma};

// The largest b (65 .. 127) whose coefficients the engine's primes cover for
// this product; 0 if none.
unsigned widest(ntt_engine e, std::size_t an, std::size_t bn) {
  for (unsigned bits = detail::ntt_max_coefficient_bits; bits > 64; --bits)
    if (detail::ntt_choose_layout(e, an, bn, radix::binary, 0, bits).primes <= detail::ntt_engine_of(e).prime_count)
      return bits;
  return 0;
}

// The smallest balanced size whose automatic layout is wide (0: none below 2^24 limbs).
std::size_t wide_switch(ntt_engine e) {
  std::size_t lo = 1, hi = std::size_t{1} << 24;  // lo narrow, hi wide
  if (detail::ntt_choose_layout(e, hi, hi, radix::binary).bits <= 64) return 0;
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (detail::ntt_choose_layout(e, mid, mid, radix::binary).bits > 64 ? hi : lo) = mid;
  }
  return hi;
}

// mpz from limbs and back.
void to_mpz(mpz_t z, const std::vector<limb_t>& v) { mpz_import(z, v.size(), -1, sizeof(limb_t), 0, 0, v.data()); }

// r = a b on engine e with b-bit coefficients (0: the automatic layout),
// against want; also the square of a when a is small.
void check_product(ntt_engine e, const std::vector<limb_t>& a, const std::vector<limb_t>& b, unsigned bits,
                   unsigned threads, const std::string& what, detail::ntt_fold fold = detail::ntt_fold::automatic) {
  const std::size_t an = a.size(), bn = b.size();
  const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
  mul_options opt;
  opt.threads = threads;
  std::vector<limb_t> r(an + bn, 0x5a5a5a5a5a5a5a5aull);
  mul_stats st;
  detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, radix::binary, opt, st, e, 0, bits, fold);
  if (bits != 0) {
    EXPECT_EQ(st.coefficient_digits, bits);
  }
  if (r != want) {
    std::size_t i = 0;
    while (r[i] == want[i]) ++i;
    FAIL() << what << ": " << an << " x " << bn << ", " << bits << "-bit coefficients, engine "
           << detail::ntt_engine_name(e) << ", threads " << threads << ", fold " << static_cast<int>(fold)
           << ": first differing limb " << i << " of "
           << r.size();
  }
}

// force_bits takes 8 .. 127 on binary limbs, refuses the rest with a message
// naming the range; the layout of a forced wide b uses as many primes as
// cover it.
TEST(NttWide, ForcedBitsRange) {
  for (ntt_engine e : engines) {
    for (unsigned bits : {65u, 66u, 88u, 100u, 127u}) {
      const auto l = detail::ntt_choose_layout(e, 1000, 1000, radix::binary, 0, bits);
      EXPECT_EQ(l.bits, bits);
      EXPECT_EQ(l.ca, (1000 * 64 + bits - 1) / bits);
    }
    for (unsigned bits : {7u, 128u, 200u}) {
      try {
        detail::ntt_choose_layout(e, 1000, 1000, radix::binary, 0, bits);
        ADD_FAILURE() << bits << " bits accepted";
      } catch (const error& x) {
        EXPECT_EQ(x.code(), error::kind::invalid_argument);
        EXPECT_NE(std::string(x.what()).find("8 .. 127 bits"), std::string::npos) << x.what();
      }
    }
    EXPECT_THROW(detail::ntt_choose_layout(e, 1000, 1000, radix::decimal, 0, 88), error);
  }
  // Four primes below 2^50 (product ~2^199.6): 2 b + log2(min(ca, cb)) below it.
  const auto l = detail::ntt_choose_layout(ntt_engine::avx2, 1000, 1000, radix::binary, 0, 90);
  EXPECT_EQ(l.primes, 4u);  // 180 + 10 bits
  // 674 coefficients of 95 bits: 190 + 9.4 < 200; 96 bits: 192 + 9.4 > 200, not covered.
  EXPECT_EQ(detail::ntt_choose_layout(ntt_engine::avx2, 1000, 1000, radix::binary, 0, 95).primes, 4u);
  EXPECT_EQ(detail::ntt_choose_layout(ntt_engine::avx2, 1000, 1000, radix::binary, 0, 96).primes, 5u);
}

// The automatic layout: where whole limbs take four primes (min(an, bn) past
// ~2^22), the cheapest by the cost model of b < 64 on three primes and wide b
// on four, wide b the largest four primes cover; 10^8 and 2 10^8 digits take
// it; below that size, decimal and the portable engine (three primes) never;
// max_bits 63 turns it off. The switch is where whole limbs need a fourth
// prime, +- 1 limb.
TEST(NttWide, AutomaticLayout) {
  for (ntt_engine e : {ntt_engine::avx2, ntt_engine::ifma}) {
    for (std::size_t n : {std::size_t{5190296}, std::size_t{10380592}}) {  // 10^8, 2 10^8 digits
      const auto l = detail::ntt_choose_layout(e, n, n, radix::binary);
      EXPECT_GT(l.bits, 64u) << n;
      EXPECT_EQ(l.primes, 4u) << n;
      EXPECT_GT(detail::ntt_choose_layout(e, n, n, radix::binary, 0, l.bits + 1).primes, 4u) << n;
      EXPECT_LE(detail::ntt_choose_layout(e, n, n, radix::binary, 0, 0, detail::ntt_fold::automatic, 63).bits, 63u);
      EXPECT_EQ(detail::ntt_choose_layout(e, n, n, radix::decimal).bits, 64u);
    }
    for (std::size_t n = 1024; n <= (std::size_t{1} << 21); n += n / 16)
      EXPECT_LE(detail::ntt_choose_layout(e, n, n, radix::binary).bits, 64u) << n;
    const std::size_t s = wide_switch(e);
    ASSERT_GT(s, 0u);
    EXPECT_EQ(detail::ntt_primes_needed(e, s - 1, s - 1, radix::binary), 3u);
    EXPECT_EQ(detail::ntt_primes_needed(e, s, s, radix::binary), 4u);
    EXPECT_GT(detail::ntt_choose_layout(e, s, s, radix::binary).bits, 64u);
    EXPECT_GT(detail::ntt_choose_layout(e, s + 1, s + 1, radix::binary).bits, 64u);
    EXPECT_EQ(detail::ntt_choose_layout(e, s - 1, s - 1, radix::binary).bits, 64u);
    EXPECT_EQ(detail::ntt_choose_layout(e, s, 1000, radix::binary).bits, 64u);  // min(an, bn) decides
  }
  for (std::size_t n : {std::size_t{1000}, std::size_t{5190296}})
    EXPECT_LE(detail::ntt_choose_layout(ntt_engine::portable, n, n, radix::binary).bits, 64u);
}

// BIGMUL_NTT_WIDE: 0 gives the layout without wide coefficients (b = 63 on
// three primes at 10^8 digits), 1 and empty the wide one, anything else
// throws naming the variable (the product too, the memory estimate too);
// forced b is not capped.
TEST(NttWide, EnvironmentSwitch) {
  const char* was = std::getenv("BIGMUL_NTT_WIDE");
  const std::string saved = was ? was : "";
  const std::size_t n = 5190296;
  for (ntt_engine e : {ntt_engine::avx2, ntt_engine::ifma}) {
    ASSERT_EQ(setenv("BIGMUL_NTT_WIDE", "0", 1), 0);
    EXPECT_EQ(detail::ntt_choose_layout(e, n, n, radix::binary).bits, 63u);
    EXPECT_EQ(detail::ntt_choose_layout(e, n, n, radix::binary).primes, 3u);
    EXPECT_EQ(detail::ntt_choose_layout(e, n, n, radix::binary, 0, 89).bits, 89u);
    for (const char* on : {"1", ""}) {
      ASSERT_EQ(setenv("BIGMUL_NTT_WIDE", on, 1), 0);
      EXPECT_EQ(detail::ntt_choose_layout(e, n, n, radix::binary).bits, 89u) << on;
    }
    ASSERT_EQ(setenv("BIGMUL_NTT_WIDE", "yes", 1), 0);
    try {
      detail::ntt_choose_layout(e, n, n, radix::binary);
      ADD_FAILURE() << "BIGMUL_NTT_WIDE=yes accepted";
    } catch (const error& x) {
      EXPECT_EQ(x.code(), error::kind::invalid_argument);
      EXPECT_NE(std::string(x.what()).find("BIGMUL_NTT_WIDE=yes"), std::string::npos) << x.what();
    }
    EXPECT_THROW(detail::ntt_heap_bytes(e, n, n, radix::binary, 1), error);
    if (detail::ntt_engine_available(e)) {
      const std::vector<limb_t> a(3000, 7), b(3000, 9);
      std::vector<limb_t> r(6000);
      mul_options opt;
      mul_stats st;
      EXPECT_THROW(detail::mul_ntt(r.data(), a.data(), 3000, b.data(), 3000, radix::binary, opt, st, e), error);
    }
  }
  if (was)
    setenv("BIGMUL_NTT_WIDE", saved.c_str(), 1);
  else
    unsetenv("BIGMUL_NTT_WIDE");
}

// Peak heap does not grow: from the switch to 1.3 10^9 digits, balanced
// and 2:1 and 5:1 products, the residue arrays with wide coefficients
// allowed never pass those of the layout without them (BIGMUL_NTT_WIDE=0),
// and most of those sizes still take them.
TEST(NttWide, HeapNeverGrows) {
  const char* was = std::getenv("BIGMUL_NTT_WIDE");
  const std::string saved = was ? was : "";
  std::size_t total = 0, wide = 0;
  for (double d = 8.0e7; d <= 1.3e9; d *= 1.01) {
    const std::size_t n = static_cast<std::size_t>(d / 19.265919722494797) + 1;  // limbs of d digits
    for (std::size_t bn : {n, n / 2 + 7, n / 5}) {
      for (ntt_engine e : {ntt_engine::avx2, ntt_engine::ifma}) {
        ASSERT_EQ(setenv("BIGMUL_NTT_WIDE", "0", 1), 0);
        const std::size_t narrow = detail::ntt_heap_bytes(e, n, bn, radix::binary, 1);
        ASSERT_EQ(setenv("BIGMUL_NTT_WIDE", "1", 1), 0);
        EXPECT_LE(detail::ntt_heap_bytes(e, n, bn, radix::binary, 1), narrow) << n << " x " << bn;
        EXPECT_LE(detail::ntt_heap_bytes(e, n, bn, radix::binary, 2), narrow) << n << " x " << bn << ", 2 threads";
        wide += detail::ntt_choose_layout(e, n, bn, radix::binary).bits > 64;
        ++total;
      }
    }
  }
  EXPECT_GT(2 * wide, total);
  if (was)
    setenv("BIGMUL_NTT_WIDE", saved.c_str(), 1);
  else
    unsetenv("BIGMUL_NTT_WIDE");
}

// ntt_wide_residues against GMP's remainders: every b 65 .. 127, coefficients
// inside, at the end of and past the limbs, ranges from 0 and from 3 (the
// vector steps and the scalar rest), each kind of lanes (scalar, AVX2,
// AVX-512 where the processor has them, and the default), the vector
// engines' primes and a portable one (scalar), all-ones, alternating and
// random limbs.
TEST(NttWide, ResiduesMatchGmp) {
  std::mt19937_64 g(0x3136);
  mpz_t x, c, m;
  mpz_inits(x, c, m, nullptr);
  for (const int fill : {0, 1, 2})
    for (const std::size_t len : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{37}, std::size_t{90}}) {
      std::vector<limb_t> src(len);
      for (auto& v : src) v = fill == 0 ? g() : fill == 1 ? ~limb_t{0} : 0xaaaaaaaaaaaaaaaaull;
      to_mpz(x, src);
      for (unsigned bits = 65; bits <= 127; ++bits) {
        const std::size_t count = detail::ntt_coefficient_count(len, bits) + 2;
        for (const fft::u64 p : {fft::ntt52_primes[0].p, fft::ntt52_primes[3].p, fft::ntt_primes[0].p})
          for (const std::size_t from : {std::size_t{0}, std::size_t{3}})
          for (const unsigned lanes : {0u, 1u, 4u, 8u}) {
          std::vector<fft::u64> got(count, 0), zero(from, 0);
          detail::ntt_wide_residues_lanes(got.data() + from, src.data(), len, from, count, bits, p, lanes);
          ASSERT_TRUE(std::equal(zero.begin(), zero.end(), got.begin())) << "written before the range";
          for (std::size_t j = from; j < count; ++j) {
            mpz_tdiv_q_2exp(c, x, j * bits);
            mpz_fdiv_r_2exp(c, c, bits);
            const fft::u64 want = mpz_fdiv_ui(c, p);
            ASSERT_EQ(got[j], want) << "coefficient " << j << " of " << bits << " bits, " << len << " limbs, p " << p
                                    << ", from " << from << ", lanes " << lanes;
          }
          }
      }
    }
  mpz_clears(x, c, m, nullptr);
}

// ntt_wide_accumulator: the limbs it emits and what it keeps are exactly
// sum x_c 2^(c bits), for four-limb values up to the bound (2^250) and beyond
// the primes' (all ones), every b 65 .. 127; ntt_wide_carry_run (the
// carry's register loop) gives the same limbs and sum.
TEST(NttWide, AccumulatorMatchesGmp) {
  std::mt19937_64 g(0x3137);
  mpz_t want, t, got;
  mpz_inits(want, t, got, nullptr);
  for (unsigned bits = 65; bits <= 127; ++bits)
    for (const int fill : {0, 1}) {
      constexpr std::size_t count = 300;
      mpz_set_ui(want, 0);
      detail::ntt_wide_accumulator sum, run;
      std::vector<limb_t> out(count * 2 + 8, 0), out_run(count * 2 + 8, 0);
      std::vector<fft::u64> xs(4 * count);
      std::size_t written = 0;
      for (std::size_t q = 0; q < count; ++q) {
        fft::u64* x = xs.data() + 4 * q;
        for (unsigned l = 0; l < 4; ++l) x[l] = fill == 0 ? g() : ~fft::u64{0};
        x[3] >>= 6;  // < 2^250
        to_mpz(t, std::vector<limb_t>(x, x + 4));
        mpz_mul_2exp(t, t, q * bits);
        mpz_add(want, want, t);
        written += sum.add(x, bits, out.data() + written);
      }
      ASSERT_EQ(written, count * bits / 64) << bits;
      ASSERT_EQ(sum.acc[4], 0u) << bits;
      for (unsigned l = 0; l < 4; ++l) out[written + l] = sum.acc[l];
      to_mpz(got, out);
      ASSERT_EQ(mpz_cmp(got, want), 0) << bits << " bits, fill " << fill;
      // The register loop, in runs of 7 and the rest: the same limbs and sum.
      std::size_t w = 0;
      for (std::size_t q0 = 0; q0 < count; q0 += 7) {
        const std::size_t len = std::min<std::size_t>(7, count - q0);
        w += detail::ntt_wide_carry_run(
            len,
            [&](std::size_t q, fft::u64& v0, fft::u64& v1, fft::u64& v2, fft::u64& v3) {
              const fft::u64* x = xs.data() + 4 * (q0 + q);
              v0 = x[0];
              v1 = x[1];
              v2 = x[2];
              v3 = x[3];
            },
            bits, run, out_run.data() + w);
      }
      ASSERT_EQ(w, written) << bits;
      ASSERT_EQ(run.shift, sum.shift) << bits;
      for (unsigned l = 0; l < 5; ++l) ASSERT_EQ(run.acc[l], sum.acc[l]) << bits << " bits, limb " << l;
      ASSERT_TRUE(std::equal(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(w), out_run.begin())) << bits;
    }
  mpz_clears(want, t, got, nullptr);
}

// Whole products with forced wide b (65, 66, 88 and the widest the engine's
// primes cover) on every engine, against GMP: all-maximum limbs
// ((B^n - 1)(B^m - 1): the largest coefficients, longest carry chains), runs,
// powers, one, zero, random; balanced, unbalanced and very unbalanced; 1 and
// 2 threads; squares.
TEST(NttWide, ForcedProductsMatchGmp) {
  auto g = bigmul::test::rng(3136);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes =
      bigmul::test::sanitized
          ? std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {3, 2}, {700, 7}, {2000, 1999}}
          : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1},       {2, 1},      {3, 2},       {700, 7},
                                                             {2000, 1999}, {30000, 3},  {4097, 4095}, {20000, 20000},
                                                             {35001, 4500}, {70001, 1}};
  for (ntt_engine e : engines) {
    if (!detail::ntt_engine_available(e)) continue;
    for (auto [an, bn] : shapes) {
      std::vector<unsigned> sizes = {65, 66, 88, widest(e, an, bn)};
      for (unsigned bits : sizes) {
        if (bits == 0 || detail::ntt_choose_layout(e, an, bn, radix::binary, 0, bits).primes >
                             detail::ntt_engine_of(e).prime_count)
          continue;  // this engine's primes do not cover b here
        for (operand_kind k : {operand_kind::all_max, operand_kind::runs, operand_kind::random}) {
          if (k != operand_kind::all_max && an > 2000 && bits != sizes.back()) continue;  // keep the run short
          const auto a = bigmul::test::make_operand(k, an, radix::binary, g);
          const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, radix::binary, g);
          for (unsigned threads : {1u, 2u}) {
            if (threads == 2 && k != operand_kind::all_max) continue;
            check_product(e, a, b, bits, threads, bigmul::test::operand_kind_name(k));
            if (an <= 4097 && threads == 1 && bits <= widest(e, an, an)) check_product(e, a, a, bits, 1, "square");
          }
        }
        std::vector<limb_t> zero(an, 0), one(bn, 0), power(an, 0);
        one[0] = 1;
        power.back() = 1;
        const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, radix::binary, g);
        check_product(e, zero, b, bits, 1, "zero");
        check_product(e, power, b, bits, 1, "power");
        check_product(e, b, one, bits, 1, "one");
      }
    }
  }
}

// Folded shapes with wide coefficients: the low product's load and the
// piece's fold (mul/ntt_piece.cpp) take residues, every engine, both ways,
// sizes whose count overhangs a transform length by a little and by ~1/4.
TEST(NttWide, FoldedProductsMatchGmp) {
  auto g = bigmul::test::rng(3139);
  for (ntt_engine e : engines) {
    if (!detail::ntt_engine_available(e)) continue;
    for (auto [an, bn] : {std::pair<std::size_t, std::size_t>{1500, 1500}, {1700, 1500}, {9000, 4000}})
      for (detail::ntt_fold fold : {detail::ntt_fold::low, detail::ntt_fold::piece}) {
        const unsigned bits = std::min(88u, widest(e, an, bn));
        ASSERT_GT(bits, 64u);
        const auto l = detail::ntt_choose_layout(e, an, bn, radix::binary, 0, bits, fold);
        ASSERT_NE(l.shape.wrap, 0u) << an << " x " << bn << ", " << bits << " bits: not folded";
        if (fold == detail::ntt_fold::piece) {
          ASSERT_NE(l.shape.piece, 0u) << an << " x " << bn;
        }
        const auto a = bigmul::test::make_operand(operand_kind::all_max, an, radix::binary, g);
        const auto b = bigmul::test::make_operand(operand_kind::random, bn, radix::binary, g);
        for (unsigned threads : {1u, 2u}) check_product(e, a, b, bits, threads, "folded", fold);
      }
  }
}

// The automatic layout at the switch (min(an, bn) = s, where whole limbs
// need a fourth prime): s - 1 limbs whole on three primes, s and s + 1 wide
// on four, on the vector engines this processor runs. All-maximum limbs
// (the largest coefficients against the primes' bound) against the closed
// form (B^n - 1)^2 = (B^n - 2) B^n + 1, and random operands at s against GMP.
TEST(NttWide, AutomaticSwitchMatchesGmp) {
  if (bigmul::test::sanitized) GTEST_SKIP() << "4.2 10^6-limb products; the forced-b tests run the same code";
  auto g = bigmul::test::rng(3140);
  const std::size_t s = wide_switch(ntt_engine::avx2);
  ASSERT_EQ(s, wide_switch(ntt_engine::ifma));
  const auto run = [&](ntt_engine e, const std::vector<limb_t>& x, const std::vector<limb_t>& y,
                       const std::vector<limb_t>& want, const char* what) {
    const std::size_t n = x.size();
    const auto l = detail::ntt_choose_layout(e, n, n, radix::binary);
    EXPECT_EQ(l.bits > 64, n >= s) << n;
    std::vector<limb_t> r(2 * n, 0x5a5a5a5a5a5a5a5aull);
    mul_options opt;
    opt.threads = 2;
    mul_stats st;
    detail::mul_ntt(r.data(), x.data(), n, y.data(), n, radix::binary, opt, st, e);
    EXPECT_EQ(st.coefficient_digits, l.bits);
    ASSERT_TRUE(r == want) << what << ", " << n << " limbs, engine " << detail::ntt_engine_name(e) << ", " << l.bits
                           << " bits";
  };
  for (std::size_t n : {s - 1, s, s + 1}) {
    const std::vector<limb_t> x(n, ~limb_t{0}), y(n, ~limb_t{0});  // distinct arrays: a product, not a square
    std::vector<limb_t> want(2 * n, ~limb_t{0});
    std::fill(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(n), limb_t{0});
    want[0] = 1;
    want[n] = ~limb_t{1};
    for (ntt_engine e : {ntt_engine::avx2, ntt_engine::ifma})
      if (detail::ntt_engine_available(e)) run(e, x, y, want, "all-maximum");
  }
  const auto x = bigmul::test::make_operand(operand_kind::random, s, radix::binary, g);
  const auto y = bigmul::test::make_operand(operand_kind::random, s, radix::binary, g);
  const auto want = bigmul::test::gmp_product(x.data(), s, y.data(), s, radix::binary);
  for (ntt_engine e : {ntt_engine::avx2, ntt_engine::ifma})
    if (detail::ntt_engine_available(e)) run(e, x, y, want, "random");
}

}  // namespace
