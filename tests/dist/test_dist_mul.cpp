// SPDX-License-Identifier: LGPL-3.0-or-later
// The distributed product (bigmul::mpi::mul) against GMP, run by ctest under
// mpiexec with 1 .. 5 ranks (tests/dist/CMakeLists.txt). Every rank runs
// every test; a test compares this rank's block of the product with the
// same block of GMP's, and the job fails when any rank fails.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mpi.hpp"
#include "dist/carry_scan.hpp"
#include "dist/coefficients.hpp"
#include "dist/product.hpp"
#include "dist/shape.hpp"
#include "prim/ops.hpp"
#include "test_support.hpp"

namespace {

using bigmul::limb_t;
using bigmul::radix;
namespace mpi = bigmul::mpi;
using bigmul::test::operand_kind;

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int ranks() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// How the operands' limbs are spread over the ranks.
enum class spread { even, all_on_last, all_on_first, first_empty, cubic };

std::vector<std::size_t> cuts(std::size_t n, spread how) {
  const int P = ranks();
  std::vector<std::size_t> c(static_cast<std::size_t>(P) + 1, 0);
  for (int r = 0; r <= P; ++r) {
    std::size_t at = 0;
    switch (how) {
      case spread::even: at = mpi::block_of(n, P, r).begin; break;
      case spread::all_on_last: at = r == P ? n : 0; break;
      case spread::all_on_first: at = r == 0 ? 0 : n; break;
      case spread::first_empty: at = r == 0 ? 0 : (P == 1 ? n : mpi::block_of(n, P - 1, r - 1).begin); break;
      case spread::cubic: {  // rank r holds ~ (r + 1)^3: very unequal blocks
        const double f = static_cast<double>(r) * r * r / (static_cast<double>(P) * P * P);
        at = static_cast<std::size_t>(f * static_cast<double>(n));
        break;
      }
    }
    c[static_cast<std::size_t>(r)] = r == P ? n : at;
  }
  return c;
}

// The product through mpi::mul with the given spreads, compared on every rank.
void check_product(const std::vector<limb_t>& a, const std::vector<limb_t>& b, radix rx, spread sa, spread sb,
                   const std::string& what) {
  const auto ca = cuts(a.size(), sa), cb = cuts(b.size(), sb);
  const std::size_t r = static_cast<std::size_t>(rank());
  mpi::options opt;
  opt.rx = rx;
  opt.threads = 1;
  const auto mine = mpi::mul(MPI_COMM_WORLD, a.data() + ca[r], ca[r + 1] - ca[r], b.data() + cb[r], cb[r + 1] - cb[r],
                             opt);
  const std::size_t rn = a.size() + b.size();
  const mpi::range blk = mpi::product_block(rn, ranks(), rank());
  ASSERT_EQ(mine.size(), blk.size()) << what;
  if (a.empty() || b.empty()) {
    for (limb_t x : mine) ASSERT_EQ(x, 0u) << what;
    return;
  }
  const auto want = bigmul::test::gmp_product(a.data(), a.size(), b.data(), b.size(), rx);
  for (std::size_t i = 0; i < blk.size(); ++i)
    ASSERT_EQ(mine[i], want[blk.begin + i]) << what << ": rank " << r << ", product limb " << blk.begin + i
                                            << " of " << rn;
}

// The run's seed, the same on every rank (mpi_environment below).
std::uint64_t shared_seed = 0;
std::mt19937_64 rng(std::uint64_t salt) { return std::mt19937_64(shared_seed * 0x9e3779b97f4a7c15ull + salt); }

std::vector<limb_t> operand(operand_kind kind, std::size_t n, radix rx, std::uint64_t salt) {
  auto g = rng(salt);
  return bigmul::test::make_operand(kind, n, rx, g);
}

const char* name(radix rx) { return rx == radix::binary ? "binary" : "decimal"; }

TEST(DistMul, RandomOperandsMatchGmpAtManySizes) {
  for (radix rx : {radix::binary, radix::decimal})
    for (std::size_t an : {1, 2, 5, 17, 64, 333, 1000, 4099})
      for (std::size_t bn : {std::size_t{1}, std::size_t{3}, an / 2 + 1, an}) {
        const auto a = operand(operand_kind::random, an, rx, 11 * an + bn);
        const auto b = operand(operand_kind::random, bn, rx, 13 * an + 7 * bn + 1);
        check_product(a, b, rx, spread::even, spread::even,
                      std::string(name(rx)) + " " + std::to_string(an) + " x " + std::to_string(bn));
      }
}

TEST(DistMul, CarryChainsAcrossRankBoundaries) {
  // (B^n - 1)(B^m - 1) = B^(n+m) - B^n - B^m + 1: runs of B - 1 through
  // every rank boundary; all nines in decimal.
  for (radix rx : {radix::binary, radix::decimal})
    for (std::size_t n : {1, 4, 7, 100, 1031})
      for (std::size_t m : {std::size_t{1}, std::size_t{9}, n}) {
        const auto a = operand(operand_kind::all_max, n, rx, 1), b = operand(operand_kind::all_max, m, rx, 2);
        check_product(a, b, rx, spread::even, spread::cubic,
                      std::string("all max ") + name(rx) + " " + std::to_string(n) + " x " + std::to_string(m));
      }
}

TEST(DistMul, AdversarialKindsAndUnevenSpreads) {
  const operand_kind kinds[] = {operand_kind::runs, operand_kind::sparse, operand_kind::power, operand_kind::half_max,
                                operand_kind::one};
  const spread spreads[] = {spread::even, spread::all_on_last, spread::all_on_first, spread::first_empty,
                            spread::cubic};
  std::uint64_t salt = 100;
  for (radix rx : {radix::binary, radix::decimal})
    for (operand_kind k : kinds)
      for (spread s : spreads) {
        const std::size_t an = k == operand_kind::one ? 1 : 777, bn = 250;
        const auto a = operand(k, an, rx, ++salt), b = operand(operand_kind::runs, bn, rx, ++salt);
        check_product(a, b, rx, s, spread::cubic,
                      std::string(bigmul::test::operand_kind_name(k)) + " " + name(rx) + " spread " +
                          std::to_string(static_cast<int>(s)));
      }
}

TEST(DistMul, VeryUnbalancedAndEmptyOperands) {
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto big = operand(operand_kind::random, 20000, rx, 5), one = operand(operand_kind::random, 1, rx, 6);
    check_product(big, one, rx, spread::even, spread::all_on_last, "20000 x 1");
    check_product(one, big, rx, spread::first_empty, spread::even, "1 x 20000");
    check_product(big, {}, rx, spread::even, spread::even, "20000 x empty");
    std::vector<limb_t> zeros(50, 0);
    check_product(zeros, big, rx, spread::even, spread::even, "zero limbs x 20000");
  }
}

TEST(DistMul, LargerProductMatchesGmp) {
  const std::size_t n = bigmul::test::sanitized ? 20000 : 60000;
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto a = operand(operand_kind::random, n, rx, 21), b = operand(operand_kind::runs, n - 3, rx, 22);
    check_product(a, b, rx, spread::even, spread::even, std::string("large ") + name(rx));
  }
}

// The same bigmul::error on every rank, naming the failing rank.
std::string collective_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const bigmul::error& e) {
    return e.what();
  }
  return "";
}

TEST(DistMul, KeptArraysAreReusedAndReleased) {
  // The arrays kept from the previous product hold its residues: a product
  // that reuses them must still zero what its transforms read.
  const auto a = operand(operand_kind::random, 3000, radix::binary, 41);
  const auto b = operand(operand_kind::all_max, 2000, radix::binary, 42);
  const auto c = operand(operand_kind::all_max, 700, radix::decimal, 43);
  check_product(a, b, radix::binary, spread::even, spread::even, "first");
  check_product(c, c, radix::decimal, spread::even, spread::even, "smaller, reusing");
  check_product(b, a, radix::binary, spread::even, spread::even, "again");
  mpi::release_scratch();
  check_product(a, c, radix::binary, spread::even, spread::even, "after release_scratch");
}

TEST(DistMul, IntoCallerMemoryEqualsTheReturnedBlock) {
  // The caller's block starts as garbage (every limb written), is reused
  // for a second product, and a block of the wrong length is refused on
  // every rank before any work.
  const std::size_t r = static_cast<std::size_t>(rank());
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto a = operand(operand_kind::all_max, 2500, rx, 51), b = operand(operand_kind::random, 1700, rx, 52);
    const auto ca = cuts(a.size(), spread::cubic), cb = cuts(b.size(), spread::even);
    mpi::options opt;
    opt.rx = rx;
    opt.threads = 1;
    const std::size_t al = ca[r + 1] - ca[r], bl = cb[r + 1] - cb[r];
    const auto want = mpi::mul(MPI_COMM_WORLD, a.data() + ca[r], al, b.data() + cb[r], bl, opt);
    std::vector<limb_t> out(want.size(), ~limb_t{0} - 5);
    for (int again = 0; again < 2; ++again) {
      mpi::mul(MPI_COMM_WORLD, a.data() + ca[r], al, b.data() + cb[r], bl, out.data(), out.size(), opt);
      EXPECT_EQ(out, want) << name(rx) << " product " << again;
    }
    std::vector<limb_t> wrong(want.size() + (r == 0 ? 1 : 0));
    const std::string msg = collective_error(
        [&] { mpi::mul(MPI_COMM_WORLD, a.data() + ca[r], al, b.data() + cb[r], bl, wrong.data(), wrong.size(), opt); });
    EXPECT_NE(msg.find("rank 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("limbs, not"), std::string::npos) << msg;
  }
}

// BIGMUL_DIST_ROUND_WORDS set (to `words`, or unset with 0) for a scope,
// the same on every rank; the previous value back after.
class round_words_knob {
 public:
  explicit round_words_knob(std::size_t words) {
    const char* was = std::getenv("BIGMUL_DIST_ROUND_WORDS");
    had_ = was != nullptr;
    if (had_) was_ = was;
    if (words)
      setenv("BIGMUL_DIST_ROUND_WORDS", std::to_string(words).c_str(), 1);
    else
      unsetenv("BIGMUL_DIST_ROUND_WORDS");
  }
  ~round_words_knob() {
    if (had_)
      setenv("BIGMUL_DIST_ROUND_WORDS", was_.c_str(), 1);
    else
      unsetenv("BIGMUL_DIST_ROUND_WORDS");
  }

 private:
  bool had_ = false;
  std::string was_;
};

// This rank's block of a b through mpi::mul, and its stats.
std::vector<limb_t> block_of_product(const std::vector<limb_t>& a, const std::vector<limb_t>& b, radix rx, spread sa,
                                     spread sb, mpi::stats* st, unsigned threads = 1) {
  const auto ca = cuts(a.size(), sa), cb = cuts(b.size(), sb);
  const std::size_t r = static_cast<std::size_t>(rank());
  mpi::options opt;
  opt.rx = rx;
  opt.threads = threads;
  return mpi::mul(MPI_COMM_WORLD, a.data() + ca[r], ca[r + 1] - ca[r], b.data() + cb[r], cb[r + 1] - cb[r], opt, st);
}

TEST(DistMul, BoundedRoundsAreByteIdentical) {
  // The all-to-alls in rounds of a few words (BIGMUL_DIST_ROUND_WORDS):
  // hundreds of rounds, most ending inside a peer's part (the words a peer
  // gets a round do not divide the parts, nor the transposes' pieces), and
  // with the unequal spreads peers whose parts end rounds earlier than
  // others' or are empty. The blocks and every all-to-all's bytes equal
  // those of the default rounds (one round at these sizes).
  struct config {
    std::size_t an, bn;
    spread sa, sb;
  };
  const config configs[] = {{1000, 700, spread::even, spread::even},
                            {777, 250, spread::cubic, spread::all_on_first},
                            {4099, 2500, spread::first_empty, spread::cubic}};
  for (radix rx : {radix::binary, radix::decimal})
    for (const config& c : configs) {
      const auto a = operand(operand_kind::all_max, c.an, rx, c.an), b = operand(operand_kind::random, c.bn, rx, c.bn);
      mpi::stats one;
      std::vector<limb_t> want;
      {
        const round_words_knob knob(0);
        want = block_of_product(a, b, rx, c.sa, c.sb, &one);
      }
      const auto gmp = bigmul::test::gmp_product(a.data(), a.size(), b.data(), b.size(), rx);
      const mpi::range blk = mpi::product_block(a.size() + b.size(), ranks(), rank());
      ASSERT_EQ(want, std::vector<limb_t>(gmp.begin() + static_cast<std::ptrdiff_t>(blk.begin),
                                          gmp.begin() + static_cast<std::ptrdiff_t>(blk.end)));
      for (std::size_t words : {5, 64}) {
        const round_words_knob knob(words);
        mpi::stats st;
        const std::string what = std::string(name(rx)) + " " + std::to_string(c.an) + " x " + std::to_string(c.bn) +
                                 ", " + std::to_string(words) + " words a round";
        EXPECT_EQ(block_of_product(a, b, rx, c.sa, c.sb, &st), want) << what;
        ASSERT_EQ(st.exchanges.size(), one.exchanges.size()) << what;
        for (std::size_t i = 0; i < st.exchanges.size(); ++i) {
          EXPECT_EQ(st.exchanges[i].what, one.exchanges[i].what) << what;
          EXPECT_EQ(st.exchanges[i].bytes_sent, one.exchanges[i].bytes_sent) << what << ", " << st.exchanges[i].what;
        }
      }
    }
}

TEST(DistMul, PlannedBytesBoundTheHeldArrays) {
  // From no kept arrays, a product's working arrays (in use and kept, the
  // grown product block) peak at no more than the preflight's bytes, and
  // at no less than its transforms' term: the plan is the real peak. One
  // rank on the IFMA engine with 20000-limb operands (n2 = 3 64) gathers
  // its columns straight from the limbs, into a buffer a thread.
  namespace dist = bigmul::dist;
  const round_words_knob knob(0);
  const std::size_t r = static_cast<std::size_t>(rank());
  for (unsigned threads : {1u, 2u})
    for (std::size_t n : {std::size_t{3000}, std::size_t{20000}}) {
      const auto a = operand(operand_kind::random, n, radix::binary, n + 1);
      const auto b = operand(operand_kind::random, n - 7, radix::binary, n + 2);
      const auto ca = cuts(a.size(), spread::even), cb = cuts(b.size(), spread::even);
      const dist::plan_layout L =
          dist::gather_layout(MPI_COMM_WORLD, ca[r + 1] - ca[r], cb[r + 1] - cb[r], radix::binary);
      const dist::buffer_words w = dist::plan_buffers(L, ranks(), rank(), threads);
      mpi::release_scratch();
      dist::reset_held_peak();
      mpi::stats st;
      block_of_product(a, b, radix::binary, spread::even, spread::even, &st, threads);
      const std::string what = std::to_string(n) + " limbs, " + std::to_string(threads) + " threads";
      EXPECT_EQ(st.planned_bytes, w.peak_bytes()) << what;
      EXPECT_LE(dist::held_peak_bytes(), st.planned_bytes) << what;
      EXPECT_GE(dist::held_peak_bytes(), 8 * w.transform_words()) << what;
      if (ranks() == 1 && n == 20000 && L.eng == dist::engine::ifma) {
        EXPECT_GE(w.scratch, threads * 32u * L.s.n2) << what;
      }
    }
}

// Every rank runs one engine, the least capable rank's (portable < avx2 <
// ifma); BIGMUL_TEST_DIST_ENGINE names the one the ctest case forces
// (BIGMUL_NTT_ENGINE on some ranks, BIGMUL_DIST_ENGINE=portable).
TEST(DistMul, EveryRankRunsTheLeastCapableEngine) {
  unsigned mine = static_cast<unsigned>(bigmul::dist::local_engine()), least = 0;
  MPI_Allreduce(&mine, &least, 1, MPI_UNSIGNED, MPI_MIN, MPI_COMM_WORLD);
  const char* forced = std::getenv("BIGMUL_TEST_DIST_ENGINE");
  const std::string want = forced ? forced : bigmul::dist::engine_name(static_cast<bigmul::dist::engine>(least));
  EXPECT_EQ(bigmul::dist::engine_name(static_cast<bigmul::dist::engine>(least)), want);
  const auto a = operand(operand_kind::all_max, 3000, radix::binary, 51);
  const auto ca = cuts(a.size(), spread::even);
  const std::size_t r = static_cast<std::size_t>(rank());
  mpi::stats st;
  mpi::options opt;
  opt.threads = 1;
  mpi::mul(MPI_COMM_WORLD, a.data() + ca[r], ca[r + 1] - ca[r], a.data() + ca[r], ca[r + 1] - ca[r], opt, &st);
  EXPECT_EQ(st.engine, want);
  EXPECT_EQ(st.ifma, want == "ifma");
  check_product(a, a, radix::binary, spread::even, spread::cubic, "engine " + want);
}

TEST(DistMul, MemoryCapOnOneRankIsRefusedOnEveryRank) {
  const int victim = ranks() > 1 ? 1 : 0;
  const auto a = operand(operand_kind::random, 5000, radix::binary, 31);
  const auto ca = cuts(a.size(), spread::even);
  const std::size_t r = static_cast<std::size_t>(rank());
  const std::size_t need = mpi::preflight_bytes(MPI_COMM_WORLD, ca[r + 1] - ca[r], ca[r + 1] - ca[r]);
  EXPECT_GT(need, 0u);
  mpi::options opt;
  opt.memory_cap = rank() == victim ? need - 1 : 0;
  const std::string msg = collective_error([&] {
    mpi::mul(MPI_COMM_WORLD, a.data() + ca[r], ca[r + 1] - ca[r], a.data() + ca[r], ca[r + 1] - ca[r], opt);
  });
  EXPECT_NE(msg.find("rank " + std::to_string(victim) + ": the product needs "),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("memory cap"), std::string::npos) << msg;
  // Exactly the cap it needs is enough.
  opt.memory_cap = rank() == victim ? need : 0;
  check_product(a, a, radix::binary, spread::even, spread::even, "at the cap");
}

TEST(DistMul, BadDecimalLimbOnARankBoundaryNamesItsGlobalIndex) {
  auto a = operand(operand_kind::random, 1000, radix::decimal, 41);
  const auto ca = cuts(a.size(), spread::even);
  const std::size_t bad = ca[static_cast<std::size_t>(ranks()) - 1];  // first limb of the last rank
  a[bad] = bigmul::decimal_limb_base;
  const std::size_t r = static_cast<std::size_t>(rank());
  mpi::options opt;
  opt.rx = radix::decimal;
  const std::string msg = collective_error([&] {
    mpi::mul(MPI_COMM_WORLD, a.data() + ca[r], ca[r + 1] - ca[r], a.data() + ca[r], ca[r + 1] - ca[r], opt);
  });
  EXPECT_NE(msg.find("rank " + std::to_string(ranks() - 1) + ": operand A limb " + std::to_string(bad) +
                     " is not a decimal limb"),
            std::string::npos)
      << msg;
}

TEST(DistMul, ProductsPastThePrimesCapAreRefused) {
  // Refused before any limb is read or any buffer allocated.
  const std::size_t half = mpi::max_product_limbs() / 2 + 1;
  const limb_t dummy = 1;
  const std::size_t mine = rank() == 0 ? half : 0;
  const std::string msg =
      collective_error([&] { mpi::mul(MPI_COMM_WORLD, &dummy, mine, &dummy, mine, mpi::options{}); });
  EXPECT_NE(msg.find("exceeds the three primes' largest transform"), std::string::npos) << msg;
}

TEST(DistMul, PreflightAtThePrimesCapPlansPastItRefuses) {
  // The pre-flight alone (sizes, no limbs, no allocation): a product of
  // exactly max_product_limbs coefficients (an + bn - 1) is planned, one
  // more is refused with the cap named, on every rank.
  const std::size_t cap = mpi::max_product_limbs();
  const std::size_t a = cap / 2, b = cap + 1 - a;  // a + b - 1 == cap
  auto mine = [&](std::size_t n) { return mpi::block_of(n, ranks(), rank()).size(); };
  std::size_t bytes = 0;
  EXPECT_NO_THROW(bytes = mpi::preflight_bytes(MPI_COMM_WORLD, mine(a), mine(b)));
  EXPECT_GT(bytes, 8 * (a + b) / static_cast<std::size_t>(ranks()));
  const std::string msg = collective_error([&] { mpi::preflight_bytes(MPI_COMM_WORLD, mine(a), mine(b + 1)); });
  EXPECT_NE(msg.find("(" + std::to_string(cap) + " product limbs)"), std::string::npos) << msg;
}

// The carry scan's operator: tables on {0..3}, composed; on {0, 1} it is
// prim's (generate, propagate) operator.
TEST(DistCarry, TableCompositionIsPrimsCarryOperatorOnBits) {
  using bigmul::dist::carry_table;
  for (unsigned g = 0; g < 2; ++g)
    for (unsigned p = 0; p < 2; ++p)
      for (unsigned g2 = 0; g2 < 2; ++g2)
        for (unsigned p2 = 0; p2 < 2; ++p2) {
          if ((g && p) || (g2 && p2)) continue;  // a pair is kill, propagate or generate
          const carry_table lo{static_cast<std::uint8_t>(g), static_cast<std::uint8_t>(g | p), 2, 3};
          const carry_table hi{static_cast<std::uint8_t>(g2), static_cast<std::uint8_t>(g2 | p2), 2, 3};
          const auto both = bigmul::dist::compose(lo, hi);
          const auto gp = bigmul::prim::carry_op{}(bigmul::prim::carry_gp{g, p}, bigmul::prim::carry_gp{g2, p2});
          EXPECT_EQ(both[0], gp.g);
          EXPECT_EQ(both[1], gp.g | gp.p);
        }
}

TEST(DistCarry, CompositionIsAssociativeNotCommutative) {
  auto g = rng(51);
  bool differs = false;
  for (int i = 0; i < 2000; ++i) {
    bigmul::dist::carry_table t[3];
    for (auto& x : t)
      for (auto& v : x) v = static_cast<std::uint8_t>(g() % 4);
    using bigmul::dist::compose;
    EXPECT_EQ(compose(compose(t[0], t[1]), t[2]), compose(t[0], compose(t[1], t[2])));
    differs |= compose(t[0], t[1]) != compose(t[1], t[0]);
  }
  EXPECT_TRUE(differs);
}

// block_table against the block's value: f(c) = over + [limbs + c >= B^len]
// for every carry c <= 3, on blocks whose upper limbs are all B - 1 (the
// carry runs through) or not, limb 0 at each edge of B - c, both radices.
TEST(DistCarry, BlockTableAtEveryCarryIn) {
  for (radix rx : {radix::binary, radix::decimal}) {
    const limb_t top = rx == radix::binary ? ~limb_t{0} : bigmul::decimal_limb_base - 1;
    for (std::size_t len : {1, 2, 4, 9})
      for (limb_t low : {limb_t{0}, limb_t{1}, top - 3, top - 2, top - 1, top})
        for (bool upper_max : {true, false})
          for (unsigned over : {0u, 1u, 2u}) {
            std::vector<limb_t> out(len, top);
            out[0] = low;
            if (!upper_max && len > 1) out[len - 1] = top - 1;
            const auto f = bigmul::dist::block_table(out.data(), len, over, rx);
            for (unsigned c = 0; c < 4; ++c) {
              auto x = out;  // x + c with carries: the carry out of the top
              limb_t carry = c;
              for (std::size_t i = 0; i < len && carry; ++i) {
                const bool wraps = x[i] > top - carry;
                x[i] = wraps ? x[i] - (top - carry + 1) : x[i] + carry;
                carry = wraps ? 1 : 0;
              }
              EXPECT_EQ(f[c], over + carry) << name(rx) << " len " << len << " limb 0 " << low << " c " << c;
            }
          }
    const limb_t one = 5;
    EXPECT_THROW(bigmul::dist::block_table(&one, 1, 3, rx), bigmul::error);
    EXPECT_EQ(bigmul::dist::block_table(nullptr, 0, 0, rx), (bigmul::dist::carry_table{0, 1, 2, 3}));
  }
}

TEST(DistShape, RunsCoverExactlyTheirColumns) {
  const std::size_t n1 = 8;
  const mpi::range cols{3, 6};
  std::vector<int> seen(100, 0);
  bigmul::dist::for_each_run(5, 95, n1, cols, [&](std::size_t j, std::size_t j1, std::size_t j2, std::size_t k) {
    EXPECT_EQ(j, j1 + n1 * j2);
    for (std::size_t i = 0; i < k; ++i) ++seen[j + i];
  });
  for (std::size_t j = 0; j < 100; ++j)
    EXPECT_EQ(seen[j], (j >= 5 && j < 95 && j % n1 >= 3 && j % n1 < 6) ? 1 : 0) << j;
}

// MPI for the whole run (tests/support's main runs the tests), and one
// seed for every rank: rank 0's, broadcast.
class mpi_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    MPI_Init(nullptr, nullptr);
    unsigned long long seed = rank() == 0 ? bigmul::test::seed() : 0;
    MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    shared_seed = seed;
  }
  void TearDown() override { MPI_Finalize(); }
};
const auto* const registered = ::testing::AddGlobalTestEnvironment(new mpi_environment);

}  // namespace
