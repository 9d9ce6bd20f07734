// SPDX-License-Identifier: LGPL-3.0-or-later
// Every multiplication algorithm against GMP's mpz_mul, both radices.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/coefficients.hpp"
#include "mul/fft_mul.hpp"
#include "mul/fft_wrap.hpp"
#include "mul/params_cpu.hpp"
#include "fft_wrap_cases.hpp"
#include "test_support.hpp"

using namespace bigmul;
using bigmul::test::operand_kind;

namespace {

using bigmul::test::sanitized;

const char* radix_name(radix rx) { return rx == radix::binary ? "binary" : "decimal"; }

// Multiplies with `algo` and compares with GMP; reports sizes and kinds on failure.
void check_product(algorithm algo, radix rx, const std::vector<limb_t>& a, const std::vector<limb_t>& b,
                   const std::string& what, unsigned threads = 0, mul_stats* stats = nullptr) {
  const std::vector<limb_t>& x = a.size() >= b.size() ? a : b;
  const std::vector<limb_t>& y = a.size() >= b.size() ? b : a;
  std::vector<limb_t> r(x.size() + y.size(), 0xdeadbeef);
  mul_options opt;
  opt.algo = algo;
  opt.threads = threads;
  opt.stats = stats;
  opt.where = backend::cpu;  // the GPU has its own tests (test_mul_gpu)
  mul(r.data(), x.data(), x.size(), y.data(), y.size(), rx, opt);
  const auto want = bigmul::test::gmp_product(x.data(), x.size(), y.data(), y.size(), rx);
  if (r != want) {
    std::size_t i = 0;
    while (r[i] == want[i]) ++i;
    FAIL() << algorithm_name(algo) << " " << radix_name(rx) << " " << x.size() << " x " << y.size() << " ("
           << what << "): first differing limb " << i << " of " << r.size();
  }
}

struct size_pair {
  std::size_t an, bn;
};

std::vector<size_pair> small_sizes() {
  std::vector<size_pair> v;
  for (std::size_t an : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 16u, 31u, 33u, 64u, 100u})
    for (std::size_t bn : {1u, 2u, 3u, 5u, 8u, 17u, 33u, 64u, 100u})
      if (bn <= an) v.push_back({an, bn});
  v.push_back({1000, 3});  // very unbalanced
  v.push_back({517, 129});
  return v;
}

const operand_kind all_kinds[] = {operand_kind::random, operand_kind::all_max, operand_kind::runs,
                                  operand_kind::sparse, operand_kind::power,  operand_kind::half_max};

class AlgorithmTest : public ::testing::TestWithParam<std::tuple<algorithm, radix>> {};

TEST_P(AlgorithmTest, SmallSizesEveryOperandKind) {
  const auto [algo, rx] = GetParam();
  auto g = bigmul::test::rng(100 + static_cast<int>(algo) * 2 + static_cast<int>(rx));
  for (const auto& s : small_sizes()) {
    for (operand_kind ka : all_kinds) {
      const auto a = bigmul::test::make_operand(ka, s.an, rx, g);
      const auto b = bigmul::test::make_operand(ka == operand_kind::power ? operand_kind::random : ka, s.bn, rx, g);
      check_product(algo, rx, a, b, bigmul::test::operand_kind_name(ka));
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(AlgorithmTest, SquaringAndOne) {
  const auto [algo, rx] = GetParam();
  auto g = bigmul::test::rng(200 + static_cast<int>(algo));
  for (std::size_t n : {1u, 2u, 13u, 64u, 300u}) {
    const auto a = bigmul::test::make_operand(operand_kind::all_max, n, rx, g);
    std::vector<limb_t> r(2 * n);
    mul_options opt;
    opt.algo = algo;
    mul(r.data(), a.data(), n, a.data(), n, rx, opt);  // same pointer: squaring path
    EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), n, a.data(), n, rx)) << "square n=" << n;
    const auto one = bigmul::test::make_operand(operand_kind::one, 1, rx, g);
    check_product(algo, rx, a, one, "times one");
  }
}

TEST_P(AlgorithmTest, MediumRandom) {
  const auto [algo, rx] = GetParam();
  auto g = bigmul::test::rng(300 + static_cast<int>(algo));
  const bool quadratic = algo == algorithm::basecase || algo == algorithm::tiled;
  for (std::size_t n : quadratic ? std::vector<std::size_t>{600, 1001} : std::vector<std::size_t>{2000, 5003}) {
    const auto a = bigmul::test::make_operand(operand_kind::random, n, rx, g);
    const auto b = bigmul::test::make_operand(operand_kind::all_max, n - 7, rx, g);
    check_product(algo, rx, a, b, "random x all_max");
  }
}

std::string param_name(const ::testing::TestParamInfo<std::tuple<algorithm, radix>>& info) {
  return std::string(algorithm_name(std::get<0>(info.param))) + "_" + radix_name(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Exact, AlgorithmTest,
                         ::testing::Combine(::testing::Values(algorithm::basecase, algorithm::karatsuba,
                                                              algorithm::tiled, algorithm::fft_complex,
                                                              algorithm::fft_real, algorithm::ntt,
                                                              algorithm::automatic),
                                            ::testing::Values(radix::binary, radix::decimal)),
                         param_name);

// FP32 is offered only where it is exact: small products work, large ones are refused.
TEST(FftF32, ExactWhereOfferedAndRefusedBeyond) {
  auto g = bigmul::test::rng(400);
  for (algorithm algo : {algorithm::fft_complex_f32, algorithm::fft_real_f32}) {
    for (radix rx : {radix::binary, radix::decimal}) {
      for (std::size_t n : {1u, 3u, 16u, 40u}) {
        if (detail::fft_pick_digits(algo, rx, n, n) == 0) continue;
        const auto a = bigmul::test::make_operand(operand_kind::all_max, n, rx, g);
        const auto b = bigmul::test::make_operand(operand_kind::half_max, n, rx, g);
        check_product(algo, rx, a, b, algorithm_name(algo));
      }
      const std::size_t huge = 1 << 18;
      EXPECT_EQ(detail::fft_pick_digits(algo, rx, huge, huge), 0u);
      std::vector<limb_t> a(huge, 1), r(2 * huge);
      mul_options opt;
      opt.algo = algo;
      EXPECT_THROW(mul(r.data(), a.data(), huge, a.data(), huge, rx, opt), bigmul::error);
    }
  }
}

// Sizes where the dispatcher switches algorithm, +-1.
TEST(Dispatcher, EveryThresholdPlusMinusOne) {
  auto g = bigmul::test::rng(500);
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto& x = rx == radix::binary ? detail::params_cpu::binary_radix : detail::params_cpu::decimal_radix;
    for (std::size_t t : {x.karatsuba, x.fft, x.karatsuba_basecase, x.ntt, x.ntt_portable}) {
      for (std::size_t bn : {t - 1, t, t + 1}) {
        if (bn == 0) continue;
        for (std::size_t an : {bn, bn + 1, 3 * bn + 5}) {
          const auto a = bigmul::test::make_operand(operand_kind::random, an, rx, g);
          const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, rx, g);
          check_product(algorithm::automatic, rx, a, b, "threshold " + std::to_string(t));
          check_product(algorithm::karatsuba, rx, a, b, "threshold " + std::to_string(t));
        }
      }
    }
  }
}

// Products whose coefficient count sits at a transform length boundary, +-1 limb.
TEST(FftReal, TransformLengthBoundaries) {
  auto g = bigmul::test::rng(600);
  for (algorithm algo : {algorithm::fft_real, algorithm::fft_complex}) {
    for (radix rx : {radix::binary, radix::decimal}) {
      std::size_t prev_len = 0;
      for (std::size_t total = 2; total < (sanitized ? 600u : 3000u); ++total) {
        const std::size_t an = (total + 1) / 2, bn = total - an;
        if (bn == 0) continue;
        const unsigned d = detail::fft_pick_digits(algo, rx, an, bn);
        const detail::coeff_format f{rx, d};
        const std::size_t len = detail::fft_pass_length(algo, f, an, bn);
        if (len != prev_len && prev_len != 0) {
          for (std::size_t t : {total - 1, total, total + 1}) {
            const std::size_t xa = (t + 1) / 2, xb = t - xa;
            const auto a = bigmul::test::make_operand(operand_kind::half_max, xa, rx, g);
            const auto b = bigmul::test::make_operand(operand_kind::all_max, xb, rx, g);
            check_product(algo, rx, a, b, "length boundary " + std::to_string(len));
          }
        }
        prev_len = len;
      }
    }
  }
}

// 2^20-limb operands (2^21 under the sanitizers would be too slow: 2^16 there).
// Products that overhang a power of two by 1 .. fft_max_wrap coefficients run
// at the shorter length and recover the wrapped coefficients exactly: every
// wrap count the search finds, balanced and unbalanced, squares, all-maximum
// operands (whose balanced top carries are the coefficients that wrap).
TEST(FftWrap, WrappedPassesMatchGmp) {
  auto g = bigmul::test::rng(650);
  std::size_t ran = 0;
  std::set<std::size_t> wraps;
  for (algorithm algo : {algorithm::fft_real, algorithm::fft_complex}) {
    const auto cases = bigmul::test::fft_wrap_cases(algo, 2300);
    for (const auto& c : cases) {
      wraps.insert(c.wrap);
      for (auto kind : {operand_kind::all_max, operand_kind::random, operand_kind::half_max}) {
        const auto a = bigmul::test::make_operand(kind, c.an, c.rx, g);
        const auto b = bigmul::test::make_operand(operand_kind::all_max, c.bn, c.rx, g);
        for (bool square : {false, true}) {
          if (square && c.an != c.bn) continue;
          const auto& y = square ? a : b;
          std::vector<limb_t> r(c.an + c.bn, 0xdeadbeef);
          mul_stats st;
          mul_options opt;
          opt.algo = algo;
          opt.coefficient_digits = c.digits;
          opt.stats = &st;
          mul(r.data(), a.data(), c.an, y.data(), c.bn, c.rx, opt);
          const std::string what = std::string(algorithm_name(algo)) + (c.rx == radix::binary ? " binary " : " decimal ") +
                                   std::to_string(c.digits) + " digits " + std::to_string(c.an) + "x" +
                                   std::to_string(c.bn) + " wrap " + std::to_string(c.wrap) + " " +
                                   bigmul::test::operand_kind_name(kind) + (square ? " square" : "");
          EXPECT_EQ(st.retries, 0u) << what;
          EXPECT_EQ(st.transform_length, c.length) << what;
          EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), c.an, y.data(), c.bn, c.rx)) << what;
          ++ran;
        }
      }
    }
  }
  // Every wrap count 1 .. fft_max_wrap somewhere, or the search went blind.
  std::string missing;
  for (std::size_t k = 1; k <= detail::fft_max_wrap; ++k)
    if (!wraps.count(k)) missing += " " + std::to_string(k);
  EXPECT_EQ(missing, "") << "wrap counts the search found no case for";
  EXPECT_GT(ran, 0u);
}

// The CUDA kernel's thread mapping (fft_unwrap_batched, one thread per
// product and wrapped coefficient) replayed on the CPU: G products of random
// digits, wrapped to length L by hand, recovered to the linear convolution.
TEST(FftWrap, BatchedMappingRecoversTheLinearConvolution) {
  auto g = bigmul::test::rng(651);
  std::uniform_int_distribution<std::int32_t> digit(-(1 << 15), 1 << 15);
  const std::size_t L = 64;
  for (std::size_t k = 1; k <= detail::fft_max_wrap; ++k) {
    for (std::size_t ca : {std::size_t{3}, L / 2 + 1, L - 1}) {
      const std::size_t cb = L + k + 1 - ca, nc = ca + cb - 1, G = 3;
      if (cb < 1 || cb > L) continue;
      std::vector<std::int32_t> x(G * ca), y(G * cb);
      for (auto& v : x) v = digit(g);
      for (auto& v : y) v = digit(g);
      std::vector<std::int64_t> want(G * nc, 0), c(G * nc, 0x5a5a5a5a);
      for (std::size_t b = 0; b < G; ++b) {
        for (std::size_t i = 0; i < ca; ++i)
          for (std::size_t j = 0; j < cb; ++j)
            want[b * nc + i + j] += std::int64_t{x[b * ca + i]} * y[b * cb + j];
        for (std::size_t i = 0; i < L; ++i) c[b * nc + i] = want[b * nc + i] + (i < k ? want[b * nc + L + i] : 0);
      }
      for (std::size_t t = 0; t < G * k; ++t) detail::fft_unwrap_batched(t, k, c.data(), nc, L, x.data(), ca, y.data(), cb);
      EXPECT_EQ(c, want) << "wrap " << k << " ca " << ca << " cb " << cb;
    }
  }
}

TEST(FftReal, LargeProductsBothRadices) {
  auto g = bigmul::test::rng(700);
  const std::size_t n = sanitized ? (1u << 14) : (1u << 20);
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto a = bigmul::test::make_operand(operand_kind::random, n, rx, g);
    const auto b = bigmul::test::make_operand(rx == radix::binary ? operand_kind::all_max : operand_kind::half_max,
                                              n, rx, g);
    mul_stats st;
    check_product(algorithm::fft_real, rx, a, b, "2^20 limbs", 0, &st);
    EXPECT_LE(st.max_roundoff, detail::fft_roundoff_guard);
    EXPECT_GT(st.transform_length, 0u);
  }
}

TEST(FftReal, ResultsIdenticalForEveryThreadCount) {
  auto g = bigmul::test::rng(800);
  const auto a = bigmul::test::make_operand(operand_kind::random, 40000, radix::decimal, g);
  const auto b = bigmul::test::make_operand(operand_kind::runs, 39000, radix::decimal, g);
  for (unsigned threads : {1u, 2u, 3u}) check_product(algorithm::fft_real, radix::decimal, a, b, "threads", threads);
}

// Forcing oversized coefficients must trip the rounding guard; the product is
// recomputed with smaller ones, never returned wrong.
TEST(RoundingGuard, OversizedCoefficientsAreRejectedAndRecomputed) {
  auto g = bigmul::test::rng(900);
  for (radix rx : {radix::binary, radix::decimal}) {
    const std::size_t n = 20000;
    const auto a = bigmul::test::make_operand(operand_kind::half_max, n, rx, g);
    const auto b = bigmul::test::make_operand(operand_kind::half_max, n, rx, g);
    std::vector<limb_t> r(2 * n);
    mul_stats st;
    mul_options opt;
    opt.algo = algorithm::fft_real;
    opt.coefficient_digits = rx == radix::binary ? 26 : 8;
    opt.stats = &st;
    mul(r.data(), a.data(), n, b.data(), n, rx, opt);
    EXPECT_GT(st.retries, 0u) << "the guard never fired: the forced size was not oversized";
    EXPECT_LE(st.max_roundoff, detail::fft_roundoff_guard);
    EXPECT_LT(st.coefficient_digits, opt.coefficient_digits);
    EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), n, b.data(), n, rx));
  }
}

TEST(ModularCheck, RunsAndPasses) {
  auto g = bigmul::test::rng(1000);
  const auto a = bigmul::test::make_operand(operand_kind::random, 3000, radix::binary, g);
  std::vector<limb_t> r(6000);
  mul_stats st;
  mul_options opt;
  opt.modular_check = true;
  opt.stats = &st;
  mul(r.data(), a.data(), 3000, a.data(), 3000, radix::binary, opt);
  EXPECT_TRUE(st.modular_check);
  EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), 3000, a.data(), 3000, radix::binary));
}

TEST(Mul, InvalidArgumentsThrow) {
  std::vector<limb_t> a(10, 1), b(20, 1), r(40);
  EXPECT_THROW(mul(r.data(), a.data(), 10, b.data(), 20, radix::binary), bigmul::error);  // an < bn
  EXPECT_THROW(mul(r.data(), a.data(), 10, b.data(), 0, radix::binary), bigmul::error);
  EXPECT_THROW(mul(b.data(), b.data() + 5, 5, a.data(), 5, radix::binary), bigmul::error);  // overlap
  std::vector<limb_t> bad(3, decimal_limb_base);
  EXPECT_THROW(mul(r.data(), bad.data(), 3, a.data(), 2, radix::decimal), bigmul::error);
  algorithm algo;
  for (const char* name : {"basecase", "karatsuba", "tiled", "fft_complex", "fft_real", "fft_complex_f32", "fft_real_f32", "ntt", "auto"}) {
    ASSERT_TRUE(parse_algorithm(name, algo)) << name;
    EXPECT_STREQ(algorithm_name(algo), name);
  }
  EXPECT_FALSE(parse_algorithm("fft", algo));
}

}  // namespace

// Batched products on the CPU: each equals its own product by GMP, for crypto
// sizes and beyond; bad arguments are refused.
TEST(MulBatched, EveryProductMatchesGmp) {
  auto g = bigmul::test::rng(1300);
  for (radix rx : {radix::binary, radix::decimal}) {
    for (std::size_t n : {1u, 16u, 32u, 64u, 128u, 900u}) {
      for (std::size_t G : {1u, 3u, 17u}) {
        std::vector<limb_t> a, b;
        for (std::size_t k = 0; k < G; ++k) {
          const auto x = bigmul::test::make_operand(k % 2 ? operand_kind::all_max : operand_kind::random, n, rx, g);
          const auto y = bigmul::test::make_operand(operand_kind::half_max, n, rx, g);
          a.insert(a.end(), x.begin(), x.end());
          b.insert(b.end(), y.begin(), y.end());
        }
        std::vector<limb_t> r(2 * n * G, 0xdeadbeef);
        mul_options o;
        o.where = backend::cpu;
        o.modular_check = true;
        mul_batched(r.data(), a.data(), b.data(), n, G, rx, o);
        for (std::size_t k = 0; k < G; ++k) {
          const auto want = bigmul::test::gmp_product(a.data() + k * n, n, b.data() + k * n, n, rx);
          ASSERT_TRUE(std::equal(want.begin(), want.end(), r.begin() + k * 2 * n))
              << radix_name(rx) << " n=" << n << " G=" << G << " product " << k;
        }
      }
    }
  }
  std::vector<limb_t> a(8, 1), r(16);
  EXPECT_THROW(mul_batched(r.data(), a.data(), a.data(), 0, 2), bigmul::error);
  EXPECT_THROW(mul_batched(r.data(), a.data(), a.data(), 4, 0), bigmul::error);
  EXPECT_THROW(mul_batched(a.data(), a.data(), a.data(), 4, 2), bigmul::error);  // overlap
}

// Without a usable GPU, backend cuda is refused with the reason; automatic
// quietly stays on the CPU.
TEST(MulBackend, CudaRefusedWithoutAGpuAutomaticFallsBack) {
  std::string why;
  if (cuda_usable(&why)) GTEST_SKIP() << "a GPU is usable here; test_mul_gpu covers backend cuda";
  EXPECT_FALSE(why.empty());
  const std::vector<limb_t> a(20000, 7);
  std::vector<limb_t> r(40000);
  mul_options o;
  o.where = backend::cuda;
  try {
    mul(r.data(), a.data(), a.size(), a.data(), a.size(), radix::binary, o);
    ADD_FAILURE() << "backend cuda without a GPU did not throw";
  } catch (const bigmul::error& e) {
    EXPECT_EQ(e.code(), bigmul::error::kind::resource);
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
  mul_stats st;
  o.where = backend::automatic;
  o.stats = &st;
  mul(r.data(), a.data(), a.size(), a.data(), a.size(), radix::binary, o);
  EXPECT_EQ(st.backend_used, backend::cpu);
  EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), a.size(), a.data(), a.size(), radix::binary));
}
