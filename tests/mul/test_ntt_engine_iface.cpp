// SPDX-License-Identifier: LGPL-3.0-or-later
// The one NTT engine interface (mul/ntt_engine_iface.hpp): each engine's
// descriptor agrees with the selection functions, and each engine's multiply,
// called through the interface, matches GMP on every driver path (plain,
// folded by a low product or a piece, by task and prime by prime, packed
// residues, squares) and every carry path (three and four primes, whole limbs
// and bit-offset coefficients, binary and decimal).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "fft/ntt.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_mul.hpp"
#include "test_support.hpp"

using namespace bigmul;
using bigmul::test::operand_kind;
using detail::ntt_engine;

namespace {

constexpr ntt_engine engines[] = {ntt_engine::ifma, ntt_engine::avx2, ntt_engine::portable};

TEST(NttEngineIface, DescriptorsAgreeWithSelection) {
  for (ntt_engine e : engines) {
    const detail::ntt_engine_iface& E = detail::ntt_engine_of(e);
    EXPECT_EQ(E.id, e);
    EXPECT_STREQ(E.name, detail::ntt_engine_name(e));
    EXPECT_EQ(E.available(), detail::ntt_engine_available(e));
    const bool portable = e == ntt_engine::portable;
    EXPECT_EQ(E.prime_count, portable ? fft::ntt_prime_count : fft::ntt52_prime_count);
    EXPECT_EQ(E.primes, portable ? fft::ntt_primes : fft::ntt52_primes);
    EXPECT_GT(E.piece_pass_cost, 0.0);
    EXPECT_GT(E.table_bytes(1024), E.table_bytes(16));
    EXPECT_LE(detail::ntt_primes_needed(e, 1000, 1000, radix::decimal), E.prime_count);
  }
  EXPECT_EQ(detail::ntt_engine_of(ntt_engine::best).id, detail::ntt_default_engine());
}

struct product_case {
  std::size_t an, bn;
  radix rx;
  operand_kind kind;
  unsigned threads, force_primes, force_bits;
  detail::ntt_fold fold;
  bool square;
};

std::string describe(const product_case& c) {
  return std::to_string(c.an) + " x " + std::to_string(c.bn) + (c.rx == radix::binary ? " binary " : " decimal ") +
         bigmul::test::operand_kind_name(c.kind) + ", threads " + std::to_string(c.threads) + ", primes " +
         std::to_string(c.force_primes) + ", bits " + std::to_string(c.force_bits) + ", fold " +
         std::to_string(static_cast<int>(c.fold)) + (c.square ? ", square" : "");
}

void check_case(ntt_engine e, const product_case& c, std::mt19937_64& g) {
  const auto a = bigmul::test::make_operand(c.kind, c.an, c.rx, g);
  const auto b = c.square ? a : bigmul::test::make_operand(c.kind, c.bn, c.rx, g);
  const auto want = bigmul::test::gmp_product(a.data(), a.size(), b.data(), b.size(), c.rx);
  std::vector<limb_t> r(a.size() + b.size(), 0xdeadbeef);
  mul_options opt;
  opt.threads = c.threads;
  mul_stats st;
  const detail::ntt_request q{c.force_primes, c.force_bits, c.fold};
  const limb_t* bp = c.square ? a.data() : b.data();
  try {
    detail::ntt_engine_of(e).mul(q, r.data(), a.data(), a.size(), bp, b.size(), c.rx, opt, st);
  } catch (const bigmul::error& x) {
    ADD_FAILURE() << detail::ntt_engine_name(e) << ", " << describe(c) << ": " << x.what();
    return;
  }
  if (r == want) return;
  std::size_t i = 0;
  while (r[i] == want[i]) ++i;
  ADD_FAILURE() << detail::ntt_engine_name(e) << ", " << describe(c) << ": first differing limb " << i << " of "
                << r.size();
}

TEST(NttEngineIface, EveryEngineMatchesGmpOnEveryPath) {
  using detail::ntt_fold;
  constexpr auto bin = radix::binary, dec = radix::decimal;
  constexpr auto rnd = operand_kind::random, max = operand_kind::all_max;
  const std::vector<product_case> cases = {
      {1, 1, bin, max, 1, 0, 0, ntt_fold::automatic, false},
      {1, 1, dec, max, 1, 0, 0, ntt_fold::automatic, false},
      {700, 3, bin, rnd, 1, 0, 0, ntt_fold::automatic, false},       // very unbalanced
      {1100, 1100, bin, max, 1, 0, 0, ntt_fold::low, false},         // folded, low product
      {1100, 1100, dec, max, 1, 0, 0, ntt_fold::piece, false},       // folded, piece
      {1100, 1100, bin, rnd, 1, 0, 0, ntt_fold::piece, true},        // folded square
      {1024, 1024, dec, max, 1, 4, 0, ntt_fold::automatic, false},   // four primes, decimal
      {1024, 1000, bin, max, 1, 4, 0, ntt_fold::automatic, false},   // four primes, binary
      {900, 800, bin, max, 1, 0, 40, ntt_fold::automatic, false},    // bit-offset coefficients
      {900, 800, bin, rnd, 1, 4, 41, ntt_fold::automatic, false},    // bit offsets, four primes
      {5000, 5000, bin, max, 2, 0, 0, ntt_fold::automatic, false},   // by task
      {5000, 5000, dec, rnd, 2, 0, 0, ntt_fold::automatic, true},    // by task, square
      {49000, 49000, bin, max, 1, 0, 0, ntt_fold::automatic, false}, // prime by prime, n > an + bn: packed
      {49000, 48000, dec, max, 2, 0, 0, ntt_fold::automatic, false}, // both forward transforms side by side
  };
  auto g = bigmul::test::rng(0x1f0e);
  for (ntt_engine e : engines) {
    if (!detail::ntt_engine_available(e)) continue;
    for (const product_case& c : cases) {
      if (bigmul::test::sanitized && c.an > 10000) continue;
      check_case(e, c, g);
    }
  }
}

// The interface's multiply reports misuse as the driver does, naming it.
TEST(NttEngineIface, BitSplitOfDecimalLimbsIsRefused) {
  const std::vector<limb_t> a(300, 7);
  std::vector<limb_t> r(600);
  mul_options opt;
  mul_stats st;
  for (ntt_engine e : engines) {
    if (!detail::ntt_engine_available(e)) continue;
    const detail::ntt_request q{0, 40, detail::ntt_fold::automatic};
    EXPECT_THROW(detail::ntt_engine_of(e).mul(q, r.data(), a.data(), 300, a.data(), 300, radix::decimal, opt, st),
                 bigmul::error);
  }
}

}  // namespace
