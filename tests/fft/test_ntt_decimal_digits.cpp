// SPDX-License-Identifier: LGPL-3.0-or-later
// The three-prime decimal digits (fft/ntt_decimal_digits.hpp): coefficient c,
// given by its residues modulo ntt52_primes 0..2, split into base-10^19
// digits d0 + d1 10^19 + d2 10^38, against long division of c itself. The
// vector path (8 a step, IFMA) and the scalar one; random coefficients,
// every lazy residue form ([0, 2p)), and adversarial ones: 0, 1, the largest
// (p0 p1 p2 - 1), and exact multiples of 10^19 and 10^38 and their
// neighbours (where the quotient estimate's floor is decided). The same
// residues through ntt52_crt3_limbs must give the coefficient's binary limbs.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_crt.hpp"
#include "fft/ntt_decimal_digits.hpp"
#include "fft/ntt_ifma.hpp"

namespace {

using namespace bigmul::fft;

// c < 2^150 as three 64-bit limbs.
struct u192 {
  u64 l[3] = {0, 0, 0};
};
constexpr u64 M = 10000000000000000000ull;

u64 mod_small(const u192& c, u64 p) {
  u128 r = 0;
  for (int i = 2; i >= 0; --i) r = ((r << 64) | c.l[i]) % p;
  return static_cast<u64>(r);
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
u192 product3() {
  u192 c;
  u128 t = static_cast<u128>(ntt52_primes[0].p) * ntt52_primes[1].p;
  const u128 a = static_cast<u128>(static_cast<u64>(t)) * ntt52_primes[2].p;
  const u128 b = static_cast<u128>(static_cast<u64>(t >> 64)) * ntt52_primes[2].p + static_cast<u64>(a >> 64);
  c.l[0] = static_cast<u64>(a);
  c.l[1] = static_cast<u64>(b);
  c.l[2] = static_cast<u64>(b >> 64);
  return c;
}
bool less(const u192& a, const u192& b) {
  for (int i = 2; i >= 0; --i)
    if (a.l[i] != b.l[i]) return a.l[i] < b.l[i];
  return false;
}
// a + s, s signed small (no wrap below zero in use).
u192 add_small(u192 a, long long s) {
  u128 carry = 0;
  const u64 add = s >= 0 ? static_cast<u64>(s) : static_cast<u64>(-s);
  if (s >= 0) {
    carry = add;
    for (auto& x : a.l) {
      const u128 t = static_cast<u128>(x) + carry;
      x = static_cast<u64>(t);
      carry = t >> 64;
    }
  } else {
    u64 borrow = add;
    for (auto& x : a.l) {
      const u64 nx = x - borrow;
      borrow = nx > x ? 1 : 0;
      x = nx;
    }
  }
  return a;
}
u192 times(u64 k, u64 m, u64 m2) {  // k m m2
  u192 c;
  const u128 t = static_cast<u128>(k) * m;
  const u128 a = static_cast<u128>(static_cast<u64>(t)) * m2;
  const u128 b = static_cast<u128>(static_cast<u64>(t >> 64)) * m2 + static_cast<u64>(a >> 64);
  c.l[0] = static_cast<u64>(a);
  c.l[1] = static_cast<u64>(b);
  c.l[2] = static_cast<u64>(b >> 64);
  return c;
}

// Checks the coefficients cs (each < p0 p1 p2), with residues lifted by
// `lift` times p_k (0 or 1: the lazy [0, 2p) forms), through both paths.
void check(const std::vector<u192>& cs, std::mt19937_64& g) {
  const std::size_t n = cs.size();
  std::vector<u64> res[3];
  for (unsigned k = 0; k < 3; ++k) {
    res[k].resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const u64 p = ntt52_primes[k].p, r = mod_small(cs[i], p);
      res[k][i] = r + ((g() & 1) && r < p ? p : 0);
    }
  }
  const u64* const rp[3] = {res[0].data(), res[1].data(), res[2].data()};
  // n and n - 1 (a multiple of 8 or not: the vector path and the scalar one).
  for (std::size_t count : {n, n - 1}) {
    // The same residues to binary limbs (ntt52_crt3_limbs): the coefficient itself.
    std::vector<u64> x(3 * count);
    ntt52_crt3_limbs(rp, 0, count, x.data());
    for (std::size_t i = 0; i < count; ++i)
      for (unsigned l = 0; l < 3; ++l)
        ASSERT_EQ(x[l * count + i], cs[i].l[l]) << "limb " << l << " of coefficient " << i << " of " << count;
    std::vector<u64> d(3 * count);
    ntt52_decimal_digits(rp, 0, count, d.data());
    for (std::size_t i = 0; i < count; ++i) {
      u192 c = cs[i];
      const u64 d0 = divide(c, M), d1 = divide(c, M);
      ASSERT_EQ(c.l[1], 0u);
      ASSERT_EQ(c.l[2], 0u);
      ASSERT_EQ(d[i], d0) << "coefficient " << i << " of " << count;
      ASSERT_EQ(d[count + i], d1) << "coefficient " << i << " of " << count;
      ASSERT_EQ(d[2 * count + i], c.l[0]) << "coefficient " << i << " of " << count;
    }
  }
}

TEST(NttDecimalDigits, RandomAndAdversarialCoefficients) {
  std::mt19937_64 g(19);
  const u192 top = product3();
  std::vector<u192> cs;
  cs.push_back(u192{});
  cs.push_back(add_small(u192{}, 1));
  cs.push_back(add_small(top, -1));
  cs.push_back(add_small(top, -2));
  // Exact multiples of 10^19 and 10^38 (k up to the range's end) +- 0, 1, 2.
  for (int rep = 0; rep < 300; ++rep) {
    const u64 k1 = g() >> (rep % 64), k2 = (g() >> 40) >> (rep % 24);
    for (long long s : {0ll, 1ll, -1ll, 2ll, -2ll}) {
      const u192 a = times(k1 | 1, M, 1), b = times(k2 | 1, M, M);
      if (less(a, top) && (s >= 0 || k1 != 0)) cs.push_back(add_small(a, s));
      if (less(b, top)) cs.push_back(add_small(b, s));
    }
  }
  // Digits at 10^19 - 1: d0 = d1 = M - 1 under each d2 (k M^2 - 1), and d0 = M - 1 alone.
  for (u64 k : {1ull, 2ull, 3ull, 1000ull, (1ull << 24), (1ull << 24) + 12345}) {
    const u192 a = add_small(times(k, M, M), -1), b = add_small(times(k, M, 1), -1);
    if (less(a, top)) cs.push_back(a);
    cs.push_back(b);
  }
  // Random below the top (uniform bits, then by size).
  while (cs.size() % 8 != 0 || cs.size() < 4000) {
    u192 c;
    c.l[0] = g();
    c.l[1] = g();
    const unsigned top_bits = static_cast<unsigned>(g() % 23);  // 0 .. 22 bits in the top limb
    c.l[2] = top_bits == 0 ? 0 : g() >> (64 - top_bits);
    if (less(c, top)) cs.push_back(c);
  }
  check(cs, g);
}

TEST(NttDecimalDigits, ScalarSplitEqualsLongDivision) {
  std::mt19937_64 g(7);
  for (int rep = 0; rep < 20000; ++rep) {
    u64 v[3], d[3];
    for (unsigned k = 0; k < 3; ++k) v[k] = rep < 8 ? ((rep >> k) & 1 ? ntt52_primes[k].p - 1 : 0) : g() % ntt52_primes[k].p;
    ntt52_decimal_split(v[0], v[1], v[2], d);
    // c = v0 + p0 (v1 + p1 v2)
    u192 c = times(v[2], ntt52_primes[1].p, ntt52_primes[0].p);
    const u192 b = times(v[1], ntt52_primes[0].p, 1);
    u128 carry = 0;
    for (int i = 0; i < 3; ++i) {
      const u128 t = static_cast<u128>(c.l[i]) + b.l[i] + carry + (i == 0 ? v[0] : 0);
      c.l[i] = static_cast<u64>(t);
      carry = t >> 64;
    }
    const u64 d0 = divide(c, M), d1 = divide(c, M);
    ASSERT_EQ(d[0], d0);
    ASSERT_EQ(d[1], d1);
    ASSERT_EQ(d[2], c.l[0]);
  }
}

// The vector engines' Garner digits for every group length: the vector code
// takes the first count - count % 8 (IFMA) or count - count % 4 (AVX2)
// coefficients of a group and the scalar code the rest, at the group's
// stride; both against the scalar digits, 1 .. 4 primes, lazy residues in
// [0, 2p), at an offset into the residue arrays.
TEST(NttDecimalDigits, GarnerDigitsOfEveryGroupLength) {
  std::mt19937_64 g(41);
  const garner_constants<4> scalar(ntt52_primes);
  constexpr std::size_t most = 41, at = 5;
  std::vector<u64> res[4];
  for (unsigned k = 0; k < 4; ++k) {
    res[k].resize(at + most);
    for (auto& x : res[k]) x = g() % (2 * ntt52_primes[k].p);
    res[k][at] = 2 * ntt52_primes[k].p - 1;  // the largest lazy residue
  }
  const u64* const rp[4] = {res[0].data(), res[1].data(), res[2].data(), res[3].data()};
  for (unsigned used = 1; used <= 4; ++used)
    for (std::size_t count = 1; count <= most; ++count) {
      std::vector<u64> want(4 * count), ifma(4 * count, 7), avx2(4 * count, 7);
      scalar.digits(rp, at, count, want.data(), used);
      ntt52_mixed_radix_digits(rp, at, count, ifma.data(), used);
      ntt_avx2_mixed_radix_digits(rp, at, count, avx2.data(), used);
      for (std::size_t i = 0; i < used * count; ++i) {
        ASSERT_EQ(ifma[i], want[i]) << "ntt52, " << used << " primes, count " << count << ", entry " << i;
        ASSERT_EQ(avx2[i], want[i]) << "avx2, " << used << " primes, count " << count << ", entry " << i;
      }
    }
}

}  // namespace
