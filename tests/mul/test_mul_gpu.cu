// SPDX-License-Identifier: LGPL-3.0-or-later
// GPU multiplication = CPU = GMP, for every GPU algorithm and engine, both
// radices, across thresholds and transform lengths, adversarial operands,
// batched; the host API (backend cuda / automatic) and the device API (CUB's
// two-phase shape). Every test skips when no usable GPU is present, and fails
// then under BIGMUL_REQUIRE_GPU=1 (tests/support/gpu_test_support.cuh).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "bigmul/device.hpp"
#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/coefficients.hpp"
#include "mul/cuda/fft_mul_device.cuh"
#include "mul/cuda/params_gpu.hpp"
#include "fft_wrap_cases.hpp"
#include "gpu_test_support.cuh"
#include "mul/fft_mul.hpp"
#include "test_support.hpp"

using namespace bigmul;
using bigmul::test::operand_kind;

namespace {

const char* radix_name(radix rx) { return rx == radix::binary ? "binary" : "decimal"; }

// Skips without a usable GPU (fails under BIGMUL_REQUIRE_GPU=1).
using GpuTest = bigmul::test::gpu_fixture;

struct gpu_case {
  algorithm algo;
  fft_engine engine;
};

std::string case_name(const gpu_case& c) {
  return std::string(algorithm_name(c.algo)) + (c.engine == fft_engine::cufft ? "/cufft" : "/in_house");
}

// Host-API options for case c on the GPU (backend cuda).
mul_options gpu_options(const gpu_case& c, unsigned digits, bool check) {
  mul_options o;
  o.algo = c.algo;
  o.engine = c.engine;
  o.where = backend::cuda;
  o.coefficient_digits = digits;
  o.modular_check = check;
  return o;
}

// r = a*b on the GPU (host API, backend cuda) against GMP; on mismatch, the
// first differing limb.
void check_gpu(const gpu_case& c, radix rx, const std::vector<limb_t>& a, const std::vector<limb_t>& b,
               const std::string& what, mul_stats* stats = nullptr, unsigned digits = 0, bool check = true) {
  const auto& x = a.size() >= b.size() ? a : b;
  const auto& y = a.size() >= b.size() ? b : a;
  std::vector<limb_t> r(x.size() + y.size(), 0xdeadbeef);
  mul_options o = gpu_options(c, digits, check);
  mul_stats local;
  o.stats = stats ? stats : &local;
  try {
    mul(r.data(), x.data(), x.size(), y.data(), y.size(), rx, o);
  } catch (const bigmul::error& e) {
    FAIL() << case_name(c) << " " << radix_name(rx) << " " << x.size() << " x " << y.size() << " (" << what
           << "): threw " << e.what();
  }
  EXPECT_EQ(o.stats->backend_used, backend::cuda);
  const auto want = bigmul::test::gmp_product(x.data(), x.size(), y.data(), y.size(), rx);
  if (r != want) {
    std::size_t i = 0;
    while (r[i] == want[i]) ++i;
    FAIL() << case_name(c) << " " << radix_name(rx) << " " << x.size() << " x " << y.size() << " (" << what
           << "): first differing limb " << i << " of " << r.size();
  }
}

bool offered(const gpu_case& c, radix rx, std::size_t an, std::size_t bn) {
  if (c.algo == algorithm::tiled) return true;
  return detail::fft_pick_digits(c.algo, rx, std::max(an, bn), std::min(an, bn)) != 0;
}

class GpuAlgorithmTest : public GpuTest, public ::testing::WithParamInterface<std::tuple<gpu_case, radix>> {};

const operand_kind kinds[] = {operand_kind::random, operand_kind::all_max, operand_kind::runs,
                              operand_kind::sparse, operand_kind::power,   operand_kind::half_max};

// G products of n x n limbs through mul_batched on the GPU (modular check on),
// each against GMP: a cycles through the operand kinds, b is all-maximum.
void check_batched_gpu(const gpu_case& c, radix rx, std::size_t n, std::size_t G, unsigned digits,
                       std::mt19937_64& g, const std::string& what) {
  std::vector<limb_t> a, b;
  for (std::size_t k = 0; k < G; ++k) {
    const auto x = bigmul::test::make_operand(kinds[k % 6], n, rx, g);
    const auto y = bigmul::test::make_operand(operand_kind::all_max, n, rx, g);
    a.insert(a.end(), x.begin(), x.end());
    b.insert(b.end(), y.begin(), y.end());
  }
  std::vector<limb_t> r(2 * n * G, 0xdeadbeef);
  mul_options o = gpu_options(c, digits, true);
  mul_stats st;
  o.stats = &st;
  const std::string where = case_name(c) + " " + radix_name(rx) + " n=" + std::to_string(n) + " G=" +
                            std::to_string(G) + " (" + what + ")";
  ASSERT_NO_THROW(mul_batched(r.data(), a.data(), b.data(), n, G, rx, o)) << where;
  EXPECT_EQ(st.backend_used, backend::cuda) << where;
  for (std::size_t k = 0; k < G; ++k) {
    const auto want = bigmul::test::gmp_product(a.data() + k * n, n, b.data() + k * n, n, rx);
    ASSERT_TRUE(std::equal(want.begin(), want.end(), r.begin() + k * 2 * n)) << where << " product " << k;
  }
}

TEST_P(GpuAlgorithmTest, AdversarialOperandsAgainstGmp) {
  const auto [c, rx] = GetParam();
  auto g = bigmul::test::rng(9100);
  for (std::size_t n : {1u, 2u, 3u, 7u, 19u, 64u, 127u, 128u, 129u, 500u, 2047u}) {
    if (!offered(c, rx, n, n)) continue;
    for (operand_kind ka : kinds) {
      const auto a = bigmul::test::make_operand(ka, n, rx, g);
      const auto b = bigmul::test::make_operand(operand_kind::all_max, n, rx, g);
      check_gpu(c, rx, a, b, bigmul::test::operand_kind_name(ka));
    }
  }
}

TEST_P(GpuAlgorithmTest, UnbalancedOneAndSquares) {
  const auto [c, rx] = GetParam();
  auto g = bigmul::test::rng(9200);
  const std::vector<limb_t> one{1};
  for (std::size_t an : {1u, 5u, 300u, 4000u}) {
    for (std::size_t bn : {std::size_t{1}, std::size_t{2}, an / 3 + 1}) {
      if (bn > an || !offered(c, rx, an, bn)) continue;
      const auto a = bigmul::test::make_operand(operand_kind::random, an, rx, g);
      const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, rx, g);
      check_gpu(c, rx, a, b, "unbalanced");
      check_gpu(c, rx, a, one, "times one");
    }
  }
  for (std::size_t n : {1u, 33u, 1000u}) {
    if (!offered(c, rx, n, n)) continue;
    const auto a = bigmul::test::make_operand(operand_kind::all_max, n, rx, g);
    std::vector<limb_t> r(2 * n);
    mul_options o;
    o.algo = c.algo;
    o.engine = c.engine;
    o.where = backend::cuda;
    mul(r.data(), a.data(), n, a.data(), n, rx, o);  // squaring: one forward transform
    EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), n, a.data(), n, rx)) << case_name(c) << " square " << n;
  }
}

// Products whose coefficient count sits at a transform length boundary, +-1
// limb (the FFT algorithms only: tiled has no transform).
class GpuTransformTest : public GpuAlgorithmTest {};

TEST_P(GpuTransformTest, TransformLengthBoundaries) {
  const auto [c, rx] = GetParam();
  auto g = bigmul::test::rng(9300);
  std::size_t prev_len = 0;
  for (std::size_t total = 2; total < 3000; ++total) {
    const std::size_t an = (total + 1) / 2, bn = total - an;
    if (bn == 0) continue;
    const unsigned d = detail::fft_pick_digits(c.algo, rx, an, bn);
    if (d == 0) break;
    detail::cuda::fft_job j;
    j.algo = c.algo;
    j.f = detail::coeff_format{rx, d};
    j.an = an;
    j.bn = bn;
    const std::size_t len = detail::cuda::fft_length(j);
    if (len != prev_len && prev_len != 0) {
      for (std::size_t t : {total - 1, total, total + 1}) {
        const std::size_t xa = (t + 1) / 2, xb = t - xa;
        if (!offered(c, rx, xa, xb)) continue;
        const auto a = bigmul::test::make_operand(operand_kind::half_max, xa, rx, g);
        const auto b = bigmul::test::make_operand(operand_kind::all_max, xb, rx, g);
        check_gpu(c, rx, a, b, "length boundary " + std::to_string(len));
      }
    }
    prev_len = len;
  }
}

TEST_P(GpuAlgorithmTest, LargeProducts) {
  const auto [c, rx] = GetParam();
  auto g = bigmul::test::rng(9400);
  for (std::size_t n : {std::size_t{1} << 14, std::size_t{1} << 18, std::size_t{1} << 20}) {
    if (c.algo == algorithm::tiled && n > (1u << 16)) continue;  // quadratic
    if (!offered(c, rx, n, n)) continue;
    const auto a = bigmul::test::make_operand(operand_kind::random, n, rx, g);
    const auto b = bigmul::test::make_operand(rx == radix::binary ? operand_kind::all_max : operand_kind::half_max,
                                              n, rx, g);
    mul_stats st;
    check_gpu(c, rx, a, b, "large", &st);
    if (c.algo != algorithm::tiled) {
      EXPECT_LE(st.max_roundoff, detail::fft_roundoff_guard);
      EXPECT_GT(st.transform_length, 0u);
      EXPECT_GE(st.l2_roundoff, 0.0);
    }
    EXPECT_TRUE(st.modular_check);
  }
}

const gpu_case gpu_cases[] = {
    {algorithm::tiled, fft_engine::in_house},          {algorithm::fft_real, fft_engine::in_house},
    {algorithm::fft_complex, fft_engine::in_house},    {algorithm::fft_real_f32, fft_engine::in_house},
    {algorithm::fft_complex_f32, fft_engine::in_house}, {algorithm::fft_real, fft_engine::cufft},
    {algorithm::fft_complex, fft_engine::cufft},       {algorithm::fft_real_f32, fft_engine::cufft},
    {algorithm::fft_complex_f32, fft_engine::cufft},
};

std::string param_name(const ::testing::TestParamInfo<std::tuple<gpu_case, radix>>& info) {
  const gpu_case& c = std::get<0>(info.param);
  return std::string(algorithm_name(c.algo)) + (c.engine == fft_engine::cufft ? "_cufft_" : "_inhouse_") +
         radix_name(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Gpu, GpuAlgorithmTest,
                         ::testing::Combine(::testing::ValuesIn(gpu_cases),
                                            ::testing::Values(radix::binary, radix::decimal)),
                         param_name);

std::vector<gpu_case> transform_cases() {
  std::vector<gpu_case> v;
  for (const gpu_case& c : gpu_cases)
    if (c.algo != algorithm::tiled) v.push_back(c);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Gpu, GpuTransformTest,
                         ::testing::Combine(::testing::ValuesIn(transform_cases()),
                                            ::testing::Values(radix::binary, radix::decimal)),
                         param_name);

// The dispatcher's crossovers +-1 on the device (automatic algorithm).
TEST_F(GpuTest, DeviceCrossoversPlusMinusOne) {
  auto g = bigmul::test::rng(9500);
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto& t = detail::params_gpu::active();  // this device's table (or the nearest)
    const auto& x = rx == radix::binary ? t.binary_radix : t.decimal_radix;
    for (std::size_t bn : {x.fft - 1, x.fft, x.fft + 1}) {
      const auto a = bigmul::test::make_operand(operand_kind::random, bn + 7, rx, g);
      const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, rx, g);
      mul_stats st;
      check_gpu({algorithm::automatic, fft_engine::in_house}, rx, a, b, "crossover", &st);
      EXPECT_EQ(st.used, bn < x.fft ? algorithm::tiled : algorithm::fft_real);
    }
  }
}

// A coefficient size far past the table: the guard rejects the pass and the
// product is recomputed with smaller coefficients, never returned wrong.
TEST_F(GpuTest, OversizedCoefficientsAreRetried) {
  auto g = bigmul::test::rng(9600);
  for (fft_engine e : {fft_engine::in_house, fft_engine::cufft}) {
    const std::size_t n = 1 << 14;
    const auto a = bigmul::test::make_operand(operand_kind::half_max, n, radix::decimal, g);
    const auto b = bigmul::test::make_operand(operand_kind::half_max, n, radix::decimal, g);
    mul_stats st;
    check_gpu({algorithm::fft_real, e}, radix::decimal, a, b, "forced 8 digits", &st, 8);
    EXPECT_GE(st.retries, 1u);
    EXPECT_LT(st.coefficient_digits, 8u);
    // Random operands, not all-maximum ones: all-maximum limbs fold to balanced
    // coefficients that are almost all zero, and their square passed the
    // guard at 24 bits on the first GPU run. Random 28-bit coefficients give
    // convolution sums near 2^60, far past the 2^53 an FP64 FFT keeps exact.
    const auto ra = bigmul::test::make_operand(operand_kind::random, n, radix::binary, g);
    const auto rb = bigmul::test::make_operand(operand_kind::random, n, radix::binary, g);
    check_gpu({algorithm::fft_complex, e}, radix::binary, ra, rb, "forced 28 bits", &st, 28);
    EXPECT_GE(st.retries, 1u);
    EXPECT_LT(st.coefficient_digits, 28u);
  }
}

// Wrapped passes on the device (mul/fft_wrap.hpp, the unwrap kernel): every
// wrap count 1 .. fft_max_wrap the search finds, both engines, single and
// batched, against GMP; the pass ran at the wrapped length, not retried.
TEST_F(GpuTest, WrappedPassesMatchGmp) {
  auto g = bigmul::test::rng(9650);
  for (algorithm algo : {algorithm::fft_real, algorithm::fft_complex}) {
    for (fft_engine e : {fft_engine::in_house, fft_engine::cufft}) {
      for (const auto& c : bigmul::test::fft_wrap_cases(algo, 2300)) {
        const std::string what = std::to_string(c.digits) + " digits, wrap " + std::to_string(c.wrap);
        for (auto kind : {operand_kind::all_max, operand_kind::random}) {
          const auto a = bigmul::test::make_operand(kind, c.an, c.rx, g);
          const auto b = bigmul::test::make_operand(operand_kind::all_max, c.bn, c.rx, g);
          mul_stats st;
          check_gpu({algo, e}, c.rx, a, b, what, &st, c.digits);
          EXPECT_EQ(st.transform_length, c.length) << what;
          EXPECT_EQ(st.retries, 0u) << what;
        }
        if (c.an == c.bn) check_batched_gpu({algo, e}, c.rx, c.an, 5, c.digits, g, what);
      }
    }
  }
}

// bench_mul_gpu's phase columns: a timed product leaves its pass's shape and
// six positive phase times (carry + join = mul_stats' carries, their sum within
// the call's wall time), and the byte model of that shape stays above its floor.
TEST_F(GpuTest, TimedPassLeavesPhasesAndShape) {
  auto g = bigmul::test::rng(9660);
  for (algorithm algo : {algorithm::fft_real, algorithm::fft_complex})
    for (fft_engine e : {fft_engine::in_house, fft_engine::cufft})
      for (radix rx : {radix::binary, radix::decimal}) {
        const std::string what = case_name({algo, e}) + " " + radix_name(rx);
        const auto a = bigmul::test::make_operand(operand_kind::random, 3000, rx, g);
        const auto b = bigmul::test::make_operand(operand_kind::all_max, 1700, rx, g);
        mul_stats st;
        check_gpu({algo, e}, rx, a, b, what, &st, 0, false);
        const detail::cuda::timed_pass& tp = detail::cuda::last_timed_pass();
        ASSERT_TRUE(tp.valid && tp.out.accepted) << what;
        EXPECT_EQ(tp.shape.an, 3000u) << what;
        EXPECT_EQ(tp.shape.bn, 1700u) << what;
        EXPECT_EQ(tp.shape.rn, 4700u) << what;
        EXPECT_EQ(tp.shape.n, st.transform_length) << what;
        EXPECT_EQ(tp.shape.cufft, e == fft_engine::cufft) << what;
        const auto& o = tp.out;
        for (double t : {o.t_split, o.t_forward, o.t_pointwise, o.t_inverse, o.t_carry, o.t_join})
          EXPECT_GT(t, 0) << what;
        EXPECT_NEAR(o.t_carry + o.t_join, st.t_carry, 1e-9) << what;
        EXPECT_LE(o.t_split + o.t_forward + o.t_pointwise + o.t_inverse + o.t_carry + o.t_join, st.t_total) << what;
        const detail::gpu_phase_bytes bytes = detail::gpu_pass_bytes(tp.shape);
        const detail::gpu_phase_bytes floor = detail::gpu_pass_floor(tp.shape);
        EXPECT_GT(bytes.total(), floor.total()) << what;
        EXPECT_GT(floor.total(), 8.0 * 4700) << what;
      }
}

// Batched = one product at a time = GMP: crypto sizes (tiled) and FFT sizes.
TEST_F(GpuTest, BatchedProductsMatchSingleOnes) {
  auto g = bigmul::test::rng(9700);
  for (radix rx : {radix::binary, radix::decimal}) {
    for (std::size_t n : {1u, 16u, 32u, 64u, 128u, 700u}) {
      for (std::size_t G : {1u, 3u, 64u}) {
        for (algorithm algo : {algorithm::automatic, algorithm::tiled, algorithm::fft_real, algorithm::fft_complex}) {
          for (fft_engine e : {fft_engine::in_house, fft_engine::cufft}) {
            if (algo == algorithm::tiled && e == fft_engine::cufft) continue;
            check_batched_gpu({algo, e}, rx, n, G, 0, g, "table digits");
          }
        }
      }
    }
  }
}

// The size query (two-phase, temp == nullptr) must not depend on the operand
// pointers: the host API queries with null operands, which once compared
// equal, sized a square (less room) and failed every other product with
// "temp storage too small" on the first GPU run. A host-side computation, so
// this runs without a GPU too; the pointers are never dereferenced.
TEST(DeviceSizeQuery, BytesDoNotDependOnThePointers) {
  const auto* pa = reinterpret_cast<const limb_t*>(std::uintptr_t{0x10000});
  const auto* pb = reinterpret_cast<const limb_t*>(std::uintptr_t{0x20000});
  struct shape {
    std::size_t an, bn;
  };
  for (algorithm algo : {algorithm::tiled, algorithm::fft_real, algorithm::fft_complex}) {
    for (radix rx : {radix::binary, radix::decimal}) {
      for (shape sh : {shape{1, 1}, shape{700, 700}, shape{1024, 1024}, shape{5000, 3000}}) {
        cuda::device_options o;
        o.algo = algo;
        o.engine = fft_engine::in_house;
        o.modular_check = true;
        std::size_t with_null = 0, with_distinct = 0, with_same = 0;
        const std::string what = std::string(algorithm_name(algo)) + " " + radix_name(rx) + " " +
                                 std::to_string(sh.an) + "x" + std::to_string(sh.bn);
        ASSERT_EQ(cuda::mul(nullptr, with_null, nullptr, nullptr, sh.an, nullptr, sh.bn, rx, o), cudaSuccess)
            << what << ": " << cuda::last_error_message();
        ASSERT_EQ(cuda::mul(nullptr, with_distinct, nullptr, pa, sh.an, pb, sh.bn, rx, o), cudaSuccess) << what;
        EXPECT_GT(with_null, 0u) << what;
        EXPECT_EQ(with_null, with_distinct) << what;
        if (sh.an == sh.bn) {
          ASSERT_EQ(cuda::mul(nullptr, with_same, nullptr, pa, sh.an, pa, sh.bn, rx, o), cudaSuccess) << what;
          EXPECT_EQ(with_same, with_null) << what;
          std::size_t batched_null = 0, batched_distinct = 0;
          ASSERT_EQ(cuda::mul_batched(nullptr, batched_null, nullptr, nullptr, nullptr, sh.an, 3, rx, o), cudaSuccess)
              << what;
          ASSERT_EQ(cuda::mul_batched(nullptr, batched_distinct, nullptr, pa, pb, sh.an, 3, rx, o), cudaSuccess)
              << what;
          EXPECT_EQ(batched_null, batched_distinct) << what;
        }
      }
    }
  }
}

// The device API: CUB's two-phase temp storage, operands already on the GPU.
TEST_F(GpuTest, DeviceApiTwoPhaseAndErrors) {
  auto g = bigmul::test::rng(9800);
  const std::size_t an = 5000, bn = 3000;
  const auto a = bigmul::test::make_operand(operand_kind::random, an, radix::decimal, g);
  const auto b = bigmul::test::make_operand(operand_kind::half_max, bn, radix::decimal, g);
  limb_t *d_a, *d_b, *d_r;
  ASSERT_EQ(cudaMalloc(&d_a, an * 8), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_b, bn * 8), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_r, (an + bn) * 8), cudaSuccess);
  cudaMemcpy(d_a, a.data(), an * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), bn * 8, cudaMemcpyHostToDevice);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  for (algorithm algo : {algorithm::automatic, algorithm::tiled, algorithm::fft_real, algorithm::fft_complex}) {
    cuda::device_options o;
    o.algo = algo;
    o.modular_check = true;
    mul_stats st;
    o.stats = &st;
    std::size_t bytes = 0;
    ASSERT_EQ(cuda::mul(nullptr, bytes, d_r, d_a, an, d_b, bn, radix::decimal, o, s), cudaSuccess);
    ASSERT_GT(bytes, 0u);
    void* temp;
    ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
    // Too little temp storage is refused, never overrun.
    std::size_t small = bytes / 2;
    EXPECT_EQ(cuda::mul(temp, small, d_r, d_a, an, d_b, bn, radix::decimal, o, s), cudaErrorInvalidValue);
    EXPECT_NE(std::string(cuda::last_error_message()).find("temp storage too small"), std::string::npos);
    ASSERT_EQ(cuda::mul(temp, bytes, d_r, d_a, an, d_b, bn, radix::decimal, o, s), cudaSuccess)
        << cuda::last_error_message();
    std::vector<limb_t> r(an + bn);
    cudaMemcpy(r.data(), d_r, (an + bn) * 8, cudaMemcpyDeviceToHost);
    EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::decimal)) << algorithm_name(algo);
    EXPECT_TRUE(st.modular_check);
    EXPECT_EQ(st.backend_used, backend::cuda);
    EXPECT_GT(st.t_total, 0.0);
    cudaFree(temp);
  }
  std::size_t bytes = 0;
  EXPECT_EQ(cuda::mul(nullptr, bytes, d_r, d_b, bn, d_a, an, radix::decimal), cudaErrorInvalidValue);  // an < bn
  EXPECT_NE(std::string(cuda::last_error_message()).find("an >= bn"), std::string::npos);
  cuda::device_options k;
  k.algo = algorithm::karatsuba;
  EXPECT_EQ(cuda::mul(nullptr, bytes, d_r, d_a, an, d_b, bn, radix::decimal, k), cudaErrorInvalidValue);
  EXPECT_NE(std::string(cuda::last_error_message()).find("no CUDA version"), std::string::npos);
  cudaStreamDestroy(s);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_r);
}

// The tile-pair kernel of [DIEGUEZ18 §7.4] (global atomics) gives the same products as the
// output-stationary one, single and batched.
TEST_F(GpuTest, TilePairAtomicVariant) {
  auto g = bigmul::test::rng(9850);
  for (radix rx : {radix::binary, radix::decimal}) {
    for (std::size_t n : {1u, 5u, 64u, 257u, 3000u}) {
      for (std::size_t G : {1u, 3u}) {
        std::vector<limb_t> a, b;
        for (std::size_t k = 0; k < G; ++k) {
          const auto x = bigmul::test::make_operand(operand_kind::all_max, n, rx, g);
          const auto y = bigmul::test::make_operand(kinds[k % 6], n, rx, g);
          a.insert(a.end(), x.begin(), x.end());
          b.insert(b.end(), y.begin(), y.end());
        }
        limb_t *d_a, *d_b, *d_r;
        ASSERT_EQ(cudaMalloc(&d_a, a.size() * 8), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&d_b, b.size() * 8), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&d_r, 2 * a.size() * 8), cudaSuccess);
        cudaMemcpy(d_a, a.data(), a.size() * 8, cudaMemcpyHostToDevice);
        cudaMemcpy(d_b, b.data(), b.size() * 8, cudaMemcpyHostToDevice);
        cuda::device_options o;
        o.algo = algorithm::tiled;
        o.tile_pair_atomic = true;
        std::size_t bytes = 0;
        ASSERT_EQ(cuda::mul_batched(nullptr, bytes, d_r, d_a, d_b, n, G, rx, o), cudaSuccess);
        void* temp;
        ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
        ASSERT_EQ(cuda::mul_batched(temp, bytes, d_r, d_a, d_b, n, G, rx, o), cudaSuccess)
            << cuda::last_error_message();
        std::vector<limb_t> r(2 * a.size());
        cudaMemcpy(r.data(), d_r, r.size() * 8, cudaMemcpyDeviceToHost);
        for (std::size_t k = 0; k < G; ++k) {
          const auto want = bigmul::test::gmp_product(a.data() + k * n, n, b.data() + k * n, n, rx);
          EXPECT_TRUE(std::equal(want.begin(), want.end(), r.begin() + k * 2 * n))
              << radix_name(rx) << " n=" << n << " G=" << G << " product " << k;
        }
        cudaFree(temp);
        cudaFree(d_a);
        cudaFree(d_b);
        cudaFree(d_r);
      }
    }
  }
}

// backend automatic sends large products to the GPU and small ones to the CPU;
// a CPU-only algorithm with backend cuda is an error, not a silent CPU run.
TEST_F(GpuTest, AutomaticBackendAndRefusals) {
  auto g = bigmul::test::rng(9900);
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto& t = detail::params_gpu::active();
    const std::size_t big = t.binary_radix.host;  // an + bn at the crossover
    const auto a = bigmul::test::make_operand(operand_kind::random, big / 2, rx, g);
    const auto b = bigmul::test::make_operand(operand_kind::random, big / 2, rx, g);
    std::vector<limb_t> r(big);
    mul_stats st;
    mul_options o;
    o.stats = &st;
    mul(r.data(), a.data(), a.size(), b.data(), b.size(), rx, o);
    EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), a.size(), b.data(), b.size(), rx));
    const std::size_t crossover = rx == radix::binary ? t.binary_radix.host : t.decimal_radix.host;
    EXPECT_EQ(st.backend_used, big >= crossover ? backend::cuda : backend::cpu);
    std::vector<limb_t> r2(2);
    const std::vector<limb_t> one{1};
    mul(r2.data(), one.data(), 1, one.data(), 1, rx, o);
    EXPECT_EQ(st.backend_used, backend::cpu);
  }
  mul_options k;
  k.algo = algorithm::karatsuba;
  k.where = backend::cuda;
  const std::vector<limb_t> x{3, 4};
  std::vector<limb_t> r(4);
  EXPECT_THROW(mul(r.data(), x.data(), 2, x.data(), 2, radix::binary, k), bigmul::error);
}

}  // namespace
