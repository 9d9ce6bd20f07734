// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX2 lanes of mul_batched (mul/batched_avx2.hpp) against GMP: the kernel
// directly on any processor with AVX2 and FMA (IFMA ones too), every batch
// size 1..9 (partial groups of four), 1..128 limbs (1024..4096 bits and the odd
// sizes the IFMA tests use), adversarial operands mixed across lanes, squares;
// and mul_batched through the dispatcher when BIGMUL_BATCHED_ENGINE=avx2
// chooses these lanes (ctest's test_mul_batched_avx2_engine).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/batched_avx2.hpp"
#include "mul/batched_ifma.hpp"
#include "prim/cpu_features.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;
using bigmul::test::operand_kind;

// Operand k of a batch: the kind cycles through the adversarial ones, and
// every 7th operand is 0 or 1 (top limbs zero: the lanes see leading zeros).
std::vector<limb_t> make_batch(std::size_t n, std::size_t G, std::mt19937_64& g, std::size_t salt) {
  static constexpr operand_kind kinds[] = {operand_kind::random, operand_kind::all_max, operand_kind::runs,
                                           operand_kind::sparse, operand_kind::power};
  std::vector<limb_t> x;
  x.reserve(n * G);
  for (std::size_t k = 0; k < G; ++k) {
    std::vector<limb_t> v;
    if ((k + salt) % 7 == 6) {
      v.assign(n, 0);
      v[0] = (k + salt) % 2;
    } else {
      v = bigmul::test::make_operand(kinds[(k * 3 + n + salt) % 5], n, radix::binary, g);
    }
    x.insert(x.end(), v.begin(), v.end());
  }
  return x;
}

void expect_products(const std::vector<limb_t>& r, const std::vector<limb_t>& a, const std::vector<limb_t>& b,
                     std::size_t n, std::size_t G, const char* what) {
  for (std::size_t k = 0; k < G; ++k) {
    const auto want = bigmul::test::gmp_product(a.data() + k * n, n, b.data() + k * n, n, radix::binary);
    ASSERT_TRUE(std::equal(want.begin(), want.end(), r.begin() + static_cast<std::ptrdiff_t>(k * 2 * n)))
        << what << " n=" << n << " G=" << G << " product " << k;
  }
}

constexpr std::size_t sizes[] = {1, 2, 3, 5, 13, 16, 17, 24, 32, 33, 48, 64, 79, 96, 127, 128};

bool have_avx2() { return prim::cpu_has_avx2_fma(); }

TEST(MulBatchedAvx2, LanesMatchGmpForEveryPartialGroup) {
  if (!have_avx2()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  auto g = bigmul::test::rng(3601);
  for (std::size_t n : sizes)
    for (std::size_t G = 1; G <= 9; ++G) {
      const auto a = make_batch(n, G, g, 0), b = make_batch(n, G, g, G);
      std::vector<limb_t> r(2 * n * G, 0xdeadbeef);
      detail::mul_batched_avx2(r.data(), a.data(), b.data(), n, G);
      expect_products(r, a, b, n, G, "avx2");
      detail::mul_batched_avx2(r.data(), a.data(), a.data(), n, G);  // a square (its own path)
      expect_products(r, a, a, n, G, "avx2 square");
    }
}

// All-ones limbs: every digit 2^52 - 1, so every digit product's hi part is
// at its largest and each column sum at its extreme; against 1, 0 and each other.
TEST(MulBatchedAvx2, AllOnesZeroAndOne) {
  if (!have_avx2()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  for (std::size_t n : sizes) {
    const std::size_t G = 7;
    const std::vector<limb_t> ones(n * G, ~limb_t{0});
    std::vector<limb_t> other(n * G, 0), r(2 * n * G);
    for (std::size_t k = 0; k < G; ++k) other[k * n] = k % 3 == 0 ? 1 : k % 3 == 1 ? 0 : ~limb_t{0};
    detail::mul_batched_avx2(r.data(), ones.data(), ones.data(), n, G);
    expect_products(r, ones, ones, n, G, "all ones square");
    std::vector<limb_t> ones_b(ones);  // a different address: the product path, not the square's
    detail::mul_batched_avx2(r.data(), ones.data(), ones_b.data(), n, G);
    expect_products(r, ones, ones_b, n, G, "all ones");
    detail::mul_batched_avx2(r.data(), ones.data(), other.data(), n, G);
    expect_products(r, ones, other, n, G, "all ones x 0/1/2^64-1");
  }
}

// A large batch: the kernel's groups march through memory correctly.
TEST(MulBatchedAvx2, LargeBatch) {
  if (!have_avx2()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  auto g = bigmul::test::rng(3602);
  for (std::size_t n : {16u, 32u, 48u, 64u}) {
    const std::size_t G = 203;
    const auto a = make_batch(n, G, g, 1), b = make_batch(n, G, g, 2);
    std::vector<limb_t> r(2 * n * G);
    detail::mul_batched_avx2(r.data(), a.data(), b.data(), n, G);
    expect_products(r, a, b, n, G, "large batch");
  }
}

// mul_batched on these lanes (only under BIGMUL_BATCHED_ENGINE=avx2, or auto
// on a processor with AVX2 but no IFMA): batch sizes around the threaded
// split's task boundaries, 1/2/8 threads, the modular check, the largest
// lane size and one past it (the per-product path), squares.
TEST(MulBatchedAvx2, ThroughMulBatched) {
  if (detail::batched_engine_chosen() != detail::batched_engine::avx2)
    GTEST_SKIP() << "mul_batched does not choose the AVX2 lanes here (BIGMUL_BATCHED_ENGINE=avx2 does)";
  ASSERT_TRUE(detail::batched_avx2_supported());
  ASSERT_FALSE(detail::batched_ifma_supported());
  auto g = bigmul::test::rng(3603);
  // The route limit +-1 (lanes, then one at a time) and the kernel's own limit.
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{16}, std::size_t{17},
                        detail::batched_avx2_route_max_limbs, detail::batched_avx2_route_max_limbs + 1,
                        std::size_t{64}, std::size_t{128}, std::size_t{129}}) {
    const std::size_t task = 4 * detail::batched_avx2_task_groups(n);
    for (std::size_t G : {std::size_t{1}, std::size_t{5}, task - 1, task + 1, 2 * task + 3})
      for (unsigned threads : {1u, 2u, 8u}) {
        if (threads != 2 && G > 64 && n > 16) continue;  // the large batches once per size
        const auto a = make_batch(n, G, g, threads), b = make_batch(n, G, g, G);
        std::vector<limb_t> r(2 * n * G, 0xdeadbeef);
        mul_options o;
        o.threads = threads;
        o.where = backend::cpu;
        o.modular_check = threads == 2;
        mul_batched(r.data(), a.data(), b.data(), n, G, radix::binary, o);
        expect_products(r, a, b, n, G, "mul_batched");
        mul_batched(r.data(), a.data(), a.data(), n, G, radix::binary, o);
        expect_products(r, a, a, n, G, "mul_batched square");
      }
  }
}

// BIGMUL_BATCHED_ENGINE as this process sees it: every accepted value picks
// the engine it names (auto: the processor's best, or avx2 under
// BIGMUL_NTT_ENGINE=avx2), and anything else is an error naming the setting
// (ctest's test_mul_batched_engine_bogus runs this with "bogus").
TEST(MulBatchedAvx2, EngineSetting) {
  const char* env = std::getenv("BIGMUL_BATCHED_ENGINE");
  const char* ntt = std::getenv("BIGMUL_NTT_ENGINE");
  const std::string e = env ? env : "";
  const bool ifma = prim::cpu_has_avx512_ifma(), avx2 = prim::cpu_has_avx2_fma();
  if (e == "bogus" || (e == "ifma" && !ifma) || (e == "avx2" && !avx2)) {
    try {
      (void)detail::batched_engine_chosen();
      FAIL() << "BIGMUL_BATCHED_ENGINE=" << e << " was accepted";
    } catch (const error& x) {
      EXPECT_NE(std::string(x.what()).find("BIGMUL_BATCHED_ENGINE=" + e), std::string::npos) << x.what();
    }
    // The batched entry point reports it too, before touching the result.
    std::vector<limb_t> a(4, 1), r(8, 7);
    EXPECT_THROW(mul_batched(r.data(), a.data(), a.data(), 4, 1, radix::binary), error);
    EXPECT_EQ(r, std::vector<limb_t>(8, 7));
    return;
  }
  using E = detail::batched_engine;
  E want = ifma ? E::ifma : avx2 ? E::avx2 : E::scalar;
  if (e == "scalar") want = E::scalar;
  else if (e == "ifma") want = E::ifma;
  else if (e == "avx2" || (avx2 && (e.empty() || e == "auto") && ntt && std::string(ntt) == "avx2")) want = E::avx2;
  EXPECT_EQ(detail::batched_engine_chosen(), want) << "BIGMUL_BATCHED_ENGINE=" << e;
}

}  // namespace
