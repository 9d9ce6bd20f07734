// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::prepare_mul and detail::ntt_prepare (mul/ntt_prepare.hpp): a
// product after its preparation equals GMP's, whether the prepared sizes,
// radix and thread count match the product's or not; what preparing leaves
// behind (the thread's scratch, touched pages) and what it must not do.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "bigmul/mul.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_prepare.hpp"
#include "test_support.hpp"

using namespace bigmul;
using bigmul::test::operand_kind;

namespace {

struct shape {
  std::size_t an, bn;
  radix rx;
  unsigned threads;
};

std::string describe(const shape& s) {
  return std::to_string(s.an) + " x " + std::to_string(s.bn) + (s.rx == radix::binary ? " binary" : " decimal") +
         ", " + std::to_string(s.threads) + " thread(s)";
}

// Prepares `prepared` on engine e (from an empty scratch when `fresh`), then
// multiplies `product` with that engine, operands of `kind`, against GMP.
void check_after_prepare(detail::ntt_engine e, const shape& prepared, const shape& product, operand_kind kind,
                         bool fresh = true) {
  if (!detail::ntt_engine_available(e)) return;
  if (fresh) release_scratch();
  detail::ntt_prepare(e, prepared.an, prepared.bn, prepared.rx, prepared.threads);
  std::mt19937_64 g(product.an * 31 + product.bn);
  const auto a = bigmul::test::make_operand(kind, product.an, product.rx, g);
  const auto b = bigmul::test::make_operand(kind, product.bn, product.rx, g);
  const auto want = bigmul::test::gmp_product(a.data(), a.size(), b.data(), b.size(), product.rx);
  std::vector<limb_t> r(a.size() + b.size(), 0xdeadbeef);
  mul_options opt;
  opt.algo = algorithm::ntt;
  opt.threads = product.threads;
  opt.where = backend::cpu;
  mul_stats st;
  detail::mul_ntt(r.data(), a.data(), a.size(), b.data(), b.size(), product.rx, opt, st, e);
  EXPECT_EQ(r, want) << "engine " << detail::ntt_engine_name(e) << ": prepared " << describe(prepared)
                     << ", product " << describe(product) << ", " << bigmul::test::operand_kind_name(kind);
}

constexpr detail::ntt_engine engines[] = {detail::ntt_engine::portable, detail::ntt_engine::avx2,
                                          detail::ntt_engine::ifma};

// Sizes from the folded shape's range to past the by-task limit (2^16 points).
const std::vector<shape>& sizes() {
  static const std::vector<shape> s = [] {
    std::vector<shape> v;
    for (radix rx : {radix::binary, radix::decimal})
      for (unsigned th : {1u, 2u}) {
        v.push_back({5000, 5000, rx, th});
        v.push_back({32769, 32767, rx, th});  // around 2^16 coefficients: by task or not
        v.push_back({70001, 9000, rx, th});   // unbalanced
      }
    if (!bigmul::test::sanitized) v.push_back({300000, 300000, radix::binary, 2});
    return v;
  }();
  return s;
}

TEST(NttPrepare, ThenTheSameProductEqualsGmp) {
  for (auto e : engines)
    for (const shape& s : sizes())
      for (operand_kind k : {operand_kind::random, operand_kind::all_max}) check_after_prepare(e, s, s, k);
}

// The product does not have to be the one prepared: larger, smaller, another
// radix, another thread count (by-task arrays or not), prepared twice.
TEST(NttPrepare, OtherSizesStayExact) {
  const std::vector<std::pair<shape, shape>> pairs = {
      {{1000, 1000, radix::binary, 1}, {40000, 40000, radix::binary, 1}},    // prepared too small
      {{60000, 60000, radix::binary, 2}, {3000, 2999, radix::binary, 2}},    // prepared too large
      {{20000, 20000, radix::decimal, 1}, {20001, 19999, radix::binary, 1}}, // other radix, ±1 limb
      {{20000, 20000, radix::binary, 1}, {20000, 20000, radix::decimal, 1}},
      {{30000, 30000, radix::binary, 1}, {30000, 30000, radix::binary, 2}},  // other thread count
      {{30000, 30000, radix::binary, 2}, {30000, 30000, radix::binary, 1}},
      {{12288, 12288, radix::binary, 1}, {12289, 12288, radix::binary, 1}},  // a length boundary +1
  };
  for (auto e : engines)
    for (const auto& [prepared, product] : pairs)
      for (operand_kind k : {operand_kind::random, operand_kind::all_max}) {
        check_after_prepare(e, prepared, product, k);
        // Again on the scratch the last product left (warm): prepare must not shrink it under a product.
        check_after_prepare(e, product, prepared, k, false);
      }
}

// The thread's scratch holds the product's arrays after prepare (so the
// product allocates nothing), is kept by a smaller prepare, and
// release_scratch() still frees it.
TEST(NttPrepare, ScratchSizedAndKept) {
  for (auto e : engines) {
    if (!detail::ntt_engine_available(e)) continue;
    release_scratch();
    EXPECT_EQ(detail::ntt_scratch_bytes(), 0u);
    const std::size_t need = detail::ntt_heap_bytes(e, 50000, 40000, radix::binary, 1);
    ASSERT_GT(need, 0u);
    detail::ntt_prepare(e, 50000, 40000, radix::binary, 1);
    EXPECT_GE(detail::ntt_scratch_bytes(), need) << detail::ntt_engine_name(e);
    EXPECT_LE(detail::ntt_scratch_bytes(), need + 64) << detail::ntt_engine_name(e);
    const std::size_t held = detail::ntt_scratch_bytes();
    detail::ntt_prepare(e, 500, 500, radix::binary, 1);
    EXPECT_EQ(detail::ntt_scratch_bytes(), held) << "a smaller prepare shrank the scratch";
    // Both orders of the operands' sizes prepare the same product.
    release_scratch();
    detail::ntt_prepare(e, 40000, 50000, radix::binary, 1);
    EXPECT_EQ(detail::ntt_scratch_bytes(), held);
    release_scratch();
    EXPECT_EQ(detail::ntt_scratch_bytes(), 0u);
  }
}

// The public call: scratch for products that run the NTT on the CPU only.
TEST(NttPrepare, PublicCallOnlyForCpuNtt) {
  release_scratch();
  mul_options cpu;
  cpu.where = backend::cpu;
  prepare_mul(0, 100000, radix::binary, cpu);  // an empty operand: nothing
  prepare_mul(10, 10, radix::binary, cpu);     // a basecase product: nothing
  EXPECT_EQ(detail::ntt_scratch_bytes(), 0u);
  mul_options gpu = cpu;
  gpu.where = backend::cuda;
  prepare_mul(100000, 100000, radix::binary, gpu);  // the GPU's product (or its error): nothing here
  EXPECT_EQ(detail::ntt_scratch_bytes(), 0u);
  mul_options karatsuba = cpu;
  karatsuba.algo = algorithm::karatsuba;
  prepare_mul(100000, 100000, radix::binary, karatsuba);
  EXPECT_EQ(detail::ntt_scratch_bytes(), 0u);
  mul_options ntt = cpu;
  ntt.algo = algorithm::ntt;
  ntt.threads = 1;
  prepare_mul(100000, 90000, radix::decimal, ntt);
  EXPECT_EQ(detail::ntt_scratch_bytes(), mul_heap_bytes(100000, 90000, radix::decimal, ntt));
  // And the product after it, through the public entry point.
  std::mt19937_64 g(7);
  const auto a = bigmul::test::make_operand(operand_kind::all_max, 100000, radix::decimal, g);
  const auto b = bigmul::test::make_operand(operand_kind::random, 90000, radix::decimal, g);
  std::vector<limb_t> r(a.size() + b.size());
  mul(r.data(), a.data(), a.size(), b.data(), b.size(), radix::decimal, ntt);
  EXPECT_EQ(r, bigmul::test::gmp_product(a.data(), a.size(), b.data(), b.size(), radix::decimal));
  release_scratch();
}

// prefault_pages writes a zero at each 4 KiB page start inside the range and
// nothing else, from any number of threads.
TEST(NttPrepare, PrefaultWritesOnlyPageStarts) {
  constexpr std::size_t page = 4096;
  for (unsigned threads : {1u, 2u, 4u})
    for (std::size_t bytes : {std::size_t{1}, page - 1, page, page + 1, 1000 * page + 17, std::size_t{3} << 21}) {
      std::vector<unsigned char> v(bytes + 2 * page, 0xa5);
      auto* start = v.data() + (page - reinterpret_cast<std::uintptr_t>(v.data()) % page);  // page aligned
      detail::prefault_pages(start, bytes, threads);
      const std::size_t offset = static_cast<std::size_t>(start - v.data());
      for (std::size_t i = 0; i < v.size(); ++i) {
        const bool inside = i >= offset && i < offset + bytes, page_start = (i - offset) % page == 0;
        const unsigned char want = inside && page_start ? 0 : 0xa5;
        if (v[i] != want) {
          ADD_FAILURE() << bytes << " bytes, " << threads << " threads: byte " << i << " is " << int(v[i]);
          break;
        }
      }
    }
}

}  // namespace
