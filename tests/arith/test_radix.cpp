// SPDX-License-Identifier: LGPL-3.0-or-later
// Radix conversion (binary <-> 10^19 limbs) against GMP's mpz_get_str, and
// round trips, at sizes around every cached power.
#include <gtest/gtest.h>

#include <string>

#include "arith_test_util.hpp"
#include "bigmul/mul.hpp"
#include "src/arith/decimal_powers.hpp"
#include "src/arith/ntt_reuse.hpp"
#include "src/arith/radix_convert.hpp"
#include "src/arith/reciprocal.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/params_cpu.hpp"

#include <bit>
#include <cstdlib>
#include <optional>

using namespace bigmul;
using test::operand_kind;

namespace {

// Decimal digits of decimal limbs (no leading zeros).
std::string digits_of(const std::vector<limb_t>& dec) {
  if (dec.empty()) return "0";
  std::string s = std::to_string(dec.back());
  for (std::size_t i = dec.size() - 1; i-- > 0;) {
    const std::string part = std::to_string(dec[i]);
    s += std::string(19 - part.size(), '0') + part;
  }
  return s;
}

void check_both_ways(const std::vector<limb_t>& bin, const std::string& label) {
  const std::vector<limb_t> dec = binary_to_decimal(bin.data(), bin.size());
  const mpz_class ref = test::limbs_to_mpz(bin);
  ASSERT_EQ(digits_of(dec), ref.get_str(10)) << label << " n=" << bin.size();
  for (limb_t v : dec) ASSERT_LT(v, decimal_limb_base) << label;
  std::vector<limb_t> expect = bin;
  while (!expect.empty() && expect.back() == 0) expect.pop_back();
  ASSERT_EQ(decimal_to_binary(dec.data(), dec.size()), expect) << label << " n=" << bin.size();
}

std::vector<limb_t> limbs_of(const mpz_class& z) {
  std::vector<limb_t> v(mpz_size(z.get_mpz_t()));
  mpz_export(v.data(), nullptr, -1, sizeof(limb_t), 0, 0, z.get_mpz_t());
  return v;
}

}  // namespace

TEST(RadixConversion, RandomAndAdversarialAgainstGmp) {
  auto g = test::rng(301);
  for (std::size_t n : {1u, 2u, 3u, 20u, 23u, 24u, 25u, 47u, 64u, 100u, 333u, 1000u, 4097u}) {
    for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::runs, operand_kind::sparse,
                      operand_kind::power}) {
      check_both_ways(test::operand(kind, n, g), test::operand_kind_name(kind));
    }
  }
  check_both_ways({}, "zero");
}

TEST(RadixConversion, AroundCachedPowers) {
  // 10^(19 * 2^k) - 1, 10^(19 * 2^k), 10^(19 * 2^k) + 1 and twice those.
  for (unsigned k = 0; k < 11; ++k) {
    const mpz_class p = [&] {
      mpz_class r;
      mpz_ui_pow_ui(r.get_mpz_t(), 10, 19ul << k);
      return r;
    }();
    for (const mpz_class& v : {mpz_class(p - 1), p, mpz_class(p + 1), mpz_class(2 * p - 1), mpz_class(p * p - 1)})
      check_both_ways(limbs_of(v), "power k=" + std::to_string(k));
  }
}

TEST(RadixConversion, LargeOperands) {
  auto g = test::rng(302);
  const std::size_t big = test::heavy() ? 600000 : 60000;
  check_both_ways(test::operand(operand_kind::random, big, g), "random");
  check_both_ways(test::operand(operand_kind::all_max, big / 3, g), "all_max");
}

TEST(RadixConversion, IntegerConvertRadixKeepsSignAndValue) {
  auto g = test::rng(303);
  for (std::size_t n : {1u, 30u, 800u}) {
    for (bool negative : {false, true}) {
      const integer x = test::make_integer(test::operand(operand_kind::random, n, g), negative, radix::binary);
      const integer d = convert_radix(x, radix::decimal);
      EXPECT_EQ(d.get_radix(), radix::decimal);
      EXPECT_EQ(test::to_mpz_class(d), test::to_mpz_class(x));
      EXPECT_EQ(d.is_negative(), negative);
      const integer b = convert_radix(d, radix::binary);
      EXPECT_EQ(b.get_radix(), radix::binary);
      EXPECT_TRUE(std::equal(b.magnitude().begin(), b.magnitude().end(), x.magnitude().begin(), x.magnitude().end()));
      EXPECT_EQ(x.to_radix(radix::decimal).to_string(), d.to_string());
    }
  }
  EXPECT_TRUE(convert_radix(integer(), radix::decimal).is_zero());
}

// The converter with every schoolbook threshold from "always split" to
// "never split", so both code paths and every split shape meet GMP whatever
// the tuned table says (src/arith/radix_convert.hpp).
TEST(RadixConversion, EveryThresholdAgainstGmp) {
  auto g = test::rng(307);
  for (std::size_t n : {1u, 2u, 5u, 37u, 38u, 39u, 73u, 74u, 75u, 150u, 700u}) {
    for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::power}) {
      const std::vector<limb_t> bin = test::operand(kind, n, g);
      const mpz_class ref = test::limbs_to_mpz(bin);
      std::vector<limb_t> expect = bin;
      while (!expect.empty() && expect.back() == 0) expect.pop_back();
      for (std::size_t t : {std::size_t{1}, std::size_t{2}, std::size_t{3}, n / 2, n - 1, n, n + 1, ~std::size_t{0}}) {
        const std::vector<limb_t> dec = detail::binary_to_decimal(bin.data(), bin.size(), t);
        ASSERT_EQ(digits_of(dec), ref.get_str(10)) << test::operand_kind_name(kind) << " n=" << n << " t=" << t;
        ASSERT_EQ(detail::decimal_to_binary(dec.data(), dec.size(), t), expect)
            << test::operand_kind_name(kind) << " n=" << n << " t=" << t;
      }
    }
  }
}

// The scaled remainder tree (binary -> decimal): decimal lengths at every
// power-of-two span +-1 with small and large leaves, and values whose digits
// below a block boundary are all zeros or all nines (a * 10^(19 p) + r for
// r in {-2 .. 2}): there the truncated fractions put a block off by one, and
// the settling pass must restore it. Also 10^(19 L) - 1 for every L (all
// digits 9) and all-max binary limbs.
TEST(RadixConversion, ScaledTreeBoundariesAndSettling) {
  auto g = test::rng(311);
  const auto check = [](const mpz_class& v, std::size_t t, const std::string& label) {
    const std::vector<limb_t> bin = limbs_of(v);
    const std::vector<limb_t> dec = detail::binary_to_decimal(bin.data(), bin.size(), t);
    ASSERT_EQ(digits_of(dec), v.get_str(10)) << label << " t=" << t;
    for (limb_t d : dec) ASSERT_LT(d, decimal_limb_base) << label << " t=" << t;
  };
  const auto pow10 = [](unsigned long e) {
    mpz_class r;
    mpz_ui_pow_ui(r.get_mpz_t(), 10, e);
    return r;
  };
  for (std::size_t t : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{38}}) {
    for (std::size_t L : {2u, 3u, 4u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 63u, 64u, 65u, 127u, 129u, 257u}) {
      // Random L-limb decimal values, and all nines.
      const std::vector<limb_t> r = test::operand(operand_kind::random, L, g);
      check(test::limbs_to_mpz(r) % pow10(19 * L), t, "random L=" + std::to_string(L));
      check(pow10(19 * L) - 1, t, "nines L=" + std::to_string(L));
      // Zeros or nines below every block boundary p.
      const mpz_class a = test::limbs_to_mpz(test::operand(operand_kind::random, 2, g));
      for (std::size_t p = 1; p < L; p += (p < 40 ? 1 : 17)) {
        for (long d = -2; d <= 2; ++d) {
          const mpz_class v = a * pow10(19 * p) + d;
          check(v, t, "boundary L=" + std::to_string(L) + " p=" + std::to_string(p) + " d=" + std::to_string(d));
        }
      }
    }
  }
  for (std::size_t n : {1u, 2u, 31u, 32u, 33u, 64u, 65u, 1000u, 1025u})
    check(test::limbs_to_mpz(std::vector<limb_t>(n, ~limb_t{0})), 3, "all_max n=" + std::to_string(n));
}

// The root's reciprocal of 5^m is computed from only the top limbs it needs
// (or from 5^m padded with zero limbs when 5^m is shorter): its relative
// error must stay below 5 B^-(min_limbs + 2) on both sides of that switch,
// also when a wider cached one answers a narrower request.
TEST(RadixConversion, PowerReciprocalPrecisionAgainstGmp) {
  for (std::size_t k : {2u, 3u, 6u, 9u}) {  // 5^m of 3, 6, 45, 353 limbs
    const std::size_t dn = detail::decimal_power_at(k)->five.size();
    for (std::size_t min_limbs : {std::size_t{1}, dn / 2, dn - 2, dn - 1, dn, dn + 1, 2 * dn + 7, std::size_t{2}}) {
      const auto w = detail::decimal_power_wide_reciprocal(k, min_limbs);
      ASSERT_GE(w->r.size(), min_limbs + 3) << "k=" << k << " min_limbs=" << min_limbs;
      mpz_class five, r = test::limbs_to_mpz(w->r);
      mpz_ui_pow_ui(five.get_mpz_t(), 5, 19ul << k);
      mpz_class scaled;  // 2^exponent_bits
      mpz_ui_pow_ui(scaled.get_mpz_t(), 2, w->exponent_bits);
      // |r - 2^E / 5^m| * 5^m < 5 B^-(min_limbs + 2) * 2^E.
      mpz_class err = abs(r * five - scaled);
      mpz_class bound = 5 * scaled;
      mpz_fdiv_q_2exp(bound.get_mpz_t(), bound.get_mpz_t(), 64 * (min_limbs + 2));
      EXPECT_LT(err, bound) << "k=" << k << " min_limbs=" << min_limbs;
    }
  }
}

// Cyclic products by a fixed factor (src/arith/ntt_reuse.hpp) against GMP:
// a * b mod (B^n - 1), for every engine this processor runs, with operands
// from 1 limb to the whole length (all-max limbs: the largest coefficients
// and the longest carry chains, which wrap around the top), the same factor
// reused for many products, exact when the product fits.
TEST(RadixConversion, FixedFactorCyclicProductsAgainstGmp) {
  auto g = test::rng(313);
  const char* outer = std::getenv("BIGMUL_NTT_ENGINE");
  const std::optional<std::string> saved = outer ? std::optional<std::string>(outer) : std::nullopt;
  for (const char* name : {"ifma", "avx2", "portable"}) {
    detail::ntt_engine e = detail::ntt_engine::portable;
    if (std::string(name) == "ifma") e = detail::ntt_engine::ifma;
    if (std::string(name) == "avx2") e = detail::ntt_engine::avx2;
    if (!detail::ntt_engine_available(e)) continue;
    setenv("BIGMUL_NTT_ENGINE", name, 1);
    for (std::size_t bn : {1u, 2u, 7u, 100u, 1000u, 5000u}) {
      for (auto bkind : {operand_kind::random, operand_kind::all_max}) {
        const std::vector<limb_t> b = test::operand(bkind, bn, g);
        for (std::size_t max_an : {std::size_t{1}, bn, 3 * bn + 1}) {
          const detail::ntt_fixed_factor f(b.data(), b.size(), max_an, bn + max_an / 2);
          const std::size_t n = f.length();
          ASSERT_GE(n, std::max({bn, max_an, bn + max_an / 2}));
          mpz_class modulus;
          mpz_ui_pow_ui(modulus.get_mpz_t(), 2, 64 * n);
          modulus -= 1;
          for (std::size_t an : {std::size_t{1}, max_an / 2 + 1, max_an}) {
            for (auto akind : {operand_kind::random, operand_kind::all_max, operand_kind::sparse}) {
              const std::vector<limb_t> a = test::operand(akind, an, g);
              std::vector<limb_t> r(n, 7);
              f.mul_mod(r.data(), a.data(), a.size());
              const mpz_class got = test::limbs_to_mpz(r) % modulus;
              const mpz_class want = test::limbs_to_mpz(a) * test::limbs_to_mpz(b) % modulus;
              ASSERT_EQ(got, want) << name << " bn=" << bn << " an=" << an << " n=" << n << " "
                                   << test::operand_kind_name(akind) << " x " << test::operand_kind_name(bkind);
            }
          }
        }
      }
    }
  }
  if (saved) setenv("BIGMUL_NTT_ENGINE", saved->c_str(), 1);
  else unsetenv("BIGMUL_NTT_ENGINE");
}

// The same at lengths whose upper levels multiply by a cached transform of
// 5^m (ntt_reuse, cyclic products whose wrapped carries land under the
// window) and whose lower ones use the schoolbook window rows: zeros or nines
// below leaf and node boundaries, all nines, all-max binary limbs, with the
// tuned leaf and with tiny leaves (every level in play).
TEST(RadixConversion, ScaledTreeWithCachedTransformsAtBoundaries) {
  auto g = test::rng(317);
  const auto pow10 = [](unsigned long e) {
    mpz_class r;
    mpz_ui_pow_ui(r.get_mpz_t(), 10, e);
    return r;
  };
  for (std::size_t t : {std::size_t{2}, std::size_t{38}}) {
    for (std::size_t L : {1025u, 1152u, 1153u, 2048u, 2049u, 4500u}) {
      std::vector<mpz_class> values = {pow10(19 * L) - 1,
                                       test::limbs_to_mpz(test::operand(operand_kind::random, L, g)) % pow10(19 * L)};
      const mpz_class r = test::limbs_to_mpz(test::operand(operand_kind::random, L, g));
      // p = bit_floor(L): the root of the tree when L is just above a power
      // of two, where the digits above it are converted on their own.
      for (std::size_t p : {std::size_t{1}, std::size_t{32}, std::size_t{512}, std::size_t{1024}, std::bit_floor(L),
                            std::bit_floor(L) - 1, std::bit_floor(L) + 1, L - 4, L - 1}) {
        if (p >= L) continue;
        const mpz_class a = r % pow10(19 * (L - p));  // L decimal limbs in all (or fewer: leading zeros)
        for (long d : {-1L, 0L, 1L}) values.push_back(a * pow10(19 * p) + d);
      }
      for (const mpz_class& v : values) {
        const std::vector<limb_t> bin = limbs_of(v);
        const std::vector<limb_t> dec = detail::binary_to_decimal(bin.data(), bin.size(), t);
        ASSERT_EQ(digits_of(dec), v.get_str(10)) << "L=" << L << " t=" << t;
      }
    }
  }
  for (std::size_t n : {2000u, 4096u, 9000u}) {
    const std::vector<limb_t> ones(n, ~limb_t{0});
    const std::vector<limb_t> dec = binary_to_decimal(ones.data(), ones.size());
    ASSERT_EQ(digits_of(dec), test::limbs_to_mpz(ones).get_str(10)) << "all_max n=" << n;
  }
}

// bigmul::release_scratch() drops the converter's caches through the hook
// mul/ calls (the power table is rebuilt on the next use), an entry a caller
// still holds stays valid, and conversions before and after agree with GMP.
TEST(RadixConversion, ReleaseScratchDropsTheConverterCaches) {
  auto g = test::rng(319);
  const std::vector<limb_t> bin = test::operand(operand_kind::random, 5000, g);
  const std::string want = test::limbs_to_mpz(bin).get_str(10);
  ASSERT_EQ(digits_of(binary_to_decimal(bin.data(), bin.size())), want);
  const auto held = detail::decimal_power_at(6);
  const std::vector<limb_t> five = held->five;
  release_scratch();
  EXPECT_EQ(held->m, 19u << 6);
  EXPECT_EQ(held->five, five);
  const auto again = detail::decimal_power_at(6);
  EXPECT_NE(again.get(), held.get()) << "the table was not dropped";
  EXPECT_EQ(again->five, five);
  const std::vector<limb_t> dec = binary_to_decimal(bin.data(), bin.size());
  ASSERT_EQ(digits_of(dec), want);
  std::vector<limb_t> expect = bin;
  while (!expect.empty() && expect.back() == 0) expect.pop_back();
  release_scratch();
  ASSERT_EQ(decimal_to_binary(dec.data(), dec.size()), expect);
}

// approx_reciprocal's contract, a x < B^(2n) <= a (x + 2), against GMP on
// both sides of its switch to cyclic Newton steps (reciprocal_cyclic_limbs,
// where the residual wraps modulo B^N - 1) and well above it, for divisors at
// the ends of the normalized range (B^n / 2, all-max limbs), with long runs,
// and random ones: the residual's sign and the corrections then vary.
TEST(RadixConversion, NewtonReciprocalAgainstGmp) {
  auto g = test::rng(323);
  const std::size_t c = detail::reciprocal_cyclic_limbs;
  std::vector<std::size_t> sizes{1000, 20001, c - 1, c, c + 1};
  if (test::heavy()) sizes.insert(sizes.end(), {2 * c - 1, 2 * c + 1, 700000});
  for (std::size_t n : sizes) {
    for (int kind = 0; kind < 6; ++kind) {
      std::vector<limb_t> a;
      switch (kind) {
        case 0: a.assign(n, 0); a.back() = limb_t{1} << 63; break;  // B^n / 2
        case 1: a.assign(n, ~limb_t{0}); break;                      // B^n - 1
        case 2: a = test::operand(operand_kind::runs, n, g); break;
        case 3: a.assign(n, 0); a.back() = limb_t{1} << 63; a[0] = 1; break;  // just above B^n / 2
        default: a = test::operand(operand_kind::random, n, g); break;
      }
      a.back() |= limb_t{1} << 63;
      std::vector<limb_t> x(n + 1);
      detail::approx_reciprocal(x.data(), a.data(), n);
      const mpz_class A = test::limbs_to_mpz(a), X = test::limbs_to_mpz(x);
      mpz_class top;
      mpz_ui_pow_ui(top.get_mpz_t(), 2, 128 * n);
      EXPECT_LT(A * X, top) << "n=" << n << " kind=" << kind;
      EXPECT_LE(top, A * (X + 2)) << "n=" << n << " kind=" << kind;
    }
  }
}

// Decimal -> binary (and back) at the decimal lengths where the merge tree
// changes shape: the schoolbook threshold +-1 (one Horner block or a merge)
// and one block past a power of two (an odd block carried up), for random,
// all-nines (10^(19 L) - 1), all-max-limb and power-of-D operands, on the
// library's tuned thresholds; against GMP.
TEST(RadixConversion, DecimalLengthsAtTheMergeTreeShapes) {
  auto g = test::rng(329);
  const std::size_t fd = detail::params_cpu::radix_from_decimal_basecase;
  const std::size_t s = std::bit_floor(fd);
  for (std::size_t L : {fd - 1, fd, fd + 1, 2 * s + 1, 4 * s - 1, 64 * s + 1}) {
    for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::power}) {
      const auto d = test::make_operand(kind, L, radix::decimal, g);
      const std::vector<limb_t> b = decimal_to_binary(d.data(), d.size());
      ASSERT_EQ(test::limbs_to_mpz(b).get_str(10), digits_of(d)) << test::operand_kind_name(kind) << " L=" << L;
      ASSERT_EQ(binary_to_decimal(b.data(), b.size()), d) << test::operand_kind_name(kind) << " L=" << L;
    }
    const std::vector<limb_t> nines(L, decimal_limb_base - 1);
    mpz_class all9;
    mpz_ui_pow_ui(all9.get_mpz_t(), 10, 19 * L);
    all9 -= 1;
    ASSERT_EQ(test::limbs_to_mpz(decimal_to_binary(nines.data(), nines.size())), all9) << "nines L=" << L;
  }
}

// detail::prepare_conversion builds the table ahead of a conversion (the
// command line, while it parses): conversions of lengths across the tree
// shapes after it, from a dropped table, agree with GMP, and lengths at or
// below the schoolbook thresholds (and 0) build nothing and are fine.
TEST(RadixConversion, PreparedTablesGiveTheSameConversions) {
  auto g = test::rng(321);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{37}, std::size_t{150}, std::size_t{151},
                        std::size_t{1000}, std::size_t{4096}, std::size_t{4097}, std::size_t{20000}}) {
    const std::vector<limb_t> bin = test::operand(operand_kind::random, n, g);
    const mpz_class ref = test::limbs_to_mpz(bin);
    release_scratch();
    detail::prepare_conversion(bin.size(), radix::binary);
    const std::vector<limb_t> dec = binary_to_decimal(bin.data(), bin.size());
    ASSERT_EQ(digits_of(dec), ref.get_str(10)) << n;
    release_scratch();
    detail::prepare_conversion(dec.size(), radix::decimal);
    std::vector<limb_t> expect = bin;
    while (!expect.empty() && expect.back() == 0) expect.pop_back();
    ASSERT_EQ(decimal_to_binary(dec.data(), dec.size()), expect) << n;
  }
}
