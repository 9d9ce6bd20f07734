// SPDX-License-Identifier: LGPL-3.0-or-later
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bigmul::test {

std::uint64_t seed() {
  static const std::uint64_t s = [] {
    if (const char* e = std::getenv("BIGMUL_TEST_SEED")) return static_cast<std::uint64_t>(std::strtoull(e, nullptr, 0));
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }();
  return s;
}

std::mt19937_64 rng(std::uint64_t salt) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed()), static_cast<std::uint32_t>(seed() >> 32),
                    static_cast<std::uint32_t>(salt), static_cast<std::uint32_t>(salt >> 32)};
  return std::mt19937_64(seq);
}

bool heavy() {
  const char* e = std::getenv("BIGMUL_TEST_HEAVY");
  return e && std::strcmp(e, "0") != 0 && *e;
}

const char* operand_kind_name(operand_kind k) {
  switch (k) {
    case operand_kind::random: return "random";
    case operand_kind::all_max: return "all_max";
    case operand_kind::runs: return "runs";
    case operand_kind::sparse: return "sparse";
    case operand_kind::one: return "one";
    case operand_kind::power: return "power";
    case operand_kind::half_max: return "half_max";
  }
  return "?";
}

namespace {
limb_t limb_max(radix rx) { return rx == radix::binary ? ~limb_t{0} : decimal_limb_base - 1; }
limb_t random_limb(radix rx, std::mt19937_64& g) {
  return rx == radix::binary ? g() : g() % decimal_limb_base;
}
}  // namespace

std::vector<limb_t> make_operand(operand_kind kind, std::size_t n, radix rx, std::mt19937_64& g) {
  std::vector<limb_t> v(n, 0);
  if (n == 0) return v;
  switch (kind) {
    case operand_kind::random:
      for (auto& x : v) x = random_limb(rx, g);
      break;
    case operand_kind::all_max:
      for (auto& x : v) x = limb_max(rx);
      break;
    case operand_kind::runs: {
      // Runs of maximum and zero digits of random lengths (up to ~3 limbs).
      const unsigned digit_bits = rx == radix::binary ? 64 : 19;
      std::size_t pos = 0;
      const std::size_t total = n * digit_bits;
      bool ones = g() & 1;
      while (pos < total) {
        std::size_t len = 1 + g() % (3 * digit_bits);
        for (std::size_t i = pos; i < std::min(total, pos + len); ++i) {
          if (!ones) continue;
          std::size_t li = i / digit_bits, d = i % digit_bits;
          if (rx == radix::binary) {
            v[li] |= limb_t{1} << d;
          } else {
            limb_t p = 1;
            for (std::size_t k = 0; k < d; ++k) p *= 10;
            v[li] += 9 * p;
          }
        }
        pos += len;
        ones = !ones;
      }
      break;
    }
    case operand_kind::sparse:
      for (std::size_t i = 0; i < n; i += 1 + g() % 17) v[i] = random_limb(rx, g);
      break;
    case operand_kind::one:
      v[0] = 1;
      break;
    case operand_kind::power:
      break;
    case operand_kind::half_max:
      // Digits 4999..9 / 0x7fff..f patterns: balanced splits sit at the most
      // negative coefficient for every common coefficient size.
      for (auto& x : v) x = rx == radix::binary ? 0x7fff7fff7fff7fffull : 4999499949994999499ull;
      break;
  }
  if (v[n - 1] == 0) v[n - 1] = kind == operand_kind::power ? 1 : 1 + random_limb(rx, g) % 9;
  return v;
}

void to_mpz(mpz_t out, const limb_t* p, std::size_t n, radix rx) {
  if (rx == radix::binary) {
    mpz_import(out, n, -1, sizeof(limb_t), 0, 0, p);
    return;
  }
  // Horner on chunks would be quadratic; use GMP's own string conversion.
  std::string s;
  s.reserve(n * 19 + 1);
  char buf[24];
  for (std::size_t i = n; i-- > 0;) {
    std::snprintf(buf, sizeof buf, i + 1 == n ? "%llu" : "%019llu",
                  static_cast<unsigned long long>(p[i]));
    s += buf;
  }
  if (s.empty()) s = "0";
  mpz_set_str(out, s.c_str(), 10);
}

std::vector<limb_t> gmp_product(const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
                                radix rx) {
  mpz_t x, y;
  mpz_inits(x, y, nullptr);
  to_mpz(x, a, an, rx);
  to_mpz(y, b, bn, rx);
  mpz_mul(x, x, y);
  std::vector<limb_t> r(an + bn, 0);
  if (rx == radix::binary) {
    std::size_t count = 0;
    mpz_export(r.data(), &count, -1, sizeof(limb_t), 0, 0, x);
  } else {
    char* s = mpz_get_str(nullptr, 10, x);
    const std::size_t len = std::strlen(s);
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (i * 19 >= len) break;
      const std::size_t end = len - i * 19;
      const std::size_t begin = end >= 19 ? end - 19 : 0;
      limb_t v = 0;
      for (std::size_t k = begin; k < end; ++k) v = v * 10 + static_cast<limb_t>(s[k] - '0');
      r[i] = v;
    }
    void (*freefunc)(void*, size_t);
    mp_get_memory_functions(nullptr, nullptr, &freefunc);
    freefunc(s, len + 1);
  }
  mpz_clears(x, y, nullptr);
  return r;
}

std::string compare_with_mpz(const limb_t* r, std::size_t rn, radix rx, const mpz_t x) {
  mpz_t y;
  mpz_init(y);
  to_mpz(y, r, rn, rx);
  std::string msg;
  if (mpz_cmp(x, y) != 0) {
    mpz_t d;
    mpz_init(d);
    mpz_sub(d, x, y);
    msg = "product differs from GMP; |difference| has " +
          std::to_string(mpz_sizeinbase(d, 2)) + " bits, lowest set bit " +
          std::to_string(mpz_scan1(d, 0)) + " (limb " +
          std::to_string(mpz_scan1(d, 0) / 64) + " in binary)";
    mpz_clear(d);
  }
  mpz_clear(y);
  return msg;
}

namespace {
// Prints the seed when the run starts and again after a failed test.
class seed_printer : public ::testing::EmptyTestEventListener {
  void OnTestProgramStart(const ::testing::UnitTest&) override {
    std::printf("BIGMUL_TEST_SEED=%llu\n", static_cast<unsigned long long>(seed()));
  }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (info.result()->Failed())
      std::printf("  (replay with BIGMUL_TEST_SEED=%llu)\n", static_cast<unsigned long long>(seed()));
  }
};
}  // namespace

}  // namespace bigmul::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new bigmul::test::seed_printer);
  return RUN_ALL_TESTS();
}
