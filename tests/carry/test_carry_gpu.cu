// SPDX-License-Identifier: LGPL-3.0-or-later
// The CUDA carry normalization (carry/cuda/carry_device.cuh).
//
// CarryDeviceModel.* run on the CPU everywhere: they drive the kernels'
// per-element arithmetic (namespace hd, the plan) through a host replica of
// the kernels' block/warp/scan structure and compare with the sequential
// reference, so the algorithm is proven before any GPU runs it.
// CarryGpu.* run the kernels and skip when no CUDA device is usable (fail
// then under BIGMUL_REQUIRE_GPU=1: tests/support/gpu_test_support.cuh).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "carry/carry.hpp"
#include "carry/cuda/carry_device.cuh"
#include "gpu_test_support.cuh"
#include "prim/ops.hpp"
#include "test_support.hpp"

using bigmul::carry::digit_base;
using bigmul::carry::cuda::carry_plan;
namespace hd = bigmul::carry::cuda::hd;
using u128 = unsigned __int128;
using bigmul::test::dev_buf;

namespace {

std::string base_name(digit_base b) { return (b.decimal ? "10^" : "2^") + std::to_string(b.digits); }

std::vector<digit_base> all_bases() {
  std::vector<digit_base> v;
  for (unsigned k = 1; k <= 32; ++k) v.push_back({false, k});
  for (unsigned k = 1; k <= 9; ++k) v.push_back({true, k});
  return v;
}

template <class T>
struct carry_case {
  std::string name;
  std::vector<T> c;
  digit_base b;
  std::size_t m;
  std::uint64_t max_abs = 0;
};

// Digits of a known value redistributed between neighbours (c_i += d B,
// c_(i+1) -= d): large coefficients of both signs, same value.
std::vector<std::int64_t> disguise(const std::vector<std::uint32_t>& digits, digit_base b, std::int64_t spread,
                                   std::mt19937_64& g) {
  std::vector<std::int64_t> c(digits.begin(), digits.end());
  const auto B = static_cast<std::int64_t>(b.value());
  const std::int64_t s = std::min(spread, std::numeric_limits<std::int64_t>::max() / 4 / B);
  for (std::size_t i = 0; i + 1 < c.size(); ++i) {
    const std::int64_t d = static_cast<std::int64_t>(g() % (2 * static_cast<std::uint64_t>(s) + 1)) - s;
    c[i] += d * B;
    c[i + 1] -= d;
  }
  return c;
}

// Sizes that cut warps and blocks of phase 2.
std::vector<std::size_t> edge_sizes() {
  const std::size_t W = 32 * bigmul::carry::cuda::carry_items, BP = bigmul::carry::cuda::carry_block_positions;
  return {1, 2, 31, 33, W - 1, W, W + 1, BP - 1, BP, BP + 1, 2 * BP + 3};
}

std::vector<carry_case<std::int64_t>> int64_cases(bool big) {
  std::vector<carry_case<std::int64_t>> v;
  auto g = bigmul::test::rng(0xd0ca);
  const std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  for (digit_base b : all_bases()) {
    for (std::size_t n : {0u, 1u, 2u, 3u, 17u, 64u}) {
      std::vector<std::int64_t> c(n);
      const std::uint64_t B = b.value();
      const std::uint64_t R = B <= (1u << 30) ? 4 * B * B : std::uint64_t{1} << 62;
      for (auto& x : c) x = static_cast<std::int64_t>(g() % R) - static_cast<std::int64_t>(R / 2);
      if (n) c.back() = std::abs(c.back()) + 1;
      for (std::size_t m : {n, n + 1, n + 3, n + 6}) v.push_back({"random signed", c, b, m});
    }
    v.push_back({"min,max,max", {lo, hi, hi}, b, 200});
    v.push_back({"all max", {hi, hi, hi, hi}, b, 300});
    v.push_back({"negative total", {lo, lo, 1}, b, 200});
    v.push_back({"minus one", {-1}, b, 4});
    v.push_back({"zero into no digits", {0, 0, 0}, b, 0});
    v.push_back({"one into no digits", {1}, b, 0});
    v.push_back({"empty", {}, b, 3});
  }
  // Long carry chains at warp/block edges: B^m - 1, B^m, B^m - 2, 0, -1.
  for (digit_base b : {digit_base{false, 1}, digit_base{false, 7}, digit_base{false, 16}, digit_base{false, 32},
                       digit_base{true, 1}, digit_base{true, 4}, digit_base{true, 9}}) {
    for (std::size_t m : edge_sizes()) {
      std::vector<std::uint32_t> top(m, static_cast<std::uint32_t>(b.value() - 1));
      for (std::int64_t spread : {0, 1000}) {
        auto c = disguise(top, b, spread, g);
        v.push_back({"B^m - 1", c, b, m});
        c[0] += 1;
        v.push_back({"B^m", c, b, m});
        c[0] -= 2;
        v.push_back({"B^m - 2", c, b, m});
        v.push_back({"B^m - 2, one digit short", c, b, m - 1});
        v.push_back({"B^m - 2, room above", c, b, m + 40});
      }
      auto z = disguise(std::vector<std::uint32_t>(m, 0), b, 1 << 20, g);
      v.push_back({"zero in disguise", z, b, m});
      z[0] -= 1;
      v.push_back({"-1 in disguise", z, b, m});
    }
  }
  // FFT-like: |c| up to 2^49, positive total; with and without the bound.
  for (digit_base b : {digit_base{false, 20}, digit_base{true, 6}, digit_base{false, 3}}) {
    const std::size_t n = big ? (1u << 20) : 5000;
    std::vector<std::int64_t> c(n);
    for (auto& x : c) x = static_cast<std::int64_t>(g() >> 14) - (std::int64_t{1} << 49);
    c.back() = std::int64_t{1} << 49;
    v.push_back({"fft-like", c, b, n + 4});
    v.push_back({"fft-like, bound given", c, b, n + 4, std::uint64_t{1} << 49});
    c[n / 2] = std::int64_t{1} << 49;  // exactly at the bound
    c[n / 3] = -(std::int64_t{1} << 49);
    v.push_back({"fft-like, values at the bound", c, b, n + 4, std::uint64_t{1} << 49});
  }
  return v;
}

std::vector<carry_case<u128>> u128_cases(bool big) {
  std::vector<carry_case<u128>> v;
  auto g = bigmul::test::rng(0xd0cb);
  for (digit_base b : all_bases()) {
    std::vector<u128> c(40);
    for (auto& x : c) x = (static_cast<u128>(g() >> 4) << 64) | g();
    v.push_back({"u128 random", c, b, 40 + 130});
    v.push_back({"u128 random, too few digits", c, b, 41});
    std::fill(c.begin(), c.end(), ~static_cast<u128>(0) >> 4);
    v.push_back({"u128 max", c, b, 40 + 130});
    v.push_back({"u128 all ones", std::vector<u128>(7, ~static_cast<u128>(0)), b, 7 + 130});
    v.push_back({"u128 zeros", std::vector<u128>(5, 0), b, 3});
  }
  // Tiled-like sums (< n 2^64) of 32-bit and 10^9 digits.
  for (digit_base b : {digit_base{false, 32}, digit_base{true, 9}}) {
    const std::size_t n = big ? (1u << 20) : 3000;
    std::vector<u128> c(n);
    for (auto& x : c) x = static_cast<u128>(g()) * (g() % n + 1);
    v.push_back({"tiled-like", c, b, n + 6});
  }
  return v;
}

// ---------------------------------------------------------------------------
// Host replica of the device algorithm (same plan, same hd functions, same
// block/warp/round decomposition, same kill-pair scan).
template <class T, class Base>
void model_run(const std::vector<T>& c, std::size_t nc, std::size_t G, const Base& base, const carry_plan& plan,
               std::size_t m, std::vector<std::uint32_t>& out, std::vector<int>& ok) {
  using bigmul::prim::carry_gp;
  using bigmul::prim::carry_op;
  constexpr unsigned items = bigmul::carry::cuda::carry_items, warps = bigmul::carry::cuda::carry_threads / 32;
  const std::size_t BP = bigmul::carry::cuda::carry_block_positions;
  const std::size_t ns = plan.ns, M = plan.M, nblk = (M + BP - 1) / BP;
  std::vector<std::int64_t> buf[2] = {std::vector<std::int64_t>(G * ns), std::vector<std::int64_t>(G * ns)};
  const std::int64_t* s = buf[0].data();
  for (unsigned r = 0; r < plan.rounds; ++r) {
    std::int64_t* o = buf[r & 1].data();
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t p = 0; p < plan.n_out[r]; ++p)
        o[g * ns + p] = r == 0 ? hd::gather_position(base, c.data() + g * nc, plan.n_in[0], p, plan.D[0],
                                                     plan.signed_top[0])
                               : hd::gather_position(base, s + g * ns, plan.n_in[r], p, plan.D[r],
                                                     plan.signed_top[r]);
    s = o;
  }
  const auto B = static_cast<std::int64_t>(base.base());
  // Per warp-round: t values and masks.
  const auto round = [&](std::size_t g, std::size_t first, std::int64_t* t, std::uint32_t& gm, std::uint32_t& pm) {
    gm = pm = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const std::size_t p = first + lane;
      const bool in = p < M;
      t[lane] = in ? hd::phase2_t(base, s + g * ns, ns, p) : 0;
      gm |= static_cast<std::uint32_t>(in && t[lane] >= B) << lane;
      pm |= static_cast<std::uint32_t>(!in || t[lane] == B - 1) << lane;
    }
  };
  const auto warp_agg = [&](std::size_t g, std::size_t blk, unsigned w) {
    carry_gp a = bigmul::prim::carry_identity;
    std::int64_t t[32];
    for (unsigned r = 0; r < items; ++r) {
      std::uint32_t gm, pm;
      round(g, blk * BP + w * 32 * items + r * 32, t, gm, pm);
      a = carry_op{}(a, hd::warp_pair(gm, pm));
    }
    return a;
  };
  std::vector<carry_gp> pairs(G * (nblk + 1));
  for (std::size_t g = 0; g < G; ++g) {
    for (std::size_t blk = 0; blk < nblk; ++blk) {
      carry_gp a = bigmul::prim::carry_identity;
      for (unsigned w = 0; w < warps; ++w) a = carry_op{}(a, warp_agg(g, blk, w));
      pairs[g * (nblk + 1) + blk] = a;
    }
    pairs[g * (nblk + 1) + nblk] = carry_gp{0, 0};
    ok[g] = 1;
  }
  std::vector<carry_gp> scanned(pairs.size());
  carry_gp acc = bigmul::prim::carry_identity;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    scanned[i] = acc;
    acc = carry_op{}(acc, pairs[i]);
  }
  for (std::size_t g = 0; g < G; ++g) {
    for (std::size_t blk = 0; blk < nblk; ++blk) {
      std::vector<carry_gp> wa(warps);
      for (unsigned w = 0; w < warps; ++w) wa[w] = warp_agg(g, blk, w);
      for (unsigned w = 0; w < warps; ++w) {
        std::uint32_t cin = scanned[g * (nblk + 1) + blk].g;
        for (unsigned v = 0; v < w; ++v) cin = wa[v].g | (wa[v].p & cin);
        for (unsigned r = 0; r < items; ++r) {
          std::int64_t t[32];
          std::uint32_t gm, pm;
          const std::size_t first = blk * BP + w * 32 * items + r * 32;
          round(g, first, t, gm, pm);
          const std::uint64_t bits = hd::warp_carry_bits(gm, pm, cin);
          cin = static_cast<std::uint32_t>(bits >> 32) & 1u;
          for (unsigned lane = 0; lane < 32; ++lane) {
            const std::size_t p = first + lane;
            if (p >= M) continue;
            bool carry_out;
            const std::uint32_t d = hd::resolve_digit(t[lane], static_cast<std::uint32_t>(bits >> lane) & 1u, B,
                                                      carry_out);
            if (p < m)
              out[g * m + p] = d;
            else if (d != 0)
              ok[g] = 0;
            if (p == M - 1 && !carry_out) ok[g] = 0;
          }
        }
      }
    }
  }
}

template <class T>
void model_carry(const std::vector<T>& c, std::size_t nc, std::size_t G, digit_base b, std::size_t m,
                 std::uint64_t max_abs, std::vector<std::uint32_t>& out, std::vector<int>& ok) {
  carry_plan plan;
  ASSERT_TRUE(bigmul::carry::cuda::make_carry_plan<T>(b, nc, m, max_abs, plan));
  out.assign(G * m, 0xdeadbeef);
  ok.assign(G, -1);
  bigmul::carry::with_base(b, [&](auto base) { model_run(c, nc, G, base, plan, m, out, ok); });
}

// The CPU reference: the two-phase CPU twin (checked against GMP in
// test_carry), and the sequential one where its |c| < 2^125 holds.
template <class T>
bool reference(const T* c, std::size_t nc, digit_base b, std::size_t m, std::vector<std::uint32_t>& out,
               std::uint64_t max_abs = 0) {
  out.assign(m, 0);
  const bool fits = bigmul::carry::carry_normalize_two_phase(c, nc, b, out.data(), m, 2, max_abs);
  bool small = true;  // int64 always is
  if constexpr (!bigmul::carry::is_signed_int<T>) {
    for (std::size_t i = 0; i < nc; ++i)
      if (c[i] >= static_cast<T>(static_cast<u128>(1) << 124)) small = false;
  }
  if (small) {
    std::vector<std::uint32_t> seq(m, 0);
    EXPECT_EQ(bigmul::carry::carry_normalize_sequential(c, nc, b, seq.data(), m), fits) << "CPU twins disagree";
    if (fits) EXPECT_EQ(seq, out) << "CPU twins disagree";
  }
  return fits;
}

template <class T>
void expect_model_matches(const carry_case<T>& k) {
  SCOPED_TRACE(k.name + " base " + base_name(k.b) + " nc " + std::to_string(k.c.size()) + " m " +
               std::to_string(k.m));
  std::vector<std::uint32_t> want, got;
  std::vector<int> ok;
  const bool fits = reference(k.c.data(), k.c.size(), k.b, k.m, want, k.max_abs);
  model_carry(k.c, k.c.size(), 1, k.b, k.m, k.max_abs, got, ok);
  ASSERT_EQ(ok[0], fits ? 1 : 0);
  if (fits) {
    ASSERT_EQ(got, want);
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// CPU: the device arithmetic and structure.

TEST(CarryDeviceModel, WarpCarryBitsMatchRipple) {
  auto g = bigmul::test::rng(0xd001);
  for (int it = 0; it < 20000; ++it) {
    std::uint32_t gen = static_cast<std::uint32_t>(g()), prop = static_cast<std::uint32_t>(g());
    if (it % 3 == 0) prop |= static_cast<std::uint32_t>(g());  // long propagate runs
    if (it % 7 == 0) prop = 0xffffffffu;
    prop &= ~gen;
    const std::uint32_t cin = static_cast<std::uint32_t>(g() & 1);
    std::uint32_t c = cin;
    std::uint64_t want = 0;
    for (unsigned i = 0; i < 32; ++i) {
      want |= static_cast<std::uint64_t>(c) << i;
      c = ((gen >> i) & 1) | (((prop >> i) & 1) & c);
    }
    want |= static_cast<std::uint64_t>(c) << 32;
    ASSERT_EQ(hd::warp_carry_bits(gen, prop, cin), want) << gen << " " << prop << " " << cin;
    const auto pair = hd::warp_pair(gen, prop);
    ASSERT_EQ(pair.g, static_cast<std::uint32_t>(hd::warp_carry_bits(gen, prop, 0) >> 32));
    ASSERT_EQ(pair.p, prop == 0xffffffffu ? 1u : 0u);
  }
}

TEST(CarryDeviceModel, U128DivisionByPowersOfTen) {
  auto g = bigmul::test::rng(0xd002);
  bigmul::carry::with_base(digit_base{true, 9}, [&](auto base) {
    for (int it = 0; it < 20000; ++it) {
      u128 x = (static_cast<u128>(g()) << 64) | g();
      if (it % 5 == 0) x >>= g() % 128;
      if (it == 0) x = ~static_cast<u128>(0);
      u128 r1, r2;
      const u128 q1 = hd::div_floor(base, x, r1);
      const u128 q2 = base.div_floor(x, r2);
      ASSERT_TRUE(q1 == q2 && r1 == r2);
    }
  });
  bigmul::carry::with_base(digit_base{true, 1}, [&](auto base) {
    u128 r;
    EXPECT_TRUE(hd::div_floor(base, static_cast<u128>(12345), r) == 1234 && r == 5);
  });
}

// Gather spread == the CPU's scatter spread (digit j of c[i] into i + j).
TEST(CarryDeviceModel, GatherSpreadMatchesScatter) {
  auto g = bigmul::test::rng(0xd003);
  for (digit_base b : all_bases()) {
    bigmul::carry::with_base(b, [&](auto base) {
      for (std::uint64_t max_abs : {std::uint64_t{0}, std::uint64_t{1} << 40}) {
        std::vector<std::int64_t> c(50);
        for (auto& x : c) x = static_cast<std::int64_t>(g());
        if (max_abs)
          for (auto& x : c) x %= static_cast<std::int64_t>(max_abs) + 1;
        c[3] = max_abs ? static_cast<std::int64_t>(max_abs) : std::numeric_limits<std::int64_t>::min();
        carry_plan plan;
        ASSERT_TRUE(bigmul::carry::cuda::make_carry_plan<std::int64_t>(b, c.size(), 10, max_abs, plan));
        const unsigned D = plan.D[0];
        std::vector<std::int64_t> want(plan.n_out[0], 0);
        for (std::size_t i = 0; i < c.size(); ++i) {
          std::int64_t x = c[i], r;
          for (unsigned j = 0; j < D; ++j) {
            x = base.div_floor(x, r);
            want[i + j] += r;
          }
          want[i + D] += x;
        }
        for (std::size_t p = 0; p < want.size(); ++p)
          ASSERT_EQ(hd::gather_position(base, c.data(), c.size(), p, D, true), want[p])
              << base_name(b) << " p " << p << " max_abs " << max_abs;
      }
    });
  }
}

TEST(CarryDeviceModel, PlanMatchesTheCpuRounds) {
  carry_plan plan;
  ASSERT_TRUE(bigmul::carry::cuda::make_carry_plan<u128>(digit_base{false, 1}, 10, 100, 0, plan));
  EXPECT_EQ(plan.rounds, 5u);  // D = 128, 8, 4, 3, 2
  EXPECT_EQ(plan.D[0], 128u);
  EXPECT_EQ(plan.D[plan.rounds - 1], 2u);
  EXPECT_EQ(plan.M, std::max<std::size_t>(100, plan.ns) + 1);
  ASSERT_TRUE(bigmul::carry::cuda::make_carry_plan<std::int64_t>(digit_base{false, 16}, 10, 5, 0, plan));
  EXPECT_EQ(plan.rounds, 1u);
  EXPECT_EQ(plan.D[0], 4u);
  EXPECT_EQ(plan.ns, 10u + 4u);
  EXPECT_EQ(plan.M, 15u);
  EXPECT_FALSE(bigmul::carry::cuda::make_carry_plan<std::int64_t>(digit_base{true, 10}, 1, 1, 0, plan));
}

TEST(CarryDeviceModel, Int64CasesMatchSequential) {
  for (const auto& k : int64_cases(false)) expect_model_matches(k);
}

TEST(CarryDeviceModel, U128CasesMatchSequential) {
  for (const auto& k : u128_cases(false)) expect_model_matches(k);
}

TEST(CarryDeviceModel, BatchedProblemsStaySeparate) {
  auto g = bigmul::test::rng(0xd004);
  const digit_base b{false, 8};
  const std::size_t BP = bigmul::carry::cuda::carry_block_positions;
  for (std::size_t G : {1u, 3u, 8u}) {
    for (std::size_t n : {std::size_t{5}, BP - 2, BP + 1}) {
      const std::size_t m = n + 1;
      std::vector<std::int64_t> c(G * n);
      for (std::size_t p = 0; p < G; ++p) {
        // B^m - 1 in disguise (a carry runs out of the top), or a value that does not fit.
        auto top = disguise(std::vector<std::uint32_t>(m, 255), b, 100, g);
        for (std::size_t i = 0; i < n; ++i) c[p * n + i] = top[i];
        c[p * n + n - 1] += top[n] * 256;  // fold the top coefficient into c[n-1]
        if (p % 2) c[p * n + n - 1] += 256;  // B^m + ...: does not fit
      }
      std::vector<std::uint32_t> got;
      std::vector<int> ok;
      model_carry(c, n, G, b, m, 0, got, ok);
      for (std::size_t p = 0; p < G; ++p) {
        std::vector<std::uint32_t> want;
        const bool fits = reference(c.data() + p * n, n, b, m, want);
        ASSERT_EQ(ok[p], fits ? 1 : 0) << "G " << G << " problem " << p;
        EXPECT_EQ(fits, p % 2 == 0);
        if (fits) {
          ASSERT_EQ(std::vector<std::uint32_t>(got.begin() + p * m, got.begin() + (p + 1) * m), want);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// GPU.

namespace {

// Runs the device carry on G problems; digits and ok flags come back.
template <class T>
void device_carry(const std::vector<T>& c, std::size_t nc, std::size_t G, digit_base b, std::size_t m,
                  std::uint64_t max_abs, std::vector<std::uint32_t>& out, std::vector<int>& ok) {
  dev_buf<T> d_c(c);
  dev_buf<std::uint32_t> d_out(G * m);
  dev_buf<int> d_ok(G);
  ASSERT_EQ(cudaMemset(d_out.p, 0xee, std::max<std::size_t>(G * m, 1) * sizeof(std::uint32_t)), cudaSuccess);
  ASSERT_EQ(cudaMemset(d_ok.p, 0x7f, std::max<std::size_t>(G, 1) * sizeof(int)), cudaSuccess);
  std::size_t bytes = 0;
  const auto call = [&](void* t, std::size_t& bt) {
    return G == 1 ? bigmul::carry::cuda::carry_normalize_device<T>(t, bt, d_c.p, nc, b, d_out.p, m, d_ok.p, 0,
                                                                   max_abs)
                  : bigmul::carry::cuda::carry_normalize_device_batched<T>(t, bt, d_c.p, nc, G, b, d_out.p, m,
                                                                           d_ok.p, 0, max_abs);
  };
  ASSERT_EQ(call(nullptr, bytes), cudaSuccess);
  dev_buf<char> temp(bytes);
  ASSERT_EQ(call(temp.p, bytes), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  out = d_out.get(G * m);
  ok = d_ok.get(G);
}

template <class T>
void expect_device_matches(const carry_case<T>& k) {
  SCOPED_TRACE(k.name + " base " + base_name(k.b) + " nc " + std::to_string(k.c.size()) + " m " +
               std::to_string(k.m));
  std::vector<std::uint32_t> want, got;
  std::vector<int> ok;
  const bool fits = reference(k.c.data(), k.c.size(), k.b, k.m, want, k.max_abs);
  device_carry(k.c, k.c.size(), 1, k.b, k.m, k.max_abs, got, ok);
  ASSERT_EQ(ok[0], fits ? 1 : 0);
  if (fits) {
    ASSERT_EQ(got, want);
  }
}

using CarryGpu = bigmul::test::gpu_fixture;

}  // namespace

TEST_F(CarryGpu, Int64MatchesSequential) {
  for (const auto& k : int64_cases(true)) expect_device_matches(k);
}

TEST_F(CarryGpu, U128MatchesSequential) {
  for (const auto& k : u128_cases(true)) expect_device_matches(k);
}

TEST_F(CarryGpu, MatchesTwoPhaseCpu) {
  auto g = bigmul::test::rng(0xd005);
  for (digit_base b : all_bases()) {
    const std::size_t n = 4099;
    std::vector<std::int64_t> c(n);
    for (auto& x : c) x = static_cast<std::int64_t>(g() >> 20) - (std::int64_t{1} << 43);
    c.back() = std::int64_t{1} << 43;
    std::vector<std::uint32_t> want(n + 8), got;
    std::vector<int> ok;
    const bool fits = bigmul::carry::carry_normalize<std::int64_t>(c.data(), n, b, want.data(), n + 8, 2,
                                                                  std::uint64_t{1} << 43);
    device_carry(c, n, 1, b, n + 8, std::uint64_t{1} << 43, got, ok);
    ASSERT_EQ(ok[0], fits ? 1 : 0) << base_name(b);
    if (fits) {
      ASSERT_EQ(got, want) << base_name(b);
    }
  }
}

// Batched == G separate calls == the CPU per problem, failing problems included.
TEST_F(CarryGpu, BatchedEqualsSeparateCalls) {
  auto g = bigmul::test::rng(0xd006);
  const std::size_t BP = bigmul::carry::cuda::carry_block_positions;
  for (digit_base b : {digit_base{false, 16}, digit_base{true, 4}, digit_base{false, 1}}) {
    for (std::size_t G : {1u, 3u, 64u}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{33}, BP - 1, BP + 1}) {
        const std::size_t m = n + 4;
        std::vector<std::int64_t> c(G * n);
        for (std::size_t p = 0; p < G; ++p) {
          auto top = disguise(std::vector<std::uint32_t>(n, static_cast<std::uint32_t>(b.value() - 1)), b, 50, g);
          for (std::size_t i = 0; i < n; ++i) c[p * n + i] = top[i];
          if (p % 3 == 1) c[p * n] -= static_cast<std::int64_t>(b.value()) * 7;  // maybe negative: V < 0
          if (p % 5 == 2) c[p * n + n - 1] += static_cast<std::int64_t>(g() % 1000);
        }
        std::vector<std::uint32_t> got;
        std::vector<int> ok;
        device_carry(c, n, G, b, m, 0, got, ok);
        for (std::size_t p = 0; p < G; ++p) {
          std::vector<std::int64_t> one(c.begin() + p * n, c.begin() + (p + 1) * n);
          std::vector<std::uint32_t> want, single;
          std::vector<int> ok1;
          const bool fits = reference(one.data(), n, b, m, want);
          device_carry(one, n, 1, b, m, 0, single, ok1);
          ASSERT_EQ(ok[p], fits ? 1 : 0) << base_name(b) << " G " << G << " n " << n << " problem " << p;
          ASSERT_EQ(ok1[0], ok[p]);
          if (fits) {
            const std::vector<std::uint32_t> part(got.begin() + p * m, got.begin() + (p + 1) * m);
            ASSERT_EQ(part, want) << base_name(b) << " G " << G << " n " << n << " problem " << p;
            ASSERT_EQ(single, want);
          }
        }
      }
    }
  }
}

TEST_F(CarryGpu, InvalidBaseIsAnError) {
  std::size_t bytes = 0;
  EXPECT_EQ(bigmul::carry::cuda::carry_normalize_device<std::int64_t>(nullptr, bytes, nullptr, 1,
                                                                      digit_base{true, 10}, nullptr, 1, nullptr),
            cudaErrorInvalidValue);
}
