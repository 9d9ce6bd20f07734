// SPDX-License-Identifier: LGPL-3.0-or-later
// ntt_avx2_crt3_limbs (fft/ntt_avx2_crt.cpp): coefficient c < p0 p1 p2, given
// by its residues modulo ntt52_primes 0..2 in any lazy form ([0, 2p)), must
// come back as c's three 64-bit limbs, on the vector path (4 a step where
// the processor has AVX2) and the scalar tail alike: random coefficients,
// 0, 1, the largest (p0 p1 p2 - 1), the neighbours of 2^52 k (where the
// kernel's double limbs carry), of 2^64 k, of p0 and p0 p1 (Garner digits
// at their ends), every residue at an end of [0, 2p), counts not a multiple
// of 4 and offsets i. And ntt_avx2_decimal_digits: the same residues must
// give c's base-10^19 digits (long division), with multiples of 10^19 and
// 10^38 and their neighbours among the edges.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_crt.hpp"
#include "fft/ntt_decimal_digits.hpp"

namespace {

using namespace bigmul::fft;

struct u192 {
  u64 l[3] = {0, 0, 0};
};

u64 mod_small(const u192& c, u64 p) {
  u128 r = 0;
  for (int i = 2; i >= 0; --i) r = ((r << 64) | c.l[i]) % p;
  return static_cast<u64>(r);
}
u192 mul_small(const u192& a, u64 m) {
  u192 r;
  u128 carry = 0;
  for (int i = 0; i < 3; ++i) {
    const u128 t = static_cast<u128>(a.l[i]) * m + carry;
    r.l[i] = static_cast<u64>(t);
    carry = t >> 64;
  }
  return r;
}
// a + s for a signed s (callers keep the result in [0, 2^192)).
u192 add_small(u192 a, long long s) {
  const u64 add = s >= 0 ? static_cast<u64>(s) : static_cast<u64>(-s);
  u64 c = add;
  for (auto& x : a.l) {
    const u64 nx = s >= 0 ? x + c : x - c;
    c = s >= 0 ? (nx < x) : (nx > x);
    x = nx;
  }
  return a;
}
u192 pow2(unsigned e) {
  u192 r;
  r.l[e / 64] = u64{1} << (e % 64);
  return r;
}
u192 product(unsigned k) {  // p0 .. p_{k-1}
  u192 r;
  r.l[0] = 1;
  for (unsigned j = 0; j < k; ++j) r = mul_small(r, ntt52_primes[j].p);
  return r;
}
bool less(const u192& a, const u192& b) {
  for (int i = 2; i >= 0; --i)
    if (a.l[i] != b.l[i]) return a.l[i] < b.l[i];
  return false;
}

// The coefficients each test runs: the edges above, then random ones below P.
std::vector<u192> edge_coefficients() {
  const u192 P = product(3);
  std::vector<u192> v;
  const auto near = [&](const u192& c) {
    for (long long d = -2; d <= 2; ++d) {
      const u192 x = add_small(c, d);
      if (!(c.l[0] == 0 && c.l[1] == 0 && c.l[2] == 0 && d < 0) && less(x, P)) v.push_back(x);
    }
  };
  near(u192{});
  for (unsigned e : {50u, 52u, 64u, 101u, 104u, 128u, 149u}) near(pow2(e));
  near(product(1));
  near(product(2));
  near(mul_small(product(2), ntt52_primes[2].p - 1));
  near(add_small(P, -2));
  u192 ones;  // 2^148 - 1 (every bit set, below P > 2^148)
  ones.l[0] = ones.l[1] = ~u64{0};
  ones.l[2] = (u64{1} << 20) - 1;
  EXPECT_TRUE(less(ones, P));
  near(add_small(ones, -2));
  // Multiples of M = 10^19 and M^2 (where the decimal split's quotients step).
  const u64 M = 10000000000000000000ull;
  u192 m1;
  m1.l[0] = M;
  for (u64 k : {u64{1}, u64{2}, u64{12345}, (u64{1} << 40) + 3}) near(mul_small(m1, k));
  const u192 m2 = mul_small(m1, M);
  for (u64 k : {u64{1}, u64{7}, u64{1} << 24, (u64{1} << 25) - 1})
    if (less(mul_small(m2, k), P)) near(mul_small(m2, k));
  return v;
}

u192 random_below(std::mt19937_64& rng, const u192& P) {
  for (;;) {
    u192 c;
    c.l[0] = rng();
    c.l[1] = rng();
    c.l[2] = rng() & ((u64{1} << 22) - 1);
    if (less(c, P)) return c;
  }
}

// Residues of cs (from index off on), lazy form chosen by `form`: 0 the
// reduced residue, 1 plus p, 2 either at random.
void residues_of(const std::vector<u192>& cs, std::size_t off, int form, std::mt19937_64& rng,
                 std::vector<u64> (&res)[3]) {
  for (unsigned k = 0; k < 3; ++k) {
    const u64 p = ntt52_primes[k].p;
    res[k].assign(off + cs.size(), 0);
    for (std::size_t q = 0; q < cs.size(); ++q) {
      const u64 r = mod_small(cs[q], p);
      const bool lift = form == 1 || (form == 2 && (rng() & 1));
      res[k][off + q] = lift ? r + p : r;
    }
  }
}

// c / d and c mod d (d < 2^64).
u64 divide(u192& c, u64 d) {
  u128 r = 0;
  for (int i = 2; i >= 0; --i) {
    const u128 t = (r << 64) | c.l[i];
    c.l[i] = static_cast<u64>(t / d);
    r = t % d;
  }
  return static_cast<u64>(r);
}

// Both kernels on the residues of cs: the binary limbs and the decimal digits.
void expect_limbs(const std::vector<u192>& cs, std::size_t off, int form, std::mt19937_64& rng) {
  std::vector<u64> res[3];
  residues_of(cs, off, form, rng, res);
  const u64* const rp[3] = {res[0].data(), res[1].data(), res[2].data()};
  const std::size_t n = cs.size();
  std::vector<u64> x(3 * n, 0xdeadbeef), d(3 * n, 0xdeadbeef);
  ntt_avx2_crt3_limbs(rp, off, n, x.data());
  ntt_avx2_decimal_digits(rp, off, n, d.data());
  for (std::size_t q = 0; q < n; ++q) {
    for (unsigned l = 0; l < 3; ++l)
      ASSERT_EQ(x[l * n + q], cs[q].l[l]) << "coefficient " << q << " of " << n << " limb " << l << " offset " << off
                                          << " form " << form;
    u192 c = cs[q];
    const u64 want[3] = {divide(c, 10000000000000000000ull), divide(c, 10000000000000000000ull), c.l[0]};
    for (unsigned l = 0; l < 3; ++l)
      ASSERT_EQ(d[l * n + q], want[l]) << "coefficient " << q << " of " << n << " decimal digit " << l << " offset "
                                       << off << " form " << form;
  }
}

TEST(NttAvx2Crt, EdgeCoefficientsEveryLazyForm) {
  std::mt19937_64 rng(1);
  const std::vector<u192> edges = edge_coefficients();
  ASSERT_GT(edges.size(), 40u);
  for (int form = 0; form < 3; ++form)
    for (std::size_t off : {0u, 1u, 3u}) expect_limbs(edges, off, form, rng);
}

// Residues at the ends of [0, 2p) taken independently (0, 1, p - 1, p,
// 2p - 1 for each prime): the coefficient they stand for, from the CRT.
TEST(NttAvx2Crt, ResiduesAtTheEnds) {
  const u192 P = product(3);
  std::vector<u64> res[3];
  std::vector<u192> want;
  for (unsigned k = 0; k < 3; ++k) res[k].clear();
  const auto ends = [](u64 p) { return std::vector<u64>{0, 1, p - 1, p, p + 1, 2 * p - 2, 2 * p - 1}; };
  for (u64 a : ends(ntt52_primes[0].p))
    for (u64 b : ends(ntt52_primes[1].p))
      for (u64 c : ends(ntt52_primes[2].p)) {
        res[0].push_back(a);
        res[1].push_back(b);
        res[2].push_back(c);
      }
  // The coefficient: the unique c < P with those residues (searched through
  // Garner's digits on the scalar reference and checked by its residues).
  const garner_constants<4> G(ntt52_primes);
  const std::size_t n = res[0].size();
  for (std::size_t q = 0; q < n; ++q) {
    const u64 r[4] = {res[0][q], res[1][q], res[2][q], 0};
    u64 v[4] = {};
    G.digits(r, v, 3);
    u192 c;
    garner3_horner(v[0], v[1], v[2], ntt52_primes[0].p, ntt52_primes[1].p, c.l[0], c.l[1], c.l[2]);
    ASSERT_TRUE(less(c, P));
    for (unsigned k = 0; k < 3; ++k) ASSERT_EQ(mod_small(c, ntt52_primes[k].p), r[k] % ntt52_primes[k].p);
    want.push_back(c);
  }
  const u64* const rp[3] = {res[0].data(), res[1].data(), res[2].data()};
  std::vector<u64> x(3 * n), d(3 * n);
  ntt_avx2_crt3_limbs(rp, 0, n, x.data());
  ntt_avx2_decimal_digits(rp, 0, n, d.data());
  for (std::size_t q = 0; q < n; ++q) {
    for (unsigned l = 0; l < 3; ++l) ASSERT_EQ(x[l * n + q], want[q].l[l]) << q << " limb " << l;
    u64 split[3];
    const u64 r[4] = {res[0][q], res[1][q], res[2][q], 0};
    u64 v[4] = {};
    G.digits(r, v, 3);
    ntt52_decimal_split(v[0], v[1], v[2], split);
    for (unsigned l = 0; l < 3; ++l) ASSERT_EQ(d[l * n + q], split[l]) << q << " decimal digit " << l;
  }
}

TEST(NttAvx2Crt, RandomCountsAndOffsets) {
  std::mt19937_64 rng(7);
  const u192 P = product(3);
  for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 13u, 63u, 64u, 129u})
    for (std::size_t off : {0u, 2u, 5u}) {
      std::vector<u192> cs(n);
      for (auto& c : cs) c = random_below(rng, P);
      expect_limbs(cs, off, 2, rng);
    }
  // Large random coefficients near the top (every limb long).
  std::vector<u192> top(256);
  for (auto& c : top) {
    c = random_below(rng, P);
    c.l[2] |= u64{1} << 20;
    if (!less(c, P)) c = add_small(P, -1 - static_cast<long long>(rng() % 1000));
  }
  expect_limbs(top, 1, 2, rng);
}

}  // namespace
