// SPDX-License-Identifier: LGPL-3.0-or-later
// The GPU's batched Montgomery group algorithm (mul/cuda/montgomery_group_hd.hpp)
// run on the CPU: its CPU model policy plays every thread of a group, phase
// by phase, with the very functions the CUDA kernels run, and the results
// are compared with GMP (mpz_mul + mpz_mod, mpz_powm). Every group width
// (TPI 1 ... 32: 1 to 128 limbs, lengths inside and at the end of a width),
// moduli random odd, 2^k - 1, 2^(k-1) + 1, 3 and 1; operands 0, 1, m - 1,
// random; exponents 0, 1, all ones, random, and exp_bits past the exponent.
// Runs in every build (no CUDA needed); test_montgomery_gpu runs the kernels.
#include <gmp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mul/cuda/montgomery_group_hd.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;
namespace mg = bigmul::detail::cuda::mont_group;
constexpr int K = mg::limbs_per_thread;

struct gmp_num {
  mpz_t z;
  gmp_num() { mpz_init(z); }
  ~gmp_num() { mpz_clear(z); }
  gmp_num(const gmp_num&) = delete;
  gmp_num& operator=(const gmp_num&) = delete;
};
void to_z(mpz_t z, const std::vector<limb_t>& v) { mpz_import(z, v.size(), -1, sizeof(limb_t), 0, 0, v.data()); }
std::vector<limb_t> from_z(const mpz_t z, std::size_t n) {
  std::vector<limb_t> v(n, 0);
  EXPECT_LE(mpz_sizeinbase(z, 2), 64 * n);
  mpz_export(v.data(), nullptr, -1, sizeof(limb_t), 0, 0, z);
  return v;
}

// One operation on the model group of width TPI.
struct setup {
  std::size_t n_pad;
  std::vector<limb_t> m, nm, r2;
  limb_t ninv;
};
setup make_setup(const std::vector<limb_t>& m, int tpi) {
  setup s;
  s.n_pad = static_cast<std::size_t>(tpi) * K;
  s.m.assign(s.n_pad, 0);
  std::copy(m.begin(), m.end(), s.m.begin());
  std::size_t mn = m.size();
  while (mn > 1 && m[mn - 1] == 0) --mn;
  s.nm.assign(s.n_pad, 0);
  s.r2.assign(s.n_pad, 0);
  mg::negate_modulus(s.nm.data(), s.m.data(), mn, s.n_pad);
  mg::r_squared(s.r2.data(), s.m.data(), mn, s.n_pad);
  s.ninv = mg::neg_inverse(m[0]);
  return s;
}
std::vector<limb_t> padded(const std::vector<limb_t>& x, std::size_t n_pad) {
  std::vector<limb_t> v(n_pad, 0);
  std::copy(x.begin(), x.end(), v.begin());
  return v;
}

template <int TPI>
std::vector<limb_t> model_mod_mul_w(const std::vector<limb_t>& a, const std::vector<limb_t>& b,
                                    const std::vector<limb_t>& m) {
  const setup s = make_setup(m, TPI);
  mg::model_group<K, TPI> g;
  mg::load_slices<K>(g, s.m.data(), &mg::thread_state<K>::ms);
  mg::load_slices<K>(g, s.nm.data(), &mg::thread_state<K>::ns);
  std::vector<limb_t> pa = padded(a, s.n_pad), pb = padded(b, s.n_pad), tmp(s.n_pad), r(s.n_pad);
  mg::mod_mul<K>(g, pa.data(), pb.data(), s.r2.data(), s.ninv, tmp.data(), r.data());
  for (std::size_t j = m.size(); j < s.n_pad; ++j) EXPECT_EQ(r[j], 0u) << "limb past n";
  r.resize(m.size());
  return r;
}

template <int TPI>
std::vector<limb_t> model_mod_pow_w(const std::vector<limb_t>& x, const std::vector<limb_t>& e, std::size_t exp_bits,
                                    const std::vector<limb_t>& m) {
  const setup s = make_setup(m, TPI);
  mg::model_group<K, TPI> g;
  mg::load_slices<K>(g, s.m.data(), &mg::thread_state<K>::ms);
  mg::load_slices<K>(g, s.nm.data(), &mg::thread_state<K>::ns);
  std::vector<limb_t> px = padded(x, s.n_pad), one(s.n_pad, 0), scratch((mg::table_entries + 2) * s.n_pad),
      r(s.n_pad);
  one[0] = 1;
  mg::mod_pow<K>(g, px.data(), e.data(), e.size(), exp_bits, s.r2.data(), one.data(), s.ninv, scratch.data(),
                 r.data());
  r.resize(m.size());
  return r;
}

template <class F>
auto by_width(int tpi, F f) {
  switch (tpi) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    default: return f(std::integral_constant<int, 32>{});
  }
}

std::vector<limb_t> model_mod_mul(const std::vector<limb_t>& a, const std::vector<limb_t>& b,
                                  const std::vector<limb_t>& m) {
  return by_width(mg::threads_for(m.size()), [&](auto w) { return model_mod_mul_w<decltype(w)::value>(a, b, m); });
}
std::vector<limb_t> model_mod_pow(const std::vector<limb_t>& x, const std::vector<limb_t>& e, std::size_t exp_bits,
                                  const std::vector<limb_t>& m) {
  return by_width(mg::threads_for(m.size()),
                  [&](auto w) { return model_mod_pow_w<decltype(w)::value>(x, e, exp_bits, m); });
}

// Moduli of n limbs: random odd, 2^(64n) - 1, 2^(64n-1) + 1, and (n = 1) 3 and 1.
std::vector<std::vector<limb_t>> moduli(std::size_t n, std::mt19937_64& g) {
  std::vector<std::vector<limb_t>> out;
  std::vector<limb_t> m(n);
  for (auto& x : m) x = g();
  m[0] |= 1;
  m[n - 1] |= limb_t{1} << 63 >> (g() % 8);
  out.push_back(m);
  out.emplace_back(n, ~limb_t{0});
  std::vector<limb_t> h(n, 0);
  h[0] = 1;
  h[n - 1] |= limb_t{1} << 63;
  out.push_back(h);
  if (n == 1) {
    out.push_back({3});
    out.push_back({1});
  }
  return out;
}

// Operands below m: 0, 1, m - 1, random mod m.
std::vector<std::vector<limb_t>> operands(const std::vector<limb_t>& m, std::mt19937_64& g) {
  const std::size_t n = m.size();
  gmp_num zm, zr;
  to_z(zm.z, m);
  std::vector<std::vector<limb_t>> out;
  out.emplace_back(n, 0);
  std::vector<limb_t> one(n, 0);
  one[0] = 1;
  if (mpz_cmp_ui(zm.z, 1) > 0) out.push_back(one);
  mpz_sub_ui(zr.z, zm.z, 1);
  out.push_back(from_z(zr.z, n));
  for (int k = 0; k < 2; ++k) {
    std::vector<limb_t> v(n);
    for (auto& x : v) x = g();
    to_z(zr.z, v);
    mpz_mod(zr.z, zr.z, zm.z);
    out.push_back(from_z(zr.z, n));
  }
  return out;
}

const std::size_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 24, 32, 33, 48, 64, 65, 96, 128};

TEST(MontgomeryGroupModel, ModMulMatchesGmp) {
  auto g = bigmul::test::rng(2207);
  for (std::size_t n : lengths)
    for (const auto& m : moduli(n, g)) {
      const auto ops = operands(m, g);
      gmp_num za, zb, zm, zw;
      to_z(zm.z, m);
      for (const auto& a : ops)
        for (const auto& b : ops) {
          to_z(za.z, a);
          to_z(zb.z, b);
          mpz_mul(zw.z, za.z, zb.z);
          mpz_mod(zw.z, zw.z, zm.z);
          ASSERT_EQ(model_mod_mul(a, b, m), from_z(zw.z, n)) << "n=" << n << " tpi=" << mg::threads_for(n);
        }
    }
}

TEST(MontgomeryGroupModel, ModPowMatchesGmp) {
  auto g = bigmul::test::rng(2208);
  for (std::size_t n : lengths) {
    const std::size_t en = n <= 16 ? n : 2;  // full-length exponents where the model is quick
    for (const auto& m : moduli(n, g)) {
      const auto ops = operands(m, g);
      gmp_num zx, ze, zm, zw;
      to_z(zm.z, m);
      std::vector<std::vector<limb_t>> exps;
      exps.emplace_back(en, 0);
      std::vector<limb_t> one(en, 0);
      one[0] = 1;
      exps.push_back(one);
      exps.emplace_back(en, ~limb_t{0});
      std::vector<limb_t> r(en);
      for (auto& x : r) x = g();
      exps.push_back(r);
      for (const auto& x : {ops[0], ops[ops.size() - 2], ops.back()})
        for (const auto& e : exps)
          for (std::size_t extra : {std::size_t{0}, std::size_t{5}}) {  // bits past the exponent read as 0
            to_z(zx.z, x);
            to_z(ze.z, e);
            mpz_powm(zw.z, zx.z, ze.z, zm.z);
            ASSERT_EQ(model_mod_pow(x, e, 64 * en + extra, m), from_z(zw.z, n))
                << "n=" << n << " en=" << en << " extra bits " << extra;
          }
    }
  }
}

// The per-modulus set-up against GMP.
TEST(MontgomeryGroupModel, SetupMatchesGmp) {
  auto g = bigmul::test::rng(2209);
  for (std::size_t n : lengths)
    for (const auto& m : moduli(n, g)) {
      const int tpi = mg::threads_for(n);
      ASSERT_GE(static_cast<std::size_t>(tpi) * K, n);
      ASSERT_TRUE(tpi == 1 || static_cast<std::size_t>(tpi / 2) * K < n);
      const setup s = make_setup(m, tpi);
      EXPECT_EQ(m[0] * (limb_t{0} - s.ninv), 1u);  // m0 * m0^-1 = 1
      gmp_num zm, zr, zn;
      to_z(zm.z, m);
      mpz_set_ui(zr.z, 1);
      mpz_mul_2exp(zr.z, zr.z, 128 * s.n_pad);
      mpz_mod(zr.z, zr.z, zm.z);
      EXPECT_EQ(s.r2, from_z(zr.z, s.n_pad)) << "R^2 mod m, n=" << n;
      mpz_set_ui(zn.z, 1);
      mpz_mul_2exp(zn.z, zn.z, 64 * s.n_pad);
      mpz_sub(zn.z, zn.z, zm.z);
      EXPECT_EQ(s.nm, from_z(zn.z, s.n_pad)) << "B^n_pad - m, n=" << n;
    }
}

}  // namespace
