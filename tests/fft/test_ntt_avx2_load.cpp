// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX2 plan's operand loads (fft/ntt_avx2.hpp): reduce (any 64-bit
// values to residues, in place) and forward_filled (the first forward step
// reading its inputs from an ntt_fill callback) against the plan's own
// load, forward_product and load_forward_product.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "fft/ntt.hpp"
#include "fft/ntt_avx2.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul::fft;

class NttAvx2Load : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ntt_avx2_supported()) GTEST_SKIP() << "this processor has no AVX2 and FMA";
  }
};

// The values at the edges of the conversion (0, p - 1, p, 2p - 1, 2p, the
// 32-bit halves' limits, 2^63, 2^64 - 1) among random ones.
std::vector<u64> edge_values(std::size_t n, u64 p, std::mt19937_64& g) {
  const u64 edges[] = {0, 1, p - 1, p, p + 1, 2 * p - 1, 2 * p, (u64{1} << 32) - 1, u64{1} << 32,
                       0xffffffff00000000ull, u64{1} << 63, ~u64{0}, ~u64{0} - 1};
  std::vector<u64> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i % 3 == 0 ? edges[(i / 3) % std::size(edges)] : g();
  return v;
}

// reduce: in place, every value to [0, 2p) and congruent to it (the scalar
// reduction x mod p), every prime; lengths around the vector width (the
// last partial vector) and a 2048 block; nothing past len written.
TEST_F(NttAvx2Load, ReduceInPlaceAnyValue) {
  auto g = bigmul::test::rng(7201);
  for (unsigned k = 0; k < ntt52_prime_count; ++k) {
    const auto plan = ntt_avx2_plan::get(k, 64);
    const u64 p = plan->modulus();
    for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{4},
                            std::size_t{5}, std::size_t{7}, std::size_t{8}, std::size_t{2048}, std::size_t{2051}}) {
      std::vector<u64> a = edge_values(len, p, g);
      a.push_back(777);
      const auto before = a;
      plan->reduce(a.data(), len);
      for (std::size_t i = 0; i < len; ++i) {
        ASSERT_LT(a[i], 2 * p) << "prime " << k << " len " << len << " value " << before[i];
        ASSERT_EQ(a[i] % p, before[i] % p) << "prime " << k << " len " << len << " value " << before[i];
      }
      ASSERT_EQ(a[len], 777u) << "len " << len;
    }
  }
}

struct fill_values {
  const std::vector<u64>* v;
  std::size_t calls = 0, asked_from = ~std::size_t{0}, asked_to = 0;
  static void fill(void* ctx, u64* dst, std::size_t b, std::size_t e) {
    auto& s = *static_cast<fill_values*>(ctx);
    ++s.calls;
    s.asked_from = std::min(s.asked_from, b);
    s.asked_to = std::max(s.asked_to, e);
    for (std::size_t j = b; j < e; ++j) dst[j - b] = (*s.v)[j];
  }
};

// From 16 points of the power-of-two part on, forward_product leaves
// unreduced integer-valued doubles (|x| <= 3.15p): equal mod p; below, u64
// residues in [0, 2p).
void expect_same_transform(const std::vector<u64>& got, const std::vector<u64>& want, std::size_t n, u64 p,
                           const char* what, std::size_t nonzero, unsigned threads) {
  const bool doubles = n % 3 == 0 ? n >= 48 : n >= 16;
  for (std::size_t i = 0; i < n; ++i) {
    long long x = static_cast<long long>(got[i]), y = static_cast<long long>(want[i]);
    if (doubles) {
      const double dx = std::bit_cast<double>(got[i]), dy = std::bit_cast<double>(want[i]);
      ASSERT_LE(std::fabs(dx), 3.15 * static_cast<double>(p)) << what << " n=" << n << " i=" << i;
      ASSERT_EQ(dx, std::nearbyint(dx)) << what << " n=" << n << " i=" << i;
      x = static_cast<long long>(dx), y = static_cast<long long>(dy);
    } else {
      ASSERT_LT(got[i], 2 * p) << what << " n=" << n << " i=" << i;
    }
    const long long P = static_cast<long long>(p);
    ASSERT_EQ((x % P + P) % P, (y % P + P) % P)
        << what << " n=" << n << " nonzero=" << nonzero << " threads=" << threads << " i=" << i;
  }
}

// forward_filled equals load then forward_product residue for residue, and
// load_forward_product (the limbs read by the same first step) bit for bit: n = 2^k and 3 * 2^k from the scalar lengths (m < 16)
// through leaves, the recursion, split twiddle tables (2^16+) and both sides
// of the radix-3 full table; nonzero 0, 1, n/2 and n/2 +- 1, the thirds' and
// quarters' edges +- 1, a 512-column chunk's edge, n; 1 and 2 threads; any
// 64-bit inputs; a's old contents (garbage) must not matter, and fill is
// never asked for values at or past nonzero.
TEST_F(NttAvx2Load, ForwardFilledEqualsLoadThenForwardProduct) {
  auto g = bigmul::test::rng(7202);
  std::vector<std::size_t> lengths;
  for (unsigned k = 2; k <= 17; ++k) {
    if (k >= 4 || k == 2) lengths.push_back(std::size_t{1} << k);
    if (k <= 16) lengths.push_back(std::size_t{3} << k);
  }
  for (std::size_t n : lengths) {
    const unsigned prime = static_cast<unsigned>(n % 7) % ntt52_prime_count;
    const auto plan = ntt_avx2_plan::get(prime, n);
    const u64 p = plan->modulus();
    const std::size_t m = n % 3 == 0 ? n / 3 : n;
    EXPECT_EQ(plan->forward_fill_applies(), m >= 16) << "n=" << n;
    std::vector<std::size_t> nonzeros = {0, 1, n / 2 - 1, n / 2, n / 2 + 1, n - 1, n, n + 5};
    for (std::size_t q : {m / 4, m, 2 * m, 3 * m / 4, std::size_t{512}, std::size_t{2048} + 3})
      for (std::size_t d : {q - 1, q + 1})
        if (q >= 1 && d <= n) nonzeros.push_back(d);
    const std::vector<u64> src = edge_values(n, p, g);
    for (std::size_t nonzero : nonzeros) {
      const std::size_t nz = std::min(nonzero, n);
      std::vector<u64> v(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(nz));
      v.resize(n + 8, 0xbad0bad0bad0bad0ull);  // past nonzero: fill must not be asked for them
      for (unsigned threads : {1u, 2u}) {
        std::vector<u64> want(n, 0xdeadbeef), got(n), fused(n, 0xfeedface);
        for (auto& x : got) x = g();
        plan->load(want.data(), src.data(), nz, threads);
        plan->forward_product(want.data(), threads, nz);
        fill_values ctx{&v};
        plan->forward_filled(got.data(), threads, nonzero, fill_values::fill, &ctx);
        if (ctx.calls) {
          ASSERT_LE(ctx.asked_to, nz) << "n=" << n << " nonzero=" << nonzero;
        }
        expect_same_transform(got, want, n, p, "forward_filled", nonzero, threads);
        if (m >= 16) {
          plan->load_forward_product(fused.data(), src.data(), nz, threads);
          for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(got[i], fused[i]) << "not bit for bit load_forward_product's: n=" << n
                                        << " nonzero=" << nonzero << " i=" << i;
        }
      }
    }
  }
}

// Through a product: two forward_filled operands into
// pointwise_inverse_product give the cyclic convolution's residues, the same
// as two u64 forwards, pointwise and inverse (all-maximum values: the
// largest residues; 2^k and 3 * 2^k past the leaf, 2 threads).
TEST_F(NttAvx2Load, ForwardFilledOperandsMultiply) {
  auto g = bigmul::test::rng(7203);
  for (std::size_t n : {std::size_t{1} << 13, std::size_t{3} << 12, std::size_t{48}, std::size_t{16}})
    for (unsigned threads : {1u, 2u}) {
      const auto plan = ntt_avx2_plan::get(1, n);
      const u64 p = plan->modulus();
      std::vector<u64> a(n, ~u64{0}), b = edge_values(n, p, g);
      const std::size_t an = n / 2 + 3, bn = n / 2 - 3;
      std::fill(a.begin() + static_cast<std::ptrdiff_t>(an), a.end(), 0);
      std::fill(b.begin() + static_cast<std::ptrdiff_t>(bn), b.end(), 0);
      std::vector<u64> x(n), y(n);
      plan->load(x.data(), a.data(), an, threads);
      plan->load(y.data(), b.data(), bn, threads);
      plan->forward(x.data(), threads, an);
      plan->forward(y.data(), threads, bn);
      plan->pointwise(x.data(), y.data(), threads);
      plan->inverse(x.data(), threads);
      std::vector<u64> u(n), w(n);
      fill_values fa{&a}, fb{&b};
      plan->forward_filled(u.data(), threads, an, fill_values::fill, &fa);
      plan->forward_filled(w.data(), threads, bn, fill_values::fill, &fb);
      plan->pointwise_inverse_product(u.data(), w.data(), threads);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(u[i] % p, x[i] % p) << "n=" << n << " i=" << i;
    }
}

}  // namespace
