// SPDX-License-Identifier: LGPL-3.0-or-later
// The shared FFT pass policy (mul/fft_pass_policy.hpp), the algorithm table
// (mul/algorithm_table.hpp) and the GPU plan rule backend::automatic follows
// (mul/gpu_plan_rule.hpp), on the CPU: no GPU is needed to decide where a
// product goes.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "bigmul/mul.hpp"
#include "mul/algorithm_table.hpp"
#include "mul/fft_pass_policy.hpp"
#include "mul/gpu_plan_rule.hpp"

using namespace bigmul;
namespace d = bigmul::detail;

namespace {

const algorithm all_algorithms[] = {algorithm::automatic,       algorithm::basecase,    algorithm::karatsuba,
                                    algorithm::tiled,           algorithm::fft_complex, algorithm::fft_real,
                                    algorithm::fft_complex_f32, algorithm::fft_real_f32, algorithm::ntt,
                                    algorithm::toom3};

}  // namespace

TEST(AlgorithmTable, OneDescriptorPerAlgorithmAndNamesRoundTrip) {
  EXPECT_EQ(std::size(d::algorithm_table), std::size(all_algorithms));
  for (algorithm a : all_algorithms) {
    const d::algorithm_desc* desc = d::find_algorithm(a);
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(desc->algo, a);
    algorithm back = algorithm::basecase;
    ASSERT_TRUE(parse_algorithm(algorithm_name(a), back)) << algorithm_name(a);
    EXPECT_EQ(back, a);
    // The length rule exists exactly for the FFT algorithms.
    EXPECT_EQ(desc->min_length != 0, d::is_fft_algorithm(a)) << algorithm_name(a);
    // Every GPU FFT is an FFT with a CUDA version; the exact integer algorithms
    // other than tiled have none.
    if (d::is_fft_algorithm(a)) {
      EXPECT_TRUE(d::has_cuda_version(a)) << algorithm_name(a);
    }
  }
  algorithm unused = algorithm::basecase;
  EXPECT_FALSE(parse_algorithm("fft", unused));
}

TEST(AlgorithmTable, PropertiesOfTheFloatingPointFfts) {
  EXPECT_TRUE(d::is_real_layout(algorithm::fft_real));
  EXPECT_TRUE(d::is_real_layout(algorithm::fft_real_f32));
  EXPECT_FALSE(d::is_real_layout(algorithm::fft_complex));
  EXPECT_FALSE(d::is_real_layout(algorithm::ntt));
  EXPECT_TRUE(d::is_single_precision(algorithm::fft_complex_f32));
  EXPECT_FALSE(d::is_single_precision(algorithm::fft_real));
  EXPECT_TRUE(d::is_gpu_algorithm(algorithm::tiled));
  EXPECT_FALSE(d::is_gpu_algorithm(algorithm::automatic));  // resolved before it reaches the device
  EXPECT_TRUE(d::has_cuda_version(algorithm::automatic));
  EXPECT_FALSE(d::has_cuda_version(algorithm::ntt));
  EXPECT_FALSE(d::has_cuda_version(algorithm::karatsuba));
}

// The smallest real transform is 4 points on both backends (the GPU plans no
// half-length transform of one point); complex 2. Before the shared policy the CPU
// answered 2 for the real FFT and 1 for the complex one.
TEST(FftPassPolicy, SmallestTransformLengths) {
  for (algorithm a : {algorithm::fft_real, algorithm::fft_real_f32}) {
    EXPECT_EQ(d::fft_transform_length(a, 1), 4u);
    EXPECT_EQ(d::fft_transform_length(a, 2), 4u);
    EXPECT_EQ(d::fft_transform_length(a, 3), 4u);
    EXPECT_EQ(d::fft_transform_length(a, 4), 4u);
    EXPECT_EQ(d::fft_transform_length(a, 5), 8u);
  }
  for (algorithm a : {algorithm::fft_complex, algorithm::fft_complex_f32}) {
    EXPECT_EQ(d::fft_transform_length(a, 1), 2u);
    EXPECT_EQ(d::fft_transform_length(a, 2), 2u);
    EXPECT_EQ(d::fft_transform_length(a, 3), 4u);
  }
  const std::size_t big = std::size_t{1} << 27;
  EXPECT_EQ(d::fft_transform_length(algorithm::fft_real, big), big);
  EXPECT_EQ(d::fft_transform_length(algorithm::fft_real, big + 1), 2 * big);
}

// Why the minimum never changes a product: the smallest product has 3 coefficients.
TEST(FftPassPolicy, EveryProductHasAtLeastThreeCoefficients) {
  for (radix rx : {radix::binary, radix::decimal})
    for (unsigned k = 1; k <= d::fft_max_digits(rx); ++k) {
      const d::coeff_format f{rx, k};
      EXPECT_GE(d::fft_product_coefficients(f, 1, 1), 3u) << k;
      EXPECT_EQ(d::fft_transform_length(algorithm::fft_real, d::fft_product_coefficients(f, 1, 1)),
                d::fft_transform_length(algorithm::fft_complex, d::fft_product_coefficients(f, 1, 1)));
    }
}

// Wrapped passes (mul/fft_wrap.hpp): half the length when the product
// overhangs it by 1 .. fft_max_wrap coefficients, from fft_wrap_min_length up,
// and only when each operand still fits unwrapped.
TEST(FftPassPolicy, WrapOnlySmallOverhangsOfLongTransforms) {
  const d::coeff_format b16{radix::binary, 16}, d4{radix::decimal, 4};
  const std::size_t limbs_2e20_digits = ((std::size_t{1} << 20) + 18) / 19;
  struct shape_case {
    d::coeff_format f;
    std::size_t an, bn, length, wrap;
    const char* why;
  };
  const shape_case cases[] = {
      {b16, 1024, 1024, 8192, 1, "2^10 limbs: 4096 + 1 coefficients each, 8193 in the product"},
      {b16, 1024, 1023, 8192, 0, "8189 coefficients fit unwrapped"},
      {b16, 1025, 1024, 8192, 5, "8197: overhang 5"},
      {b16, 1026, 1026, 16384, 0, "8209: overhang 17 > fft_max_wrap"},
      {b16, 256, 256, 4096, 0, "2049 coefficients: below fft_wrap_min_length"},
      {b16, 512, 512, d::fft_wrap_min_length, 1, "4097: the smallest wrapped length"},
      {b16, 2048, 1, 16384, 0, "8193 + 5: a alone fills more than the half"},
      {d4, limbs_2e20_digits, limbs_2e20_digits, std::size_t{1} << 19, 9,
       "2^20 decimal digits (the H100 run's case): 262148 + 1 coefficients each"},
  };
  for (const shape_case& c : cases) {
    const d::fft_pass_shape s = d::fft_pass_shape_of(algorithm::fft_real, c.f, c.an, c.bn);
    EXPECT_EQ(s.length, c.length) << c.why;
    EXPECT_EQ(s.wrap, c.wrap) << c.why;
    EXPECT_EQ(d::fft_pass_length(algorithm::fft_complex, c.f, c.an, c.bn), c.length) << c.why;
  }
}

TEST(FftPassPolicy, RetryLoopStopsAtAcceptOrFailure) {
  std::vector<unsigned> seen;
  auto r = d::fft_retry(20, [&](unsigned k) {
    seen.push_back(k);
    return k == 18 ? d::fft_pass_verdict::accepted : d::fft_pass_verdict::rejected;
  });
  EXPECT_EQ(seen, (std::vector<unsigned>{20, 19, 18}));
  EXPECT_EQ(r.digits, 18u);
  EXPECT_EQ(r.retries, 2u);
  EXPECT_FALSE(r.failed);

  seen.clear();
  r = d::fft_retry(5, [&](unsigned k) {
    seen.push_back(k);
    return k == 4 ? d::fft_pass_verdict::failed : d::fft_pass_verdict::rejected;
  });
  EXPECT_EQ(seen, (std::vector<unsigned>{5, 4}));
  EXPECT_TRUE(r.failed);
  EXPECT_EQ(r.digits, 0u);

  seen.clear();
  r = d::fft_retry(3, [&](unsigned k) {
    seen.push_back(k);
    return d::fft_pass_verdict::rejected;
  });
  EXPECT_EQ(seen, (std::vector<unsigned>{3, 2, 1}));  // down to one digit, never 0
  EXPECT_EQ(r.digits, 0u);
  EXPECT_EQ(r.retries, 3u);
  EXPECT_FALSE(r.failed);
}

TEST(FftPassPolicy, FirstSizeAndLowestSizedRetry) {
  for (radix rx : {radix::binary, radix::decimal})
    for (std::size_t n : {1u, 100u, 10000u}) {
      const unsigned pick = d::fft_pick_digits(algorithm::fft_real, rx, n, n);
      ASSERT_GE(pick, 2u);
      auto c = d::fft_choose_digits(algorithm::fft_real, rx, n, n, 0);
      EXPECT_EQ(c.first, pick);
      EXPECT_EQ(c.lowest, pick - 1);
      c = d::fft_choose_digits(algorithm::fft_real, rx, n, n, pick + 1);  // forced above the table
      EXPECT_EQ(c.first, pick + 1);
      EXPECT_EQ(c.lowest, pick - 1);
      c = d::fft_choose_digits(algorithm::fft_real, rx, n, n, 1);
      EXPECT_EQ(c.first, 1u);
      EXPECT_EQ(c.lowest, 1u);
      c = d::fft_choose_digits(algorithm::fft_real, rx, n, n, d::fft_max_digits(rx) + 1);
      EXPECT_EQ(c.first, 0u);
      EXPECT_TRUE(c.bad_size);
      EXPECT_NE(c.why.find("too large"), std::string::npos);
    }
  const auto c = d::fft_choose_digits(algorithm::fft_complex_f32, radix::binary, 1 << 18, 1 << 18, 0);
  EXPECT_EQ(c.first, 0u);  // FP32 is not exact that far
  EXPECT_FALSE(c.bad_size);
  EXPECT_NE(c.why.find("not exact"), std::string::npos);
}

// The in-house GPU FFT plans real transforms of 4 .. 2^27 points and complex ones
// of 2 .. 2^26 (the planner itself answers).
TEST(GpuPlanRule, InHousePlannableLengths) {
  for (algorithm a : {algorithm::fft_real, algorithm::fft_real_f32}) {
    EXPECT_FALSE(d::in_house_fft_plannable(a, 2));
    EXPECT_TRUE(d::in_house_fft_plannable(a, 4));
    EXPECT_TRUE(d::in_house_fft_plannable(a, std::size_t{1} << 27));
    EXPECT_FALSE(d::in_house_fft_plannable(a, std::size_t{1} << 28));
    EXPECT_FALSE(d::in_house_fft_plannable(a, (std::size_t{1} << 20) + 4));  // not a power of two
  }
  for (algorithm a : {algorithm::fft_complex, algorithm::fft_complex_f32}) {
    EXPECT_FALSE(d::in_house_fft_plannable(a, 1));
    EXPECT_TRUE(d::in_house_fft_plannable(a, 2));
    EXPECT_TRUE(d::in_house_fft_plannable(a, std::size_t{1} << 26));
    EXPECT_FALSE(d::in_house_fft_plannable(a, std::size_t{1} << 27));
  }
  EXPECT_FALSE(d::in_house_fft_plannable(algorithm::tiled, 1024));
}

namespace {

// The largest balanced size n (an = bn = n limbs) the GPU can plan, by bisection
// between a plannable and an unplannable size.
std::size_t largest_plannable(algorithm algo, fft_engine engine, radix rx) {
  std::size_t lo = 1 << 16, hi = std::size_t{1} << 32;
  EXPECT_TRUE(d::gpu_plannable(algo, engine, 0, lo, lo, rx, false));
  EXPECT_FALSE(d::gpu_plannable(algo, engine, 0, hi, hi, rx, false));
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (d::gpu_plannable(algo, engine, 0, mid, mid, rx, false) ? lo : hi) = mid;
  }
  return lo;
}

// Transform lengths of every pass the retry may run (first .. lowest size).
std::vector<std::size_t> retry_lengths(algorithm algo, radix rx, std::size_t n) {
  const auto c = d::fft_choose_digits(algo, rx, n, n, 0);
  std::vector<std::size_t> out;
  for (unsigned k = c.first; k >= c.lowest && k >= 1; --k)
    out.push_back(d::fft_transform_length(algo, d::fft_product_coefficients(d::coeff_format{rx, k}, n, n)));
  return out;
}

}  // namespace

// backend::automatic sends a product to the GPU only when every pass the retry
// may run can be planned: at the boundary n the GPU, at n + 1 the CPU (before,
// automatic sent it to the GPU, whose size query failed and the product threw).
TEST(GpuPlanRule, AutomaticChoosesTheCpuPastThePlannableBoundary) {
  for (radix rx : {radix::binary, radix::decimal}) {
    const std::size_t n = largest_plannable(algorithm::automatic, fft_engine::in_house, rx);
    EXPECT_EQ(d::gpu_algorithm_for(algorithm::automatic, n, n, rx, false), algorithm::fft_real);
    for (std::size_t len : retry_lengths(algorithm::fft_real, rx, n))
      EXPECT_LE(len, std::size_t{1} << 27) << n;
    std::size_t longest = 0;
    for (std::size_t len : retry_lengths(algorithm::fft_real, rx, n + 1)) longest = std::max(longest, len);
    EXPECT_EQ(longest, std::size_t{1} << 28) << "the boundary is where some retry needs 2^28 points";
    // Some 10^8 decimal digits per operand: a transform of 2^27 points holds
    // about 2^27 coefficients of a few digits each.
    if (rx == radix::decimal) {
      EXPECT_GT(n * 19, 50'000'000u);
      EXPECT_LT(n * 19, 400'000'000u);
    }
    mul_options o;  // backend automatic, algorithm automatic, in-house engine
    for (std::size_t m : {n - 1, n}) EXPECT_TRUE(d::automatic_prefers_gpu(o, m, m, 1, rx, false)) << m;
    EXPECT_FALSE(d::automatic_prefers_gpu(o, n + 1, n + 1, 1, rx, false)) << n + 1;
    // Unbalanced products follow the same rule (bn below n, an far above it).
    EXPECT_FALSE(d::automatic_prefers_gpu(o, 4 * n, n / 2, 1, rx, false));
    // The cuFFT engine has no such limit here (its own failures are errors).
    o.engine = fft_engine::cufft;
    EXPECT_TRUE(d::automatic_prefers_gpu(o, n + 1, n + 1, 1, rx, false));
    // A named algorithm follows its own lengths: complex stops at 2^26 points.
    o.engine = fft_engine::in_house;
    o.algo = algorithm::fft_complex;
    const std::size_t nc = largest_plannable(algorithm::fft_complex, fft_engine::in_house, rx);
    EXPECT_LT(nc, n);
    EXPECT_TRUE(d::automatic_prefers_gpu(o, nc, nc, 1, rx, false));
    EXPECT_FALSE(d::automatic_prefers_gpu(o, nc + 1, nc + 1, 1, rx, false));
    // Algorithms without a CUDA version never go to the GPU.
    o.algo = algorithm::ntt;
    EXPECT_FALSE(d::automatic_prefers_gpu(o, n, n, 1, rx, false));
  }
}

// Fewer digits per coefficient make longer transforms: a forced size below the
// table's lengthens every pass and moves the boundary down.
TEST(GpuPlanRule, ForcedSmallCoefficientsMoveTheBoundaryDown) {
  const radix rx = radix::binary;
  const std::size_t n = largest_plannable(algorithm::automatic, fft_engine::in_house, rx);
  const unsigned pick = d::fft_pick_digits(algorithm::fft_real, rx, n, n);
  ASSERT_GE(pick, 4u);
  mul_options o;
  o.coefficient_digits = pick / 2;  // about twice the coefficients: twice the length
  EXPECT_FALSE(d::automatic_prefers_gpu(o, n, n, 1, rx, false));
  EXPECT_TRUE(d::automatic_prefers_gpu(o, n / 4, n / 4, 1, rx, false));
}

// Below the host crossover the CPU computes; tiled products (batched, below the
// batched FFT crossover) always plan.
TEST(GpuPlanRule, HostCrossoverPlusMinusOneAndTiled) {
  for (radix rx : {radix::binary, radix::decimal}) {
    const std::size_t x = d::gpu_host_crossover(rx);
    ASSERT_GE(x, 4u);
    mul_options o;
    const std::size_t an = x / 2, bn = x - an;  // an + bn = x
    EXPECT_TRUE(d::automatic_prefers_gpu(o, an + 1, bn, 1, rx, false));
    EXPECT_TRUE(d::automatic_prefers_gpu(o, an, bn, 1, rx, false));
    EXPECT_FALSE(d::automatic_prefers_gpu(o, an - 1, bn, 1, rx, false));
    // Batched: G products of n limbs count G * 2n.
    EXPECT_EQ(d::gpu_algorithm_for(algorithm::automatic, 4, 4, rx, true), algorithm::tiled);
    const std::size_t G = (x + 7) / 8;  // G * 8 >= x
    EXPECT_TRUE(d::automatic_prefers_gpu(o, 4, 4, G, rx, true));
    EXPECT_TRUE(d::gpu_plannable(algorithm::tiled, fft_engine::in_house, 0, std::size_t{1} << 40, 1 << 20, rx, false));
  }
}
