// SPDX-License-Identifier: LGPL-3.0-or-later
// Montgomery arithmetic against GMP's mpz_powm / mpz_mul + mpz_mod: the
// scalar limb engine, the IFMA lanes, and bigmul::integer's mod_* single and
// batched (every batch size 1..17 and a large one, threads 1/2/8, one modulus
// or one per operation), on random and adversarial operands: moduli 2^k - 1
// (all ones), 2^(k-1) + 1, 1, 3; bases 0, 1, m - 1; exponents 0, 1, all ones,
// longer than the modulus. Bad arguments throw bigmul::error.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bigmul/bigmul.hpp"
#include "bigmul/modular.hpp"
#include "src/arith/montgomery.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;

mpz_class to_mpz(const integer& x) {
  mpz_class r;
  bigmul::test::to_mpz(r.get_mpz_t(), x.magnitude().data(), x.size(), x.get_radix());
  if (x.is_negative()) r = -r;
  return r;
}

integer from_mpz(const mpz_class& x) {
  return integer::from_string((x < 0 ? "-0x" : "0x") + mpz_class(abs(x)).get_str(16));
}

mpz_class random_bits(gmp_randclass& r, std::size_t bits) { return r.get_z_bits(bits); }

// An odd modulus of exactly `bits` bits of the given shape.
mpz_class make_modulus(gmp_randclass& r, std::size_t bits, int shape) {
  mpz_class one = 1;
  switch (shape) {
    case 0: return (one << bits) - 1;                     // 2^k - 1: all ones
    case 1: return (one << (bits - 1)) + 1;               // 2^(k-1) + 1
    default: {
      mpz_class m = random_bits(r, bits) | (one << (bits - 1)) | 1;  // random odd, top bit set
      return m;
    }
  }
}

// The bases that hurt: 0, 1, m - 1, and random.
mpz_class make_base(gmp_randclass& r, const mpz_class& m, int k) {
  switch (k % 4) {
    case 0: return 0;
    case 1: return m > 1 ? mpz_class(1) : mpz_class(0);
    case 2: return m - 1;
    default: return r.get_z_range(m);
  }
}

// Exponents: 0, 1, all ones of the modulus's size, random longer than m, random.
mpz_class make_exponent(gmp_randclass& r, std::size_t bits, int k) {
  switch (k % 5) {
    case 0: return 0;
    case 1: return 1;
    case 2: return (mpz_class(1) << bits) - 1;
    case 3: return random_bits(r, bits + 70);
    default: return random_bits(r, bits);
  }
}

mpz_class powm(const mpz_class& b, const mpz_class& e, const mpz_class& m) {
  mpz_class r;
  mpz_powm(r.get_mpz_t(), b.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
  return r;
}

void seed_rand(gmp_randclass& r, std::uint64_t salt) {
  r.seed(static_cast<unsigned long>(bigmul::test::seed() ^ (salt * 0x9e3779b97f4a7c15ull)));
}

constexpr std::size_t bit_sizes[] = {2, 5, 63, 64, 65, 127, 200, 511, 1024, 1500, 2048};

TEST(Montgomery, ScalarLimbsMatchGmp) {
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 1510);
  for (std::size_t bits : bit_sizes)
    for (int shape = 0; shape < 3; ++shape)
      for (int k = 0; k < (bits > 1024 ? 5 : 10); ++k) {
        const mpz_class m = make_modulus(r, bits, shape), b = make_base(r, m, k), e = make_exponent(r, bits, k);
        const integer mi = from_mpz(m), bi = from_mpz(b), ei = from_mpz(e);
        const std::size_t n = mi.size();
        const detail::mont_ctx c = detail::mont_setup(mi.magnitude().data(), n);
        std::vector<limb_t> bp(n, 0), res(n), t(detail::mont_scratch_limbs(n));
        std::copy(bi.magnitude().begin(), bi.magnitude().end(), bp.begin());
        const mpz_class want = powm(b, e, m);
        detail::mont_pow(res.data(), bp.data(), ei.magnitude().data(), ei.size(), c);
        ASSERT_EQ(to_mpz(integer(std::span<const limb_t>(res), false, radix::binary)), want)
            << "mont_pow bits=" << bits << " shape=" << shape << " k=" << k;
        detail::mont_pow_sec(res.data(), bp.data(), ei.magnitude().data(), ei.size(), 64 * ei.size(), c);
        ASSERT_EQ(to_mpz(integer(std::span<const limb_t>(res), false, radix::binary)), want)
            << "mont_pow_sec bits=" << bits << " shape=" << shape << " k=" << k;
        // mont_mul(to_mont(b), b) = b^2 mod m.
        std::vector<limb_t> bm(n);
        detail::to_mont(bm.data(), bp.data(), c, t.data());
        detail::mont_mul(res.data(), bm.data(), bp.data(), c, t.data());
        ASSERT_EQ(to_mpz(integer(std::span<const limb_t>(res), false, radix::binary)), mpz_class(b * b % m))
            << "mont_mul bits=" << bits;
      }
}

// mont_sqr (a square: the schoolbook square, mul/sqr_basecase.hpp) against
// GMP and against mont_mul on a copy (the general product), at every limb
// count 1..40 (the fixed kernels, the MULX/ADX rows past them), every modulus
// shape, operands 0, 1, m - 1 and random.
TEST(Montgomery, SquareEveryLength) {
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 1511);
  for (std::size_t n = 1; n <= 40; ++n)
    for (int shape = 0; shape < 3; ++shape)
      for (int k = 0; k < 4; ++k) {
        const mpz_class m = make_modulus(r, 64 * n, shape), a = make_base(r, m, k);
        const integer mi = from_mpz(m), ai = from_mpz(a);
        const detail::mont_ctx c = detail::mont_setup(mi.magnitude().data(), n);
        std::vector<limb_t> ap(n, 0), am(n), sq(n), prod(n), res(n), t(detail::mont_scratch_limbs(n));
        std::copy(ai.magnitude().begin(), ai.magnitude().end(), ap.begin());
        detail::to_mont(am.data(), ap.data(), c, t.data());
        const std::vector<limb_t> copy = am;
        detail::mont_sqr(sq.data(), am.data(), c, t.data());
        detail::mont_mul(prod.data(), am.data(), copy.data(), c, t.data());
        ASSERT_EQ(sq, prod) << "n=" << n << " shape=" << shape << " k=" << k;
        detail::from_mont(res.data(), sq.data(), c, t.data());
        ASSERT_EQ(to_mpz(integer(std::span<const limb_t>(res), false, radix::binary)), mpz_class(a * a % m))
            << "n=" << n << " shape=" << shape << " k=" << k;
        // In place, as the exponentiations call it.
        detail::mont_sqr(am.data(), am.data(), c, t.data());
        ASSERT_EQ(am, sq) << "in place n=" << n;
      }
}

// The lanes directly: eight jobs with moduli of different sizes in one group
// (the group runs at the largest digit count), and every partial group.
TEST(Montgomery, LanesMatchGmp) {
  if (!detail::lanes_supported()) GTEST_SKIP() << "no AVX-512 IFMA on this processor";
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 1511);
  for (std::size_t count = 1; count <= 8; ++count)
    for (std::size_t base_bits : {50u, 64u, 1024u, 2048u, 3000u}) {
      std::vector<integer> ms(count), bs(count), es(count);
      std::vector<mpz_class> want(count), want_mul(count);
      std::vector<std::vector<limb_t>> out(count), out_mul(count);
      std::vector<detail::lane_job> jobs(count), mjobs(count);
      std::size_t exp_bits = 0;
      for (std::size_t l = 0; l < count; ++l) {
        const std::size_t bits = base_bits - (l % 3) * 17 + (l == 7 ? 60 : 0);
        const mpz_class m = make_modulus(r, bits, static_cast<int>(l % 3)), b = make_base(r, m, static_cast<int>(l)),
                        e = make_exponent(r, bits, static_cast<int>(l + count));
        ms[l] = from_mpz(m);
        bs[l] = from_mpz(b);
        es[l] = from_mpz(e);
        want[l] = powm(b, e, m);
        want_mul[l] = b * (m - 1 - b) % m;
        out[l].assign(ms[l].size(), 0);
        out_mul[l].assign(ms[l].size(), 0);
        exp_bits = std::max(exp_bits, 64 * es[l].size());
        jobs[l] = {ms[l].magnitude().data(), ms[l].size(), bs[l].magnitude().data(), bs[l].size(),
                   es[l].magnitude().data(),  es[l].size(), out[l].data()};
      }
      std::vector<integer> ys(count);
      for (std::size_t l = 0; l < count; ++l) {
        ys[l] = from_mpz(to_mpz(ms[l]) - 1 - to_mpz(bs[l]));
        mjobs[l] = {ms[l].magnitude().data(), ms[l].size(), bs[l].magnitude().data(), bs[l].size(),
                    ys[l].magnitude().data(),  ys[l].size(), out_mul[l].data()};
      }
      detail::lanes_pow_sec(jobs.data(), count, exp_bits);
      detail::lanes_mul(mjobs.data(), count);
      for (std::size_t l = 0; l < count; ++l) {
        ASSERT_EQ(to_mpz(integer(std::span<const limb_t>(out[l]), false, radix::binary)), want[l])
            << "lanes_pow_sec count=" << count << " bits~" << base_bits << " lane " << l;
        ASSERT_EQ(to_mpz(integer(std::span<const limb_t>(out_mul[l]), false, radix::binary)), want_mul[l])
            << "lanes_mul count=" << count << " bits~" << base_bits << " lane " << l;
      }
    }
}

TEST(Modular, SingleOperationsMatchGmp) {
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 1512);
  for (std::size_t bits : bit_sizes)
    for (int shape = 0; shape < 3; ++shape)
      for (int k = 0; k < 5; ++k) {
        const mpz_class m = make_modulus(r, bits, shape), a = make_base(r, m, k), b = make_base(r, m, k + 1),
                        e = make_exponent(r, bits, k);
        const montgomery_context ctx(from_mpz(m));
        const integer ai = from_mpz(a), bi = from_mpz(b), ei = from_mpz(e);
        EXPECT_EQ(to_mpz(ctx.mod_mul(ai, bi)), mpz_class(a * b % m)) << bits;
        EXPECT_EQ(to_mpz(ctx.mod_sqr(ai)), mpz_class(a * a % m)) << bits;
        EXPECT_EQ(to_mpz(ctx.mod_pow(ai, ei)), powm(a, e, m)) << bits << " k=" << k;
        EXPECT_EQ(to_mpz(ctx.mod_pow_sec(ai, ei)), powm(a, e, m)) << bits << " k=" << k;
        EXPECT_EQ(to_mpz(mod_pow(ai, ei, from_mpz(m))), powm(a, e, m));
      }
  // m = 1: everything is 0; m = 3 with a 1-limb exponent.
  EXPECT_TRUE(mod_pow(0, 0, 1).is_zero());
  EXPECT_TRUE(mod_pow_sec(0, 5, 1).is_zero());
  EXPECT_EQ(mod_pow(2, 5, 3), integer(2));
  EXPECT_EQ(mod_pow_sec(2, 0, 3), integer(1));
  EXPECT_EQ(mod_mul(2, 2, 3), integer(1));
}

// A decimal modulus gives a decimal result; decimal operands are accepted.
TEST(Modular, DecimalRadix) {
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 1513);
  const mpz_class m = make_modulus(r, 700, 2), b = r.get_z_range(m), e = random_bits(r, 700);
  const integer md = integer::from_string(m.get_str(10)), bd = integer::from_string(b.get_str(10));
  const integer got = mod_pow_sec(bd, from_mpz(e), md);
  EXPECT_EQ(got.get_radix(), radix::decimal);
  EXPECT_EQ(to_mpz(got), powm(b, e, m));
  const std::vector<integer> bs{bd, bd}, es{from_mpz(e), integer(3)}, ms{md};
  const auto v = mod_pow_sec_batched(bs, es, ms, 2);
  EXPECT_EQ(to_mpz(v[0]), powm(b, e, m));
  EXPECT_EQ(to_mpz(v[1]), powm(b, 3, m));
  EXPECT_EQ(v[1].get_radix(), radix::decimal);
}

// Batches: every size 1..17 and a large one, one modulus or G moduli, threads 1/2/8.
TEST(Modular, BatchedMatchesGmp) {
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 1514);
  std::vector<std::size_t> batch_sizes;
  for (std::size_t G = 1; G <= 17; ++G) batch_sizes.push_back(G);
  batch_sizes.push_back(bigmul::test::sanitized ? 40 : 150);
  for (std::size_t bits : {61u, 1024u, 2048u})
    for (std::size_t G : batch_sizes)
      for (unsigned threads : {1u, 2u, 8u}) {
        if (bits == 2048 && G > 17 && threads != 2) continue;  // the large 2048-bit batch once
        if (G > 3 && G < 16 && threads == 8 && bits != 61) continue;
        const bool one_modulus = (G + threads) % 2 == 0;
        std::vector<mpz_class> m(one_modulus ? 1 : G), a(G), b(G), e(G);
        std::vector<integer> mi, ai, bi, ei;
        for (auto& x : m) {
          x = make_modulus(r, bits - (&x - m.data()) % 5, static_cast<int>((&x - m.data()) % 3));
          mi.push_back(from_mpz(x));
        }
        for (std::size_t g = 0; g < G; ++g) {
          const mpz_class& mg = m[one_modulus ? 0 : g];
          a[g] = make_base(r, mg, static_cast<int>(g));
          b[g] = make_base(r, mg, static_cast<int>(g + 1));
          e[g] = make_exponent(r, bits, static_cast<int>(g));
          ai.push_back(from_mpz(a[g]));
          bi.push_back(from_mpz(b[g]));
          ei.push_back(from_mpz(e[g]));
        }
        const auto ps = mod_pow_sec_batched(ai, ei, mi, threads);
        const auto pv = mod_pow_batched(ai, ei, mi, threads);
        const auto mm = mod_mul_batched(ai, bi, mi, threads);
        const auto sq = mod_sqr_batched(ai, mi, threads);
        ASSERT_EQ(ps.size(), G);
        for (std::size_t g = 0; g < G; ++g) {
          const mpz_class& mg = m[one_modulus ? 0 : g];
          const mpz_class want = powm(a[g], e[g], mg);
          ASSERT_EQ(to_mpz(ps[g]), want) << "pow_sec bits=" << bits << " G=" << G << " g=" << g << " t=" << threads;
          ASSERT_EQ(to_mpz(pv[g]), want) << "pow bits=" << bits << " G=" << G << " g=" << g;
          ASSERT_EQ(to_mpz(mm[g]), mpz_class(a[g] * b[g] % mg)) << "mul bits=" << bits << " G=" << G << " g=" << g;
          ASSERT_EQ(to_mpz(sq[g]), mpz_class(a[g] * a[g] % mg)) << "sqr bits=" << bits << " G=" << G << " g=" << g;
        }
        if (one_modulus && G == 17) {  // the context's batched calls agree
          const montgomery_context ctx(mi[0]);
          const auto cs = ctx.mod_pow_sec(ai, ei, threads);
          for (std::size_t g = 0; g < G; ++g) ASSERT_EQ(cs[g], ps[g]);
        }
      }
}

TEST(Modular, BadArgumentsThrow) {
  const integer m = 1009, even = 1000;
  const auto kind_of = [](auto&& f) {
    try {
      f();
    } catch (const bigmul::error& e) {
      return static_cast<int>(e.code());
    }
    return -1;
  };
  const int domain = static_cast<int>(error::kind::domain), invalid = static_cast<int>(error::kind::invalid_argument);
  EXPECT_EQ(kind_of([&] { mod_pow(2, 3, even); }), domain);
  EXPECT_EQ(kind_of([&] { mod_pow_sec(2, 3, 0); }), domain);
  EXPECT_EQ(kind_of([&] { mod_mul(2, 3, -7); }), domain);
  EXPECT_EQ(kind_of([&] { montgomery_context c(even); }), domain);
  EXPECT_EQ(kind_of([&] { mod_pow(2, -1, m); }), domain);
  EXPECT_EQ(kind_of([&] { mod_pow_sec(2, -5, m); }), domain);
  EXPECT_EQ(kind_of([&] { mod_pow(1009, 3, m); }), invalid);  // base == m
  EXPECT_EQ(kind_of([&] { mod_pow_sec(5000, 3, m); }), invalid);
  EXPECT_EQ(kind_of([&] { mod_mul(-1, 3, m); }), invalid);
  EXPECT_EQ(kind_of([&] { mod_sqr(2000, m); }), invalid);
  const std::vector<integer> bs{2, 3}, es{1, -1}, ms{m}, bad_ms{m, even}, big{2, 1009};
  EXPECT_EQ(kind_of([&] { mod_pow_sec_batched(bs, es, ms); }), domain);
  EXPECT_EQ(kind_of([&] { mod_pow_batched(bs, std::vector<integer>{1, 1}, bad_ms); }), domain);
  EXPECT_EQ(kind_of([&] { mod_mul_batched(big, bs, ms); }), invalid);
  EXPECT_EQ(kind_of([&] { mod_mul_batched(bs, std::vector<integer>{1}, ms); }), invalid);  // lengths
  EXPECT_TRUE(mod_pow_sec_batched({}, {}, ms).empty());
}

}  // namespace
