// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX2 Montgomery lanes (src/arith/montgomery_avx2.cpp) against GMP's
// mpz_powm and mpz_mul + mpz_mod, every lane checked: directly on any
// processor with AVX2 and FMA (IFMA ones too), 1..4 jobs a call with moduli of
// different sizes in one group, 2..4096 bits and odd sizes, moduli 1, 3,
// 2^k - 1, 2^(k-1) + 1 and random; bases 0, 1, m - 1 and random; exponents 0,
// 1, all ones, longer than the modulus; every window width; results written
// over an operand; moduli past the lanes' limit (the scalar fallback). And the
// batched modular API through the lanes when BIGMUL_BATCHED_ENGINE=avx2
// chooses them (ctest's test_montgomery_avx2_engine).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "bigmul/bigmul.hpp"
#include "bigmul/modular.hpp"
#include "mul/batched_ifma.hpp"
#include "prim/cpu_features.hpp"
#include "src/arith/montgomery.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;

mpz_class to_mpz(const std::vector<limb_t>& v) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), v.size(), -1, sizeof(limb_t), 0, 0, v.data());
  return r;
}

std::vector<limb_t> to_limbs(const mpz_class& x, std::size_t n) {
  std::vector<limb_t> v(std::max<std::size_t>(n, 1), 0);
  mpz_export(v.data(), nullptr, -1, sizeof(limb_t), 0, 0, x.get_mpz_t());
  return v;
}

std::size_t limbs_of(std::size_t bits) { return (bits + 63) / 64; }

// An odd modulus of `bits` bits: 1, 3, 2^k - 1, 2^(k-1) + 1 or random.
mpz_class make_modulus(gmp_randclass& r, std::size_t bits, int shape) {
  const mpz_class one = 1;
  if (bits <= 2) return bits == 1 ? 1 : 3;
  switch (shape % 3) {
    case 0: return (one << bits) - 1;
    case 1: return (one << (bits - 1)) + 1;
    default: return mpz_class(r.get_z_bits(bits)) | (one << (bits - 1)) | 1;
  }
}

mpz_class make_base(gmp_randclass& r, const mpz_class& m, int k) {
  switch (k % 4) {
    case 0: return 0;
    case 1: return m > 1 ? mpz_class(1) : mpz_class(0);
    case 2: return m - 1;
    default: return r.get_z_range(m);
  }
}

mpz_class make_exponent(gmp_randclass& r, std::size_t bits, int k) {
  switch (k % 5) {
    case 0: return 0;
    case 1: return 1;
    case 2: return (mpz_class(1) << bits) - 1;
    case 3: return r.get_z_bits(bits + 70);
    default: return r.get_z_bits(bits);
  }
}

void seed_rand(gmp_randclass& r, std::uint64_t salt) {
  r.seed(static_cast<unsigned long>(bigmul::test::seed() ^ (salt * 0x9e3779b97f4a7c15ull)));
}

// One call's jobs: lane l's modulus has bits_of(l) bits; pow_sec and mul of
// the same operands; every lane compared with GMP. exp_limbs = 0: the
// exponents' own sizes (exp_bits = 64 x the longest), else that many bits
// of exponent (and exp_bits) for every lane. in_place: the results overwrite
// the mul jobs' first factors.
void check_group(gmp_randclass& r, std::size_t count, const std::vector<std::size_t>& bits, int salt,
                 std::size_t exp_bits_fixed = 0, bool in_place = false) {
  std::vector<mpz_class> m(count), x(count), y(count), e(count);
  std::vector<std::vector<limb_t>> M(count), X(count), Y(count), E(count), P(count), Q(count);
  std::vector<detail::lane_job> pj(count), mj(count);
  std::size_t exp_bits = exp_bits_fixed;
  for (std::size_t l = 0; l < count; ++l) {
    const int k = salt + static_cast<int>(l);
    m[l] = make_modulus(r, bits[l], k);
    x[l] = make_base(r, m[l], k);
    y[l] = make_base(r, m[l], k + 3);
    e[l] = exp_bits_fixed ? mpz_class(r.get_z_bits(exp_bits_fixed)) : make_exponent(r, bits[l], k);
    const std::size_t n = limbs_of(mpz_sizeinbase(m[l].get_mpz_t(), 2));
    M[l] = to_limbs(m[l], n);
    X[l] = to_limbs(x[l], n);
    Y[l] = to_limbs(y[l], n);
    E[l] = to_limbs(e[l], limbs_of(mpz_sizeinbase(e[l].get_mpz_t(), 2)));
    P[l].assign(n, 0xdeadbeef);
    Q[l].assign(n, 0xdeadbeef);
    if (!exp_bits_fixed) exp_bits = std::max(exp_bits, 64 * E[l].size());
    pj[l] = {M[l].data(), n, X[l].data(), n, E[l].data(), E[l].size(), P[l].data()};
    mj[l] = {M[l].data(), n, X[l].data(), n, Y[l].data(), n, in_place ? X[l].data() : Q[l].data()};
  }
  detail::lanes_avx2_pow_sec(pj.data(), count, exp_bits);
  detail::lanes_avx2_mul(mj.data(), count);
  for (std::size_t l = 0; l < count; ++l) {
    mpz_class want;
    mpz_powm(want.get_mpz_t(), x[l].get_mpz_t(), e[l].get_mpz_t(), m[l].get_mpz_t());
    ASSERT_EQ(to_mpz(P[l]), want) << "pow_sec count=" << count << " bits=" << bits[l] << " lane " << l
                                  << " exp_bits=" << exp_bits;
    ASSERT_EQ(to_mpz(in_place ? X[l] : Q[l]), mpz_class(x[l] * y[l] % m[l]))
        << "mul count=" << count << " bits=" << bits[l] << " lane " << l << (in_place ? " in place" : "");
  }
}

bool have_avx2() { return prim::cpu_has_avx2_fma(); }

// 1024..4096 bits (the unrolled digit counts 20, 40, 60, 79 and their
// neighbours) and small and odd sizes; lanes with different sizes in one group.
TEST(MontgomeryAvx2, LanesMatchGmp) {
  if (!have_avx2()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 3611);
  for (std::size_t base : {1u, 2u, 5u, 50u, 63u, 64u, 65u, 127u, 1022u, 1024u, 1500u, 2048u, 3000u, 3072u, 4096u})
    for (std::size_t count = 1; count <= 4; ++count) {
      std::vector<std::size_t> bits(count);
      for (std::size_t l = 0; l < count; ++l)
        bits[l] = base <= 2 ? base : base < 64 ? base + l : base - (l % 3) * 17 + (l == 3 ? 9 : 0);
      check_group(r, count, bits, static_cast<int>(base + count));
    }
}

// Exponent lengths that pick each window width (2, 4 and 5 bits) and a
// window that straddles limbs; exp_bits beyond the exponent's length.
TEST(MontgomeryAvx2, EveryWindowWidth) {
  if (!have_avx2()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 3612);
  for (std::size_t exp_bits : {1u, 2u, 31u, 32u, 33u, 64u, 255u, 256u, 257u, 1000u})
    check_group(r, 4, {1024, 2048, 521, 1024}, static_cast<int>(exp_bits), exp_bits);
}

// The mul results written over the first factor (lane_job allows it).
TEST(MontgomeryAvx2, ResultOverFactor) {
  if (!have_avx2()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 3613);
  check_group(r, 3, {1024, 2048, 4096}, 7, 0, true);
}

// Moduli past the lanes' accumulator limit (640 digits) run on the scalar
// code; just below it the lanes still run.
TEST(MontgomeryAvx2, LargestModuli) {
  if (!have_avx2()) GTEST_SKIP() << "no AVX2 and FMA on this processor";
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 3614);
  check_group(r, 2, {640 * 52 - 2, 640 * 52 - 40}, 2, 64);  // 640 digits: lanes
  check_group(r, 2, {640 * 52 - 1, 33500}, 2, 64);          // 641, 645 digits: scalar
}

// The batched modular API on these lanes (only under BIGMUL_BATCHED_ENGINE=avx2,
// or auto on a processor with AVX2 but no IFMA): one modulus and one per
// operation, batch sizes around the groups of four and eight, 1/2 threads.
TEST(MontgomeryAvx2, BatchedModularApi) {
  if (detail::batched_engine_chosen() != detail::batched_engine::avx2)
    GTEST_SKIP() << "the batched operations do not choose the AVX2 lanes here (BIGMUL_BATCHED_ENGINE=avx2 does)";
  ASSERT_TRUE(detail::lanes_supported());
  gmp_randclass r(gmp_randinit_mt);
  seed_rand(r, 3615);
  for (std::size_t bits : {61u, 1024u, 2048u, 3072u, 4096u})
    for (std::size_t G : {1u, 3u, 4u, 5u, 8u, 9u, 13u})
      for (unsigned threads : {1u, 2u}) {
        if (bits > 2048 && G > 5) continue;
        const bool one_modulus = (G + threads) % 2 == 0;
        std::vector<mpz_class> m(one_modulus ? 1 : G), a(G), b(G), e(G);
        std::vector<integer> mi, ai, bi, ei;
        for (std::size_t k = 0; k < m.size(); ++k) {
          m[k] = make_modulus(r, bits - k % 5, static_cast<int>(k));
          mi.push_back(integer::from_string("0x" + m[k].get_str(16)));
        }
        for (std::size_t g = 0; g < G; ++g) {
          const mpz_class& mg = m[one_modulus ? 0 : g];
          a[g] = make_base(r, mg, static_cast<int>(g));
          b[g] = make_base(r, mg, static_cast<int>(g + 1));
          e[g] = make_exponent(r, bits, static_cast<int>(g));
          ai.push_back(integer::from_string("0x" + a[g].get_str(16)));
          bi.push_back(integer::from_string("0x" + b[g].get_str(16)));
          ei.push_back(integer::from_string("0x" + e[g].get_str(16)));
        }
        const auto ps = mod_pow_sec_batched(ai, ei, mi, threads);
        const auto mm = mod_mul_batched(ai, bi, mi, threads);
        ASSERT_EQ(ps.size(), G);
        for (std::size_t g = 0; g < G; ++g) {
          const mpz_class& mg = m[one_modulus ? 0 : g];
          mpz_class want;
          mpz_powm(want.get_mpz_t(), a[g].get_mpz_t(), e[g].get_mpz_t(), mg.get_mpz_t());
          ASSERT_EQ(mpz_class(ps[g].to_string(16, false), 16), want) << "pow_sec bits=" << bits << " G=" << G << " g=" << g;
          ASSERT_EQ(mpz_class(mm[g].to_string(16, false), 16), mpz_class(a[g] * b[g] % mg))
              << "mul bits=" << bits << " G=" << G << " g=" << g;
        }
      }
}

}  // namespace
