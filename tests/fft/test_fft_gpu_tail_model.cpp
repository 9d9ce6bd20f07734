// SPDX-License-Identifier: LGPL-3.0-or-later
// CPU model of the GPU FFT's product tail (fft/cuda/device_fft_tail.cuh): replays the
// kernel's tiles (tail_row_of, tail_pair_of, the in-tile stages, tail_pair_product) on
// the CPU and checks (1) every valid bin is read once per operand and written once,
// every shared slot belongs to exactly one pair item; (2) the result equals the
// unfused path (all forward passes, real_pointwise_at / the complex product, all
// inverse passes) bit for bit, and the exact integer convolution.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "fft/cuda/device_complex.hpp"
#include "fft/cuda/device_fft_plan.hpp"
#include "fft/cuda/device_real_pointwise.hpp"
#include "fft/cuda/device_stockham.hpp"
#include "fft/cuda/device_tail_plan.hpp"
#include "fft/cuda/device_twiddle_tables.hpp"
#include "fft/twiddle.hpp"
#include "fft_tile_emulator.hpp"
#include "test_support.hpp"

namespace plan = bigmul::fft::cuda::plan;

namespace {

using namespace bigmul::test::fft_emu;

// The in-tile stages over one tile held in sh (smem_index layout).
template <class C, bool Inv>
void stages(const plan::fft_plan& p, const plan::pass_desc& d, const C* block_tw, std::vector<C>& sh) {
  std::vector<C> regs(std::size_t(d.threads) * plan::elems_per_thread);
  auto get = [&](unsigned lane, unsigned idx) { return sh[plan::smem_index(d, lane, idx)]; };
  auto put = [&](unsigned lane, unsigned idx, const C& v) { sh[plan::smem_index(d, lane, idx)] = v; };
  auto tw = [&](unsigned e) { return block_tw[e]; };
  tile_stages<C, Inv>(p, d, regs, get, put, tw, [] {});
}

// Pass pi of fft_pass_kernel over the whole batch, in place in data.
template <class C, bool Inv>
void pass(const plan::fft_plan& p, unsigned pi, bool twiddle, const std::vector<C>& tables, std::vector<C>& data) {
  emulate_pass<C, Inv>(p, pi, twiddle, tables, [&](std::size_t f) { return data[f]; },
                       [&](std::size_t f, const C& v) { data[f] = v; });
}

// fft_tail_kernel over every tile: x <- tail(x, y). Counts reads, writes and pair slots.
template <class C, bool Packed, bool Square>
void tail(const plan::fft_plan& p, const std::vector<C>& tables, const std::vector<C>& roots, unsigned rlog_split,
          real_of<C> scale, std::vector<C>& x, const std::vector<C>& y) {
  const plan::table_layout l = plan::layout_of(p);
  const plan::tail_geom g = plan::tail_geom_of(p, Packed);
  const plan::pass_desc& d = g.d;
  const unsigned E = d.threads * plan::elems_per_thread;
  std::vector<int> reads(x.size(), 0), writes(x.size(), 0);
  std::vector<C> shx(plan::smem_elements(d.log_tile())), shy(shx.size());
  for (std::size_t blk = 0; blk < d.blocks(); ++blk) {
    auto load = [&](const std::vector<C>& src, std::vector<C>& sh, bool count) {
      for (unsigned q = 0; q < E; ++q) {
        unsigned lane, idx;
        plan::tile_coords(d, q, lane, idx);
        const plan::tail_row r = plan::tail_row_of(g, blk, lane);
        const std::size_t flat = (r.outer << d.log_m) + idx;
        if (r.valid) {
          ASSERT_LT(flat, src.size());
          if (count) ++reads[flat];
        }
        sh[plan::smem_pad(q)] = r.valid ? src[flat] : plan::make_c<C>(0, 0);
      }
    };
    load(x, shx, true);
    if (!Square) load(y, shy, false);
    stages<C, false>(p, d, tables.data() + l.block, shx);
    if (!Square) stages<C, false>(p, d, tables.data() + l.block, shy);
    std::vector<C>& sy = Square ? shx : shy;
    if constexpr (Packed) {
      std::vector<int> touched(shx.size(), 0);
      auto gx = [&](unsigned lane, unsigned idx) { return shx[plan::smem_index(d, lane, idx)]; };
      auto gy = [&](unsigned lane, unsigned idx) { return sy[plan::smem_index(d, lane, idx)]; };
      auto put = [&](unsigned lane, unsigned idx, const C& v) {
        const unsigned s = plan::smem_index(d, lane, idx);
        ++touched[s];
        shx[s] = v;
      };
      for (unsigned tid = 0; tid < d.threads; ++tid)
        for (unsigned i = 0; i < plan::elems_per_thread / 2; ++i) {
          const plan::tail_pair t = plan::tail_pair_of(g, blk, tid + i * d.threads);
          ASSERT_LT(t.lane_lo, 1u << d.log_rows);
          ASSERT_LT(t.lane_hi, 1u << d.log_rows);
          ASSERT_LT(t.idx_lo, 1u << d.log_m);
          ASSERT_LT(t.idx_hi, 1u << d.log_m);
          plan::tail_pair_product<C, Square>(t, g.log_h, roots.data(), roots.data() + (std::size_t{1} << rlog_split),
                                             rlog_split, scale, gx, gy, put);
        }
      for (unsigned q = 0; q < E; ++q) ASSERT_EQ(touched[plan::smem_pad(q)], 1) << "blk " << blk << " slot " << q;
    } else {
      for (unsigned q = 0; q < E; ++q) {
        const unsigned s = plan::smem_pad(q);
        shx[s] = plan::c_scale(plan::c_mul(shx[s], sy[s]), scale);
      }
    }
    stages<C, true>(p, d, tables.data() + l.block, shx);
    for (unsigned q = 0; q < E; ++q) {
      unsigned lane, idx;
      plan::tile_coords(d, q, lane, idx);
      const plan::tail_row r = plan::tail_row_of(g, blk, lane);
      if (!r.valid) continue;
      const std::size_t flat = (r.outer << d.log_m) + idx;
      ++writes[flat];
      x[flat] = shx[plan::smem_pad(q)];
    }
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(reads[i], 1) << "flat " << i;
    ASSERT_EQ(writes[i], 1) << "flat " << i;
  }
}

template <class C>
std::vector<C> split_roots(unsigned log_n) {
  using Real = real_of<C>;
  const unsigned s = log_n / 2;
  const std::uint64_t n = std::uint64_t{1} << log_n;
  std::vector<C> r((std::size_t{1} << s) + (n >> s));
  for (std::size_t e = 0; e < (std::size_t{1} << s); ++e) {
    const auto w = bigmul::fft::unit_root(e, n);
    r[e] = plan::make_c<C>(static_cast<Real>(w.re), static_cast<Real>(w.im));
  }
  for (std::size_t e = 0; e < (n >> s); ++e) {
    const auto w = bigmul::fft::unit_root(e << s, n);
    r[(std::size_t{1} << s) + e] = plan::make_c<C>(static_cast<Real>(w.re), static_cast<Real>(w.im));
  }
  return r;
}

// One product of `batch` pairs of transforms of h points (Packed: real length 2h)
// through the tail and through the unfused path; returns false when the plan cannot
// take the tail.
template <class C, bool Packed, bool Square>
bool check_tail(std::size_t h, std::size_t batch, const plan::limits& lim, std::mt19937_64& gen) {
  using Real = real_of<C>;
  const plan::fft_plan p = plan::make_plan(h, batch, lim);
  EXPECT_TRUE(p.valid);
  if (!plan::tail_supported(p, Packed)) return false;
  std::vector<C> tables;
  plan::fill_tables(p, tables);
  const unsigned log_h = plan::ilog2(h), rls = (log_h + 1) / 2;
  const std::vector<C> roots = split_roots<C>(log_h + 1);
  const std::size_t len = Packed ? 2 * h : h;  // real coefficients (or complex points) a transform
  const Real scale = static_cast<Real>(1.0L / static_cast<long double>(len));
  // Small integers in the lower half: the cyclic convolution is the linear one, exact.
  const int digit = sizeof(Real) == 8 ? 1000 : 16;
  std::vector<std::int64_t> xr(batch * 2 * h, 0), yr(batch * 2 * h, 0);  // re/im interleaved
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t j = 0; j < h; ++j) {  // packed: real j < h of 2h; complex: real parts of j < h/2
      if (!Packed && j >= h / 2) break;
      const std::size_t at = Packed ? b * 2 * h + j : b * 2 * h + 2 * j;
      xr[at] = static_cast<std::int64_t>(gen() % digit);
      yr[at] = Square ? xr[at] : static_cast<std::int64_t>(gen() % digit);
    }
  if (batch > 1)  // all-max digits in the last transform
    for (std::size_t j = 0; j < (Packed ? h : h / 2); ++j) {
      const std::size_t at = Packed ? (batch - 1) * 2 * h + j : (batch - 1) * 2 * h + 2 * j;
      xr[at] = digit - 1;
      yr[at] = digit - 1;
    }
  auto pack = [&](const std::vector<std::int64_t>& v) {
    std::vector<C> z(h * batch);
    for (std::size_t i = 0; i < h * batch; ++i)
      z[i] = plan::make_c<C>(static_cast<Real>(v[2 * i]), static_cast<Real>(v[2 * i + 1]));
    return z;
  };
  const unsigned np = p.npasses;
  // Unfused.
  std::vector<C> ux = pack(xr), uy = pack(yr);
  for (unsigned i = 0; i < np; ++i) pass<C, false>(p, i, i + 1 < np, tables, ux);
  if (!Square)
    for (unsigned i = 0; i < np; ++i) pass<C, false>(p, i, i + 1 < np, tables, uy);
  const plan::order o = plan::order_of(p);
  for (std::size_t i = 0; i < batch * h; ++i) {
    if constexpr (Packed) {
      plan::real_pointwise_at<C, Square>(ux.data(), Square ? ux.data() : uy.data(), i, log_h, o, roots.data(),
                                         roots.data() + (std::size_t{1} << rls), rls, scale);
    } else {
      ux[i] = plan::c_scale(plan::c_mul(ux[i], Square ? ux[i] : uy[i]), scale);
    }
  }
  for (unsigned i = np; i-- > 0;) pass<C, true>(p, i, i + 1 < np, tables, ux);
  // Fused: forward_head, product_tail, inverse_rest.
  std::vector<C> fx = pack(xr), fy = pack(yr);
  for (unsigned i = 0; i + 1 < np; ++i) pass<C, false>(p, i, true, tables, fx);
  if (!Square)
    for (unsigned i = 0; i + 1 < np; ++i) pass<C, false>(p, i, true, tables, fy);
  tail<C, Packed, Square>(p, tables, roots, rls, scale, fx, fy);
  for (unsigned i = np - 1; i-- > 0;) pass<C, true>(p, i, true, tables, fx);
  if (::testing::Test::HasFailure()) return true;
  for (std::size_t i = 0; i < fx.size(); ++i) {
    EXPECT_EQ(fx[i].x, ux[i].x) << "h=" << h << " i=" << i;
    EXPECT_EQ(fx[i].y, ux[i].y) << "h=" << h << " i=" << i;
    if (::testing::Test::HasFailure()) return true;
  }
  // Exact convolution (cyclic of length 2h packed / h complex, real parts only).
  const std::size_t L = Packed ? 2 * h : h;
  if (L > 4096) return true;  // larger: the bitwise match with the unfused path (checked exactly elsewhere)
  for (std::size_t b = 0; b < batch; ++b) {
    auto at = [&](const std::vector<std::int64_t>& v, std::size_t j) {
      return Packed ? v[b * 2 * h + j] : v[b * 2 * h + 2 * j];
    };
    for (std::size_t j = 0; j < L; ++j) {
      std::int64_t c = 0;
      for (std::size_t i = 0; i <= j; ++i) c += at(xr, i) * at(yr, j - i);
      const C v = fx[b * h + (Packed ? j / 2 : j)];
      const double got = Packed ? (j % 2 ? v.y : v.x) : v.x;
      EXPECT_EQ(std::llround(got), c) << "h=" << h << " b=" << b << " j=" << j;
      if (::testing::Test::HasFailure()) return true;
    }
  }
  return true;
}

template <class C, bool Packed>
void check_sizes(unsigned max_log_h, const plan::limits& lim, unsigned& ran, unsigned& fell_back) {
  auto gen = bigmul::test::rng(4201 + max_log_h);
  for (unsigned k = 1; k <= max_log_h; ++k) {
    const std::size_t h = std::size_t{1} << k;
    if (!Packed && k < 2) continue;
    for (std::size_t batch : {std::size_t{1}, std::size_t{3}}) {
      const bool a = check_tail<C, Packed, false>(h, batch, lim, gen);
      const bool b = check_tail<C, Packed, true>(h, batch, lim, gen);
      ran += a + b;
      fell_back += !a + !b;
      if (::testing::Test::HasFailure()) FAIL() << "h=" << h << " batch=" << batch;
    }
  }
}

}  // namespace

// Packed (real) layout: one pass (a slot per transform), two and three passes (mirror
// rows), padding rows, batch 1 and 3, square and product.
TEST(FftGpuTailModel, RealLayoutMatchesUnfusedPathBitForBit) {
  unsigned ran = 0, fell = 0;
  check_sizes<cd, true>(13, plan::default_limits<double>(), ran, fell);
  check_sizes<cd, true>(11, plan::limits{6, 2, 4}, ran, fell);   // 2 and 3 passes of small tiles
  check_sizes<cd, true>(9, plan::limits{5, 1, 4, 2}, ran, fell);  // preferred columns, 3 passes
  check_sizes<cf, true>(11, plan::default_limits<float>(), ran, fell);
  EXPECT_GT(ran, 100u);
  EXPECT_LT(fell, ran / 4);
}

TEST(FftGpuTailModel, ComplexLayoutMatchesUnfusedPathBitForBit) {
  unsigned ran = 0, fell = 0;
  check_sizes<cd, false>(13, plan::default_limits<double>(), ran, fell);
  check_sizes<cd, false>(11, plan::limits{6, 2, 4}, ran, fell);
  check_sizes<cf, false>(10, plan::default_limits<float>(), ran, fell);
  EXPECT_EQ(fell, 0u);
}

// Which plans take the tail: every one-pass and complex plan; a packed plan of several
// passes when its last pass leaves room for a mirror row (else the caller keeps the
// unfused path).
TEST(FftGpuTailModel, SupportedPlans) {
  for (unsigned k = 1; k <= plan::max_log_n; ++k) {
    const plan::fft_plan p = plan::make_plan(std::size_t{1} << k, 2, plan::default_limits<double>());
    ASSERT_TRUE(p.valid);
    EXPECT_TRUE(plan::tail_supported(p, false));
    const bool room = p.pass[p.npasses - 1].log_rows >= 1;
    EXPECT_EQ(plan::tail_supported(p, true), p.npasses == 1 || room) << k;
    EXPECT_EQ(plan::tail_supported(p, true), k != 20 && k != 21) << k;  // FP64: last pass a whole tile
    const plan::fft_plan f = plan::make_plan(std::size_t{1} << k, 2, plan::default_limits<float>());
    EXPECT_EQ(plan::tail_supported(f, true), k != 21 && k != 22) << k;
  }
}
