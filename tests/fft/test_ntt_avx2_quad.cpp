// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX2 plan's radix-16 passes (four levels a pass over memory, from
// ntt_avx2_quad_min() points; fft/ntt_avx2_transform.cpp) against the
// radix-4 route they replace, the threshold lowered to its minimum (2^15).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "fft/ntt.hpp"
#include "fft/ntt_avx2.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul::fft;

class NttAvx2Quad : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ntt_avx2_supported()) GTEST_SKIP() << "this processor has no AVX2 and FMA";
    old_ = ntt_avx2_set_quad_min({1, 1});
    ASSERT_EQ(ntt_avx2_quad_min().serial, std::size_t{1} << 15);  // clamped to 16 leaves
    ASSERT_EQ(ntt_avx2_quad_min().threaded, std::size_t{1} << 15);
    set_ = true;
  }
  void TearDown() override {
    if (set_) ntt_avx2_set_quad_min(old_);
  }
  ntt_avx2_quad_thresholds old_{};
  bool set_ = false;
};

// The value as an integer: a u64 residue, or (doubles) the integer-valued
// double a product's forward leaves.
long long as_integer(u64 x, bool doubles) {
  return doubles ? static_cast<long long>(std::bit_cast<double>(x)) : static_cast<long long>(x);
}

// Runs op on a copy of in with the quads off (the radix-4 route) and on.
// One thread: the same butterflies on the same values in the same order,
// so bit for bit. Two threads: the whole-array levels are radix-2 passes
// without quads (each reduces its x before the product) but a radix-4
// butterfly pair with them (fwd4 reduces only x0), so the representatives
// differ and the residues must not; the outputs stay in their ranges
// ([0, 2p) for u64; integer doubles within 3.15p).
void expect_routes_agree(const std::vector<u64>& in, u64 p, unsigned threads, bool doubles_out, const char* what,
                         const std::function<void(std::vector<u64>&)>& op) {
  const auto on = ntt_avx2_set_quad_min({std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max()});
  std::vector<u64> want = in, got = in;
  op(want);
  ntt_avx2_set_quad_min(on);
  op(got);
  const long long P = static_cast<long long>(p);
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (threads == 1) {
      ASSERT_EQ(got[i], want[i]) << what << " n=" << in.size() << " i=" << i << ": not bit for bit";
      continue;
    }
    const long long x = as_integer(got[i], doubles_out), y = as_integer(want[i], doubles_out);
    if (doubles_out) {
      const double d = std::bit_cast<double>(got[i]);
      ASSERT_EQ(d, std::nearbyint(d)) << what << " i=" << i;
      ASSERT_LE(std::fabs(d), 3.15 * static_cast<double>(p)) << what << " n=" << in.size() << " i=" << i;
    } else {
      ASSERT_LT(got[i], 2 * p) << what << " n=" << in.size() << " i=" << i;
    }
    ASSERT_EQ((x % P + P) % P, (y % P + P) % P) << what << " n=" << in.size() << " threads=2 i=" << i;
  }
}

std::vector<std::size_t> quad_lengths() {
  return {std::size_t{1} << 15, std::size_t{1} << 16, std::size_t{1} << 17, std::size_t{1} << 18,
          std::size_t{3} << 15, std::size_t{3} << 16, std::size_t{3} << 17};
}

// Residues in [0, 2p): edge values (0, 1, p - 1, p, 2p - 1) among random ones.
std::vector<u64> residues(std::size_t n, u64 p, std::mt19937_64& g) {
  const u64 edges[] = {0, 1, p - 1, p, p + 1, 2 * p - 1};
  std::vector<u64> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i % 5 == 0 ? edges[(i / 5) % std::size(edges)] : g() % (2 * p);
  return v;
}

// forward and inverse of u64 residues (the u64-in first quad, the u64-out
// last one), every length from the smallest that takes a quad (2^15: the
// sub-transforms are leaves) through 2^18 (a quad's sixteenths take quads)
// and the thirds of 3 * 2^k; 1 and 2 threads.
TEST_F(NttAvx2Quad, ForwardAndInverseU64EqualTheRadix4Route) {
  auto g = bigmul::test::rng(7301);
  for (std::size_t n : quad_lengths())
    for (unsigned threads : {1u, 2u}) {
      const auto plan = ntt_avx2_plan::get(static_cast<unsigned>(n % 5) % ntt52_prime_count, n);
      const u64 p = plan->modulus();
      const auto in = residues(n, p, g);
      expect_routes_agree(in, p, threads, false, "forward", [&](std::vector<u64>& a) { plan->forward(a.data(), threads); });
      expect_routes_agree(in, p, threads, false, "inverse", [&](std::vector<u64>& a) { plan->inverse(a.data(), threads); });
    }
}

// A product's own path: forward_product (zero-padded operands: the first
// step partial, quads below it), forward_filled, load_forward_product (on
// 2 threads the levels after their first step take quads too), and
// pointwise_inverse_product (doubles in, the scaled last quad), 1 and 2
// threads; the product through both routes also equals the u64 one.
TEST_F(NttAvx2Quad, ProductPathsEqualTheRadix4Route) {
  auto g = bigmul::test::rng(7302);
  for (std::size_t n : quad_lengths())
    for (unsigned threads : {1u, 2u}) {
      const auto plan = ntt_avx2_plan::get(static_cast<unsigned>(n % 3), n);
      const u64 p = plan->modulus();
      for (std::size_t nonzero : {n, n / 2 + 1, n / 4 - 1}) {
        auto in = residues(n, p, g);
        std::fill(in.begin() + static_cast<std::ptrdiff_t>(nonzero), in.end(), 0);
        expect_routes_agree(in, p, threads, true, "forward_product",
                            [&](std::vector<u64>& a) { plan->forward_product(a.data(), threads, nonzero); });
        std::vector<u64> raw(n);
        for (std::size_t i = 0; i < nonzero; ++i) raw[i] = i % 7 == 0 ? ~u64{0} : g();
        expect_routes_agree(std::vector<u64>(n, 0x5555), p, threads, true, "forward_filled",
                            [&](std::vector<u64>& a) {
                              plan->forward_filled(
                                  a.data(), threads, nonzero,
                                  [](void* ctx, u64* dst, std::size_t b, std::size_t e) {
                                    const auto& v = *static_cast<const std::vector<u64>*>(ctx);
                                    std::copy(v.begin() + static_cast<std::ptrdiff_t>(b),
                                              v.begin() + static_cast<std::ptrdiff_t>(e), dst);
                                  },
                                  &raw);
                            });
        expect_routes_agree(std::vector<u64>(n, 0x5555), p, threads, true, "load_forward_product",
                            [&](std::vector<u64>& a) { plan->load_forward_product(a.data(), raw.data(), nonzero, threads); });
      }
      // pointwise_inverse_product on two forward_product outputs (made on the radix-4 route).
      auto x = residues(n, p, g), y = residues(n, p, g);
      const auto on = ntt_avx2_set_quad_min({std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max()});
      plan->forward_product(x.data(), 1, n);
      plan->forward_product(y.data(), 1, n);
      ntt_avx2_set_quad_min(on);
      expect_routes_agree(x, p, threads, false, "pointwise_inverse_product",
                          [&](std::vector<u64>& a) { plan->pointwise_inverse_product(a.data(), y.data(), threads); });
    }
}

// The transforms through the quads are still the cyclic convolution: a
// product of two operands against the schoolbook one at a few points
// (all-maximum residues and random ones, 2^16 and 3 * 2^15, 1 and 2 threads).
TEST_F(NttAvx2Quad, ConvolutionThroughTheQuads) {
  auto g = bigmul::test::rng(7303);
  for (std::size_t n : {std::size_t{1} << 16, std::size_t{3} << 15})
    for (unsigned threads : {1u, 2u}) {
      const auto plan = ntt_avx2_plan::get(0, n);
      const u64 p = plan->modulus();
      std::vector<u64> a(n, 2 * p - 1), b = residues(n, p, g);
      auto x = a, y = b;
      plan->forward_product(x.data(), threads, n);
      plan->forward_product(y.data(), threads, n);
      plan->pointwise_inverse_product(x.data(), y.data(), threads);
      for (std::size_t i : {std::size_t{0}, std::size_t{1}, n / 2 + 3, n - 1}) {
        unsigned __int128 s = 0;
        for (std::size_t j = 0; j < n; ++j)
          s = (s + static_cast<unsigned __int128>(a[j] % p) * (b[(i + n - j) % n] % p)) % p;
        ASSERT_EQ(x[i] % p, static_cast<u64>(s)) << "n=" << n << " threads=" << threads << " i=" << i;
      }
    }
}

}  // namespace
