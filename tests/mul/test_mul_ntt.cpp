// SPDX-License-Identifier: LGPL-3.0-or-later
// The NTT multiply (three or four primes) against GMP: transform-length boundaries,
// largest coefficients, unbalanced operands, squaring, thread counts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "fft/ntt.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"
#include "fft/ntt_level_table.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_crt_carry.hpp"
#include "mul/ntt_decimal_carry.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_piece.hpp"
#include "test_support.hpp"

using namespace bigmul;
using bigmul::test::operand_kind;

namespace {

using bigmul::test::sanitized;

// Every engine this processor runs (portable; AVX2 and IFMA where present)
// and the public entry point, each against GMP.
void check_ntt(radix rx, const std::vector<limb_t>& a, const std::vector<limb_t>& b, const std::string& what,
               unsigned threads = 0, mul_stats* stats = nullptr) {
  const std::vector<limb_t>& x = a.size() >= b.size() ? a : b;
  const std::vector<limb_t>& y = a.size() >= b.size() ? b : a;
  const auto want = bigmul::test::gmp_product(x.data(), x.size(), y.data(), y.size(), rx);
  mul_options opt;
  opt.algo = algorithm::ntt;
  opt.threads = threads;
  opt.where = backend::cpu;
  for (auto engine : {detail::ntt_engine::portable, detail::ntt_engine::avx2, detail::ntt_engine::ifma,
                      detail::ntt_engine::best}) {
    if (!detail::ntt_engine_available(engine)) continue;
    std::vector<limb_t> r(x.size() + y.size(), 0xdeadbeef);
    mul_stats st;
    if (engine == detail::ntt_engine::best) {
      opt.stats = stats ? stats : &st;
      mul(r.data(), x.data(), x.size(), y.data(), y.size(), rx, opt);
    } else {
      detail::mul_ntt(r.data(), x.data(), x.size(), y.data(), y.size(), rx, opt, st, engine);
    }
    if (r != want) {
      std::size_t i = 0;
      while (r[i] == want[i]) ++i;
      FAIL() << "ntt (engine " << detail::ntt_engine_name(engine) << ") " << (rx == radix::binary ? "binary " : "decimal ")
             << x.size() << " x " << y.size() << " (" << what << "): first differing limb " << i << " of " << r.size();
    }
  }
}

// Every transform length (2^k and 3*2^k) up to a few thousand points: the
// product sizes just below, at and above each, with all-maximum limbs (the
// largest coefficients and the longest carry chains).
TEST(MulNtt, TransformLengthBoundaries) {
  auto g = bigmul::test::rng(7100);
  for (radix rx : {radix::binary, radix::decimal}) {
    std::size_t prev = 0;
    for (std::size_t total = 2; total < (sanitized ? 800u : 7000u); ++total) {
      const std::size_t an = (total + 1) / 2, bn = total - an;
      if (bn == 0) continue;
      const std::size_t len = detail::ntt_transform_length(an, bn);
      if (len != prev && prev != 0)
        for (std::size_t t : {total - 1, total, total + 1}) {
          const std::size_t xa = (t + 1) / 2, xb = t - xa;
          const auto a = bigmul::test::make_operand(operand_kind::all_max, xa, rx, g);
          const auto b = bigmul::test::make_operand(operand_kind::all_max, xb, rx, g);
          check_ntt(rx, a, b, "length boundary " + std::to_string(len));
          const auto c = bigmul::test::make_operand(operand_kind::random, xa, rx, g);
          check_ntt(rx, c, b, "length boundary " + std::to_string(len) + ", random");
        }
      prev = len;
    }
  }
}

// Products a little past a transform length: folded onto that length, the
// overhang recomputed from the operands' low limbs. Both thread paths
// (whole transforms as tasks; split transforms), squares, unbalanced.
TEST(MulNtt, FoldedShapes) {
  auto g = bigmul::test::rng(7106);
  std::size_t folded = 0;
  for (std::size_t n : {std::size_t{4096}, std::size_t{6144}, std::size_t{1} << 15, std::size_t{3} << 14}) {
    if (sanitized && n > 8192) continue;
    for (std::size_t extra : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{64}, std::size_t{501},
                              n / 8, n / 4 + 3}) {
      const std::size_t count = n + extra, total = count + 1;
      for (std::size_t an : {(total + 1) / 2, total - total / 3}) {
        const std::size_t bn = total - an;
        const auto shape = detail::ntt_choose_shape(an, bn);
        if (shape.wrap == 0) continue;
        ++folded;
        EXPECT_EQ(shape.n + shape.wrap, count);
        for (radix rx : {radix::binary, radix::decimal}) {
          const auto a = bigmul::test::make_operand(operand_kind::all_max, an, rx, g);
          const auto b = bigmul::test::make_operand(g() % 2 ? operand_kind::all_max : operand_kind::random, bn, rx, g);
          for (unsigned threads : {1u, 2u})
            check_ntt(rx, a, b, "folded n=" + std::to_string(n) + " +" + std::to_string(extra), threads);
        }
      }
    }
  }
  EXPECT_GT(folded, 10u) << "the folded shape was hardly ever chosen";
  // Past 2^18 points the inverses are split over the threads: folded there too.
  if (!sanitized) {
    const std::size_t total = (std::size_t{1} << 19) + 1001, an = total / 2 + 17, bn = total - an;
    ASSERT_GT(detail::ntt_choose_shape(an, bn).wrap, 0u);
    const auto a = bigmul::test::make_operand(operand_kind::all_max, an, radix::binary, g);
    const auto b = bigmul::test::make_operand(operand_kind::random, bn, radix::binary, g);
    check_ntt(radix::binary, a, b, "folded 2^19", 2);
  }
  // A folded square (one transform per prime).
  const std::size_t n2 = 4096 + 33;
  const auto a = bigmul::test::make_operand(operand_kind::all_max, n2, radix::binary, g);
  ASSERT_GT(detail::ntt_choose_shape(n2, n2).wrap, 0u);
  for (unsigned threads : {1u, 2u}) {
    std::vector<limb_t> r(2 * n2);
    mul_options opt;
    opt.algo = algorithm::ntt;
    opt.threads = threads;
    mul(r.data(), a.data(), n2, a.data(), n2, radix::binary, opt);
    EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), n2, a.data(), n2, radix::binary)) << "folded square";
  }
}

TEST(MulNtt, EveryOperandKindAndUnbalanced) {
  auto g = bigmul::test::rng(7101);
  for (radix rx : {radix::binary, radix::decimal})
    for (operand_kind k : {operand_kind::random, operand_kind::all_max, operand_kind::runs, operand_kind::sparse,
                           operand_kind::power, operand_kind::half_max})
      for (auto [an, bn] : {std::pair<std::size_t, std::size_t>{30000, 1}, {30000, 3}, {20001, 7000}, {4097, 4095},
                            {1, 1}, {2, 1}, {3, 3}}) {
        const auto a = bigmul::test::make_operand(k, an, rx, g);
        const auto b = bigmul::test::make_operand(k == operand_kind::power ? operand_kind::random : k, bn, rx, g);
        check_ntt(rx, a, b, bigmul::test::operand_kind_name(k));
        const auto one = bigmul::test::make_operand(operand_kind::one, 1, rx, g);
        check_ntt(rx, a, one, "times one");
      }
}

// 2^18-limb all-maximum operands (coefficients near n (B-1)^2, the CRT's
// largest), past the in-cache leaf and the parallel levels.
TEST(MulNtt, LargeAllMaximumAndSquares) {
  auto g = bigmul::test::rng(7102);
  const std::size_t n = sanitized ? (1u << 13) : (1u << 18);
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto a = bigmul::test::make_operand(operand_kind::all_max, n, rx, g);
    const auto b = bigmul::test::make_operand(operand_kind::all_max, n - 1, rx, g);
    mul_stats st;
    check_ntt(rx, a, b, "all_max", 0, &st);
    EXPECT_EQ(st.used, algorithm::ntt);
    EXPECT_GE(st.transform_length, 2 * n - 2);
    // Squaring (same pointer) transforms once.
    const auto want = bigmul::test::gmp_product(a.data(), n, a.data(), n, rx);
    for (auto engine : {detail::ntt_engine::portable, detail::ntt_engine::avx2, detail::ntt_engine::ifma}) {
      if (!detail::ntt_engine_available(engine)) continue;
      std::vector<limb_t> r(2 * n);
      mul_options opt;
      opt.algo = algorithm::ntt;
      detail::mul_ntt(r.data(), a.data(), n, a.data(), n, rx, opt, st, engine);
      EXPECT_EQ(r, want) << "square, engine " << detail::ntt_engine_name(engine);
      EXPECT_STREQ(st.ntt_engine, detail::ntt_engine_name(engine));
    }
  }
}

// Decimal products on the AVX2 engine (Garner 4 a vector, then the decimal
// carry chains) against GMP: every small length (pieces of every size mod 4),
// lengths around 64- and 128-coefficient groups, all-maximum and random
// operands, 1 to 3 threads (the chains' piece boundaries move).
TEST(MulNtt, DecimalOnTheAvx2EngineAcrossLengths) {
  if (!detail::ntt_engine_available(detail::ntt_engine::avx2)) GTEST_SKIP() << "no AVX2 engine here";
  auto g = bigmul::test::rng(7111);
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  for (std::size_t an = 1; an <= 40; ++an) shapes.push_back({an, (an + 1) / 2});
  for (std::size_t an : {std::size_t{127}, std::size_t{128}, std::size_t{129}, std::size_t{513}, std::size_t{1023},
                         std::size_t{4099}, std::size_t{20001}})
    for (std::size_t bn : {std::size_t{1}, std::size_t{3}, an - 1, an})
      if (bn >= 1) shapes.push_back({an, bn});
  for (auto [an, bn] : shapes)
    for (operand_kind k : {operand_kind::all_max, operand_kind::random}) {
      const auto a = bigmul::test::make_operand(k, an, radix::decimal, g);
      const auto b = bigmul::test::make_operand(k, bn, radix::decimal, g);
      const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::decimal);
      for (unsigned threads : {1u, 2u, 3u}) {
        mul_options opt;
        opt.algo = algorithm::ntt;
        opt.threads = threads;
        mul_stats st;
        std::vector<limb_t> r(an + bn, 0xdeadbeef);
        detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, radix::decimal, opt, st, detail::ntt_engine::avx2);
        ASSERT_EQ(r, want) << an << " x " << bn << " " << bigmul::test::operand_kind_name(k) << ", threads "
                           << threads;
        ASSERT_STREQ(st.ntt_engine, "avx2");
      }
    }
}

// The AVX2 engine's three-prime binary products, whose residues become
// limbs through fft::ntt_avx2_crt3_limbs (4 coefficients a vector, scalar
// tails) before the carries, against GMP: whole limbs and bit-split
// coefficients (the bit-offset sum), coefficient counts around the vector
// width and the 64-coefficient groups (tails of every size mod 4),
// all-maximum operands (the largest coefficients, the longest carry
// chains), runs and random, balanced and unbalanced, 1 and 3 threads
// (piece boundaries inside groups).
TEST(MulNtt, Avx2ThreePrimeLimbsMatchGmp) {
  using detail::ntt_engine;
  if (!detail::ntt_engine_available(ntt_engine::avx2)) GTEST_SKIP() << "no AVX2 engine here";
  auto g = bigmul::test::rng(7131);
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  for (std::size_t an = 1; an <= 20; ++an) shapes.push_back({an, an});
  for (std::size_t an : {std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{129}, std::size_t{1001},
                         std::size_t{4097}})
    for (std::size_t bn : {std::size_t{1}, std::size_t{3}, an - 1, an})
      if (bn >= 1) shapes.push_back({an, bn});
  for (unsigned bits : {64u, 63u, 61u, 50u, 33u})
    for (auto [an, bn] : shapes)
      for (operand_kind k : {operand_kind::all_max, operand_kind::runs, operand_kind::random}) {
        const auto a = bigmul::test::make_operand(k, an, radix::binary, g);
        const auto b = bigmul::test::make_operand(k, bn, radix::binary, g);
        const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
        for (unsigned threads : {1u, 3u}) {
          mul_options opt;
          opt.threads = threads;
          mul_stats st;
          std::vector<limb_t> r(an + bn, 0xdeadbeef);
          detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, radix::binary, opt, st, ntt_engine::avx2, 3, bits);
          ASSERT_EQ(r, want) << an << " x " << bn << ", " << bits << "-bit coefficients, "
                             << bigmul::test::operand_kind_name(k) << ", threads " << threads;
          ASSERT_STREQ(st.ntt_engine, "avx2");
          ASSERT_EQ(st.coefficient_digits, bits);
        }
      }
}

// The AVX2 engine at the largest operands three primes take with whole
// limbs (n = lo: coefficients up to lo (2^64 - 1)^2, just below p0 p1 p2,
// every one through ntt_avx2_crt3_limbs) and one limb more (bit-split
// coefficients): all-maximum operands, whose product has the closed form
// (2^64n - 1)^2 = 2^128n - 2^(64n + 1) + 1 (limb 0 is 1, limbs 1 .. n - 1
// zero, limb n 2^64 - 2, the rest all ones), the check GMP would make at a
// fraction of its time. Skipped under the sanitizers (the smaller products
// above take the same paths there).
TEST(MulNtt, Avx2AtTheThreePrimeLimit) {
  using detail::ntt_engine;
  if (!detail::ntt_engine_available(ntt_engine::avx2)) GTEST_SKIP() << "no AVX2 engine here";
  if (sanitized) GTEST_SKIP() << "2^21.5-limb products: too large under the sanitizers";
  std::size_t lo = 1u << 21, hi = 1u << 22;
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (detail::ntt_primes_needed(ntt_engine::avx2, mid, mid, radix::binary) == 3 ? lo : hi) = mid;
  }
  for (std::size_t n : {lo, lo + 1}) {
    const std::vector<limb_t> a(n, ~limb_t{0}), b(n, ~limb_t{0});
    std::vector<limb_t> r(2 * n, 0x5a5a5a5a);
    mul_options opt;
    opt.threads = 2;
    mul_stats st;
    detail::mul_ntt(r.data(), a.data(), n, b.data(), n, radix::binary, opt, st, ntt_engine::avx2);
    ASSERT_STREQ(st.ntt_engine, "avx2");
    EXPECT_EQ(st.coefficient_digits == 64, n == lo) << n << " limbs: " << st.coefficient_digits << "-bit coefficients";
    ASSERT_EQ(r[0], 1u) << n;
    for (std::size_t i = 1; i < n; ++i) ASSERT_EQ(r[i], 0u) << n << " limbs, limb " << i;
    ASSERT_EQ(r[n], ~limb_t{1}) << n;
    for (std::size_t i = n + 1; i < 2 * n; ++i) ASSERT_EQ(r[i], ~limb_t{0}) << n << " limbs, limb " << i;
  }
}

// The carry phase (detail::ntt_crt_and_carry) with every set of kernels the
// ntt52 primes have: generic (Garner digits, then scalar Horner, bit sum
// and decimal division), the AVX2 engine's (crt3 limbs, vector bit sum),
// the AVX2 decimal digits path (decimal3 with fft::ntt_avx2_decimal_digits,
// off in the engine, kept for processors where it measures faster) and
// IFMA's where the processor has it: the same limbs from the same residues
// (random in [0, 2p), coefficients up to p0 p1 p2), whole limbs, 63-, 60-
// and 33-bit coefficients and decimal, counts around the groups, 1 to 3
// threads.
TEST(MulNtt, CarryKernelsAgree) {
  using detail::ntt_crt_kernels;
  if (!fft::ntt_avx2_supported()) GTEST_SKIP() << "no AVX2 here";
  std::vector<ntt_crt_kernels> sets = {
      {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt_avx2_mixed_radix_digits, nullptr, false},
      {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt_avx2_mixed_radix_digits, fft::ntt_avx2_crt3_limbs, false,
       fft::ntt_avx2_decimal_digits, detail::ntt_bit_carry3_limbs_avx2},
      {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt_avx2_mixed_radix_digits, fft::ntt_avx2_crt3_limbs, true,
       fft::ntt_avx2_decimal_digits}};
  if (fft::ntt52_supported())
    sets.push_back({fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt52_mixed_radix_digits, fft::ntt52_crt3_limbs,
                    true, fft::ntt52_decimal_digits});
  std::mt19937_64 g(0xc0ff);
  for (std::size_t count : {std::size_t{5}, std::size_t{127}, std::size_t{1001}, std::size_t{4099}}) {
    std::vector<fft::u64> res[3];
    for (unsigned k = 0; k < 3; ++k) {
      res[k].resize(count);
      for (auto& x : res[k]) x = g() % (2 * fft::ntt52_primes[k].p);
    }
    fft::u64* const rp[3] = {res[0].data(), res[1].data(), res[2].data()};
    for (auto [bits, rx] : {std::pair{64u, radix::binary}, std::pair{63u, radix::binary}, std::pair{60u, radix::binary},
                            std::pair{33u, radix::binary}, std::pair{64u, radix::decimal}})
      for (unsigned threads : {1u, 3u}) {
        const std::size_t rn = (count * bits + 63) / 64 + 4;
        std::vector<limb_t> first;
        for (std::size_t e = 0; e < sets.size(); ++e) {
          std::vector<limb_t> r(rn, 0x5a5a5a5a);
          mul_stats st;
          detail::ntt_crt_and_carry(sets[e], 3, rp, r.data(), count, rn, bits, rx, threads, st, false);
          if (e == 0)
            first = r;
          else
            ASSERT_EQ(r, first) << "kernels " << e << ", " << count << " coefficients, " << bits
                                << (rx == radix::decimal ? " decimal" : " bits") << ", threads " << threads;
        }
      }
  }
}

// The decimal digits' carry (detail::ntt_decimal3_carry: the sums without
// the carry, in AVX2 from the third position of a group, then the chain)
// against a plain base-10^19 sum of c_i = d0 + d1 10^19 + d2 10^38 at
// position i, for digits the kernels seldom give: all at their maximum
// (10^19 - 1, and d2 = 2^25 - 1), zeros, sums at M - 1, M and 2M - 1
// (room edges), random; pieces of 1 .. 300 coefficients (a group is 128:
// the first two positions of each take the neighbours from the group
// before), 4 pieces interleaved, each with its tail.
namespace decimal_chain_test {
std::vector<fft::u64> digit[3];
void fake_digits(const fft::u64* const[], std::size_t i, std::size_t count, fft::u64* d) {
  for (unsigned k = 0; k < 3; ++k) std::copy(digit[k].begin() + i, digit[k].begin() + i + count, d + k * count);
}
}  // namespace decimal_chain_test

TEST(MulNtt, DecimalChainMatchesPlainSum) {
  using decimal_chain_test::digit;
  using u128 = unsigned __int128;
  constexpr fft::u64 M = decimal_limb_base, top = (fft::u64{1} << 25) - 1;
  std::mt19937_64 g(0xdec1);
  for (unsigned kind = 0; kind < 5; ++kind)
    for (std::size_t n : {1, 2, 3, 5, 6, 7, 9, 127, 128, 129, 130, 131, 255, 256, 257, 300}) {
      const std::size_t count = 4 * n + 3;  // pieces of n, n, n, n + 3
      for (auto& v : digit) v.assign(count, 0);
      for (std::size_t i = 0; i < count; ++i) {
        const fft::u64 e = g() % 3;
        switch (kind) {
          case 0: digit[0][i] = M - 1, digit[1][i] = M - 1, digit[2][i] = top; break;
          case 1: break;  // zeros
          case 2:  // d0 + d1' at M - 1, M or M - 1 + d1' (the room's edges), d1 often M - 1, d2 small
            digit[1][i] = g() % 3 == 0 ? M - 1 : g() % M;
            digit[0][i] = i == 0 || e == 2 ? M - 1 : (M - 1 + e - digit[1][i - 1]) % M;
            digit[2][i] = g() % 3;
            break;
          case 3: digit[0][i] = g() % M, digit[1][i] = g() % M, digit[2][i] = g() % (top + 1); break;
          default:  // runs of all-maximum and zeros
            for (auto& v : digit) v[i] = (i / 5) % 2 ? 0 : (&v == &digit[2] ? top : M - 1);
        }
      }
      const std::size_t lo[4] = {0, n, 2 * n, 3 * n}, hi[4] = {n, 2 * n, 3 * n, count};
      std::vector<limb_t> r(count + 2, 0x5a5a);
      fft::u64 tails[4 * 4];
      detail::ntt_decimal3_carry<4>(nullptr, lo, hi, r.data(), tails, 4, decimal_chain_test::fake_digits);
      std::vector<limb_t> want(count + 2, 0);
      u128 carry = 0;
      for (std::size_t i = 0; i < count + 2; ++i) {
        u128 s = carry + (i < count ? digit[0][i] : 0);
        if (i >= 1 && i - 1 < count) s += digit[1][i - 1];
        if (i >= 2 && i - 2 < count) s += digit[2][i - 2];
        want[i] = static_cast<limb_t>(s % M);
        carry = s / M;
      }
      ASSERT_EQ(carry, 0u);
      std::vector<limb_t> got(count + 2, 0);
      for (unsigned c = 0; c < 4; ++c)
        for (std::size_t i = lo[c]; i < hi[c]; ++i) got[i] = r[i];
      for (unsigned c = 0; c < 4; ++c) {  // add each tail (two limbs) at hi[c], base-10^19 carries
        u128 k = 0;
        for (std::size_t i = hi[c], t = 0; i < count + 2 && (t < 2 || k != 0); ++i, ++t) {
          const u128 s = k + got[i] + (t < 2 ? tails[4 * c + t] : 0);
          got[i] = static_cast<limb_t>(s % M);
          k = s / M;
        }
        EXPECT_EQ(tails[4 * c + 2], 0u);
        EXPECT_EQ(tails[4 * c + 3], 0u);
      }
      ASSERT_EQ(got, want) << "kind " << kind << ", pieces of " << n;
    }
}

// The bit-offset sum with its shifts in AVX2 (ntt_bit_carry3_limbs_avx2,
// the AVX2 engine's) against the scalar one: the same limbs out and the
// same accumulator after, for every coefficient size 3 .. 63, runs of
// every length mod 4 and past the 64-coefficient chunk, any starting shift
// and pending sum, coefficients random below 2^150 and all ones (2^150 - 1).
TEST(MulNtt, BitSumShiftsInAvx2MatchScalar) {
  std::mt19937_64 g(0xb175);
  for (unsigned bits = 3; bits < 64; ++bits)
    for (std::size_t len : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{7}, std::size_t{64},
                            std::size_t{65}, std::size_t{130}})
      for (int ones = 0; ones < 2; ++ones) {
        std::vector<std::uint64_t> x(3 * len);
        for (std::size_t q = 0; q < len; ++q) {
          x[q] = ones ? ~0ull : g();
          x[len + q] = ones ? ~0ull : g();
          x[2 * len + q] = ones ? (1ull << 22) - 1 : g() >> 42;
        }
        detail::ntt_bit_accumulator a, b;
        a.shift = static_cast<unsigned>(g() % 64);
        for (unsigned l = 0; l < 3; ++l) a.acc[l] = ones ? ~0ull : g();  // a pending sum below 2^192
        b = a;
        std::vector<std::uint64_t> out_a(len + 1, 1), out_b(len + 1, 2);
        const std::size_t na = detail::ntt_bit_carry3_limbs(x.data(), len, bits, a, out_a.data());
        const std::size_t nb = detail::ntt_bit_carry3_limbs_avx2(x.data(), len, bits, b, out_b.data());
        ASSERT_EQ(na, nb) << bits << " bits, " << len << " coefficients";
        out_a.resize(na);
        out_b.resize(nb);
        ASSERT_EQ(out_a, out_b) << bits << " bits, " << len << " coefficients";
        ASSERT_EQ(a.shift, b.shift);
        for (unsigned l = 0; l < 4; ++l) ASSERT_EQ(a.acc[l], b.acc[l]) << bits << " bits, " << len << " limb " << l;
      }
}

// The AVX2 and IFMA engines' decimal three-prime products against GMP (the
// IFMA engine's take the decimal digits path, mul/ntt_decimal_carry.hpp;
// the AVX2 engine's the generic one while its decimal3 is off): coefficient
// counts around the decimal chains' groups and the vector width, all nines
// (every limb 10^19 - 1: the largest coefficients, the longest carry
// chains), runs of 0 and 9 digits, powers of 10^19 and sparse operands, 1 to
// 3 threads (the chains' boundaries move), and 2^15-limb all-nines operands
// (coefficients near 2^141).
TEST(MulNtt, Avx2DecimalDigitsMatchGmp) {
  using detail::ntt_engine;
  if (!detail::ntt_engine_available(ntt_engine::avx2)) GTEST_SKIP() << "no AVX2 engine here";
  auto g = bigmul::test::rng(7133);
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  for (std::size_t an : {std::size_t{5}, std::size_t{66}, std::size_t{127}, std::size_t{128}, std::size_t{129},
                         std::size_t{259}, std::size_t{1027}})
    for (std::size_t bn : {std::size_t{1}, std::size_t{4}, an - 1, an}) shapes.push_back({an, bn});
  const std::size_t big = sanitized ? (std::size_t{1} << 12) : (std::size_t{1} << 15);
  shapes.push_back({big, big - 3});
  for (auto [an, bn] : shapes)
    for (operand_kind k : {operand_kind::all_max, operand_kind::runs, operand_kind::power, operand_kind::sparse}) {
      if (an == big && k != operand_kind::all_max) continue;  // the largest coefficients only
      const auto a = bigmul::test::make_operand(k, an, radix::decimal, g);
      const auto b = bigmul::test::make_operand(k, bn, radix::decimal, g);
      const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::decimal);
      for (ntt_engine e : {ntt_engine::avx2, ntt_engine::ifma})
        for (unsigned threads : {1u, 2u, 3u}) {
          if (!detail::ntt_engine_available(e)) continue;
          mul_options opt;
          opt.threads = threads;
          mul_stats st;
          std::vector<limb_t> r(an + bn, 0xdeadbeef);
          detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, radix::decimal, opt, st, e, 3);
          ASSERT_EQ(r, want) << detail::ntt_engine_name(e) << ", " << an << " x " << bn << ", "
                             << bigmul::test::operand_kind_name(k) << ", threads " << threads;
          ASSERT_STREQ(st.ntt_engine, detail::ntt_engine_name(e));
        }
    }
}

// The AVX2 engine's bit-split coefficients read by the first forward step
// itself (ntt_avx2_plan::forward_filled: no separate load, t_split stays 0)
// against GMP: every coefficient size 40 .. 63 at the first operand sizes
// where the layout's transform length changes (+- 1 limb), all-maximum
// (largest coefficients, longest carry chains), runs and random operands,
// balanced and very unbalanced, 1 and 2 threads.
TEST(MulNtt, Avx2FilledForwardMatchesGmp) {
  using detail::ntt_engine;
  if (!detail::ntt_engine_available(ntt_engine::avx2)) GTEST_SKIP() << "no AVX2 engine here";
  auto g = bigmul::test::rng(7205);
  for (unsigned bits = 40; bits <= 63; ++bits) {
    // The sizes an where the balanced layout's n changes, from 16 coefficients up.
    // The sizes an where the balanced layout's n changes: the first three
    // (from 16 coefficients up) and the last two below 5000 limbs (2^13 and
    // 3 * 2^12 points and up: the recursion, several fill chunks, the
    // radix-3 stage's built twiddles).
    std::vector<std::size_t> all, switches;
    std::size_t last = 0;
    for (std::size_t an = 8; an <= 5000; ++an) {
      const auto l = detail::ntt_choose_layout(ntt_engine::avx2, an, an, radix::binary, 3, bits);
      if (last != 0 && l.shape.n != last) all.push_back(an);
      last = l.shape.n;
    }
    ASSERT_GE(all.size(), 5u) << bits;
    switches = {all[0], all[1], all[2], all[all.size() - 2], all.back()};
    std::vector<std::pair<std::size_t, std::size_t>> shapes;
    for (std::size_t s : switches)
      for (std::size_t an : {s - 1, s, s + 1}) shapes.push_back({an, an});
    shapes.push_back({all[2] * 40 + 1, 1});
    shapes.push_back({all[2] * 20, 17});
    for (auto [an, bn] : shapes)
      for (operand_kind k : {operand_kind::all_max, operand_kind::runs, operand_kind::random}) {
        if (k != operand_kind::all_max && bits % 4 != 0 && bn != an) continue;  // keep the run short
        const auto a = bigmul::test::make_operand(k, an, radix::binary, g);
        const auto b = bigmul::test::make_operand(k, bn, radix::binary, g);
        const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
        for (unsigned threads : {1u, 2u})
          for (unsigned primes : {3u, 4u}) {
            mul_stats st, timed;
            mul_options opt;
            opt.threads = threads;
            opt.stats = &timed;  // the driver times its steps (into st)
            std::vector<limb_t> r(an + bn, 0xdeadbeef);
            detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, radix::binary, opt, st, ntt_engine::avx2, primes,
                            bits);
            ASSERT_EQ(r, want) << an << " x " << bn << ", " << bits << "-bit coefficients, "
                               << bigmul::test::operand_kind_name(k) << ", threads " << threads << ", primes "
                               << primes;
            ASSERT_STREQ(st.ntt_engine, "avx2");
            ASSERT_EQ(st.coefficient_digits, bits);
            const auto l = detail::ntt_choose_layout(ntt_engine::avx2, an, bn, radix::binary, primes, bits);
            if ((l.shape.n % 3 == 0 ? l.shape.n / 3 : l.shape.n) >= 16) {
              ASSERT_EQ(st.t_split, 0.0) << "the load was not fused: " << an << " x " << bn << ", n " << l.shape.n;
            }
          }
      }
  }
}

TEST(MulNtt, ResultsIdenticalForEveryThreadCount) {
  auto g = bigmul::test::rng(7103);
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto a = bigmul::test::make_operand(operand_kind::random, 40000, rx, g);
    const auto b = bigmul::test::make_operand(operand_kind::runs, 23000, rx, g);  // 3*2^15 points
    for (unsigned threads : {1u, 2u, 3u, 8u}) check_ntt(rx, a, b, "threads " + std::to_string(threads), threads);
  }
}

// Products through the IFMA engine's quad passes (four levels a pass; from
// 2^23 points by default, lowered here to 2^16): 2^17 points (binary,
// decimal, a square: the inverse's quads, and the forward's on two threads)
// and 3 * 2^16 (binary: the radix-3 thirds' forward and inverse quads),
// all-maximum and random operands, on 1 and 2 threads, against GMP.
TEST(MulNtt, QuadPassesMatchGmp) {
  if (!detail::ntt_engine_available(detail::ntt_engine::ifma)) GTEST_SKIP() << "no IFMA engine here";
  const std::size_t old = fft::ntt52_set_quad_min(1);
  auto g = bigmul::test::rng(7117);
  struct shape {
    std::size_t an, bn;
    radix rx;
    bool square;
  };
  for (const shape s : {shape{65000, 65000, radix::binary, false}, shape{65000, 65000, radix::decimal, false},
                        shape{65500, 65500, radix::binary, true}, shape{98000, 97000, radix::binary, false}})
    for (operand_kind k : {operand_kind::all_max, operand_kind::random}) {
      const auto a = bigmul::test::make_operand(k, s.an, s.rx, g);
      const auto b = s.square ? a : bigmul::test::make_operand(k, s.bn, s.rx, g);
      const auto want = bigmul::test::gmp_product(a.data(), s.an, b.data(), s.bn, s.rx);
      for (unsigned threads : {1u, 2u}) {
        mul_options opt;
        opt.threads = threads;
        mul_stats st;
        std::vector<limb_t> r(s.an + s.bn, 0xdeadbeef);
        detail::mul_ntt(r.data(), a.data(), s.an, b.data(), s.bn, s.rx, opt, st, detail::ntt_engine::ifma);
        EXPECT_EQ(r, want) << s.an << " x " << s.bn << (s.square ? " square " : " ")
                           << bigmul::test::operand_kind_name(k) << ", threads " << threads << ", length "
                           << st.transform_length;
        EXPECT_GE(st.transform_length, std::size_t{1} << 16);
      }
    }
  fft::ntt52_set_quad_min(old);
}

// Products through the AVX2 engine's radix-16 passes (from 2^22 points by
// default, lowered to their minimum, 2^15): binary products whose
// power-of-two part is 2^15 .. 2^17 (2^k and 3 * 2^k: the first step's
// quarters, the thirds' steps and the inverse take quads; on 2 threads the
// whole-array levels too), 63 and 40-bit coefficients, decimal, a square,
// unbalanced; all-maximum, runs and random operands, against GMP.
TEST(MulNtt, Avx2QuadPassesMatchGmp) {
  using detail::ntt_engine;
  if (!detail::ntt_engine_available(ntt_engine::avx2)) GTEST_SKIP() << "no AVX2 engine here";
  const auto old = fft::ntt_avx2_set_quad_min({1, 1});
  auto g = bigmul::test::rng(7304);
  struct shape {
    std::size_t an, bn;
    radix rx;
    unsigned bits;
    bool square;
  };
  for (const shape s : {shape{33000, 33000, radix::binary, 63, false}, shape{47000, 46000, radix::binary, 63, false},
                        shape{40000, 40000, radix::binary, 40, true}, shape{130000, 1000, radix::binary, 0, false},
                        shape{70000, 70000, radix::decimal, 0, false}})
    for (operand_kind k : {operand_kind::all_max, operand_kind::runs, operand_kind::random}) {
      const auto a = bigmul::test::make_operand(k, s.an, s.rx, g);
      const auto b = s.square ? a : bigmul::test::make_operand(k, s.bn, s.rx, g);
      const auto want = bigmul::test::gmp_product(a.data(), s.an, b.data(), s.bn, s.rx);
      for (unsigned threads : {1u, 2u}) {
        mul_options opt;
        opt.threads = threads;
        mul_stats st;
        std::vector<limb_t> r(s.an + s.bn, 0xdeadbeef);
        detail::mul_ntt(r.data(), a.data(), s.an, b.data(), s.bn, s.rx, opt, st, ntt_engine::avx2, 0, s.bits);
        EXPECT_EQ(r, want) << s.an << " x " << s.bn << (s.square ? " square " : " ")
                           << bigmul::test::operand_kind_name(k) << ", threads " << threads << ", length "
                           << st.transform_length;
        EXPECT_STREQ(st.ntt_engine, "avx2");
        const std::size_t m = st.transform_length % 3 == 0 ? st.transform_length / 3 : st.transform_length;
        EXPECT_GE(m, std::size_t{1} << 15) << s.an << " x " << s.bn << ": no quad";
      }
    }
  fft::ntt_avx2_set_quad_min(old);
}

// The prime count: three IFMA primes while min(an, bn) (B - 1)^2 is below
// their product, four beyond; forcing four gives the same product.
TEST(MulNtt, PrimeCountAndFourPrimeReconstruction) {
  using detail::ntt_engine;
  EXPECT_EQ(detail::ntt_primes_needed(ntt_engine::portable, 1u << 30, 1u << 30, radix::binary), 3u);
  EXPECT_EQ(detail::ntt_primes_needed(ntt_engine::ifma, 1, 1, radix::binary), 3u);
  EXPECT_EQ(detail::ntt_primes_needed(ntt_engine::ifma, 1u << 23, 1u << 21, radix::binary), 3u);
  EXPECT_EQ(detail::ntt_primes_needed(ntt_engine::ifma, 1u << 23, 1u << 22, radix::binary), 4u);
  EXPECT_EQ(detail::ntt_primes_needed(ntt_engine::ifma, 1u << 24, 1u << 23, radix::decimal), 3u);
  EXPECT_EQ(detail::ntt_primes_needed(ntt_engine::ifma, 1u << 25, 1u << 24, radix::decimal), 4u);
  // The exact switch: the largest min(an, bn) for three primes, binary.
  std::size_t lo = 1u << 21, hi = 1u << 22;  // needs 3 at lo, 4 at hi
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (detail::ntt_primes_needed(ntt_engine::ifma, mid, mid, radix::binary) == 3 ? lo : hi) = mid;
  }
  // lo (2^64 - 1)^2 < p0 p1 p2 <= hi (2^64 - 1)^2, in long double logs (the primes sit just below 2^50).
  long double log_p = 0;
  for (unsigned k = 0; k < 3; ++k) log_p += std::log2(static_cast<long double>(fft::ntt52_primes[k].p));
  EXPECT_NEAR(static_cast<double>(std::log2(static_cast<long double>(lo)) + 128), static_cast<double>(log_p), 1e-5);

  EXPECT_EQ(detail::ntt_primes_needed(ntt_engine::avx2, 1u << 23, 1u << 22, radix::binary), 4u);  // same primes
  auto g = bigmul::test::rng(7104);
  for (ntt_engine e : {ntt_engine::avx2, ntt_engine::ifma}) {
    if (!detail::ntt_engine_available(e)) continue;
    for (radix rx : {radix::binary, radix::decimal})
      for (std::size_t n : {1u, 7u, 100u, 3000u}) {
        const auto a = bigmul::test::make_operand(operand_kind::all_max, n + 5, rx, g);
        const auto b = bigmul::test::make_operand(operand_kind::all_max, n, rx, g);
        std::vector<limb_t> r(a.size() + b.size());
        mul_stats st;
        detail::mul_ntt(r.data(), a.data(), a.size(), b.data(), b.size(), rx, {}, st, e, 4);
        EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), a.size(), b.data(), b.size(), rx))
            << "four primes, n=" << n << ", engine " << detail::ntt_engine_name(e);
      }
  }
}

// The transform buffers stay with the thread until release_scratch().
TEST(MulNtt, ScratchKeptAndReleased) {
  auto g = bigmul::test::rng(7105);
  const auto a = bigmul::test::make_operand(operand_kind::random, 5000, radix::binary, g);
  std::vector<limb_t> r(10000);
  mul_options opt;
  opt.algo = algorithm::ntt;
  opt.threads = 1;
  mul(r.data(), a.data(), 5000, a.data(), 5000, radix::binary, opt);
  EXPECT_GE(detail::ntt_scratch_bytes(), 3 * 8192 * sizeof(limb_t));  // >= 3 residue arrays of 2^13 points
  release_scratch();
  EXPECT_EQ(detail::ntt_scratch_bytes(), 0u);
  mul(r.data(), a.data(), 5000, a.data(), 5000, radix::binary, opt);  // allocates again, same product
  EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), 5000, a.data(), 5000, radix::binary));
}

TEST(MulNtt, EnginesAvailable) {
  EXPECT_TRUE(detail::ntt_engine_available(detail::ntt_engine::portable));
  EXPECT_TRUE(detail::ntt_engine_available(detail::ntt_engine::best));
  // IFMA implies AVX2 on every processor that has it.
  if (detail::ntt_engine_available(detail::ntt_engine::ifma)) {
    EXPECT_TRUE(detail::ntt_engine_available(detail::ntt_engine::avx2));
  }
}

// BIGMUL_NTT_ENGINE picks the engine; an unknown name or an engine this
// processor cannot run is an error, never a silent fallback. The engine
// that ran is in mul_stats.
class NttEngineEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* v = std::getenv("BIGMUL_NTT_ENGINE");
    had_ = v != nullptr;
    if (had_) saved_ = v;
  }
  void TearDown() override {
    if (had_)
      setenv("BIGMUL_NTT_ENGINE", saved_.c_str(), 1);
    else
      unsetenv("BIGMUL_NTT_ENGINE");
  }
  bool had_ = false;
  std::string saved_;
};

TEST_F(NttEngineEnvironment, ForcesTheEngineOrFailsClearly) {
  using detail::ntt_engine;
  auto g = bigmul::test::rng(7107);
  const auto a = bigmul::test::make_operand(operand_kind::random, 3000, radix::binary, g);
  const auto b = bigmul::test::make_operand(operand_kind::all_max, 2000, radix::binary, g);
  const auto want = bigmul::test::gmp_product(a.data(), a.size(), b.data(), b.size(), radix::binary);
  mul_options opt;
  opt.algo = algorithm::ntt;
  opt.where = backend::cpu;
  std::vector<limb_t> r(a.size() + b.size());
  mul_stats st;  // outlives every use of opt (ASan: stack-use-after-scope when it lived in the loop)
  opt.stats = &st;

  unsetenv("BIGMUL_NTT_ENGINE");
  const ntt_engine fastest = detail::ntt_engine_available(ntt_engine::ifma)   ? ntt_engine::ifma
                             : detail::ntt_engine_available(ntt_engine::avx2) ? ntt_engine::avx2
                                                                              : ntt_engine::portable;
  EXPECT_EQ(detail::ntt_resolve_engine(), fastest);
  setenv("BIGMUL_NTT_ENGINE", "", 1);
  EXPECT_EQ(detail::ntt_resolve_engine(), fastest);

  for (ntt_engine e : {ntt_engine::portable, ntt_engine::avx2, ntt_engine::ifma}) {
    setenv("BIGMUL_NTT_ENGINE", detail::ntt_engine_name(e), 1);
    st = mul_stats{};
    if (detail::ntt_engine_available(e)) {
      mul(r.data(), a.data(), a.size(), b.data(), b.size(), radix::binary, opt);
      EXPECT_EQ(r, want) << detail::ntt_engine_name(e);
      EXPECT_STREQ(st.ntt_engine, detail::ntt_engine_name(e));
      EXPECT_EQ(detail::ntt_default_engine(), e);
    } else {
      try {
        mul(r.data(), a.data(), a.size(), b.data(), b.size(), radix::binary, opt);
        ADD_FAILURE() << "BIGMUL_NTT_ENGINE=" << detail::ntt_engine_name(e) << " ran on a processor without it";
      } catch (const error& x) {
        EXPECT_EQ(x.code(), error::kind::resource);
        EXPECT_NE(std::string(x.what()).find(detail::ntt_engine_name(e)), std::string::npos) << x.what();
      }
      EXPECT_EQ(detail::ntt_default_engine(), fastest);  // the dispatcher's crossovers do not throw
    }
    // A named engine overrides the environment.
    mul_stats st2;
    detail::mul_ntt(r.data(), a.data(), a.size(), b.data(), b.size(), radix::binary, opt, st2, ntt_engine::portable);
    EXPECT_EQ(r, want);
    EXPECT_STREQ(st2.ntt_engine, "portable");
  }
  for (const char* bad : {"avx512", "IFMA", "portable ", "auto"}) {
    setenv("BIGMUL_NTT_ENGINE", bad, 1);
    try {
      mul(r.data(), a.data(), a.size(), b.data(), b.size(), radix::binary, opt);
      ADD_FAILURE() << "BIGMUL_NTT_ENGINE=" << bad << " was accepted";
    } catch (const error& x) {
      EXPECT_EQ(x.code(), error::kind::invalid_argument);
      EXPECT_NE(std::string(x.what()).find("BIGMUL_NTT_ENGINE"), std::string::npos) << x.what();
    }
    EXPECT_THROW(detail::ntt_resolve_engine(), error);
    EXPECT_EQ(detail::ntt_default_engine(), fastest);
  }
  // Products too small for the NTT do not consult it.
  mul_options small;
  st = mul_stats{};
  small.stats = &st;
  limb_t x = 3, y = 5, z[2];
  mul(z, &x, 1, &y, 1, radix::binary, small);
  EXPECT_EQ(z[0], 15u);
  EXPECT_EQ(st.ntt_engine, nullptr);
}

TEST(MulNtt, LengthLimit) {
  const std::size_t half = (std::size_t{3} << 31);
  // 3*2^32 - 1 coefficients of whole limbs (wide ones, the automatic choice there, take fewer).
  EXPECT_EQ(detail::ntt_choose_layout(detail::ntt_default_engine(), half, half, radix::binary, 0, 64).shape.n,
            fft::ntt_max_length);
  EXPECT_NE(detail::ntt_transform_length(half, half), 0u);
  EXPECT_EQ(detail::ntt_transform_length(half + 1, half + 1), 0u);
}

}  // namespace

namespace {

// Binary limbs cut into b-bit coefficients (three primes past 2^22 limbs):
// forced b at small sizes, every engine, all-maximum and random operands,
// balanced and unbalanced, both thread paths, squares.
TEST(MulNtt, SplitCoefficientsMatchGmp) {
  using detail::ntt_engine;
  auto g = bigmul::test::rng(7108);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes =
      sanitized ? std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {3, 2}, {700, 7}, {2000, 1999}}
                : std::vector<std::pair<std::size_t, std::size_t>>{
                      {1, 1}, {3, 2}, {700, 7}, {2000, 1999}, {30000, 3}, {4097, 4095}, {40000, 40000}, {70001, 9000}};
  for (unsigned bits : {8u, 33u, 50u, 57u, 60u, 63u, 64u})
    for (auto [an, bn] : shapes)
      for (operand_kind k : {operand_kind::all_max, operand_kind::random}) {
        const auto a = bigmul::test::make_operand(k, an, radix::binary, g);
        const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, radix::binary, g);
        const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
        const auto want_sq = bigmul::test::gmp_product(a.data(), an, a.data(), an, radix::binary);
        for (ntt_engine e : {ntt_engine::portable, ntt_engine::avx2, ntt_engine::ifma}) {
          if (!detail::ntt_engine_available(e)) continue;
          for (unsigned threads : {1u, 2u}) {
            mul_options opt;
            opt.threads = threads;
            std::vector<limb_t> r(an + bn, 0x5a5a5a5a);
            mul_stats st;
            detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, radix::binary, opt, st, e, 0, bits);
            EXPECT_EQ(st.coefficient_digits, bits);
            ASSERT_EQ(r, want) << bits << "-bit coefficients, " << an << " x " << bn << ", "
                               << bigmul::test::operand_kind_name(k) << ", engine " << detail::ntt_engine_name(e)
                               << ", threads " << threads;
            if (an > 40000 || threads == 2) continue;
            std::vector<limb_t> s(2 * an);
            detail::mul_ntt(s.data(), a.data(), an, a.data(), an, radix::binary, opt, st, e, 0, bits);
            ASSERT_EQ(s, want_sq) << bits << "-bit square, " << an << " limbs, engine " << detail::ntt_engine_name(e);
          }
        }
      }
}

// The coefficient rule past the three-prime limit of whole limbs (2^22
// binary limbs): three primes with the largest b whose coefficients they
// cover, b + 1 would not be covered; whole limbs below it; decimal: four
// primes. Layouts only: no 10^8-digit products in a test.
// The bit-split extraction (vector steps of 8 where the processor has
// AVX-512, of 4 with AVX2, scalar steps at the ends; each lane width asked
// for) against the one-coefficient reference, every split width, ranges
// starting on and off a multiple of 8 and 4, ending inside the limbs, at
// their last coefficient and past it.
TEST(MulNtt, ExtractedCoefficientsMatchTheReference) {
  std::mt19937_64 g(0xe7);
  for (const std::size_t len : {std::size_t{1}, std::size_t{16}, std::size_t{17}, std::size_t{40}, std::size_t{1000}}) {
    for (const int fill : {0, 1, 2}) {  // random, all ones, alternating bits
      std::vector<limb_t> src(len);
      for (auto& x : src) x = fill == 0 ? g() : fill == 1 ? ~limb_t{0} : 0xaaaaaaaaaaaaaaaaull;
      for (unsigned bits = 1; bits < 64; ++bits) {
        const std::size_t count = (64 * len + bits - 1) / bits;
        for (const std::size_t b : {std::size_t{0}, std::size_t{3}, std::size_t{8}, std::size_t{61}, count / 2 / 8 * 8 + 5,
                                    count / 2 / 8 * 8 + 4}) {
          for (const std::size_t e : {count, count + 9, count - count / 3, b + 8, b + 5})
            for (const unsigned lanes : {0u, 1u, 4u, 8u}) {
              if (e <= b) continue;
              std::vector<std::uint64_t> dst(e - b, 0x5555);
              detail::ntt_extract_coefficients(dst.data(), src.data(), len, b, e, bits, lanes);
              for (std::size_t j = b; j < e; ++j)
                ASSERT_EQ(dst[j - b], detail::ntt_coefficient_at(src.data(), len, j, bits))
                    << "len " << len << " fill " << fill << " bits " << bits << " range [" << b << ", " << e
                    << ") lanes " << lanes << " j " << j;
            }
        }
      }
    }
  }
}

// Parking a prime's residues (mul/ntt_coefficients.hpp): the packed words
// are the reduced residues as one width-bit stream (vector steps where the
// processor has AVX-512, scalar at the ends and for narrow widths), and
// unpacking gives the reduced residues back; every width the primes can
// have and some narrower, counts around the vector steps, 1 and 2 threads.
TEST(MulNtt, PackedResiduesAreTheReducedBitStream) {
  std::mt19937_64 g(0x9ac);
  for (unsigned width : {20u, 33u, 39u, 40u, 41u, 48u, 50u, 52u, 56u, 61u, 62u, 63u}) {
    const std::uint64_t p = (std::uint64_t{1} << (width - 1)) + (g() >> (66 - width)) * 2 + 1;  // p < 2^width
    for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{16}, std::size_t{17}, std::size_t{64},
                              std::size_t{65}, std::size_t{203}, std::size_t{5000}, std::size_t{40001}}) {
      std::vector<std::uint64_t> src(count);
      for (std::size_t j = 0; j < count; ++j) src[j] = j % 5 == 0 ? 2 * p - 1 : j % 7 == 0 ? p : g() % (2 * p);
      const std::size_t words = detail::ntt_packed_words(count, width);
      std::vector<std::uint64_t> want(words, 0);
      for (std::size_t j = 0; j < count; ++j) {
        const std::uint64_t v = src[j] >= p ? src[j] - p : src[j];
        for (unsigned b = 0; b < width; ++b)
          if ((v >> b) & 1) want[(j * width + b) / 64] |= std::uint64_t{1} << ((j * width + b) % 64);
      }
      for (unsigned threads : {1u, 2u})
        for (unsigned lanes : {0u, 1u, 4u}) {  // the processor's best, scalar, the AVX2 engine's
          std::vector<std::uint64_t> packed(words + 3, 0x77), back(count + 2, 0x77);
          detail::ntt_pack_residues(packed.data(), src.data(), count, width, p, threads, lanes);
          for (std::size_t k = 0; k < words; ++k)
            ASSERT_EQ(packed[k], want[k]) << "width " << width << " count " << count << " threads " << threads
                                          << " lanes " << lanes << " word " << k;
          ASSERT_EQ(packed[words], 0x77u) << "wrote past the packed words";
          detail::ntt_unpack_residues(back.data(), packed.data(), count, width, threads, lanes);
          for (std::size_t j = 0; j < count; ++j)
            ASSERT_EQ(back[j], src[j] >= p ? src[j] - p : src[j]) << "width " << width << " count " << count << " j " << j;
          ASSERT_EQ(back[count], 0x77u) << "unpacked past count";
        }
    }
  }
}

TEST(MulNtt, SplitLayoutAtTheSwitchPoints) {
  using detail::ntt_engine;
  long double log_p = 0;
  for (unsigned k = 0; k < 3; ++k) log_p += std::log2(static_cast<long double>(fft::ntt52_primes[k].p));
  // The largest min(an, bn) three primes cover with whole limbs.
  std::size_t lo = 1u << 21, hi = 1u << 22;
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (detail::ntt_primes_needed(ntt_engine::ifma, mid, mid, radix::binary) == 3 ? lo : hi) = mid;
  }
  for (ntt_engine e : {ntt_engine::ifma, ntt_engine::avx2}) {
    const auto below = detail::ntt_choose_layout(e, lo, lo, radix::binary);
    EXPECT_EQ(below.bits, 64u);
    EXPECT_EQ(below.primes, 3u);
    for (std::size_t m : {lo + 1, lo + 2, hi + 1000, std::size_t{1} << 23, std::size_t{5} << 22,
                          std::size_t{1} << 25, std::size_t{52} << 20, std::size_t{1} << 28}) {
      for (std::size_t bn : {m, m / 2 + 1}) {
        SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(bn) + " limbs");
        const auto l = detail::ntt_choose_layout(e, m, bn, radix::binary);
        const auto whole = detail::ntt_choose_layout(e, m, bn, radix::binary, 0, 64);
        if (l.bits == 64) {  // whole limbs: three primes cover them (2:1), or four cost less
          EXPECT_EQ(l.primes, whole.primes);
          if (whole.primes == 3) {
            EXPECT_LE(bn, lo);
          }
          continue;
        }
        if (l.bits > 64) {  // wide, four primes: tests/mul/test_ntt_wide.cpp
          EXPECT_EQ(l.primes, 4u);
          EXPECT_GT(whole.primes, 3u);
          continue;
        }
        EXPECT_EQ(l.primes, 3u);
        EXPECT_GE(l.bits, 56u);
        EXPECT_LE(l.shape.n, 2 * whole.shape.n);
        EXPECT_EQ(l.ca, (64 * m + l.bits - 1) / l.bits);
        // Covered: min(ca, cb) (2^b - 1)^2 < p0 p1 p2; b + 1: not (logs, with the margin of rounding).
        const auto covers = [&](unsigned b) {
          const std::size_t terms = std::min((64 * m + b - 1) / b, (64 * bn + b - 1) / b);
          return std::log2(static_cast<long double>(terms)) + 2 * b < log_p;
        };
        EXPECT_TRUE(covers(l.bits));
        EXPECT_FALSE(covers(l.bits + 1));
        EXPECT_EQ(detail::ntt_choose_layout(e, m, bn, radix::binary, 0, l.bits + 1).primes, 4u);
      }
    }
    // Decimal limbs stay whole: four primes past their own limit.
    const auto dec = detail::ntt_choose_layout(e, std::size_t{1} << 25, std::size_t{1} << 25, radix::decimal);
    EXPECT_EQ(dec.bits, 64u);
    EXPECT_EQ(dec.primes, 4u);
  }
  // 10^8 digits (5.2 10^6 limbs): wide coefficients on four primes; 10^9 (5.2 10^7): b < 64 on three.
  EXPECT_EQ(detail::ntt_choose_layout(ntt_engine::ifma, 5190551, 5190551, radix::binary).primes, 4u);
  EXPECT_EQ(detail::ntt_choose_layout(ntt_engine::ifma, 51905504, 51905504, radix::binary).primes, 3u);
  EXPECT_EQ(detail::ntt_choose_layout(ntt_engine::ifma, 51905504, 51905504, radix::binary, 0, 0,
                                      detail::ntt_fold::automatic, 63).primes, 3u);
  // The portable engine's primes (~2^186) never need a split.
  EXPECT_EQ(detail::ntt_choose_layout(ntt_engine::portable, std::size_t{1} << 30, std::size_t{1} << 30,
                                      radix::binary).bits, 64u);
  EXPECT_THROW(detail::ntt_choose_layout(ntt_engine::ifma, 100, 100, radix::decimal, 0, 60), error);
}

// The product's heap: ntt_heap_bytes is what the product allocates (the
// thread's scratch after release_scratch()), and from 10^6 digits up it is
// at most 4 x the operands' bytes on 1 and 2 threads wherever three primes
// suffice (every binary size; decimal up to 2.7 10^8 digits).
TEST(MulNtt, HeapBytesMatchAndStayWithinFourTimesTheOperands) {
  using detail::ntt_engine;
  auto g = bigmul::test::rng(7109);
  for (auto [an, bn] : {std::pair<std::size_t, std::size_t>{3000, 2000}, {20000, 20000}, {40000, 9000},
                        {(1u << 16) + 5, (1u << 16) - 3}, {std::size_t{70001}, std::size_t{70001}}}) {
    if (sanitized && an > 20000) continue;
    for (radix rx : {radix::binary, radix::decimal})
      for (unsigned threads : {1u, 2u}) {
        const auto a = bigmul::test::make_operand(operand_kind::random, an, rx, g);
        const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, rx, g);
        std::vector<limb_t> r(an + bn);
        mul_options opt;
        opt.threads = threads;
        mul_stats st;
        release_scratch();
        detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, rx, opt, st);
        EXPECT_EQ(detail::ntt_scratch_bytes(), detail::ntt_heap_bytes(ntt_engine::best, an, bn, rx, threads))
            << an << " x " << bn << ", threads " << threads;
        EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), an, b.data(), bn, rx));
        opt.algo = algorithm::ntt;
        EXPECT_EQ(mul_heap_bytes(an, bn, rx, opt), detail::ntt_heap_bytes(ntt_engine::best, an, bn, rx, threads));
      }
  }
  release_scratch();
  mul_options basecase;
  basecase.algo = algorithm::basecase;
  EXPECT_EQ(mul_heap_bytes(100, 100, radix::binary, basecase), 0u);
  // 10^6 .. 10^10 digits, balanced and 2:1, both radices, every engine's layout.
  for (ntt_engine e : {ntt_engine::ifma, ntt_engine::avx2})
    for (radix rx : {radix::binary, radix::decimal})
      for (double digits = 1e6; digits <= 1e10; digits *= std::sqrt(10.0))
        for (unsigned threads : {1u, 2u}) {
          const double per_limb = rx == radix::binary ? 19.265919722494796 : 19.0;
          const std::size_t an = static_cast<std::size_t>(digits / per_limb) + 1;
          for (std::size_t bn : {an, an / 2}) {
            const std::size_t bytes = detail::ntt_heap_bytes(e, an, bn, rx, threads);
            if (bytes == SIZE_MAX) continue;  // past the longest transform (saturated, never 0)
            EXPECT_NE(bytes, 0u);
            // Decimal past 2.7 10^8 digits: four primes (limbs stay whole), up to ~4.9x; not claimed.
            if (detail::ntt_choose_layout(e, an, bn, rx).primes > 3) continue;
            EXPECT_LE(bytes, 4 * (an + bn) * sizeof(limb_t))
                << digits << " digits, " << an << " x " << bn << (rx == radix::binary ? " binary" : " decimal")
                << ", threads " << threads << ", engine " << detail::ntt_engine_name(e);
            // With the shared twiddle tables counted (full only up to a cap, coarse x fine above
            // it: fft/ntt_level_table.hpp): within 4x the operands plus the result.
            {
              EXPECT_LE(bytes + detail::ntt_table_bytes(e, an, bn, rx), 5 * (an + bn) * sizeof(limb_t))
                  << digits << " digits, " << an << " x " << bn << (rx == radix::binary ? " binary" : " decimal")
                  << ", threads " << threads << ", tables " << detail::ntt_table_bytes(e, an, bn, rx) << ", engine "
                  << detail::ntt_engine_name(e);
            }
          }
        }
}

// ntt_table_bytes is what the shared tables a product's plans take really
// hold: for every engine this processor runs, the tables built fresh up to
// the plan's top (m / 2 for a transform of m or 3m points) for every prime
// the product uses, byte for byte, at power-of-two and 3 * 2^k lengths,
// with three and four primes; and mul_table_bytes gives the same.
TEST(MulNtt, TableBytesAreTheTablesThePlansTake) {
  using detail::ntt_engine;
  for (ntt_engine e : {ntt_engine::ifma, ntt_engine::avx2, ntt_engine::portable}) {
    if (!detail::ntt_engine_available(e)) continue;
    for (const auto& [an, bn] : std::vector<std::pair<std::size_t, std::size_t>>{
             {600, 500}, {1500, 1400}, {3000, 100}, {40000, 40000}, {5000000, 5000000}}) {
      SCOPED_TRACE(std::string(detail::ntt_engine_name(e)) + " " + std::to_string(an) + " x " + std::to_string(bn));
      const auto l = detail::ntt_choose_layout(e, an, bn, radix::binary);
      ASSERT_NE(l.shape.n, 0u);
      const std::size_t m = l.shape.n & (~l.shape.n + 1);
      std::size_t bytes = 0;
      for (unsigned k = 0; k < l.primes; ++k) {
        if (e == ntt_engine::avx2) {
          const auto t = fft::ntt_avx2_build_twiddles(fft::ntt52_primes[k].p, fft::ntt52_primes[k].generator, m / 2);
          bytes += (t.fw.size() + t.fw_p.size() + t.iw.size() + t.iw_p.size() + t.cw.size() + t.cw_p.size() +
                    t.ciw.size() + t.ciw_p.size()) *
                   sizeof(double);
        } else if (e == ntt_engine::ifma) {
          const auto t = fft::ntt52_build_levels(fft::ntt52_primes[k].p, fft::ntt52_primes[k].generator, m / 2);
          bytes += (t.w.size() + t.wq.size() + t.fw.size() + t.fwq.size() + t.iw.size() + t.iwq.size() +
                    t.fiw.size() + t.fiwq.size()) *
                   sizeof(std::uint64_t);
        } else {
          const auto t = fft::ntt64_build_levels(fft::ntt_primes[k].p, fft::ntt_primes[k].generator, m / 2);
          bytes += (t.tw.size() + t.fine.size()) * sizeof(fft::ntt_twiddle);
        }
      }
      EXPECT_EQ(detail::ntt_table_bytes(e, an, bn, radix::binary), bytes);
    }
  }
  const std::size_t an = 40000, bn = 30000;
  EXPECT_EQ(mul_table_bytes(an, bn), detail::ntt_table_bytes(detail::ntt_engine::best, an, bn, radix::binary));
  mul_options basecase;
  basecase.algo = algorithm::basecase;
  EXPECT_EQ(mul_table_bytes(an, bn, radix::binary, basecase), 0u);
  EXPECT_EQ(mul_table_bytes(0, bn), 0u);
}

// Where the transform is longer than the result (n > an + bn), the last
// prime's b transform has no room in the result: a product below 2^16
// points takes one more array, a larger one packs prime 0's residues into
// the result meanwhile (mul/ntt_memory.cpp, ntt_plan_arrays). Both ways against GMP
// on every engine, all-maximum and random operands, both radices, on each
// side of the switch (transforms of 3 2^12 and 3 2^15 points); the heap the
// product takes tells which way it went.
TEST(MulNtt, ExtraArrayBelowTheSwitchPackedAbove) {
  using detail::ntt_engine;
  auto g = bigmul::test::rng(7160);
  for (radix rx : {radix::binary, radix::decimal})
    for (std::size_t an : {std::size_t{5264}, std::size_t{45000}}) {
      const std::size_t bn = an - 1;
      const auto a = bigmul::test::make_operand(operand_kind::all_max, an, rx, g);
      const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, rx, g);
      check_ntt(rx, a, b, "n > an + bn, all max", 1);
      check_ntt(rx, bigmul::test::make_operand(operand_kind::random, an, rx, g), b, "n > an + bn, random", 1);
      for (ntt_engine e : {ntt_engine::ifma, ntt_engine::avx2}) {
        const detail::ntt_layout l = detail::ntt_choose_layout(e, an, bn, rx);
        ASSERT_EQ(l.primes, 3u);
        ASSERT_EQ(l.shape.wrap, 0u);
        ASSERT_GT(l.shape.n, an + bn);
        const std::size_t arrays = l.shape.n < (std::size_t{1} << 16) ? 4 : 3;
        EXPECT_EQ(detail::ntt_heap_bytes(e, an, bn, rx, 1), arrays * ((l.shape.n + 7) / 8 * 8) * sizeof(limb_t))
            << an << " x " << bn << ", n " << l.shape.n << ", engine " << detail::ntt_engine_name(e);
      }
    }
}

// ---- Folded shapes: the low product and the twisted piece (mul/ntt_piece.hpp) ----

namespace piece_test {

using fft::u64;

// P = a b mod p, term by term (the oracle of the piece's algebra).
std::vector<u64> naive_product(const std::vector<u64>& a, const std::vector<u64>& b, u64 p) {
  std::vector<u64> c(a.size() + b.size() - 1, 0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) c[i + j] = (c[i + j] + fft::mul_mod(a[i], b[j], p)) % p;
  return c;
}
// The coefficients of limbs (bits each) as residues mod p.
std::vector<u64> residues(const std::vector<limb_t>& limbs, std::size_t coefficients, unsigned bits, u64 p) {
  std::vector<u64> v(coefficients);
  for (std::size_t i = 0; i < coefficients; ++i)
    v[i] = detail::ntt_coefficient_at(limbs.data(), limbs.size(), i, bits) % p;
  return v;
}

}  // namespace piece_test

// The piece's fold and combine against the polynomial algebra done term by
// term: for every supported piece length M | n (n = 2^k and 3 * 2^k) and
// overhangs w = 1, M/2, M - 1, M, the fold of each operand, their cyclic
// product of length M (term by term) and r1 = P mod (x^n - 1) (with values
// in [0, 2p)) join into P mod p exactly; on both prime sets, scalar, IFMA
// and AVX2 passes, whole limbs and 24-bit coefficients. Then the consistency
// check: one wrong residue of the piece or of r1 past w makes combine fail.
TEST(MulNttPiece, JoinsMainProductAndPieceExactlyAndDetectsDisagreement) {
  using piece_test::u64;
  auto g = bigmul::test::rng(7170);
  using lanes = detail::ntt_piece::lanes;
  struct prime_case {
    fft::ntt_prime prime;
    lanes l;
  };
  std::vector<prime_case> cases = {{fft::ntt_primes[0], lanes::scalar}, {fft::ntt52_primes[1], lanes::scalar}};
  if (fft::ntt52_supported()) cases.push_back({fft::ntt52_primes[3], lanes::ifma});
  if (fft::ntt_avx2_supported()) cases.push_back({fft::ntt52_primes[2], lanes::avx2});
  std::size_t checked = 0, detected = 0;
  for (const auto& pc : cases) {
    const u64 p = pc.prime.p;
    for (std::size_t n : {std::size_t{64}, std::size_t{96}, std::size_t{256}, std::size_t{384}}) {
      for (std::size_t m = 16; m < n; ++m) {
        if (n % m != 0 || fft::ntt_fit_length(m) != m) continue;
        for (std::size_t w : {std::size_t{1}, m / 2, m - 1, m}) {
          ASSERT_LE(detail::ntt_piece_length(n, w), m);
          for (unsigned bits : {64u, 24u}) {
            // ca + cb - 1 = n + w coefficients.
            const std::size_t count = n + w, ca = (count + 1) / 2 + (g() % 3), cb = count + 1 - ca;
            const std::size_t la = (ca * bits + 63) / 64, lb = (cb * bits + 63) / 64;
            auto a = bigmul::test::make_operand(g() % 2 ? operand_kind::all_max : operand_kind::random, la,
                                                radix::binary, g);
            auto b = bigmul::test::make_operand(operand_kind::random, lb, radix::binary, g);
            const auto ra = piece_test::residues(a, ca, bits, p), rb = piece_test::residues(b, cb, bits, p);
            const auto want = piece_test::naive_product(ra, rb, p);
            ASSERT_EQ(want.size(), count);
            // r1 = P mod (x^n - 1), some values lifted by p (the engines' [0, 2p)).
            std::vector<u64> x(n + w, 0);
            for (std::size_t i = 0; i < count; ++i) x[i % n] = (x[i % n] + want[i]) % p;
            for (std::size_t i = 0; i < n; ++i)
              if (g() % 2) x[i] += p;
            const detail::ntt_piece piece(p, pc.prime.generator, n, m, pc.l);
            std::vector<u64> a2(m), b2(m);
            piece.fold(a2.data(), a.data(), la, ca, bits, 1);
            piece.fold(b2.data(), b.data(), lb, cb, bits, 2);
            for (std::size_t j = 0; j < m; ++j) ASSERT_LT(a2[j], 2 * p);
            // The piece's cyclic product (what the engines' length-m transforms give).
            std::vector<u64> t(m, 0);
            for (std::size_t i = 0; i < m; ++i)
              for (std::size_t j = 0; j < m; ++j)
                t[(i + j) % m] = (t[(i + j) % m] + fft::mul_mod(a2[i] % p, b2[j] % p, p)) % p;
            std::vector<u64> y = x;
            ASSERT_TRUE(piece.combine(y.data(), t.data(), w, 1)) << "n " << n << " m " << m << " w " << w;
            for (std::size_t i = 0; i < count; ++i)
              ASSERT_EQ(y[i] % p, want[i]) << "p " << p << " n " << n << " m " << m << " w " << w << " bits " << bits
                                           << " coefficient " << i;
            ++checked;
            if (w == m) continue;  // nothing past w to check
            // A wrong piece residue, or a wrong r1 residue that lands past w.
            std::vector<u64> t_bad = t;
            t_bad[w + g() % (m - w)] = (t_bad[w] + 1) % p;
            t_bad[w] = (t[w] + 1) % p;
            y = x;
            EXPECT_FALSE(piece.combine(y.data(), t_bad.data(), w, 1)) << "n " << n << " m " << m << " w " << w;
            y = x;
            y[(g() % (n / m)) * m + w] += 1;
            EXPECT_FALSE(piece.combine(y.data(), t.data(), w, 2)) << "n " << n << " m " << m << " w " << w;
            ++detected;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100u);
  EXPECT_GT(detected, 50u);
}

// ntt_piece_length: the smallest supported M | n, M >= max(w, 16), M < n.
TEST(MulNttPiece, PieceLength) {
  EXPECT_EQ(detail::ntt_piece_length(1024, 1), 16u);
  EXPECT_EQ(detail::ntt_piece_length(1024, 17), 32u);
  EXPECT_EQ(detail::ntt_piece_length(1024, 256), 256u);
  EXPECT_EQ(detail::ntt_piece_length(1024, 257), 512u);
  EXPECT_EQ(detail::ntt_piece_length(1024, 513), 0u);
  EXPECT_EQ(detail::ntt_piece_length(3 * 1024, 700), 768u);   // 3 * 2^8
  EXPECT_EQ(detail::ntt_piece_length(3 * 1024, 769), 1024u);  // 2^10 = n / 3
  EXPECT_EQ(detail::ntt_piece_length(3 * 1024, 1025), 1536u);
  EXPECT_EQ(detail::ntt_piece_length(3 * 1024, 1537), 0u);
  // theta of order 2n needs 2n | p - 1 = c 2^32.
  EXPECT_NE(detail::ntt_piece_length(std::size_t{1} << 31, 5), 0u);
  EXPECT_EQ(detail::ntt_piece_length(std::size_t{1} << 32, 5), 0u);
  EXPECT_EQ(detail::ntt_piece_length(std::size_t{3} << 32, 5), 0u);
}

// Every count from 256 to 2^15 + a few: the shape covers the product (plain
// n >= count, or n + wrap = count with exactly one way to unfold, the piece
// a supported M | n with wrap <= M < n, the low product long enough for its
// 2 wrap - 1 coefficients), on every engine's cost; and where each way wins.
TEST(MulNttPiece, ChooseShape) {
  using detail::ntt_engine;
  for (ntt_engine e : {ntt_engine::ifma, ntt_engine::avx2, ntt_engine::portable}) {
    std::size_t pieces = 0, lows = 0;
    for (std::size_t count = 256; count < (std::size_t{1} << 15) + 5000; count += sanitized ? 97 : 7) {
      const std::size_t total = count + 1;
      for (std::size_t an : {(total + 1) / 2, total - total / 5}) {
        const std::size_t bn = total - an;
        const auto s = detail::ntt_choose_shape(an, bn, e);
        ASSERT_NE(s.n, 0u);
        if (s.wrap == 0) {
          EXPECT_GE(s.n, count);
          EXPECT_EQ(s.low_length + s.piece, 0u);
          continue;
        }
        EXPECT_EQ(s.n + s.wrap, count);
        EXPECT_EQ(s.n, fft::ntt_length_below(count));
        EXPECT_TRUE((s.low_length == 0) != (s.piece == 0)) << count;
        if (s.piece != 0) {
          ++pieces;
          EXPECT_EQ(s.n % s.piece, 0u);
          EXPECT_GE(s.piece, s.wrap);
          EXPECT_EQ(fft::ntt_fit_length(s.piece), s.piece);
        } else {
          ++lows;
          EXPECT_GE(s.low_length, std::min(s.wrap, an) + std::min(s.wrap, bn) - 1);
        }
        // Forced either way wherever it folds.
        const auto low = detail::ntt_choose_shape(an, bn, e, detail::ntt_fold::low);
        EXPECT_EQ(low.n, s.n);
        EXPECT_NE(low.low_length, 0u);
        const auto piece = detail::ntt_choose_shape(an, bn, e, detail::ntt_fold::piece);
        EXPECT_EQ(piece.piece, detail::ntt_piece_length(s.n, s.wrap));
      }
    }
    EXPECT_GT(lows, 20u) << detail::ntt_engine_name(e);
    if (e != ntt_engine::avx2) {
      EXPECT_GT(pieces, 20u) << detail::ntt_engine_name(e);
    }
  }
  // IFMA (vector passes): an overhang of 2% of n by a low product, 20% by a
  // piece of n / 4 (it was the plain 3 * 2^14 before), past n / 4 plain.
  EXPECT_NE(detail::ntt_choose_shape(16712, 16712, ntt_engine::ifma).low_length, 0u);
  EXPECT_EQ(detail::ntt_choose_shape(19661, 19661, ntt_engine::ifma).piece, 8192u);
  EXPECT_EQ(detail::ntt_choose_shape(20600, 20600, ntt_engine::ifma).n, 49152u);
}

// Both ways forced, against GMP on every engine: n = 2^k and 3 * 2^k,
// overhangs 1, M - 1, M, M + 1 around piece lengths M, balanced and
// unbalanced, squares, all-maximum limbs, both radices, 1, 2 and 4 threads
// (2^13 .. 2^16 points: by task; a piece of 2^14 points of n = 2^16: split
// over the threads), bit-split coefficients.
TEST(MulNttPiece, ForcedFoldsMatchGmp) {
  using detail::ntt_engine;
  using detail::ntt_fold;
  auto g = bigmul::test::rng(7171);
  std::size_t runs = 0;
  const std::vector<std::size_t> lengths = sanitized ? std::vector<std::size_t>{1024, 1536}
                                                     : std::vector<std::size_t>{1024, 1536, 4096, 6144, 16384, 24576,
                                                                                1 << 16};
  for (std::size_t n : lengths) {
    for (std::size_t m : {std::size_t{16}, n / 8, n / 4}) {
      if (n % m != 0 || fft::ntt_fit_length(m) != m) continue;
      for (std::size_t w : {std::size_t{1}, m - 1, m, m + 1}) {
        if (w > n / 4) continue;
        const std::size_t count = n + w, total = count + 1;
        // 2^13 .. 2^16 points on 2 or 4 threads: whole transforms (and pieces) as tasks.
        const unsigned threads = n >= (std::size_t{1} << 13) ? 2 + 2 * (g() % 2) : 1 + g() % 2;
        for (std::size_t an : {(total + 1) / 2, total - total / 3}) {
          const std::size_t bn = total - an;
          for (radix rx : {radix::binary, radix::decimal}) {
            const auto a = bigmul::test::make_operand(operand_kind::all_max, an, rx, g);
            const auto b =
                bigmul::test::make_operand(g() % 2 ? operand_kind::all_max : operand_kind::random, bn, rx, g);
            const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, rx);
            for (ntt_engine e : {ntt_engine::portable, ntt_engine::avx2, ntt_engine::ifma}) {
              if (!detail::ntt_engine_available(e)) continue;
              for (ntt_fold fold : {ntt_fold::low, ntt_fold::piece}) {
                const auto l = detail::ntt_choose_layout(e, an, bn, rx, 0, 0, fold);
                ASSERT_EQ(l.shape.wrap, w);
                ASSERT_EQ(fold == ntt_fold::piece ? l.shape.piece : l.shape.low_length != 0 ? 1 : 0,
                          fold == ntt_fold::piece ? detail::ntt_piece_length(n, w) : 1);
                std::vector<limb_t> r(an + bn, 0xdeadbeef);
                mul_options opt;
                opt.threads = threads;
                mul_stats st;
                detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, rx, opt, st, e, 0, 0, fold);
                ASSERT_EQ(r, want) << detail::ntt_engine_name(e) << (fold == ntt_fold::piece ? " piece " : " low ")
                                   << an << " x " << bn << " n " << n << " w " << w << " threads " << threads;
                ++runs;
              }
            }
          }
        }
        // A square, one engine a shape.
        const std::size_t sq = (count + 1) / 2;
        if (sq + sq - 1 != count) continue;
        const auto a = bigmul::test::make_operand(operand_kind::all_max, sq, radix::binary, g);
        const auto want = bigmul::test::gmp_product(a.data(), sq, a.data(), sq, radix::binary);
        std::vector<limb_t> r(2 * sq);
        mul_options opt;
        opt.threads = threads;
        mul_stats st;
        detail::mul_ntt(r.data(), a.data(), sq, a.data(), sq, radix::binary, opt, st, detail::ntt_default_engine(),
                        0, 0, ntt_fold::piece);
        ASSERT_EQ(r, want) << "square " << sq << " threads " << threads;
      }
    }
  }
  EXPECT_GT(runs, 50u);
  // Bit-split coefficients (40 bits) folded by a piece, 1 and 2 threads.
  for (ntt_engine e : {ntt_engine::portable, ntt_engine::avx2, ntt_engine::ifma}) {
    if (!detail::ntt_engine_available(e)) continue;
    const std::size_t an = 700, bn = 600;  // 1120 + 960 - 1 coefficients: 2^11 + 31
    const auto a = bigmul::test::make_operand(operand_kind::all_max, an, radix::binary, g);
    const auto b = bigmul::test::make_operand(operand_kind::random, bn, radix::binary, g);
    const auto l = detail::ntt_choose_layout(e, an, bn, radix::binary, 0, 40, ntt_fold::piece);
    ASSERT_NE(l.shape.piece, 0u);
    for (unsigned threads : {1u, 2u}) {
      std::vector<limb_t> r(an + bn);
      mul_options opt;
      opt.threads = threads;
      mul_stats st;
      detail::mul_ntt(r.data(), a.data(), an, b.data(), bn, radix::binary, opt, st, e, 0, 40, ntt_fold::piece);
      EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary)) << detail::ntt_engine_name(e);
    }
  }
}

}  // namespace
