// SPDX-License-Identifier: LGPL-3.0-or-later
// The portable NTT engine (three 62-bit primes) against O(n^2) modular DFTs and convolutions.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <type_traits>
#include <vector>

#include "fft/ntt.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul::fft;

bool is_prime_u64(u64 n) {
  if (n < 2) return false;
  for (u64 q : {2u, 3u, 5u, 7u, 11u, 13u, 17u, 19u, 23u, 29u, 31u, 37u})
    if (n % q == 0) return n == q;
  u64 d = n - 1;
  int s = 0;
  while (d % 2 == 0) d /= 2, ++s;
  for (u64 a : {2u, 3u, 5u, 7u, 11u, 13u, 17u, 19u, 23u, 29u, 31u, 37u}) {  // deterministic below 2^64
    u64 x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int i = 1; i < s && composite; ++i) {
      x = mul_mod(x, x, n);
      if (x == n - 1) composite = false;
    }
    if (composite) return false;
  }
  return true;
}

std::vector<u64> prime_factors(u64 n) {
  std::vector<u64> f;
  for (u64 q = 2; q * q <= n; ++q)
    if (n % q == 0) {
      f.push_back(q);
      while (n % q == 0) n /= q;
    }
  if (n > 1) f.push_back(n);
  return f;
}

template <std::size_t K>
void check_prime_set(const ntt_prime (&primes)[K], unsigned bits) {
  for (unsigned k = 0; k < K; ++k) {
    const u64 p = primes[k].p, g = primes[k].generator;
    EXPECT_TRUE(is_prime_u64(p)) << p;
    EXPECT_LT(p, u64{1} << bits) << "4p must fit the lanes (" << bits + 2 << " bits)";
    EXPECT_EQ((p - 1) % ntt_max_length, 0u) << "3 * 2^32 must divide p - 1";
    for (u64 q : prime_factors(p - 1)) EXPECT_NE(pow_mod(g, (p - 1) / q, p), 1u) << "g is not a generator of " << p;
    if (k) {
      EXPECT_LT(p, primes[k - 1].p) << "CRT assumes decreasing primes";
    }
  }
  EXPECT_LT(primes[0].p, 2 * primes[K - 1].p) << "CRT reduces residues by one subtraction";
  // The product exceeds every coefficient: n (2^64 - 1)^2 < 2^162 for n <= 3 * 2^32.
  long double log2_product = 0;
  for (const auto& q : primes) log2_product += std::log2(static_cast<long double>(q.p));
  EXPECT_GT(log2_product, 162.0L);
}

TEST(NttPrimes, PrimeGeneratorAndRoomForLazyButterflies) {
  check_prime_set(ntt_primes, 62);
  check_prime_set(ntt52_primes, 50);
}

TEST(NttPrimes, ShoupAndMontgomeryAtTheEdges) {
  for (unsigned k = 0; k < ntt_prime_count; ++k) {
    const u64 p = ntt_primes[k].p;
    const u64 pni = neg_inverse_mod_2_64(p);
    EXPECT_EQ(p * (~pni + 1), 1u);
    for (u64 w : {u64{0}, u64{1}, p - 1, p / 2, u64{0x123456789abcdefull} % p}) {
      const u64 ws = shoup_companion(w, p);
      for (u64 x : {u64{0}, u64{1}, p - 1, 2 * p - 1, 4 * p - 1, ~u64{0}}) {
        const u64 r = mul_shoup_lazy(x, w, ws, p);
        EXPECT_LT(r, 2 * p);
        EXPECT_EQ(r % p, mul_mod(x % p, w, p)) << "x=" << x << " w=" << w;
      }
    }
    for (u64 x : {u64{0}, u64{1}, p - 1, 2 * p - 1})
      for (u64 y : {u64{0}, u64{1}, p - 1, 2 * p - 1}) {
        const u64 r = montgomery_reduce_lazy(static_cast<u128>(x) * y, p, pni);
        EXPECT_LT(r, 2 * p);
        EXPECT_EQ(mul_mod(r % p, static_cast<u64>((static_cast<u128>(1) << 64) % p), p), mul_mod(x % p, y % p, p));
      }
    EXPECT_EQ(reduce_u64_to_2p(~u64{0}, p) % p, (~u64{0}) % p);
    EXPECT_LT(reduce_u64_to_2p(~u64{0}, p), 2 * p);
  }
}

TEST(NttLength, FitLength) {
  EXPECT_EQ(ntt_fit_length(1), 1u);
  EXPECT_EQ(ntt_fit_length(2), 2u);
  EXPECT_EQ(ntt_fit_length(3), 3u);
  EXPECT_EQ(ntt_fit_length(4), 4u);
  EXPECT_EQ(ntt_fit_length(5), 6u);
  EXPECT_EQ(ntt_fit_length(7), 8u);
  EXPECT_EQ(ntt_fit_length(9), 12u);
  EXPECT_EQ(ntt_fit_length(13), 16u);
  EXPECT_EQ(ntt_fit_length(1025), 1536u);
  EXPECT_EQ(ntt_fit_length(1537), 2048u);
  EXPECT_EQ(ntt_fit_length(ntt_max_length), ntt_max_length);
  EXPECT_EQ(ntt_fit_length(ntt_max_length + 1), 0u);
  EXPECT_THROW(ntt_plan(0, 5), std::invalid_argument);
  EXPECT_THROW(ntt_plan(3, 8), std::invalid_argument);
}

std::vector<u64> random_residues(std::size_t n, u64 p, std::mt19937_64& g, bool lazy) {
  std::vector<u64> v(n);
  for (auto& x : v) x = g() % (lazy ? 2 * p : p);
  return v;
}

std::vector<u64> naive_cyclic_convolution(const std::vector<u64>& a, const std::vector<u64>& b, u64 p) {
  const std::size_t n = a.size();
  std::vector<u64> c(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t k = (i + j) % n;
      c[k] = (c[k] + mul_mod(a[i] % p, b[j] % p, p)) % p;
    }
  return c;
}

// inverse(forward(a) .* forward(b)) / n == a (*) b, the property the multiply relies on.
template <class Plan>
std::vector<u64> ntt_convolution(const Plan& plan, std::vector<u64> a, std::vector<u64> b, unsigned threads) {
  const u64 p = plan.modulus(), n = plan.length();
  plan.forward(a.data(), threads);
  plan.forward(b.data(), threads);
  const u64 n_inv = inv_mod(n % p, p);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_LT(a[i], 2 * p);
    a[i] = mul_mod(mul_mod(a[i] % p, b[i] % p, p), n_inv, p);
  }
  plan.inverse(a.data(), threads);
  for (auto& x : a) {
    EXPECT_LT(x, 2 * p);
    x %= p;
  }
  return a;
}

std::vector<std::size_t> small_lengths() {
  std::vector<std::size_t> v;
  for (std::size_t n = 1; n <= 1024; n *= 2) {
    v.push_back(n);
    v.push_back(3 * n);
  }
  return v;
}

template <class Plan>
void convolution_small_lengths(unsigned primes) {
  auto g = bigmul::test::rng(7001);
  for (unsigned k = 0; k < primes; ++k)
    for (std::size_t n : small_lengths()) {
      const Plan plan(k, n);
      const u64 p = plan.modulus();
      for (bool lazy : {false, true}) {
        const auto a = random_residues(n, p, g, lazy), b = random_residues(n, p, g, lazy);
        EXPECT_EQ(ntt_convolution(plan, a, b, 1), naive_cyclic_convolution(a, b, p))
            << "prime " << k << " n=" << n << (lazy ? " lazy inputs" : "");
      }
      // All-maximum lazy inputs: the largest sums the butterflies see.
      const std::vector<u64> top(n, 2 * p - 1);
      const auto want = naive_cyclic_convolution(top, top, p);
      EXPECT_EQ(ntt_convolution(plan, top, top, 1), want) << "n=" << n;
      // The plan's own pointwise product (x y / n), squaring form included.
      auto x = top, y = top;
      plan.forward(x.data(), 1);
      plan.forward(y.data(), 1);
      auto sq = x;
      plan.pointwise(x.data(), y.data(), 1);
      plan.pointwise(sq.data(), sq.data(), 1);
      plan.inverse(x.data(), 1);
      plan.inverse(sq.data(), 1);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_LT(x[i], 2 * p);
        ASSERT_EQ(x[i] % p, want[i]) << "pointwise, n=" << n << " i=" << i;
        ASSERT_EQ(sq[i] % p, want[i]) << "pointwise square, n=" << n << " i=" << i;
      }
    }
}

unsigned bit_reverse(std::size_t i, unsigned bits) {
  unsigned r = 0;
  for (unsigned b = 0; b < bits; ++b) r |= ((i >> b) & 1u) << (bits - 1 - b);
  return r;
}

template <class Plan>
void forward_is_dft(const ntt_prime& prime) {
  auto g = bigmul::test::rng(7002);
  // Past 2^12 points the top levels' twiddles are coarse x fine products
  // (fft/ntt_level_table.hpp); past 2^19 the fine span grows beyond 64.
  for (std::size_t n : {2u, 8u, 64u, 512u, 4096u, 1u << 14, 1u << 15, 1u << 20}) {
    const Plan plan(1, n);
    const u64 p = plan.modulus();
    const u64 w = pow_mod(prime.generator, (p - 1) / n, p);
    const auto a = random_residues(n, p, g, false);
    auto x = a;
    plan.forward(x.data(), 1);
    unsigned bits = 0;
    while ((std::size_t{1} << bits) < n) ++bits;
    const std::size_t step = n > 4096 ? n / 16 - 1 : (n > 64 ? 61 : 1);  // a sample of frequencies for large n
    for (std::size_t f = 0; f < n; f += step) {
      u64 want = 0;
      const u64 wf = pow_mod(w, f, p);
      u64 wi = 1;
      for (std::size_t i = 0; i < n; ++i, wi = mul_mod(wi, wf, p)) want = (want + mul_mod(a[i], wi, p)) % p;
      std::size_t at = bit_reverse(f, bits);
      // The AVX2 engine leaves each 16 outputs 4 x 4 transposed (n >= 16, fft/ntt_avx2.hpp).
      if (std::is_same_v<Plan, ntt_avx2_plan> && n >= 16) at = (at & ~std::size_t{15}) | ((at & 3) << 2) | ((at >> 2) & 3);
      // The IFMA engine leaves each 16 outputs split into even and odd positions (fft/ntt_ifma.hpp).
      if (std::is_same_v<Plan, ntt52_plan> && n >= 16) at = (at & ~std::size_t{15}) | ((at & 15) >> 1) | ((at & 1) << 3);
      EXPECT_EQ(x[at] % p, want) << "n=" << n << " frequency " << f;
    }
  }
}

// Lengths past the in-cache leaf (recursion, parallel levels, radix 3): the
// round trip, thread-count independence, and sampled convolution outputs.
template <class Plan>
void large_lengths(unsigned primes) {
  auto g = bigmul::test::rng(7003);
  for (std::size_t n : {std::size_t{1} << 16, std::size_t{3} << 14, std::size_t{1} << 12, std::size_t{3} << 11}) {
    for (unsigned k = 0; k < primes; ++k) {
      const auto plan = Plan::get(k, n);
      const u64 p = plan->modulus();
      const auto a = random_residues(n, p, g, true);
      const auto b = random_residues(n, p, g, true);
      const auto c1 = ntt_convolution(*plan, a, b, 1);
      for (unsigned threads : {2u, 3u, 8u}) EXPECT_EQ(ntt_convolution(*plan, a, b, threads), c1) << threads;
      for (int s = 0; s < 8; ++s) {
        const std::size_t i = g() % n;
        u64 want = 0;
        for (std::size_t j = 0; j < n; ++j) want = (want + mul_mod(a[j] % p, b[(i + n - j) % n] % p, p)) % p;
        EXPECT_EQ(c1[i], want) << "n=" << n << " prime " << k << " coefficient " << i;
      }
      auto x = a;
      plan->forward(x.data(), 2);
      plan->inverse(x.data(), 2);
      const u64 n_mod = n % p;
      for (std::size_t i = 0; i < n; i += 97) ASSERT_EQ(x[i] % p, mul_mod(a[i] % p, n_mod, p)) << i;
    }
  }
}

class NttAvx2 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ntt_avx2_supported()) GTEST_SKIP() << "this processor has no AVX2 and FMA";
  }
};

// x mod p as a signed 128-bit value's residue in [0, p).
u64 mod_p(__int128 x, u64 p) {
  const __int128 r = x % static_cast<__int128>(p);
  return static_cast<u64>(r < 0 ? r + p : r);
}

// The double-precision modular products at the extremes of their lazy
// ranges (fft/ntt_avx2_arith.hpp): exact residues against __int128, and the
// proved bounds on the result.
TEST_F(NttAvx2, DoubleModmulExactAtTheEdges) {
  auto g = bigmul::test::rng(7004);
  for (unsigned k = 0; k < ntt52_prime_count; ++k) {
    const u64 p = ntt52_primes[k].p;
    const double pd = static_cast<double>(p);
    const long long P = static_cast<long long>(p);
    std::vector<long long> xs = {0, 1, -1, P - 1, P, P + 1, 2 * P - 1, 2 * P, 4 * P - 1, (1ll << 52) - 1};
    for (int i = 0; i < 40; ++i) xs.push_back(static_cast<long long>(g() % (8 * p)) - 4 * P);
    for (std::size_t n = xs.size(), i = 0; i < n; ++i) xs.push_back(-xs[i]);
    while (xs.size() % 4) xs.push_back(0);
    const long long half = (P - 1) / 2;
    std::vector<long long> ws = {0, 1, -1, half, -half, half - 1, 2, -2};
    for (int i = 0; i < 8; ++i) ws.push_back(static_cast<long long>(g() % p) - half);
    for (long long w : ws) {
      const double wd = static_cast<double>(w), wp = wd / pd;
      for (std::size_t i = 0; i < xs.size(); i += 4) {
        double x[4], r[4];
        for (int l = 0; l < 4; ++l) x[l] = static_cast<double>(xs[i + l]);
        ntt_avx2_mulmod_shoup_lanes(x, wd, wp, p, r);
        for (int l = 0; l < 4; ++l) {
          const long long xi = xs[i + l];
          ASSERT_EQ(r[l], std::nearbyint(r[l]));
          ASSERT_EQ(mod_p(static_cast<__int128>(static_cast<long long>(r[l])), p),
                    mod_p(static_cast<__int128>(xi) * w, p))
              << "x=" << xi << " w=" << w;
          // |r| <= p (1/2 + |x| 2^-55)
          ASSERT_LE(std::fabs(r[l]), pd * (0.5 + std::fabs(x[l]) * 0x1p-55)) << "x=" << xi << " w=" << w;
        }
      }
    }
    // General products a b with |a b| <= 2 p^2, and the reduction.
    std::vector<long long> as = {0, 1, -1, P - 1, -(P - 1), P, -P, half, -half, 2 * P - 1, -(2 * P - 1)};
    for (int i = 0; i < 20; ++i) as.push_back(static_cast<long long>(g() % (2 * p)) - P);
    for (long long a : as)
      for (long long b : as) {
        const long double ab = static_cast<long double>(a) * static_cast<long double>(b);
        if (std::fabs(ab) > 2.0L * static_cast<long double>(p) * static_cast<long double>(p)) continue;
        double x[4] = {static_cast<double>(a), static_cast<double>(-a), static_cast<double>(a), 0};
        double y[4] = {static_cast<double>(b), static_cast<double>(b), static_cast<double>(-b), 0};
        double r[4];
        ntt_avx2_mulmod_lanes(x, y, p, r);
        for (int l = 0; l < 3; ++l) {
          ASSERT_EQ(mod_p(static_cast<__int128>(static_cast<long long>(r[l])), p),
                    mod_p(static_cast<__int128>(static_cast<long long>(x[l])) * static_cast<long long>(y[l]), p))
              << "a=" << a << " b=" << b;
          ASSERT_LE(std::fabs(r[l]), pd / 2 + static_cast<double>(std::fabs(ab) / pd) * pd * 0x1p-52 * (1 + 0x1p-50))
              << "a=" << a << " b=" << b;
        }
      }
    for (std::size_t i = 0; i + 4 <= xs.size(); i += 4) {
      double x[4], r[4];
      for (int l = 0; l < 4; ++l) x[l] = static_cast<double>(xs[i + l]);
      ntt_avx2_reduce_lanes(x, p, r);
      for (int l = 0; l < 4; ++l) {
        ASSERT_EQ(mod_p(static_cast<long long>(r[l]), p), mod_p(xs[i + l], p));
        ASSERT_LE(std::fabs(r[l]), pd / 2 + 1);
      }
    }
  }
}

// The division-free Shoup quotient equals the correctly rounded x / p, on
// the values closest to a rounding midpoint that exist: for each binade
// 2^-s <= |x / p| < 2^(1 - s) the midpoints are odd multiples of 2^(-s - 53),
// and x = d 2^-(53 + s) mod p (d odd and small) puts x / p at d 2^(-s - 53) / p
// from one; then the binade edges, the extremes and random values.
TEST_F(NttAvx2, DivisionFreeQuotientIsCorrectlyRounded) {
  auto g = bigmul::test::rng(7005);
  for (unsigned k = 0; k < ntt52_prime_count; ++k) {
    const u64 p = ntt52_primes[k].p;
    const long long P = static_cast<long long>(p), half = (P - 1) / 2;
    const auto mul = [p](u64 a, u64 b) { return static_cast<u64>(static_cast<unsigned __int128>(a) * b % p); };
    std::vector<long long> xs = {0, 1, -1, 2, 3, half, -half, half - 1, 1 - half};
    u64 inv = 1;  // 2^-(53 + s) mod p
    for (int i = 0; i < 53; ++i) inv = mul(inv, (p + 1) / 2);
    for (int s = 1; s <= 50; ++s) {
      inv = mul(inv, (p + 1) / 2);
      for (long long d : {1, 3, 5, 7}) {
        const u64 x = mul(d % P, inv);
        const long long sx = x > static_cast<u64>(half) ? static_cast<long long>(x) - P : static_cast<long long>(x);
        xs.push_back(sx);
        xs.push_back(-sx);
      }
      // The x in this binade (|x| < p 2^(1 - s)) nearest a midpoint: the
      // denominators of the convergents of c / p, c = 2^(53 + s) mod p (the
      // best approximations minimise |x c mod p|, that is |d|).
      const u64 c = mul(static_cast<u64>(1) << 53, static_cast<u64>(1) << s);
      unsigned __int128 num = c, den = p, k0 = 1, k1 = 0;  // k1 / k0: the convergents' denominators
      while (den != 0) {
        const unsigned __int128 a = num / den, r = num % den, k = a * k1 + k0;
        if (k > static_cast<unsigned __int128>(P >> (s - 1))) break;
        if (k != 0 && k <= static_cast<unsigned __int128>(half))
          xs.push_back(static_cast<long long>(k)), xs.push_back(-static_cast<long long>(k));
        k0 = k1, k1 = k, num = den, den = r;
      }
      const long long edge = (P >> s) + 1;  // x / p just above and below 2^-s
      for (long long e = edge - 2; e <= edge + 2; ++e)
        if (e <= half) xs.push_back(e), xs.push_back(-e);
    }
    for (int i = 0; i < 20000; ++i) xs.push_back(static_cast<long long>(g() % p) - half);
    while (xs.size() % 4) xs.push_back(0);
    for (std::size_t i = 0; i < xs.size(); i += 4) {
      double x[4], q[4];
      for (int l = 0; l < 4; ++l) x[l] = static_cast<double>(xs[i + l]);
      ntt_avx2_quotient_lanes(x, p, q);
      for (int l = 0; l < 4; ++l)
        ASSERT_EQ(q[l], x[l] / static_cast<double>(p)) << "p=" << p << " x=" << xs[i + l];
    }
  }
}

TEST_F(NttAvx2, ConvolutionMatchesNaiveEveryPrimeSmallLengths) {
  convolution_small_lengths<ntt_avx2_plan>(ntt52_prime_count);
}
TEST_F(NttAvx2, ForwardIsTheDftInBitReversedOrder) { forward_is_dft<ntt_avx2_plan>(ntt52_primes[1]); }
TEST_F(NttAvx2, LargeLengthsRoundTripAndThreads) { large_lengths<ntt_avx2_plan>(ntt52_prime_count); }

// load(): residues of any 64-bit limbs in [0, 2p), zero-padded to n.
template <class Plan>
void load_residues_of_any_limb() {
  auto g = bigmul::test::rng(7006);
  for (unsigned k = 0; k < ntt52_prime_count; ++k)
    for (std::size_t n : {std::size_t{1}, std::size_t{12}, std::size_t{64}, std::size_t{3} << 12}) {
      const auto plan = Plan::get(k, n);
      const u64 p = plan->modulus();
      std::vector<u64> src(n);
      for (auto& x : src) x = g();
      const u64 edges[] = {0, 1, p - 1, p, 2 * p - 1, 2 * p, ~u64{0}, ~u64{0} - p, u64{1} << 63, (u64{1} << 32) - 1,
                           u64{1} << 32, 0xffffffff00000000ull};
      for (std::size_t i = 0; i < n && i < std::size(edges); ++i) src[i] = edges[i];
      for (std::size_t len : {n, n / 2 + 1, std::size_t{0}, n > 9 ? n - 9 : 0})
        for (unsigned threads : {1u, 2u}) {
          std::vector<u64> dst(n, 0xdeadbeef);
          plan->load(dst.data(), src.data(), len, threads);
          for (std::size_t i = 0; i < n; ++i) {
            ASSERT_LT(dst[i], 2 * p);
            ASSERT_EQ(dst[i] % p, i < len ? src[i] % p : 0) << "n=" << n << " len=" << len << " i=" << i;
          }
        }
    }
}

// forward(a, threads, nonzero): the zero part a[nonzero ..) skips its
// products, same result. Every boundary of the first radix-4 step's quarters
// (n/4, n/2, 3n/4) +- 1, and a few points past them.
template <class Plan>
void zero_padded_forward_matches() {
  auto g = bigmul::test::rng(7005);
  for (std::size_t n : {std::size_t{16}, std::size_t{64}, std::size_t{1024}, std::size_t{2048}, std::size_t{4096},
                        std::size_t{1} << 15, std::size_t{48}, std::size_t{3} << 12})
    for (std::size_t nonzero : {n / 2, n / 2 - 1, std::size_t{1}, n / 2 + 1, n, n / 4, n / 4 + 1, n / 4 - 1,
                                3 * n / 4, 3 * n / 4 + 1, 3 * n / 4 - 1, n / 2 + 8, n / 2 + 9, n - 1})
      for (unsigned threads : {1u, 2u}) {
        if (nonzero == 0 || nonzero > n) continue;
        const auto plan = Plan::get(2, n);
        const u64 p = plan->modulus();
        auto a = random_residues(n, p, g, true);
        std::fill(a.begin() + static_cast<std::ptrdiff_t>(nonzero), a.end(), 0);
        a[nonzero - 1] = 2 * p - 1;
        auto x = a, y = a;
        plan->forward(x.data(), threads);
        plan->forward(y.data(), threads, nonzero);
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_LT(y[i], 2 * p);
          ASSERT_EQ(x[i] % p, y[i] % p) << "n=" << n << " nonzero=" << nonzero << " i=" << i;
        }
      }
}

TEST_F(NttAvx2, LoadResiduesOfAnyLimb) { load_residues_of_any_limb<ntt_avx2_plan>(); }
TEST_F(NttAvx2, ZeroPaddedForwardMatches) { zero_padded_forward_matches<ntt_avx2_plan>(); }

// A product's own path on the AVX2 plan (forward_product's doubles into
// pointwise_inverse_product) equals the u64 path, forward, pointwise and
// inverse, residue for residue: every length with m < 16 (where it falls
// back to u64) and 16, 48, 1024, 3 * 2^12 and 2^16 (split over threads),
// 3 * 2^13 (the inverse's radix-3 stage multiplies by 1/n, as the
// power-of-two inverse's last step does at 16, 1024 and 2^16),
// zero-padded operands (nonzero n/2, n/4 + 1, n), squares, all-maximum and
// random lazy inputs, one and two threads.
TEST_F(NttAvx2, ProductPathInDoublesEqualsTheU64Path) {
  auto g = bigmul::test::rng(7011);
  std::vector<std::size_t> lengths = {1, 2, 4, 8, 3, 6, 12, 24, 16, 48, 1024, std::size_t{3} << 12,
                                      std::size_t{1} << 16, std::size_t{3} << 13};
  for (std::size_t n : lengths)
    for (unsigned k = 0; k < ntt52_prime_count; ++k) {
      const auto plan = ntt_avx2_plan::get(k, n);
      const u64 p = plan->modulus();
      for (std::size_t nonzero : {n, n / 2 + (n == 1), n / 4 + 1})
        for (int kind = 0; kind < 3; ++kind) {  // random, all-maximum, square of random
          auto a = kind == 1 ? std::vector<u64>(n, 2 * p - 1) : random_residues(n, p, g, true);
          auto b = kind == 0 ? random_residues(n, p, g, true) : a;
          std::fill(a.begin() + static_cast<std::ptrdiff_t>(std::min(nonzero, n)), a.end(), 0);
          std::fill(b.begin() + static_cast<std::ptrdiff_t>(std::min(nonzero, n)), b.end(), 0);
          for (unsigned threads : {1u, 2u}) {
            auto x = a, y = b;
            plan->forward(x.data(), threads, nonzero);
            plan->forward(y.data(), threads, nonzero);
            plan->pointwise(x.data(), kind == 2 ? x.data() : y.data(), threads);
            plan->inverse(x.data(), threads);
            auto u = a, v = b;
            plan->forward_product(u.data(), threads, nonzero);
            if (kind != 2) plan->forward_product(v.data(), threads, nonzero);
            plan->pointwise_inverse_product(u.data(), kind == 2 ? u.data() : v.data(), threads);
            for (std::size_t i = 0; i < n; ++i) {
              ASSERT_LT(u[i], 2 * p);
              ASSERT_EQ(u[i] % p, x[i] % p) << "n=" << n << " prime " << k << " nonzero " << nonzero << " kind "
                                            << kind << " threads " << threads << " i=" << i;
            }
          }
        }
    }
}

// load_forward_product (the first step reads the limbs) equals load then
// forward_product, residue for residue (the doubles within 3.15p): lengths
// with m < 16 (the two calls), leaves (16 .. 2^11, odd and even log2),
// recursive and split-table lengths
// (2^13, 2^16), radix 3 on both sides of its full table (3 * 2^12, 3 * 2^13),
// operand lengths at every quarter and third of n +- 1 (a vector across the
// operand's end), 0 and n, limbs at the conversion's edges, 1 and 2 threads.
TEST_F(NttAvx2, LoadForwardFromLimbsEqualsLoadThenForward) {
  auto g = bigmul::test::rng(7014);
  for (std::size_t n : {std::size_t{4}, std::size_t{24}, std::size_t{16}, std::size_t{32}, std::size_t{48},
                        std::size_t{64}, std::size_t{1024}, std::size_t{2048}, std::size_t{3} << 10,
                        std::size_t{1} << 13, std::size_t{3} << 12, std::size_t{3} << 13, std::size_t{1} << 16})
    for (unsigned k = 0; k < ntt52_prime_count; ++k) {
      const auto plan = ntt_avx2_plan::get(k, n);
      const u64 p = plan->modulus();
      std::vector<u64> src(n);
      for (auto& x : src) x = g();
      const u64 edges[] = {~u64{0}, 0, 1, p - 1, p, 2 * p - 1, 2 * p, (u64{1} << 32) - 1, u64{1} << 32,
                           0xffffffff00000000ull, u64{1} << 63};
      for (std::size_t i = 0; i < std::size(edges) && i < n; ++i) src[n - 1 - i] = edges[i];
      std::vector<std::size_t> lens = {0, 1, n};
      for (std::size_t q : {n / 4, n / 3, n / 2, 2 * n / 3, 3 * n / 4, n - 1})
        for (std::size_t d : {q - 1, q, q + 1, q + 5})
          if (d <= n) lens.push_back(d);
      for (std::size_t len : lens)
        for (unsigned threads : {1u, 2u}) {
          std::vector<u64> want(n, 0xdeadbeef), got(n, 0xfeedface);
          plan->load(want.data(), src.data(), len, threads);
          plan->forward_product(want.data(), threads, len);
          plan->load_forward_product(got.data(), src.data(), len, threads);
          // From 16 points of the power-of-two part on, the outputs are
          // unreduced integer-valued doubles (|x| <= 3.15p): equal mod p.
          for (std::size_t i = 0; i < n; ++i)
            if (n % 3 == 0 ? n >= 48 : n >= 16) {
              const double x = std::bit_cast<double>(got[i]), y = std::bit_cast<double>(want[i]);
              ASSERT_LE(std::fabs(x), 3.15 * static_cast<double>(p)) << "n=" << n << " i=" << i;
              ASSERT_EQ(mod_p(static_cast<long long>(x), p), mod_p(static_cast<long long>(y), p))
                  << "n=" << n << " prime " << k << " len=" << len << " threads " << threads << " i=" << i;
            } else {
              ASSERT_EQ(got[i], want[i]) << "n=" << n << " prime " << k << " len=" << len << " threads " << threads;
            }
        }
    }
}

// The AVX2 radix-3 stage reads every twiddle from a full table up to
// m = radix3_full_max and builds them from a base and a short table above:
// both sides of the switch (3 m points), every prime, all-maximum and random
// lazy inputs, one and two threads, against the cyclic convolution's
// definition at sampled outputs (every 61st and the last ones).
TEST_F(NttAvx2, Radix3BothSidesOfTheFullTable) {
  auto g = bigmul::test::rng(7010);
  for (std::size_t m : {std::size_t{16}, std::size_t{1} << 12, std::size_t{1} << 13}) {
    const std::size_t n = 3 * m;
    for (unsigned k = 0; k < ntt52_prime_count; ++k) {
      const auto plan = ntt_avx2_plan::get(k, n);
      const u64 p = plan->modulus();
      for (bool top : {true, false}) {
        const auto a = top ? std::vector<u64>(n, 2 * p - 1) : random_residues(n, p, g, true);
        const auto b = top ? a : random_residues(n, p, g, true);
        const auto c = ntt_convolution(*plan, a, b, 1);
        EXPECT_EQ(ntt_convolution(*plan, a, b, 2), c) << "n=" << n;
        for (std::size_t i = 0; i < n; i += (i + 3 >= n ? 1 : 61)) {
          u64 want = 0;
          for (std::size_t j = 0; j < n; ++j) want = (want + mul_mod(a[j] % p, b[(i + n - j) % n] % p, p)) % p;
          ASSERT_EQ(c[i], want) << "n=" << n << " prime " << k << " coefficient " << i;
        }
      }
    }
  }
}

// Past 2 cap points (cap = ntt_avx2_twiddle_table::cap) the AVX2 twiddles
// past the first cap are coarse x fine, gathered per leaf, and from 2^22
// points the radix-4 steps above the leaves read them too. A sparse input
// (64 nonzero values, all-maximum or random) makes the DFT cheap at sampled
// frequencies; the forward is checked against it at 2^12 (whole table),
// 2^13 (first split), 2^22 and 2^23 (steps above the leaves), every prime,
// plus the round trip x -> n x on 1 and 2 threads (the inverse's tables).
TEST_F(NttAvx2, SplitTwiddleTablesAreTheDftAtLargeLengths) {
  auto g = bigmul::test::rng(7012);
  for (std::size_t n : {std::size_t{1} << 12, std::size_t{1} << 13, std::size_t{1} << 22, std::size_t{1} << 23})
    for (unsigned k = 0; k < ntt52_prime_count; ++k) {
      if (n > (std::size_t{1} << 22) && k != 3) continue;  // one prime at the longest (time)
      const auto plan = ntt_avx2_plan::get(k, n);
      const u64 p = plan->modulus();
      const u64 w = pow_mod(ntt52_primes[k].generator, (p - 1) / n, p);
      std::vector<u64> a(n, 0);
      std::vector<std::size_t> at;
      for (int s = 0; s < 64; ++s) {
        const std::size_t i = s == 0 ? n - 1 : g() % n;
        a[i] = k % 2 == 0 ? 2 * p - 1 : g() % (2 * p);
        at.push_back(i);
      }
      std::sort(at.begin(), at.end());
      at.erase(std::unique(at.begin(), at.end()), at.end());
      auto x = a;
      plan->forward(x.data(), 1);
      unsigned bits = 0;
      while ((std::size_t{1} << bits) < n) ++bits;
      for (int s = 0; s < 512; ++s) {
        const std::size_t f = s < 4 ? n - 1 - s : g() % n;
        u64 want = 0;
        for (std::size_t i : at) want = (want + mul_mod(a[i] % p, pow_mod(w, i * f % n, p), p)) % p;
        std::size_t r = bit_reverse(f, bits);
        r = (r & ~std::size_t{15}) | ((r & 3) << 2) | ((r >> 2) & 3);  // 4 x 4 transposed outputs
        ASSERT_EQ(x[r] % p, want) << "n=" << n << " prime " << k << " frequency " << f;
      }
      auto x2 = a;  // two threads: whole-array levels first, then tasks with other leaf sizes
      plan->forward(x2.data(), 2);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(x2[i] % p, x[i] % p) << "n=" << n << " prime " << k << " i=" << i;
      for (unsigned threads : {1u, 2u}) {
        auto y = x;
        plan->inverse(y.data(), threads);
        const u64 n_mod = n % p;
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(y[i] % p, mul_mod(a[i] % p, n_mod, p)) << "n=" << n << " prime " << k << " i=" << i;
      }
    }
}

class NttIfma : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ntt52_supported()) GTEST_SKIP() << "this processor has no AVX-512 IFMA";
  }
};

TEST(Ntt, ConvolutionMatchesNaiveEveryPrimeSmallLengths) { convolution_small_lengths<ntt_plan>(ntt_prime_count); }
TEST(Ntt, ForwardIsTheDftInBitReversedOrder) { forward_is_dft<ntt_plan>(ntt_primes[1]); }
TEST(Ntt, LargeLengthsRoundTripAndThreads) { large_lengths<ntt_plan>(ntt_prime_count); }
TEST_F(NttIfma, ConvolutionMatchesNaiveEveryPrimeSmallLengths) { convolution_small_lengths<ntt52_plan>(ntt52_prime_count); }
TEST_F(NttIfma, ForwardIsTheDftInBitReversedOrder) { forward_is_dft<ntt52_plan>(ntt52_primes[1]); }
TEST_F(NttIfma, LargeLengthsRoundTripAndThreads) { large_lengths<ntt52_plan>(ntt52_prime_count); }
TEST_F(NttIfma, LoadResiduesOfAnyLimb) { load_residues_of_any_limb<ntt52_plan>(); }
TEST_F(NttIfma, ZeroPaddedForwardMatches) { zero_padded_forward_matches<ntt52_plan>(); }

// reduce: in place, any 64-bit value (the extremes included) to [0, 2p),
// congruent; vector body and scalar tail (lengths not a multiple of 8).
TEST_F(NttIfma, ReduceInPlaceAnyValue) {
  auto g = bigmul::test::rng(7013);
  const auto plan = ntt52_plan::get(3, 64);
  const u64 p = plan->modulus();
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{9},
                          std::size_t{2048}, std::size_t{2053}}) {
    std::vector<u64> a(len + 1, 777);
    for (std::size_t i = 0; i < len; ++i) a[i] = i % 5 == 0 ? ~u64{0} - i : i % 5 == 1 ? i : g();
    const auto before = a;
    plan->reduce(a.data(), len);
    for (std::size_t i = 0; i < len; ++i) {
      ASSERT_LT(a[i], 2 * p) << "len " << len << " i " << i;
      ASSERT_EQ(a[i] % p, before[i] % p) << "len " << len << " i " << i;
    }
    ASSERT_EQ(a[len], 777u);
  }
}

// forward_extent: whatever lies past it (here random 64-bit garbage, not
// residues) leaves forward(a, threads, nonzero) unchanged; it never falls
// below nonzero; and load(.., end) writes nothing past max(len, end). Short
// lengths (scalar, leaf only), the recursive first pair, radix 3 (m < 8 and
// vector), threaded; nonzero at every quarter / third boundary +- 1 and a
// 64-block's edge.
TEST_F(NttIfma, ForwardReadsNothingPastItsExtent) {
  auto g = bigmul::test::rng(7011);
  for (std::size_t n : {std::size_t{8}, std::size_t{16}, std::size_t{32}, std::size_t{24}, std::size_t{48},
                        std::size_t{2048}, std::size_t{4096}, std::size_t{1} << 15, std::size_t{3} << 12,
                        std::size_t{3} << 14})
    for (unsigned threads : {1u, 2u, 3u}) {
      const auto plan = ntt52_plan::get(0, n);
      const u64 p = plan->modulus();
      const std::size_t m = n % 3 == 0 ? n / 3 : n;
      for (std::size_t nonzero : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{9}, n / 4 - 1, n / 4,
                                  n / 4 + 1, m - 1, m, m + 1, m + 63, m + 64, m + 65, 2 * m - 1, 2 * m + 1,
                                  n / 2 + 9, 3 * n / 4 + 1, n - 65, n - 1, n}) {
        if (nonzero == 0 || nonzero > n) continue;
        const std::size_t extent = plan->forward_extent(nonzero, threads);
        ASSERT_GE(extent, nonzero);
        ASSERT_LE(extent, n);
        auto a = random_residues(n, p, g, true);
        std::fill(a.begin() + static_cast<std::ptrdiff_t>(nonzero), a.end(), 0);
        auto b = a;
        for (std::size_t i = extent; i < n; ++i) b[i] = g();
        plan->forward(a.data(), threads, nonzero);
        plan->forward(b.data(), threads, nonzero);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(a[i] % p, b[i] % p) << "n " << n << " threads " << threads << " nonzero " << nonzero
                                          << " extent " << extent << " i " << i;
        // The loader stops at the extent: the sentinels beyond it stay.
        std::vector<u64> src(nonzero), dst(n, 12345);
        for (auto& v : src) v = g();
        plan->load(dst.data(), src.data(), nonzero, threads, extent);
        for (std::size_t i = 0; i < n; ++i) {
          if (i < nonzero)
            ASSERT_EQ(dst[i] % p, src[i] % p) << "n " << n << " i " << i;
          else if (i < extent)
            ASSERT_EQ(dst[i], 0u) << "n " << n << " i " << i;
          else
            ASSERT_EQ(dst[i], 12345u) << "n " << n << " i " << i;
        }
      }
    }
}

// forward_filled (the radix-3 step reading its inputs from a fill
// callback) equals a load of the same values and forward(a, threads,
// nonzero): lengths 3 2^6 .. 3 2^14, nonzero around the thirds and the
// 64-column blocks, 1 and 2 threads, any 64-bit inputs; a's old contents
// must not matter.
struct fill_values {
  const std::vector<u64>* v;
  static void fill(void* ctx, u64* dst, std::size_t b, std::size_t e) {
    const auto& v = *static_cast<const fill_values*>(ctx)->v;
    for (std::size_t j = b; j < e; ++j) dst[j - b] = v[j];
  }
};
TEST_F(NttIfma, ForwardFilledEqualsLoadThenForward) {
  auto g = bigmul::test::rng(7017);
  for (unsigned k : {6u, 7u, 10u, 14u}) {
    const std::size_t m = std::size_t{1} << k, n = 3 * m;
    const auto plan = ntt52_plan::get(1, n);
    ASSERT_TRUE(plan->forward_fill_applies());
    const u64 p = plan->modulus();
    for (std::size_t nonzero : {n, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, m - 1, m, m + 1,
                                m + 64, 2 * m - 1, 2 * m, 2 * m + 65, n - 1})
      for (unsigned threads : {1u, 2u}) {
        if (nonzero > n) continue;  // 2m + 65 at m = 64
        std::vector<u64> v(n, 0);
        for (std::size_t j = 0; j < nonzero; ++j) v[j] = j % 11 == 0 ? ~u64{0} : g();
        auto want = v;
        plan->load(want.data(), v.data(), n, threads);
        plan->forward(want.data(), threads, nonzero);
        std::vector<u64> got(n);
        for (auto& x : got) x = g();
        fill_values ctx{&v};
        plan->forward_filled(got.data(), threads, nonzero, fill_values::fill, &ctx);
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_LT(got[i], 2 * p);
          ASSERT_EQ(got[i] % p, want[i] % p) << "n " << n << " nonzero " << nonzero << " threads " << threads << " i " << i;
        }
      }
  }
}

// pointwise_inverse (the product fused into the inverse's leaves) equals
// pointwise then inverse, residue for residue: short lengths (the unfused
// fallback), leaf-only, recursive, radix 3, threaded splits, and squares.
// The quad passes (four levels a pass, fft/ntt_ifma_transform.cpp) with
// their threshold lowered to the least block, 2^16 points, so that short
// transforms take them: the DFT in the engine's order (quads at 2^20 and its
// 2^16 sixteenths: every level coarse x fine, and the lowest level from the
// full table), and value for value the pairs-only transforms, forward,
// inverse and the fused pointwise inverse, on 1-3 and 8 threads (tasks
// smaller than a quad's sixteenths), at 2^16 .. 2^18 and 3 * 2^16 (the
// radix-3 thirds), 1 and 2 quads deep.
TEST_F(NttIfma, QuadPassesAreTheDftAndEqualThePairs) {
  struct quad_threshold {
    std::size_t old;
    explicit quad_threshold(std::size_t points) : old(ntt52_set_quad_min(points)) {}
    ~quad_threshold() { ntt52_set_quad_min(old); }
  };
  {
    const quad_threshold low(1);
    ASSERT_EQ(ntt52_quad_min(), std::size_t{1} << 16);
    forward_is_dft<ntt52_plan>(ntt52_primes[1]);
  }
  auto g = bigmul::test::rng(7019);
  for (std::size_t n : {std::size_t{1} << 16, std::size_t{1} << 17, std::size_t{1} << 18, std::size_t{3} << 16}) {
    if (bigmul::test::sanitized && n > (std::size_t{1} << 17)) continue;
    const auto plan = ntt52_plan::get(2, n);
    const u64 p = plan->modulus();
    const auto a = random_residues(n, p, g, true), y = random_residues(n, p, g, true);
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
      std::vector<u64> want[3], got[3];
      for (int quads = 0; quads < 2; ++quads) {
        const quad_threshold set(quads ? 1 : ~std::size_t{0});
        auto& v = quads ? got : want;
        v[0] = a;
        plan->forward(v[0].data(), threads);
        v[1] = v[0];
        plan->inverse(v[1].data(), threads);
        v[2] = v[0];
        plan->pointwise_inverse(v[2].data(), y.data(), threads);
      }
      for (int k = 0; k < 3; ++k)
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(got[k][i] % p, want[k][i] % p)
              << (k == 0 ? "forward" : k == 1 ? "inverse" : "pointwise inverse") << ", n " << n << ", threads "
              << threads << ", i " << i;
    }
  }
}

TEST_F(NttIfma, PointwiseInverseEqualsPointwiseThenInverse) {
  auto g = bigmul::test::rng(7007);
  for (std::size_t n : {std::size_t{8}, std::size_t{24}, std::size_t{16}, std::size_t{48}, std::size_t{2048},
                        std::size_t{1} << 12, std::size_t{3} << 12, std::size_t{1} << 16, std::size_t{3} << 14})
    for (unsigned threads : {1u, 2u, 3u}) {
      const auto plan = ntt52_plan::get(1, n);
      const u64 p = plan->modulus();
      auto x = random_residues(n, p, g, true), y = random_residues(n, p, g, true);
      plan->forward(x.data(), 1);
      plan->forward(y.data(), 1);
      for (bool square : {false, true}) {
        auto want = x, got = x;
        plan->pointwise(want.data(), square ? want.data() : y.data(), threads);
        plan->inverse(want.data(), threads);
        plan->pointwise_inverse(got.data(), square ? got.data() : y.data(), threads);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(got[i] % p, want[i] % p) << "n " << n << " threads " << threads << " square " << square << " i " << i;
      }
    }
}

}  // namespace
