// SPDX-License-Identifier: LGPL-3.0-or-later
// mul_batched at crypto sizes against GMP's mpz_mul: the IFMA lane engine
// (mul/batched_ifma.hpp) directly and through the dispatcher, every ragged
// batch size 1..17 and a large one, both radices, adversarial operands,
// thread counts 1/2/8, squaring (a == b).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/batched_ifma.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;
using bigmul::test::operand_kind;

// G operands of n limbs back to back; operand g's kind cycles through the
// adversarial kinds so that every batch mixes them across lanes.
std::vector<limb_t> make_batch(std::size_t n, std::size_t G, radix rx, std::mt19937_64& g, bool mixed) {
  static constexpr operand_kind kinds[] = {operand_kind::random, operand_kind::all_max, operand_kind::runs,
                                           operand_kind::sparse, operand_kind::power};
  std::vector<limb_t> x;
  x.reserve(n * G);
  for (std::size_t k = 0; k < G; ++k) {
    const operand_kind kind = mixed ? kinds[(k * 7 + n) % 5] : operand_kind::random;
    const auto v = bigmul::test::make_operand(kind, n, rx, g);
    x.insert(x.end(), v.begin(), v.end());
  }
  return x;
}

void expect_products(const std::vector<limb_t>& r, const std::vector<limb_t>& a, const std::vector<limb_t>& b,
                     std::size_t n, std::size_t G, radix rx, const char* what) {
  for (std::size_t k = 0; k < G; ++k) {
    const auto want = bigmul::test::gmp_product(a.data() + k * n, n, b.data() + k * n, n, rx);
    ASSERT_TRUE(std::equal(want.begin(), want.end(), r.begin() + static_cast<std::ptrdiff_t>(k * 2 * n)))
        << what << " n=" << n << " G=" << G << " product " << k;
  }
}

constexpr std::size_t sizes[] = {1, 2, 3, 5, 13, 16, 17, 32, 33, 48, 64, 79, 96, 127, 128, 160};

TEST(MulBatchedIfma, LanesMatchGmpForEveryRaggedBatch) {
  if (!detail::batched_ifma_supported()) GTEST_SKIP() << "no AVX-512 IFMA on this processor";
  auto g = bigmul::test::rng(1501);
  for (std::size_t n : sizes)
    for (std::size_t G = 1; G <= 17; ++G) {
      const auto a = make_batch(n, G, radix::binary, g, true), b = make_batch(n, G, radix::binary, g, G % 2 == 0);
      std::vector<limb_t> r(2 * n * G, 0xdeadbeef);
      detail::mul_batched_ifma(r.data(), a.data(), b.data(), n, G);
      expect_products(r, a, b, n, G, radix::binary, "ifma");
      // Squares: the same operands in a and b.
      detail::mul_batched_ifma(r.data(), a.data(), a.data(), n, G);
      expect_products(r, a, a, n, G, radix::binary, "ifma square");
    }
}

// All-ones operands in every lane: every column sum at its maximum.
TEST(MulBatchedIfma, AllOnesEveryLane) {
  if (!detail::batched_ifma_supported()) GTEST_SKIP() << "no AVX-512 IFMA on this processor";
  for (std::size_t n : sizes) {
    const std::size_t G = 11;
    const std::vector<limb_t> a(n * G, ~limb_t{0});
    std::vector<limb_t> r(2 * n * G);
    detail::mul_batched_ifma(r.data(), a.data(), a.data(), n, G);
    expect_products(r, a, a, n, G, radix::binary, "all ones");
  }
}

// The public entry point in both radices (binary goes to the lanes where the
// processor has IFMA, decimal and large n to the per-product path), with a
// large batch, threads 1/2/8 and the modular check.
TEST(MulBatched, BothRadicesThreadsAndLargeBatch) {
  auto g = bigmul::test::rng(1502);
  for (radix rx : {radix::binary, radix::decimal})
    for (std::size_t n : {16u, 32u, 64u, 128u, 161u})
      for (unsigned threads : {1u, 2u, 8u})
        for (std::size_t G : {std::size_t{1}, std::size_t{7}, std::size_t{9}, std::size_t{17}, std::size_t{203}}) {
          if (G == 203 && n > 64 && threads != 2) continue;  // one large batch per size is enough
          const auto a = make_batch(n, G, rx, g, true), b = make_batch(n, G, rx, g, false);
          std::vector<limb_t> r(2 * n * G);
          mul_options o;
          o.threads = threads;
          o.modular_check = threads == 2;
          o.where = backend::cpu;
          mul_batched(r.data(), a.data(), b.data(), n, G, rx, o);
          expect_products(r, a, b, n, G, rx, rx == radix::binary ? "binary" : "decimal");
        }
}

// Batches that end just before, at and just after a task boundary of the
// threaded split (mul/batched_ifma.hpp's task size), on 2 and 8 threads.
TEST(MulBatched, TaskBoundaries) {
  auto g = bigmul::test::rng(1504);
  for (std::size_t n : {1u, 3u, 16u, 17u, 64u, 160u}) {
    const std::size_t task = 8 * detail::batched_ifma_task_groups(n);
    for (std::size_t G : {task - 1, task, task + 1, 2 * task + 9, 3 * task - 7})
      for (unsigned threads : {2u, 8u}) {
        const auto a = make_batch(n, G, radix::binary, g, true), b = make_batch(n, G, radix::binary, g, true);
        std::vector<limb_t> r(2 * n * G, 0xdeadbeef);
        mul_options o;
        o.threads = threads;
        o.where = backend::cpu;
        mul_batched(r.data(), a.data(), b.data(), n, G, radix::binary, o);
        expect_products(r, a, b, n, G, radix::binary, "task boundary");
      }
  }
}

// The lane engine's results do not depend on how the groups are split over
// threads, nor on where a partial group falls.
TEST(MulBatched, SameResultForEveryThreadCount) {
  auto g = bigmul::test::rng(1503);
  const std::size_t n = 32, G = 1000;
  const auto a = make_batch(n, G, radix::binary, g, true), b = make_batch(n, G, radix::binary, g, true);
  std::vector<limb_t> r1(2 * n * G), r8(2 * n * G);
  mul_options o;
  o.threads = 1;
  mul_batched(r1.data(), a.data(), b.data(), n, G, radix::binary, o);
  o.threads = 8;
  mul_batched(r8.data(), a.data(), b.data(), n, G, radix::binary, o);
  EXPECT_EQ(r1, r8);
  expect_products(r1, a, b, n, G, radix::binary, "threads");
}

}  // namespace
