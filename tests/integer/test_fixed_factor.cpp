// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::fixed_factor against GMP: both radices, every NTT engine this
// processor runs, sizes from one limb across the NTT's crossover to 10^6
// digits, adversarial operands, batches, threads, integer overloads, misuse.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "bigmul/fixed_factor.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/mul.hpp"
#include "mul/ntt_mul.hpp"
#include "src/arith/ntt_reuse.hpp"
#include "test_support.hpp"

namespace bigmul {
namespace {

using test::operand_kind;

// A fixed operand's length and the longest operand it is prepared for.
struct shape {
  std::size_t bn, max_an;
};

// Runs the test body once per NTT engine (BIGMUL_NTT_ENGINE, read by every
// product), restoring the variable afterwards.
class EngineScope {
 public:
  explicit EngineScope(const char* name) {
    if (const char* v = std::getenv("BIGMUL_NTT_ENGINE")) saved_ = v, had_ = true;
    setenv("BIGMUL_NTT_ENGINE", name, 1);
  }
  ~EngineScope() {
    if (had_)
      setenv("BIGMUL_NTT_ENGINE", saved_.c_str(), 1);
    else
      unsetenv("BIGMUL_NTT_ENGINE");
  }

 private:
  std::string saved_;
  bool had_ = false;
};

std::vector<const char*> engines() {
  std::vector<const char*> out;
  if (detail::ntt_engine_available(detail::ntt_engine::ifma)) out.push_back("ifma");
  if (detail::ntt_engine_available(detail::ntt_engine::avx2)) out.push_back("avx2");
  out.push_back("portable");
  return out;
}

// The smallest balanced size bigmul::mul runs the NTT for.
std::size_t ntt_crossover(radix rx) {
  std::size_t lo = 1, hi = 1;
  while (mul_heap_bytes(hi, hi, rx) == 0) hi *= 2;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (mul_heap_bytes(mid, mid, rx) == 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Every product f * a for the given operands, checked against GMP.
void expect_products(const fixed_factor& f, const std::vector<limb_t>& b, const std::vector<limb_t>& a, radix rx,
                     unsigned threads, const std::string& what) {
  std::vector<limb_t> r(a.size() + b.size(), 0x5a5a);
  f.mul(r.data(), a.data(), a.size(), rx, threads);
  const auto want = test::gmp_product(a.data(), a.size(), b.data(), b.size(), rx);
  ASSERT_EQ(r, want) << what << " an=" << a.size() << " bn=" << b.size() << " threads=" << threads
                     << " seed=" << test::seed();
}

// The smallest balanced size whose fixed_factor keeps transforms.
std::size_t fixed_crossover(radix rx) {
  std::size_t lo = 1, hi = ntt_crossover(rx);
  const auto keeps = [&](std::size_t n) {
    const std::vector<limb_t> b(n, 1);
    return fixed_factor(b.data(), n, n, rx).transform_length() > 0;
  };
  while (!keeps(hi)) hi *= 2;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (keeps(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

const radix radices[] = {radix::binary, radix::decimal};

TEST(FixedFactor, SmallAndCrossoverSizesEveryEngine) {
  auto g = test::rng(3601);
  for (const char* e : engines()) {
    EngineScope scope(e);
    for (const radix rx : radices) {
      // mul's NTT crossover (below, products go to mul) and the fixed one.
      const std::size_t m = ntt_crossover(rx), t = fixed_crossover(rx);
      const std::size_t sizes[] = {1, 2, 17, m - 1, m, m + 1, t - 1, t, t + 1, 3 * t};
      for (const std::size_t bn : sizes)
        for (const std::size_t max_an : {std::size_t{1}, m, t - 1, t, t + 1, 2 * t + 5}) {
          const auto b = test::make_operand(operand_kind::random, bn, rx, g);
          const fixed_factor f(b.data(), bn, max_an, rx);
          if (bn >= t && max_an >= t) {
            EXPECT_GT(f.transform_length(), 0u) << e << " bn=" << bn;
          }
          for (const std::size_t an : {std::size_t{1}, max_an / 2 + 1, max_an}) {
            const auto a = test::make_operand(operand_kind::random, an, rx, g);
            expect_products(f, b, a, rx, 0, e);
          }
        }
    }
  }
}

TEST(FixedFactor, AdversarialOperandsEveryEngine) {
  auto g = test::rng(3602);
  const operand_kind kinds[] = {operand_kind::all_max, operand_kind::runs, operand_kind::sparse,
                                operand_kind::one, operand_kind::power, operand_kind::random};
  for (const char* e : engines()) {
    EngineScope scope(e);
    for (const radix rx : radices) {
      const std::size_t t = fixed_crossover(rx), bn = t + 7, max_an = 3 * t;
      for (const operand_kind kb : kinds) {
        const auto b = test::make_operand(kb, kb == operand_kind::one ? 1 : bn, rx, g);
        const fixed_factor f(b.data(), b.size(), max_an, rx);
        for (const operand_kind ka : kinds)
          for (const std::size_t an : {max_an, max_an - 1, t}) {
            const auto a = test::make_operand(ka, ka == operand_kind::one ? 1 : an, rx, g);
            expect_products(f, b, a, rx, 2, std::string(e) + " " + test::operand_kind_name(kb) + " x " +
                                                test::operand_kind_name(ka));
          }
      }
    }
  }
}

TEST(FixedFactor, MillionDigitsThreads) {
  auto g = test::rng(3603);
  for (const radix rx : radices) {
    // 10^6 digits: 52632 decimal limbs, 51906 binary ones (smaller under the sanitizers).
    const std::size_t n = test::sanitized ? 6000 : (rx == radix::decimal ? 52632 : 51906);
    const auto b = test::make_operand(operand_kind::random, n, rx, g);
    const fixed_factor f(b.data(), n, n, rx);
    EXPECT_GT(f.transform_length(), 0u);
    for (const unsigned threads : {1u, 2u, 4u}) {
      const auto a = test::make_operand(threads == 2 ? operand_kind::all_max : operand_kind::random, n, rx, g);
      expect_products(f, b, a, rx, threads, "10^6 digits");
    }
    const auto bmax = test::make_operand(operand_kind::all_max, n, rx, g);
    const fixed_factor fmax(bmax.data(), n, n, rx);
    expect_products(fmax, bmax, bmax, rx, 2, "all-max squared");
  }
}

TEST(FixedFactor, BatchesSpreadAndSplit) {
  auto g = test::rng(3604);
  for (const radix rx : radices) {
    const std::size_t t = fixed_crossover(rx);
    // Short transforms (one product a thread) and long ones (each split).
    for (const std::size_t n : {std::size_t{5}, 2 * t, test::sanitized ? 4 * t : std::size_t{40000}}) {
      const std::size_t G = n > 10000 ? 2 : 7;
      const auto b = test::make_operand(operand_kind::random, n, rx, g);
      const fixed_factor f(b.data(), n, n, rx);
      std::vector<limb_t> a;
      for (std::size_t i = 0; i < G; ++i) {
        const auto x = test::make_operand(i % 2 ? operand_kind::all_max : operand_kind::random, n, rx, g);
        a.insert(a.end(), x.begin(), x.end());
      }
      for (const unsigned threads : {1u, 2u, 4u}) {
        std::vector<limb_t> r(G * 2 * n, 7);
        f.mul_batched(r.data(), a.data(), n, G, rx, threads);
        for (std::size_t i = 0; i < G; ++i) {
          const auto want = test::gmp_product(a.data() + i * n, n, b.data(), n, rx);
          ASSERT_EQ(std::vector<limb_t>(r.begin() + i * 2 * n, r.begin() + (i + 1) * 2 * n), want)
              << "n=" << n << " product " << i << " threads=" << threads;
        }
      }
      f.mul_batched(nullptr, nullptr, n, 0, rx);  // G = 0: nothing
    }
  }
}

// Folded shapes: the kept length below max_an + bn - 1, the overhang's
// lowest coefficients recomputed by a short product. Operands that reach
// past the kept length by 0, 1, some and all of the fold, every engine.
TEST(FixedFactor, FoldedShapesEveryEngine) {
  auto g = test::rng(3608);
  const shape cases[] = {{4200, 4200}, {300, 8000}, {8000, 300}, {4097, 4097}};
  for (const char* e : engines()) {
    EngineScope scope(e);
    for (const radix rx : radices)
      for (const shape c : cases) {
        const auto b = test::make_operand(c.bn % 2 ? operand_kind::all_max : operand_kind::random, c.bn, rx, g);
        const detail::ntt_fixed_factor f(b.data(), c.bn, c.max_an, c.max_an + c.bn - 1, rx, true);
        ASSERT_GT(f.low_length(), 0u) << "bn=" << c.bn << " max_an=" << c.max_an;
        const std::size_t n = f.length();
        ASSERT_LT(n, c.max_an + c.bn - 1);
        for (const std::size_t an : {c.max_an, c.max_an - 1, n - c.bn + 1, n - c.bn + 2, std::size_t{1}}) {
          if (an < 1 || an > c.max_an) continue;
          for (const operand_kind k : {operand_kind::random, operand_kind::all_max}) {
            const auto a = test::make_operand(k, an, rx, g);
            std::vector<limb_t> r(an + c.bn, 3);
            f.mul_exact(r.data(), a.data(), an, 2);
            ASSERT_EQ(r, test::gmp_product(a.data(), an, b.data(), c.bn, rx))
                << e << " bn=" << c.bn << " max_an=" << c.max_an << " an=" << an << " seed=" << test::seed();
          }
        }
      }
  }
}

// The smallest size from `from` limbs up (an = size, bn = size / ratio)
// whose multiply takes the twisted piece on the current engine (0: none
// below 3 10^5 limbs).
std::size_t first_piece(std::size_t from, std::size_t ratio) {
  for (std::size_t n = from; n < 300000; n += 37)
    if (detail::ntt_choose_shape(n, n / ratio, detail::ntt_default_engine()).piece != 0) return n;
  return 0;
}

// Folded by a twisted piece (the main product modulo x^n - 1 joined with
// one modulo x^M - c, mul/ntt_piece.hpp) where the multiply takes one:
// balanced and 5:1, operands that reach past n by all, one and none of the
// overhang, every engine, both radices, 1 and 2 threads.
TEST(FixedFactor, PieceShapesEveryEngine) {
  auto g = test::rng(3611);
  for (const char* e : engines()) {
    EngineScope scope(e);
    for (const radix rx : radices)
      for (const std::size_t ratio : {std::size_t{1}, std::size_t{5}}) {
        const std::size_t max_an = first_piece(fixed_crossover(rx), ratio), bn = max_an / ratio;
        ASSERT_GT(max_an, 0u) << e;
        const auto b = test::make_operand(ratio == 1 ? operand_kind::all_max : operand_kind::random, bn, rx, g);
        const detail::ntt_fixed_factor f(b.data(), bn, max_an, max_an + bn - 1, rx, true);
        ASSERT_GT(f.piece_length(), 0u) << e << " max_an=" << max_an << " bn=" << bn;
        const std::size_t n = f.length();
        // Overhangs an + bn - 1 - n: all of it, one coefficient, none.
        for (const std::size_t an : {max_an, n - bn + 2, n - bn + 1}) {
          for (const operand_kind k : {operand_kind::random, operand_kind::all_max}) {
            if (an != max_an && k == operand_kind::all_max) continue;
            const auto a = test::make_operand(k, an, rx, g);
            std::vector<limb_t> r(an + bn, 3);
            f.mul_exact(r.data(), a.data(), an, k == operand_kind::random ? 1 : 2);
            ASSERT_EQ(r, test::gmp_product(a.data(), an, b.data(), bn, rx))
                << e << " bn=" << bn << " max_an=" << max_an << " an=" << an << " n=" << n
                << " piece=" << f.piece_length() << " seed=" << test::seed();
          }
        }
      }
  }
}

// Binary limbs cut into coefficients of fewer bits (what products past
// ~2^22 limbs take to stay on three primes) or of more (80: the wide ones
// on four primes that 10^8 digits take), forced at small sizes: every
// engine, folded and not, operands of every length class.
TEST(FixedFactor, BitCoefficientsEveryEngine) {
  auto g = test::rng(3609);
  const shape cases[] = {{3000, 3000}, {500, 7000}, {7000, 40}, {3, 5}};
  for (const char* e : engines()) {
    EngineScope scope(e);
    for (const unsigned bits : {17u, 50u, 62u, 80u})
      for (const shape c : cases) {
        const auto b = test::make_operand(bits == 50 ? operand_kind::all_max : operand_kind::random, c.bn,
                                          radix::binary, g);
        const detail::ntt_fixed_factor f(b.data(), c.bn, c.max_an, c.max_an + c.bn - 1, radix::binary, true, bits);
        ASSERT_EQ(f.coefficient_bits(), bits);
        for (const std::size_t an : {c.max_an, c.max_an - 1, c.max_an / 2 + 1, std::size_t{1}})
          for (const operand_kind k : {operand_kind::random, operand_kind::all_max}) {
            const auto a = test::make_operand(k, an, radix::binary, g);
            std::vector<limb_t> r(an + c.bn, 3);
            f.mul_exact(r.data(), a.data(), an, 2);
            ASSERT_EQ(r, test::gmp_product(a.data(), an, b.data(), c.bn, radix::binary))
                << e << " bits=" << bits << " bn=" << c.bn << " max_an=" << c.max_an << " an=" << an
                << " low=" << f.low_length() << " seed=" << test::seed();
          }
      }
  }
}

// How a product's transforms share the threads: below 2^13 points on one;
// up to 2^16, and at two or three threads beyond, each transform whole on
// one thread (every prime's forward transform a task, then every prime's
// product and inverse, waiting for its forward one); four or more threads
// past 2^16 split each transform. Kept lengths on both sides of 2^16 (the
// longer one folded), every engine, both radices, 2, 3 and 5 threads.
TEST(FixedFactor, ThreadSchedulesEveryEngine) {
  auto g = test::rng(3610);
  const std::size_t sizes[] = {test::sanitized ? std::size_t{4500} : std::size_t{5200},
                               test::sanitized ? std::size_t{9000} : std::size_t{40000}};
  for (const char* e : engines()) {
    EngineScope scope(e);
    for (const radix rx : radices)
      for (const std::size_t n : sizes) {
        const auto b = test::make_operand(operand_kind::random, n, rx, g);
        const fixed_factor f(b.data(), n, n, rx);
        ASSERT_GE(f.transform_length(), std::size_t{1} << 13) << e << " n=" << n;
        for (const unsigned threads : {2u, 3u, 5u}) {
          const auto a = test::make_operand(threads == 3 ? operand_kind::all_max : operand_kind::random, n, rx, g);
          expect_products(f, b, a, rx, threads, std::string(e) + " schedule");
        }
      }
  }
}

TEST(FixedFactor, ConcurrentCallers) {
  auto g = test::rng(3605);
  const std::size_t n = 3 * fixed_crossover(radix::binary);
  const auto b = test::make_operand(operand_kind::random, n, radix::binary, g);
  const fixed_factor f(b.data(), n, n);
  std::vector<std::vector<limb_t>> as, rs(4);
  for (int i = 0; i < 4; ++i) as.push_back(test::make_operand(operand_kind::random, n, radix::binary, g));
  std::vector<std::thread> ts;
  for (int i = 0; i < 4; ++i)
    ts.emplace_back([&, i] {
      rs[i].resize(2 * n);
      for (int k = 0; k < 3; ++k) f.mul(rs[i].data(), as[i].data(), n, radix::binary, 1);
    });
  for (auto& t : ts) t.join();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(rs[i], test::gmp_product(as[i].data(), n, b.data(), n, radix::binary));
}

// The integer overloads: signs, zero, an operand in the other radix.
TEST(FixedFactor, IntegerOverloads) {
  auto g = test::rng(3606);
  const std::size_t n = 2 * fixed_crossover(radix::decimal);
  for (const radix rx : radices) {
    const auto bl = test::make_operand(operand_kind::random, n, rx, g);
    const integer b(std::span<const limb_t>(bl), true, rx);  // negative
    const fixed_factor f(b, n + 3);
    std::vector<integer> as;
    as.push_back(integer(0));
    as.push_back(integer(-1));
    const auto al = test::make_operand(operand_kind::all_max, n, rx, g);
    as.push_back(integer(std::span<const limb_t>(al), false, rx));
    const auto cl = test::make_operand(operand_kind::random, n / 2, rx == radix::binary ? radix::decimal : radix::binary, g);
    as.push_back(integer(std::span<const limb_t>(cl), true, rx == radix::binary ? radix::decimal : radix::binary));
    const auto products = f.mul(as, 2);
    ASSERT_EQ(products.size(), as.size());
    for (std::size_t i = 0; i < as.size(); ++i) {
      const integer want = as[i] * b;
      EXPECT_EQ(products[i], want) << "operand " << i;
      EXPECT_EQ(f.mul(as[i]), want) << "operand " << i;
      EXPECT_EQ(products[i].get_radix(), rx);
    }
  }
}

// Misuse: one invalid_argument each, naming what is wrong.
void expect_invalid(const std::function<void()>& call, const std::string& says) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one saying '" << says << "'";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), error::kind::invalid_argument) << e.what();
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(FixedFactor, Misuse) {
  auto g = test::rng(3607);
  for (const std::size_t n : {std::size_t{4}, 2 * fixed_crossover(radix::binary)}) {
    const auto b = test::make_operand(operand_kind::random, n, radix::binary, g);
    fixed_factor f(b.data(), n, n);
    auto a = test::make_operand(operand_kind::random, n + 1, radix::binary, g);
    std::vector<limb_t> r(2 * n + 1);
    expect_invalid([&] { f.mul(r.data(), a.data(), n, radix::decimal); }, "operand radix decimal");
    expect_invalid([&] { f.mul(r.data(), a.data(), n + 1); }, "an = " + std::to_string(n + 1));
    expect_invalid([&] { f.mul(r.data(), a.data(), 0); }, "an = 0");
    expect_invalid([&] { f.mul(nullptr, a.data(), n); }, "null pointer");
    expect_invalid([&] { f.mul(r.data(), nullptr, n); }, "null pointer");
    expect_invalid([&] { f.mul(r.data(), r.data() + 1, n); }, "overlaps");
    expect_invalid([&] { f.mul(r.data(), a.data(), n, static_cast<radix>(7)); }, "radix 7");
    expect_invalid([&] { f.mul_batched(r.data(), a.data(), n, 2, radix::decimal); }, "operand radix decimal");
    expect_invalid([&] { f.mul_batched(r.data(), a.data(), n + 1, 1); }, "prepared for 1 .. ");
    expect_invalid([&] { f.mul_batched(r.data(), a.data(), 1, SIZE_MAX / 2); }, "overflows");
    std::vector<integer> too_long{integer(std::span<const limb_t>(a), false, radix::binary)};
    expect_invalid([&] { f.mul(too_long); }, "operand 0 has " + std::to_string(n + 1) + " limbs");
    fixed_factor moved(std::move(f));
    EXPECT_FALSE(f.prepared());  // NOLINT(bugprone-use-after-move): the documented moved-from state
    expect_invalid([&] { f.mul(r.data(), a.data(), n); }, "released");
    moved.mul(r.data(), a.data(), n);
    moved.release();
    moved.release();
    EXPECT_EQ(moved.transform_length(), 0u);
    expect_invalid([&] { moved.mul(integer(3)); }, "released");
  }
  const std::vector<limb_t> dec{5, decimal_limb_base, 1};
  expect_invalid([&] { fixed_factor(dec.data(), 3, 3, radix::decimal); }, "operand b limb 1 is not a decimal limb");
  const std::vector<limb_t> ok{5, 6, 7};
  const fixed_factor fd(ok.data(), 3, 3, radix::decimal);
  std::vector<limb_t> r(6);
  expect_invalid([&] { fd.mul(r.data(), dec.data(), 3, radix::decimal); }, "operand a limb 1 is not a decimal limb");
  expect_invalid([&] { fd.mul(r.data(), ok.data(), 3); }, "operand radix binary, the fixed factor was prepared for decimal");
  expect_invalid([&] { fixed_factor(ok.data(), 0, 3); }, "needs bn >= 1 and max_an >= 1");
  expect_invalid([&] { fixed_factor(ok.data(), 3, 0); }, "needs bn >= 1 and max_an >= 1");
  expect_invalid([&] { fixed_factor(nullptr, 3, 3); }, "null pointer");
  expect_invalid([&] { fixed_factor(integer(0), 3); }, "the fixed operand is 0");
  expect_invalid([&] { fixed_factor(ok.data(), 3, SIZE_MAX); }, "overflows");
}

TEST(FixedFactor, HeapBytes) {
  const std::size_t t = fixed_crossover(radix::binary);
  const std::vector<limb_t> b(4 * t, 3);
  const fixed_factor f(b.data(), b.size(), 4 * t);
  EXPECT_GT(f.heap_bytes(), 3 * 8 * f.transform_length());
  EXPECT_GE(fixed_factor::heap_bytes(b.size(), 4 * t), f.heap_bytes());
  EXPECT_EQ(fixed_factor::heap_bytes(std::size_t{1} << 40, std::size_t{1} << 40), SIZE_MAX);
  const fixed_factor small(b.data(), 3, 3);
  EXPECT_EQ(small.transform_length(), 0u);
  EXPECT_EQ(small.heap_bytes(), 3 * sizeof(limb_t));
}

// Where the multiply cuts binary limbs into wide coefficients on four primes
// (10^8 digits on the vector engines), the kept transforms take the same
// width and length (sized without preparing: the kept bytes, two arrays a
// prime, no fold).
TEST(FixedFactor, KeptLengthTakesTheMultiplysWideCoefficients) {
  const std::size_t n = 5190513;  // 10^8 digits
  bool seen = false;
  for (const char* e : engines()) {
    EngineScope scope(e);
    const detail::ntt_layout l = detail::ntt_choose_layout(detail::ntt_default_engine(), n, n, radix::binary);
    if (l.bits <= 64 || l.shape.wrap != 0) continue;
    seen = true;
    EXPECT_EQ(detail::ntt_fixed_factor::bytes(n, n, 2 * n - 1, radix::binary, true),
              std::size_t{l.primes} * 2 * l.shape.n * sizeof(std::uint64_t))
        << e << " bits=" << l.bits << " n=" << l.shape.n;
  }
  const char* wide = std::getenv("BIGMUL_NTT_WIDE");  // "0": no wide coefficients anywhere
  if (!seen && detail::ntt_engine_available(detail::ntt_engine::avx2) && !(wide && std::string(wide) == "0"))
    ADD_FAILURE() << "no engine takes wide coefficients at 10^8 digits: the test checks nothing";
}

}  // namespace
}  // namespace bigmul
