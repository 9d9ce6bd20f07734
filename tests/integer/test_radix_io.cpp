// SPDX-License-Identifier: LGPL-3.0-or-later
// Digit I/O in wide chunks (src/digits) and every radix change of
// bigmul::integer against GMP: each input radix x output radix at sizes
// across the converter's schoolbook thresholds and at 10^6 digits,
// comparisons across radices, signs and zero; every bad byte at every
// position of a chunk reports its exact offset.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <gmpxx.h>

#include <string>
#include <vector>

#include "bigmul/integer.hpp"
#include "mul/params_cpu.hpp"
#include "src/digits/digits.hpp"
#include "src/digits/decimal_avx512.hpp"
#include "src/digits/hex_avx512.hpp"
#include "src/digits/swar.hpp"
#include "test_support.hpp"

using bigmul::integer;
using bigmul::limb_t;
using bigmul::radix;
namespace digits = bigmul::digits;

namespace {

std::string random_digits(std::mt19937_64& g, std::size_t n, unsigned base, bool upper = false) {
  const char* alphabet = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string s(n, '0');
  for (auto& c : s) c = alphabet[g() % base];
  if (n) s[0] = alphabet[1 + g() % (base - 1)];
  return s;
}

std::string gmp_text(const mpz_class& x, int base) {
  if (base == 10) return x.get_str(10);
  const std::string d = mpz_class(abs(x)).get_str(16);
  return (x < 0 ? "-0x" : "0x") + d;
}

// A value of about `digits` digits in radix rx, with sign `sign`, and GMP's copy.
struct sample {
  integer x;
  mpz_class ref;
};

sample make(std::mt19937_64& g, std::size_t digits, radix rx, int sign, bool all_max = false) {
  const unsigned base = rx == radix::decimal ? 10 : 16;
  std::string body = all_max ? std::string(digits, base == 10 ? '9' : 'f') : random_digits(g, digits, base);
  mpz_class ref(body, static_cast<int>(base));
  if (sign < 0) ref = -ref;
  const std::string lit = (sign < 0 ? "-" : "") + std::string(base == 16 ? "0x" : "") + body;
  return {integer::from_string(lit), ref};
}

}  // namespace

TEST(DigitsSwar, KernelsAgainstScalarCode) {
  namespace swar = digits::swar;
  // Every 4-digit group in both halves of decimal8 / decimal_chars8.
  for (std::uint32_t v = 0; v < 100000000; v += 9973) {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08u", v);
    ASSERT_EQ(swar::decimal8(swar::load8(buf)), v);
    char out[8];
    swar::store8(out, swar::decimal_chars8(v));
    ASSERT_EQ(std::string(out, 8), std::string(buf, 8));
  }
  for (std::uint32_t v : {0u, 1u, 9999u, 10000u, 99999999u, 12345678u, 10000001u}) {
    char buf[9], out[8];
    std::snprintf(buf, sizeof buf, "%08u", v);
    swar::store8(out, swar::decimal_chars8(v));
    EXPECT_EQ(std::string(out, 8), std::string(buf, 8));
    EXPECT_EQ(swar::decimal8(swar::load8(buf)), v);
  }
  auto g = bigmul::test::rng(1301);
  for (int i = 0; i < 100000; ++i) {
    const auto v = static_cast<std::uint32_t>(i < 16 ? (i * 0x11111111u) : g());
    char lower[9], upper[9], out[8];
    std::snprintf(lower, sizeof lower, "%08x", v);
    std::snprintf(upper, sizeof upper, "%08X", v);
    std::uint32_t a = 0, b = 0;
    ASSERT_TRUE(swar::hex8(swar::load8(lower), a));
    ASSERT_TRUE(swar::hex8(swar::load8(upper), b));
    ASSERT_EQ(a, v);
    ASSERT_EQ(b, v);
    swar::store8(out, swar::hex_chars8(v));
    ASSERT_EQ(std::string(out, 8), std::string(lower, 8));
  }
}

TEST(DigitsParse, EveryBadByteAtEveryPositionOfAChunk) {
  // 3 full limbs and a partial one in each base; each byte value that is not
  // a digit, at each position: the offset is exact, and only the first of two
  // bad bytes is reported.
  for (unsigned base : {10u, 16u}) {
    auto g = bigmul::test::rng(1302 + base);
    const std::size_t n = 3 * digits::per_limb(base) + 5;
    const std::string good = random_digits(g, n, base);
    std::vector<limb_t> out(digits::limbs_for(n, base));
    ASSERT_EQ(digits::parse(good, base, out.data()), digits::no_error);
    for (unsigned c = 0; c < 256; ++c) {
      const bool digit = (c >= '0' && c <= '9') ||
                         (base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
      for (std::size_t pos = 0; pos < n; ++pos) {
        std::string s = good;
        s[pos] = static_cast<char>(c);
        if (pos + 7 < n) s[pos + 7] = '/';
        const std::size_t got = digits::parse(s, base, out.data());
        const std::size_t want = digit ? (pos + 7 < n ? pos + 7 : digits::no_error) : pos;
        ASSERT_EQ(got, want) << "base " << base << " byte " << c << " at " << pos;
      }
    }
  }
}

#if defined(BIGMUL_DIGITS_HEX_AVX512)
// The 64-character AVX-512 hex kernels against the SWAR ones: random and
// edge limbs, both cases; every byte value at every position of a group is
// accepted exactly when it is a hex digit.
TEST(DigitsHexAvx512, KernelsAgainstSwar) {
  namespace swar = digits::swar;
  if (!digits::hex_avx512::supported()) GTEST_SKIP() << "no AVX-512BW on this processor";
  auto g = bigmul::test::rng(1318);
  const auto swar_limb = [&](const char* p) {
    std::uint32_t hi = 0, lo = 0;
    EXPECT_TRUE(swar::hex8(swar::load8(p), hi) && swar::hex8(swar::load8(p + 8), lo));
    return (limb_t{hi} << 32) | lo;
  };
  for (int round = 0; round < 2000; ++round) {
    limb_t a[4];
    for (auto& x : a) x = round < 3 ? (round == 0 ? 0 : round == 1 ? ~limb_t{0} : limb_t{1} << 63) : g();
    if (round >= 3 && round % 5 == 0) a[g() % 4] = 0;
    char text[65] = {};
    digits::hex_avx512::print4(a, text);
    for (int j = 0; j < 4; ++j) {
      char expect[16];
      swar::store8(expect, swar::hex_chars8(static_cast<std::uint32_t>(a[3 - j] >> 32)));
      swar::store8(expect + 8, swar::hex_chars8(static_cast<std::uint32_t>(a[3 - j])));
      ASSERT_EQ(std::string(text + 16 * j, 16), std::string(expect, 16)) << "round " << round;
    }
    std::string mixed(text, 64);
    for (auto& c : mixed)
      if (c >= 'a' && g() % 2) c = static_cast<char>(c - 'a' + 'A');
    limb_t back[4] = {};
    ASSERT_TRUE(digits::hex_avx512::parse4(mixed.data(), back));
    for (int j = 0; j < 4; ++j) {
      ASSERT_EQ(back[j], a[j]) << "round " << round;
      ASSERT_EQ(back[3 - j], swar_limb(mixed.data() + 16 * j));
    }
  }
  const std::string good = random_digits(g, 64, 16);
  for (unsigned c = 0; c < 256; ++c) {
    const bool digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    for (std::size_t pos = 0; pos < 64; ++pos) {
      std::string s = good;
      s[pos] = static_cast<char>(c);
      limb_t out[4];
      ASSERT_EQ(digits::hex_avx512::parse4(s.data(), out), digit) << "byte " << c << " at " << pos;
    }
  }
}
#endif

// Hex texts of every length from 0 to 13 limbs plus 0-15 digits (the
// 64-character groups, the SWAR limbs after them and the partial top limb)
// against GMP, and a bad byte at every position of the longest: the exact
// offset.
TEST(DigitsParse, HexGroupsAndTailsAgainstGmp) {
  auto g = bigmul::test::rng(1319);
  for (std::size_t n = 1; n <= 16 * 13 + 15; ++n) {
    const std::string s = random_digits(g, n, 16, n % 3 == 0);
    std::vector<limb_t> out(digits::limbs_for(n, 16));
    ASSERT_EQ(digits::parse(s, 16, out.data()), digits::no_error) << n;
    mpz_class got;
    mpz_import(got.get_mpz_t(), out.size(), -1, sizeof(limb_t), 0, 0, out.data());
    ASSERT_EQ(got, mpz_class(s, 16)) << n;
    std::string printed(digits::printed_size(out.data(), out.size(), 16), '?');
    digits::print(out.data(), out.size(), 16, printed.data());
    ASSERT_EQ(printed, mpz_class(s, 16).get_str(16)) << n;
  }
  const std::size_t n = 16 * 13 + 9;
  const std::string good = random_digits(g, n, 16);
  std::vector<limb_t> out(digits::limbs_for(n, 16));
  for (std::size_t pos = 0; pos < n; ++pos)
    for (const char bad : {'g', '/', ':', '@', 'G', '`', '\0', '\xff'}) {
      std::string s = good;
      s[pos] = bad;
      ASSERT_EQ(digits::parse(s, 16, out.data()), pos) << "at " << pos;
    }
}

#if defined(BIGMUL_DIGITS_DECIMAL_AVX512)
// The 38-character AVX-512 decimal kernel against snprintf's digits: edge
// and random limbs; every byte value at every position is accepted exactly
// when it is a decimal digit; nothing past the 38th byte is read (the text
// ends at a page whose successor is not mapped).
TEST(DigitsDecimalAvx512, KernelAgainstScalarCode) {
  if (!digits::decimal_avx512::supported()) GTEST_SKIP() << "no AVX-512 VBMI on this processor";
  auto g = bigmul::test::rng(1320);
  constexpr limb_t top = 9999999999999999999ull;
  for (int round = 0; round < 5000; ++round) {
    limb_t v[2];
    for (auto& x : v) {
      const limb_t edges[] = {0, top, 1000000000000000000ull, 999999999999999999ull, 1, 10000000000000000000ull - 2};
      x = round < 36 ? edges[(round / 6 + (&x - v) * round) % 6] : g() % (top + 1);
    }
    char text[40];
    std::snprintf(text, sizeof text, "%019llu%019llu", static_cast<unsigned long long>(v[1]),
                  static_cast<unsigned long long>(v[0]));
    limb_t out[2] = {};
    ASSERT_TRUE(digits::decimal_avx512::parse2(text, out));
    ASSERT_EQ(out[0], v[0]) << text;
    ASSERT_EQ(out[1], v[1]) << text;
  }
  const std::string good = random_digits(g, 38, 10);
  for (unsigned c = 0; c < 256; ++c)
    for (std::size_t pos = 0; pos < 38; ++pos) {
      std::string s = good;
      s[pos] = static_cast<char>(c);
      limb_t out[2];
      ASSERT_EQ(digits::decimal_avx512::parse2(s.data(), out), c >= '0' && c <= '9') << "byte " << c << " at " << pos;
    }
  // The last 38 bytes of a mapped page, the next page unmapped.
  const long page = ::sysconf(_SC_PAGESIZE);
  void* m = ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  ASSERT_EQ(::munmap(static_cast<char*>(m) + page, page), 0);
  char* end = static_cast<char*>(m) + page;
  std::memcpy(end - 38, good.data(), 38);
  limb_t out[2];
  EXPECT_TRUE(digits::decimal_avx512::parse2(end - 38, out));
  EXPECT_EQ(mpz_class(std::to_string(out[1]) + std::string(19 - std::to_string(out[0]).size(), '0') + std::to_string(out[0])),
            mpz_class(good, 10));
  ::munmap(m, page);
}

// The 8-limb AVX-512 decimal print against snprintf, limb by limb: every
// power of ten and its neighbours, multiples of 10^16 and 10^8 (where the
// double quotient estimates round across an integer) and their neighbours,
// the largest limb, random limbs.
TEST(DigitsDecimalAvx512, PrintAgainstScalarCode) {
  if (!digits::decimal_avx512::print_supported()) GTEST_SKIP() << "no AVX-512 VBMI and DQ on this processor";
  auto g = bigmul::test::rng(1322);
  constexpr limb_t top = 9999999999999999999ull;
  std::vector<limb_t> edges = {0, top, top - 1};
  limb_t p10 = 1;
  for (int k = 0; k <= 18; ++k, p10 *= 10)
    for (limb_t d : {p10 - 1, p10, p10 + 1}) edges.push_back(d);
  for (limb_t j : {1ull, 2ull, 9ull, 10ull, 99ull, 100ull, 500ull, 998ull, 999ull})
    for (limb_t unit : {10000000000000000ull, 100000000ull})
      for (limb_t d : {j * unit - 1, j * unit, j * unit + 1}) edges.push_back(d);
  for (int round = 0; round < 20000; ++round) {
    limb_t v[8];
    for (int i = 0; i < 8; ++i)
      v[i] = round < static_cast<int>(edges.size()) || g() % 2 ? edges[(round + 5 * i) % edges.size()] : g() % (top + 1);
    char text[152];
    digits::decimal_avx512::print8(v, text);
    for (int k = 0; k < 8; ++k) {
      char want[20];
      std::snprintf(want, sizeof want, "%019llu", static_cast<unsigned long long>(v[7 - k]));
      ASSERT_EQ(std::string(text + 19 * k, 19), std::string(want, 19)) << "round " << round << ", limb " << 7 - k;
    }
  }
}
#endif

// Decimal and hex prints of 1 .. 40 limbs (the 8- and 4-limb vector blocks
// and the limbs after them) and of 3 * 2^14 + 5 limbs over 1-3 threads
// (chunks that start anywhere), random limbs with edge limbs among them,
// against the limbs printed one by one.
TEST(DigitsPrint, BlocksAndTailsAgainstTheLimbs) {
  auto g = bigmul::test::rng(1323);
  for (unsigned base : {10u, 16u}) {
    const limb_t top = base == 10 ? 9999999999999999999ull : ~limb_t{0};
    std::vector<std::size_t> sizes;
    for (std::size_t n = 1; n <= 40; ++n) sizes.push_back(n);
    sizes.push_back(3 * (std::size_t{1} << 14) + 5);
    for (std::size_t n : sizes) {
      std::vector<limb_t> v(n);
      for (auto& x : v) x = g() % 4 == 0 ? (g() % 2 ? 0 : top) : (base == 10 ? g() % (top + 1) : g());
      if (v[n - 1] == 0) v[n - 1] = 1;
      std::string want = base == 10 ? std::to_string(v[n - 1]) : [&] {
        char t[17];
        std::snprintf(t, sizeof t, "%llx", static_cast<unsigned long long>(v[n - 1]));
        return std::string(t);
      }();
      for (std::size_t i = n - 1; i-- > 0;) {
        char t[20];
        std::snprintf(t, sizeof t, base == 10 ? "%019llu" : "%016llx", static_cast<unsigned long long>(v[i]));
        want += t;
      }
      for (unsigned threads : {1u, 2u, 3u}) {
        if (threads > 1 && n < 100) continue;
        std::string out(digits::printed_size(v.data(), n, base), '?');
        digits::print(v.data(), n, base, out.data(), threads);
        ASSERT_EQ(out, want) << "base " << base << ", " << n << " limbs, threads " << threads;
      }
    }
  }
}

// Decimal texts of every length from 0 to 13 limbs plus 0-18 digits (the
// two-limb groups, the SWAR limbs after them, the partial top limb) against
// GMP, and a bad byte at every position of the longest: the exact offset.
TEST(DigitsParse, DecimalGroupsAndTailsAgainstGmp) {
  auto g = bigmul::test::rng(1321);
  const mpz_class d19("10000000000000000000");
  for (std::size_t n = 1; n <= 19 * 13 + 18; ++n) {
    const std::string s = random_digits(g, n, 10);
    std::vector<limb_t> out(digits::limbs_for(n, 10));
    ASSERT_EQ(digits::parse(s, 10, out.data()), digits::no_error) << n;
    mpz_class got = 0;
    for (std::size_t i = out.size(); i-- > 0;) got = got * d19 + mpz_class(std::to_string(out[i]));
    ASSERT_EQ(got, mpz_class(s, 10)) << n;
  }
  const std::size_t n = 19 * 13 + 11;
  const std::string good = random_digits(g, n, 10);
  std::vector<limb_t> out(digits::limbs_for(n, 10));
  for (std::size_t pos = 0; pos < n; ++pos)
    for (const char bad : {'a', '/', ':', ' ', '\0', '\xb9'}) {
      std::string s = good;
      s[pos] = bad;
      ASSERT_EQ(digits::parse(s, 10, out.data()), pos) << "at " << pos;
    }
}

TEST(DigitsParse, ChunkedOverThreadsFindsTheLowestBadOffset) {
  auto g = bigmul::test::rng(1303);
  for (unsigned base : {10u, 16u}) {
    std::string s = random_digits(g, 3000000, base);
    s[2999999] = 'z';
    s[1700001] = ' ';
    s[400003] = 'g';
    std::vector<limb_t> out(digits::limbs_for(s.size(), base));
    for (unsigned threads : {1u, 2u, 7u}) EXPECT_EQ(digits::parse(s, base, out.data(), threads), 400003u);
  }
}

TEST(DigitsPrint, EdgeLimbsBothRadices) {
  const std::vector<limb_t> dec = {0, 9999999999999999999ull, 1, 1000000000000000000ull, 999, 10};
  const std::vector<limb_t> bin = {0, ~limb_t{0}, 1, limb_t{1} << 63, 0xabcdef, 0x10};
  for (unsigned base : {10u, 16u}) {
    const std::vector<limb_t>& v = base == 10 ? dec : bin;
    mpz_class ref = 0;
    for (std::size_t i = v.size(); i-- > 0;) ref = ref * (base == 10 ? mpz_class("10000000000000000000") : mpz_class("18446744073709551616")) + mpz_class(std::to_string(v[i]));
    std::string out(digits::printed_size(v.data(), v.size(), base), '?');
    digits::print(v.data(), v.size(), base, out.data());
    EXPECT_EQ(out, ref.get_str(static_cast<int>(base)));
  }
  std::string zero(digits::printed_size(nullptr, 0, 10), '?');
  digits::print(nullptr, 0, 10, zero.data());
  EXPECT_EQ(zero, "0");
}

TEST(IntegerRadix, EveryInputAndOutputRadixAcrossThresholdsAgainstGmp) {
  namespace p = bigmul::detail::params_cpu;
  auto g = bigmul::test::rng(1304);
  // Decimal lengths (10^19 limbs) around both schoolbook thresholds, their
  // doubles (one split), and far past them.
  std::vector<std::size_t> lengths = {1, 2, 3, 100, 1000};
  for (std::size_t t : {p::radix_to_decimal_basecase, p::radix_from_decimal_basecase})
    for (std::size_t d : {t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1}) lengths.push_back(d);
  for (std::size_t L : lengths) {
    for (radix rx : {radix::decimal, radix::binary}) {
      for (int sign : {1, -1}) {
        for (bool all_max : {false, true}) {
          // About L decimal limbs of value in either radix.
          const std::size_t nd = rx == radix::decimal ? 19 * L - 3 : (19 * L - 3) * 5 / 6;
          const sample s = make(g, nd, rx, sign, all_max);
          SCOPED_TRACE(std::to_string(L) + (rx == radix::decimal ? " decimal" : " binary"));
          ASSERT_EQ(s.x.to_string(10), gmp_text(s.ref, 10));
          ASSERT_EQ(s.x.to_string(16), gmp_text(s.ref, 16));
          ASSERT_EQ(s.x.to_string(16, false), gmp_text(s.ref, 16).erase(sign < 0 ? 1 : 0, 2));
          const integer other = s.x.to_radix(rx == radix::decimal ? radix::binary : radix::decimal);
          ASSERT_NE(other.get_radix(), s.x.get_radix());
          ASSERT_EQ(other.to_string(10), gmp_text(s.ref, 10));
          ASSERT_TRUE(other == s.x);
          ASSERT_TRUE(other.to_radix(s.x.get_radix()).magnitude().size() == s.x.size());
          ASSERT_EQ(other.printed_size(16), gmp_text(s.ref, 16).size());
        }
      }
    }
  }
  for (radix rx : {radix::decimal, radix::binary}) {
    const integer z = integer::from_string(rx == radix::decimal ? "-0000" : "-0x000");
    EXPECT_EQ(z.to_string(10), "0");
    EXPECT_EQ(z.to_string(16), "0x0");
    EXPECT_TRUE(z.to_radix(radix::binary).is_zero());
    EXPECT_TRUE(z.to_radix(radix::decimal).is_zero());
    EXPECT_FALSE(z.is_negative());
  }
}

TEST(IntegerRadix, MillionDigitsEveryDirectionAgainstGmp) {
  auto g = bigmul::test::rng(1305);
  for (radix rx : {radix::decimal, radix::binary}) {
    const sample s = make(g, 1000000, rx, rx == radix::decimal ? 1 : -1);
    EXPECT_TRUE(s.x.to_string(10) == gmp_text(s.ref, 10));
    EXPECT_TRUE(s.x.to_string(16) == gmp_text(s.ref, 16));
  }
}

TEST(IntegerRadix, ComparisonsAcrossRadicesAgainstGmp) {
  auto g = bigmul::test::rng(1306);
  const auto check = [](const integer& a, const integer& b, const mpz_class& ra, const mpz_class& rb) {
    const int want = cmp(ra, rb);
    const auto got = a <=> b;
    ASSERT_EQ(got < 0, want < 0) << ra.get_str(16).substr(0, 40) << " vs " << rb.get_str(16).substr(0, 40);
    ASSERT_EQ(got == 0, want == 0);
    ASSERT_EQ(a == b, want == 0);
    ASSERT_EQ((b <=> a) < 0, want > 0);
  };
  const auto dec = [](const mpz_class& v) { return integer::from_string(v.get_str(10)); };
  const auto hex = [](const mpz_class& v) { return integer::from_string(gmp_text(v, 16)); };
  for (std::size_t digits : {1u, 19u, 20u, 200u, 3000u, 60000u}) {
    for (int sign : {1, -1}) {
      mpz_class x(random_digits(g, digits, 10), 10);
      if (sign < 0) x = -x;
      // Equal values, neighbours, and sizes around the estimate's margin
      // (2^k and 10^j near each other).
      for (const mpz_class& y : {mpz_class(x), mpz_class(x + 1), mpz_class(x - 1), mpz_class(-x), mpz_class(x * 2),
                                 mpz_class(x * 3 / 2), mpz_class(x / 3), mpz_class(0)}) {
        check(dec(x), hex(y), x, y);
        check(hex(x), dec(y), x, y);
      }
    }
  }
  for (unsigned k : {1u, 63u, 64u, 65u, 1000u, 4000u}) {
    mpz_class two, ten;
    mpz_ui_pow_ui(two.get_mpz_t(), 2, k);
    mpz_ui_pow_ui(ten.get_mpz_t(), 10, static_cast<unsigned long>(k * 0.30103));
    for (const mpz_class& a : {two, mpz_class(two - 1), mpz_class(two + 1)})
      for (const mpz_class& b : {ten, mpz_class(ten - 1), mpz_class(ten + 1), mpz_class(ten * 10)}) {
        check(hex(a), dec(b), a, b);
        check(dec(a), hex(b), a, b);
        check(hex(mpz_class(-a)), dec(mpz_class(-b)), -a, -b);
      }
  }
}

TEST(IntegerRadix, MixedRadixProductsAcrossThresholdsAgainstGmp) {
  namespace p = bigmul::detail::params_cpu;
  auto g = bigmul::test::rng(1307);
  for (std::size_t L : {std::size_t{1}, p::radix_to_decimal_basecase + 1, p::radix_from_decimal_basecase + 1,
                        std::size_t{5000}}) {
    for (int sign : {1, -1}) {
      const sample a = make(g, 19 * L, radix::decimal, sign), b = make(g, 16 * L, radix::binary, 1);
      const mpz_class prod = a.ref * b.ref;
      EXPECT_TRUE((a.x * b.x).to_string(10) == gmp_text(prod, 10)) << L;
      EXPECT_TRUE((b.x * a.x).to_string(16) == gmp_text(prod, 16)) << L;
    }
  }
}
