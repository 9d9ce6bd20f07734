// SPDX-License-Identifier: LGPL-3.0-or-later
// CPU model of the in-house GPU FFT (fft/cuda/device_fft.cuh): runs the plan, index
// math and butterfly arithmetic of fft/cuda/device_*.hpp exactly as the pass
// kernel does (blocks, threads, load phase, the two barrier phases of every stage,
// store phase, shared-memory slots, padding rows, in-place passes) and compares with
// a long double DFT. This is
// the check of the GPU FFT's logic that runs without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "fft/cuda/device_complex.hpp"
#include "fft/cuda/device_fft_plan.hpp"
#include "fft/cuda/device_real_pointwise.hpp"
#include "fft/cuda/device_roundoff.hpp"
#include "fft/cuda/device_stockham.hpp"
#include "fft/cuda/device_twiddle_tables.hpp"
#include "fft/fft_complex.hpp"
#include "fft_tile_emulator.hpp"
#include "reference_dft.hpp"
#include "test_support.hpp"

namespace plan = bigmul::fft::cuda::plan;
using bigmul::fft::test::cld;
using bigmul::fft::test::reference_fft;

namespace {

using namespace bigmul::test::fft_emu;

template <class C>
std::vector<C> random_vec(std::size_t n, std::mt19937_64& g) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<C> v(n);
  for (auto& c : v) c = plan::make_c<C>(static_cast<real_of<C>>(u(g)), static_cast<real_of<C>>(u(g)));
  return v;
}

// Relative L2 error of plan-order output `got` (one transform) against ref (natural order).
template <class C>
double rel_error(const std::vector<C>& got, std::size_t off, const std::vector<cld>& ref, const plan::order* ord) {
  long double num = 0, den = 0;
  for (std::size_t f = 0; f < ref.size(); ++f) {
    const std::size_t pos = ord ? ord->position_of(f) : f;
    const cld g(got[off + pos].x, got[off + pos].y);
    num += std::norm(g - ref[f]);
    den += std::norm(ref[f]);
  }
  return den == 0 ? std::sqrt(static_cast<double>(num)) : std::sqrt(static_cast<double>(num / den));
}

template <class C>
double tolerance(unsigned log_n) {
  return (sizeof(real_of<C>) == 8 ? 2e-15 : 1.5e-6) * (log_n + 1);
}

// Forward and inverse of a batch against the long double reference, for plan p.
template <class C>
void check_transform(const plan::fft_plan& p, std::mt19937_64& g) {
  ASSERT_TRUE(p.valid);
  const std::size_t n = std::size_t{1} << p.log_n;
  std::vector<C> tables;
  plan::fill_tables(p, tables);
  const plan::order ord = plan::order_of(p);
  std::vector<C> x = random_vec<C>(n * p.batch, g);
  std::vector<C> y = x;
  emulate_fft<C, false>(p, tables, y);
  std::vector<C> z = y;
  emulate_fft<C, true>(p, tables, z);
  for (std::size_t b = 0; b < p.batch; ++b) {
    std::vector<cld> in(n);
    for (std::size_t j = 0; j < n; ++j) in[j] = cld(x[b * n + j].x, x[b * n + j].y);
    const std::vector<cld> fwd = reference_fft(in, -1);
    EXPECT_LT(rel_error(y, b * n, fwd, &ord), tolerance<C>(p.log_n)) << "forward n=" << n << " b=" << b;
    // inverse(forward(x)) = n x
    std::vector<cld> nx(n);
    for (std::size_t j = 0; j < n; ++j) nx[j] = in[j] * static_cast<long double>(n);
    EXPECT_LT(rel_error(z, b * n, nx, nullptr), 2 * tolerance<C>(p.log_n)) << "round trip n=" << n << " b=" << b;
    // The inverse alone, on a plan-order input: natural-order inverse DFT.
    if (b == 0) {
      std::vector<C> s(n * p.batch);
      std::vector<cld> spec(n);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      for (std::size_t f = 0; f < n * p.batch; ++f)
        s[f] = plan::make_c<C>(static_cast<real_of<C>>(u(g)), static_cast<real_of<C>>(u(g)));
      for (std::size_t f = 0; f < n; ++f) {
        const C v = s[ord.position_of(f)];
        spec[f] = cld(v.x, v.y);
      }
      emulate_fft<C, true>(p, tables, s);
      EXPECT_LT(rel_error(s, 0, reference_fft(spec, +1), nullptr), tolerance<C>(p.log_n)) << "inverse n=" << n;
    }
  }
}

}  // namespace

TEST(FftGpuModel, DecompositionRules) {
  for (const plan::limits lim : {plan::default_limits<double>(), plan::default_limits<float>()}) {
    const unsigned s_row = lim.log_tile, s_col = lim.log_tile - lim.log_min_cols;
    for (unsigned k = 1; k <= plan::max_log_n; ++k) {
      for (std::size_t batch : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{1000}}) {
        const plan::fft_plan p = plan::make_plan(std::size_t{1} << k, batch, lim);
        ASSERT_TRUE(p.valid) << "k=" << k;
        EXPECT_EQ(p.npasses, k <= s_row ? 1u : k <= s_row + s_col ? 2u : 3u) << "k=" << k;
        unsigned sum = 0, max_m = 0;
        for (unsigned i = 0; i < p.npasses; ++i) {
          const plan::pass_desc& d = p.pass[i];
          sum += d.log_m;
          max_m = std::max(max_m, d.log_m);
          EXPECT_GE(d.log_m, 1u);
          const bool last = i + 1 == p.npasses;
          EXPECT_LE(d.log_m, last ? s_row : s_col) << "k=" << k << " pass " << i;
          EXPECT_EQ(d.log_stride + sum, k);
          EXPECT_EQ(d.log_len, d.log_m + d.log_stride);
          EXPECT_EQ(d.j_fast, last);
          EXPECT_LE(d.log_tile(), lim.log_tile);
          EXPECT_GE(d.log_tile(), std::min(lim.log_tile, lim.log_min_tile));
          EXPECT_EQ(std::size_t(d.threads) * plan::elems_per_thread, std::size_t{1} << d.log_tile());
          EXPECT_GE(d.threads, 32u);
          EXPECT_LE(d.threads, lim.log_tile == plan::default_limits<double>().log_tile ? plan::max_threads<double>()
                                                                                      : plan::max_threads<float>());
          EXPECT_EQ(d.outer_total, batch << (k - d.log_len));
          EXPECT_EQ(d.col_groups << d.log_cols, std::size_t{1} << d.log_stride);
          EXPECT_GE(d.row_groups << d.log_rows, d.outer_total);
          EXPECT_LT((d.row_groups - 1) << d.log_rows, d.outer_total);  // no block is all padding
          if (!last) {
            EXPECT_GE(d.log_cols, lim.log_min_cols) << "column pass with too few columns, k=" << k;
            // Each block reads >= 128 bytes of consecutive addresses per row of its tile.
          }
          unsigned sb = 0;
          for (unsigned s = 0; s < d.nstages; ++s) {
            EXPECT_GE(d.stage_log[s], 1u);
            EXPECT_LE(d.stage_log[s], plan::log_elems_per_thread);
            sb += d.stage_log[s];
          }
          EXPECT_EQ(sb, d.log_m);
          EXPECT_EQ(d.nstages, (d.log_m + 3) / 4);
          EXPECT_LE(d.blocks(), std::size_t{0x7fffffff});
          const std::size_t elem_bytes = lim.log_tile == plan::default_limits<double>().log_tile ? 16 : 8;
          EXPECT_LE(plan::smem_elements(d.log_tile()) * elem_bytes, std::size_t{72} * 1024);
        }
        EXPECT_EQ(sum, k);
        EXPECT_EQ(p.log_block_table, max_m);
        const plan::table_layout l = plan::layout_of(p);
        EXPECT_EQ(l.total - l.lo, (std::size_t{1} << p.log_split) + (std::size_t{1} << (k - p.log_split)));
      }
    }
    EXPECT_FALSE(plan::make_plan(std::size_t{1} << 27, 1, lim).valid);
    EXPECT_FALSE(plan::make_plan(3, 1, lim).valid);
    EXPECT_FALSE(plan::make_plan(1, 1, lim).valid);
    EXPECT_FALSE(plan::make_plan(1024, 0, lim).valid);
  }
}

TEST(FftGpuModel, PlanOrderIsABijection) {
  auto g = bigmul::test::rng(601);
  for (const plan::limits lim : {plan::default_limits<double>(), plan::default_limits<float>(), plan::limits{6, 2, 4}}) {
    for (unsigned k = 1; k <= plan::max_log_n; ++k) {
      const plan::fft_plan p = plan::make_plan(std::size_t{1} << k, 1, lim);
      if (!p.valid) continue;
      const plan::order o = plan::order_of(p);
      const std::size_t n = std::size_t{1} << k;
      EXPECT_EQ(o.position_of(0), 0u);
      EXPECT_EQ(o.frequency_at(0), 0u);
      if (k <= 16) {
        std::vector<char> seen(n, 0);
        for (std::size_t pos = 0; pos < n; ++pos) {
          const std::size_t f = o.frequency_at(pos);
          ASSERT_LT(f, n);
          ASSERT_FALSE(seen[f]);
          seen[f] = 1;
          ASSERT_EQ(o.position_of(f), pos);
        }
      } else {
        for (int i = 0; i < 100000; ++i) {
          const std::size_t pos = g() & (n - 1);
          ASSERT_EQ(o.position_of(o.frequency_at(pos)), pos);
        }
      }
      // The documented field layout: pos = k0*stride0 + k1*stride1 + k2 holds
      // f = k0 + m0*(k1 + m1*k2).
      for (int i = 0; i < 1000; ++i) {
        std::size_t kk[3] = {0, 0, 0};
        std::size_t pos = 0, f = 0, mul = 1;
        for (unsigned q = 0; q < p.npasses; ++q) {
          kk[q] = g() & ((std::size_t{1} << p.pass[q].log_m) - 1);
          pos += kk[q] << p.pass[q].log_stride;
          f += kk[q] * mul;
          mul <<= p.pass[q].log_m;
        }
        ASSERT_EQ(o.frequency_at(pos), f);
      }
    }
  }
}

TEST(FftGpuModel, TablesAreAccurate) {
  const plan::fft_plan p = plan::make_plan(std::size_t{1} << 20, 1, plan::default_limits<double>());
  std::vector<cd> t;
  plan::fill_tables(p, t);
  const plan::table_layout l = plan::layout_of(p);
  const std::size_t n = std::size_t{1} << 20, M = std::size_t{1} << p.log_block_table;
  for (std::size_t e = 0; e < M; e += 7) {
    const cld w = bigmul::fft::test::root(e, M, -1);
    EXPECT_NEAR(t[l.block + e].x, static_cast<double>(w.real()), 1.2e-16);
    EXPECT_NEAR(t[l.block + e].y, static_cast<double>(w.imag()), 1.2e-16);
  }
  for (std::size_t e = 0; e < n; e += 997) {
    const cld w = bigmul::fft::test::root(e, n, -1);
    const cd s = plan::split_root(t.data() + l.lo, t.data() + l.hi, p.log_split, e);
    EXPECT_NEAR(s.x, static_cast<double>(w.real()), 4e-16);
    EXPECT_NEAR(s.y, static_cast<double>(w.imag()), 4e-16);
  }
}

TEST(FftGpuModel, RegisterButterflies) {
  // dft<R> against the definition, forward and inverse.
  auto g = bigmul::test::rng(602);
  auto check = [&](auto rc) {
    constexpr int R = decltype(rc)::value;
    std::vector<cd> v = random_vec<cd>(R, g);
    std::vector<cld> in(R);
    for (int i = 0; i < R; ++i) in[i] = cld(v[i].x, v[i].y);
    for (int sign : {-1, +1}) {
      std::vector<cd> w = v;
      if (sign < 0)
        plan::dft<R, false, cd>::run(w.data());
      else
        plan::dft<R, true, cd>::run(w.data());
      const std::vector<cld> ref = bigmul::fft::test::naive_dft(in, sign);
      EXPECT_LT(rel_error(w, 0, ref, nullptr), 1e-15) << "R=" << R << " sign=" << sign;
    }
  };
  for (unsigned lr = 1; lr <= 4; ++lr) plan::with_radix(lr, check);
}

// Column passes read runs of at least 256 bytes (16 double2, 32 float2) per
// row of a tile wherever a split with the same number of passes allows it
// (two passes: the last takes k - s_pref bits; three: 2 s_pref column bits),
// and never under 128 bytes. Without the preference some sizes fall to 128.
TEST(FftGpuModel, ColumnSegmentsOf256BytesWhereThePassCountAllows) {
  for (const bool f64 : {true, false}) {
    const plan::limits lim = f64 ? plan::default_limits<double>() : plan::default_limits<float>();
    const std::size_t elem = f64 ? 16 : 8;
    plan::limits old = lim;
    old.log_pref_cols = 0;
    const unsigned s_row = lim.log_tile, s_pref = lim.log_tile - lim.log_pref_cols;
    unsigned gained = 0;
    for (unsigned k = 1; k <= plan::max_log_n; ++k) {
      const plan::fft_plan p = plan::make_plan(std::size_t{1} << k, 1, lim), q = plan::make_plan(std::size_t{1} << k, 1, old);
      ASSERT_TRUE(p.valid && q.valid) << k;
      ASSERT_EQ(p.npasses, q.npasses) << k;
      const bool fits = (p.npasses == 2 && k - s_row <= s_pref) || (p.npasses == 3 && k - s_row <= 2 * s_pref);
      bool old_short = false;
      for (unsigned i = 0; i + 1 < p.npasses; ++i) {
        EXPECT_GE(elem << p.pass[i].log_cols, 128u) << "k=" << k << " pass " << i;
        if (fits) {
          EXPECT_GE(elem << p.pass[i].log_cols, 256u) << "k=" << k << " pass " << i;
        }
        old_short |= (elem << q.pass[i].log_cols) < 256;
      }
      gained += fits && old_short;
    }
    EXPECT_GT(gained, 0u) << (f64 ? "f64" : "f32");
  }
}

// Why 2^21 FP64 and 2^22 FP32 points keep 128-byte column runs: a column pass of
// 256-byte runs (C_min raised to C_pref) holds log_tile - log_pref_cols bits and
// the last pass a whole tile, (12 - 4) + 12 = 20 bits FP64 and (13 - 5) + 13 = 21
// FP32, so these sizes would take a third pass over the whole array; with the
// default limits they take two. No tile limit the kernel can run changes that
// (a larger tile needs more registers than an SM has).
TEST(FftGpuModel, RunsOf256BytesWouldCostAThirdPassAt2To21And2To22) {
  for (const bool f64 : {true, false}) {
    const plan::limits lim = f64 ? plan::default_limits<double>() : plan::default_limits<float>();
    plan::limits runs256 = lim;
    runs256.log_min_cols = lim.log_pref_cols;
    const unsigned k = f64 ? 21 : 22;
    EXPECT_EQ(plan::make_plan(std::size_t{1} << k, 1, lim).npasses, 2u) << k;
    EXPECT_EQ(plan::make_plan(std::size_t{1} << k, 1, runs256).npasses, 3u) << k;
    EXPECT_EQ((lim.log_tile - lim.log_pref_cols) + lim.log_tile, k - 1);
    // One size below, the 256-byte runs keep two passes (the default already takes them).
    const plan::fft_plan below = plan::make_plan(std::size_t{1} << (k - 1), 1, lim);
    EXPECT_EQ(below.npasses, 2u);
    EXPECT_EQ(below.pass[0].log_cols, lim.log_pref_cols) << k - 1;
  }
}

// The split with a column preference (tiles of 64, 4 columns at least, 8
// preferred): every size and pass count against the reference transform.
TEST(FftGpuModel, AllSizesPreferredColumns) {
  auto g = bigmul::test::rng(605);
  const plan::limits lim{6, 2, 4, 3};
  for (unsigned k = 1; k <= 14; ++k) {
    const plan::fft_plan p = plan::make_plan(std::size_t{1} << k, 1, lim);
    for (unsigned i = 0; i + 1 < p.npasses; ++i) {
      if (p.npasses == 2 && k - 6 <= 3) {
        EXPECT_GE(p.pass[i].log_cols, 3u) << "k=" << k;
      }
    }
    check_transform<cd>(p, g);
    if (k <= 12) check_transform<cf>(plan::make_plan(std::size_t{1} << k, 3, lim), g);
    if (HasFailure()) FAIL() << "k=" << k;
  }
}

TEST(FftGpuModel, AllSizesDefaultLimitsDouble) {
  auto g = bigmul::test::rng(603);
  for (unsigned k = 1; k <= 16; ++k) {
    check_transform<cd>(plan::make_plan(std::size_t{1} << k, 1, plan::default_limits<double>()), g);
    if (k <= 13) check_transform<cd>(plan::make_plan(std::size_t{1} << k, 3, plan::default_limits<double>()), g);
    if (HasFailure()) FAIL() << "k=" << k;
  }
}

TEST(FftGpuModel, AllSizesDefaultLimitsFloat) {
  auto g = bigmul::test::rng(604);
  for (unsigned k = 1; k <= 16; ++k) {
    check_transform<cf>(plan::make_plan(std::size_t{1} << k, 1, plan::default_limits<float>()), g);
    if (k <= 14) check_transform<cf>(plan::make_plan(std::size_t{1} << k, 5, plan::default_limits<float>()), g);
    if (HasFailure()) FAIL() << "k=" << k;
  }
}

TEST(FftGpuModel, ThreePassesWithSmallTiles) {
  // Tiles of 64 elements: two passes from 2^7, three from 2^11 (up to 2^14) — the
  // same code paths the large sizes take with the real limits.
  auto g = bigmul::test::rng(605);
  const plan::limits small{6, 2, 4};
  unsigned three = 0;
  for (unsigned k = 1; k <= 14; ++k) {
    for (std::size_t batch : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
      const plan::fft_plan p = plan::make_plan(std::size_t{1} << k, batch, small);
      ASSERT_TRUE(p.valid) << k;
      three += p.npasses == 3;
      check_transform<cd>(p, g);
      if (k <= 12) check_transform<cf>(p, g);
      if (HasFailure()) FAIL() << "k=" << k << " batch=" << batch;
    }
  }
  EXPECT_GE(three, 6u);
}

TEST(FftGpuModel, SameArithmeticAsCpuFftWithinRoundoff) {
  // The GPU model and the CPU complex_fft agree bin by bin (both in plan order of their own).
  auto g = bigmul::test::rng(606);
  for (unsigned k : {5u, 12u, 13u, 16u}) {
    const std::size_t n = std::size_t{1} << k;
    const plan::fft_plan p = plan::make_plan(n, 1, plan::default_limits<double>());
    std::vector<cd> tables;
    plan::fill_tables(p, tables);
    std::vector<cd> x = random_vec<cd>(n, g), y = x;
    emulate_fft<cd, false>(p, tables, y);
    bigmul::fft::complex_fft<double> cpu(n);
    std::vector<double> re(n), im(n);
    for (std::size_t j = 0; j < n; ++j) re[j] = x[j].x, im[j] = x[j].y;
    cpu.forward(re.data(), im.data(), 1);
    const plan::order o = plan::order_of(p);
    double worst = 0;
    for (std::size_t f = 0; f < n; ++f) {
      const cd a = y[o.position_of(f)];
      const std::size_t q = cpu.position_of(f);
      worst = std::max(worst, std::hypot(a.x - re[q], a.y - im[q]));
    }
    EXPECT_LT(worst, 1e-13 * std::sqrt(double(n))) << "k=" << k;
  }
}

// Real FFT through the half-length plan: forward, real_pointwise_at, inverse gives
// n*scale*(x conv y) (cyclic), i.e. the exact integer convolution after rounding.
template <class C>
void check_real_convolution(std::size_t n, std::size_t batch, bool square, const plan::limits& lim,
                            std::mt19937_64& g) {
  using Real = real_of<C>;
  const std::size_t h = n / 2;
  const plan::fft_plan p = plan::make_plan(h, batch, lim);
  ASSERT_TRUE(p.valid);
  std::vector<C> tables;
  plan::fill_tables(p, tables);
  // Split roots of w_n as upload_split_roots builds them.
  const unsigned log_n = plan::ilog2(n), s = log_n / 2;
  std::vector<C> roots((std::size_t{1} << s) + (n >> s));
  for (std::size_t e = 0; e < (std::size_t{1} << s); ++e) {
    const auto w = bigmul::fft::unit_root(e, n);
    roots[e] = plan::make_c<C>(static_cast<Real>(w.re), static_cast<Real>(w.im));
  }
  for (std::size_t e = 0; e < (n >> s); ++e) {
    const auto w = bigmul::fft::unit_root(e << s, n);
    roots[(std::size_t{1} << s) + e] = plan::make_c<C>(static_cast<Real>(w.re), static_cast<Real>(w.im));
  }
  // Small integers, nonzero only in the lower half (a linear convolution that fits).
  const int digit = sizeof(Real) == 8 ? 1000 : 16;
  std::vector<std::int64_t> x(n * batch, 0), y(n * batch, 0);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t j = 0; j < n / 2; ++j) {
      x[b * n + j] = static_cast<std::int64_t>(g() % digit);
      y[b * n + j] = square ? x[b * n + j] : static_cast<std::int64_t>(g() % digit);
    }
  auto pack = [&](const std::vector<std::int64_t>& v) {
    std::vector<C> z(h * batch);
    for (std::size_t i = 0; i < h * batch; ++i)
      z[i] = plan::make_c<C>(static_cast<Real>(v[2 * i]), static_cast<Real>(v[2 * i + 1]));
    return z;
  };
  std::vector<C> zx = pack(x), zy = pack(y);
  emulate_fft<C, false>(p, tables, zx);
  emulate_fft<C, false>(p, tables, zy);
  const plan::order o = plan::order_of(p);
  const Real scale = static_cast<Real>(1.0L / static_cast<long double>(n));
  for (std::size_t i = 0; i < batch * h; ++i) {
    if (square)
      plan::real_pointwise_at<C, true>(zx.data(), zx.data(), i, plan::ilog2(h), o, roots.data(),
                                       roots.data() + (std::size_t{1} << s), s, scale);
    else
      plan::real_pointwise_at<C, false>(zx.data(), zy.data(), i, plan::ilog2(h), o, roots.data(),
                                        roots.data() + (std::size_t{1} << s), s, scale);
  }
  emulate_fft<C, true>(p, tables, zx);
  double worst = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<std::int64_t> conv(n, 0);
    for (std::size_t i = 0; i < n / 2; ++i)
      if (x[b * n + i])
        for (std::size_t j = 0; j < n / 2; ++j) conv[(i + j) % n] += x[b * n + i] * y[b * n + j];
    for (std::size_t j = 0; j < n; ++j) {
      const C v = zx[b * h + j / 2];
      const double got = j % 2 ? v.y : v.x;
      worst = std::max(worst, std::fabs(got - static_cast<double>(conv[j])));
      ASSERT_EQ(std::llround(got), conv[j]) << "n=" << n << " b=" << b << " j=" << j;
    }
  }
  EXPECT_LT(worst, 0.25) << "n=" << n;
}

TEST(FftGpuModel, RealPointwiseGivesExactConvolution) {
  auto g = bigmul::test::rng(607);
  for (unsigned k = 2; k <= 13; ++k) {
    const std::size_t n = std::size_t{1} << k;
    check_real_convolution<cd>(n, 1, false, plan::default_limits<double>(), g);
    check_real_convolution<cd>(n, 2, true, plan::default_limits<double>(), g);
    check_real_convolution<cd>(n, 3, false, plan::limits{6, 2, 4}, g);
    if (k <= 11) check_real_convolution<cf>(n, 2, false, plan::default_limits<float>(), g);
    if (HasFailure()) FAIL() << "n=" << n;
  }
}

// The round-off statistics of a Store (mul/cuda/fft_mul_device.cu round_store): the
// max |x - round(x)| is reduced with worse_error and published through atomicMax on the
// bits of error_for_atomic_max(...), which must order like the values: -0.0 (whose bits
// are the largest unsigned value of all doubles) must not hide a real error, and NaN
// must survive the reduction and fail the guard.
TEST(FftGpuModel, RoundoffMaxIsOrderedAndNanSticky) {
  auto bits = [](double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const double vals[] = {0.0, -0.0, 1e-300, 1e-17, 0.1, 0.25, 0.3, 0.5, 7.0, 1e300, inf, nan};
  // Reduction: any NaN gives NaN; otherwise the max, whatever the order.
  for (double a : vals)
    for (double b : vals) {
      const double w = plan::worse_error(a, b), w2 = plan::worse_error(b, a);
      if (std::isnan(a) || std::isnan(b)) {
        EXPECT_TRUE(std::isnan(w)) << a << " " << b;
        EXPECT_TRUE(std::isnan(w2)) << a << " " << b;
      } else {
        EXPECT_EQ(w, std::max(a, b));
        EXPECT_EQ(w2, std::max(a, b));
      }
    }
  // A warp-style reduction starting from 0 with a -0.0 slot and a NaN slot.
  double acc = 0.0;
  for (double e : {-0.0, 0.1, nan, 0.2}) acc = plan::worse_error(acc, e);
  EXPECT_TRUE(std::isnan(acc));
  // Published bits order like the values; NaN/inf publish as a failing 1e300.
  for (double a : vals)
    for (double b : vals) {
      const double pa = plan::error_for_atomic_max(a), pb = plan::error_for_atomic_max(b);
      EXPECT_FALSE(std::signbit(pa));
      EXPECT_LE(pa, 1e300);
      if (std::isnan(a) || a == inf) {
        EXPECT_EQ(pa, 1e300);
      }
      if (pa < pb) {
        EXPECT_LT(bits(pa), bits(pb)) << a << " " << b;
      }
      if (pa == pb) {
        EXPECT_EQ(bits(pa), bits(pb)) << a << " " << b;
      }
    }
  // The failure mode this guards against: max over bits with a raw -0.0 hides 0.3.
  EXPECT_GT(bits(-0.0), bits(0.3));
  EXPECT_LT(bits(plan::error_for_atomic_max(-0.0)), bits(plan::error_for_atomic_max(0.3)));
  EXPECT_FALSE(plan::error_for_atomic_max(nan) <= 0.25);  // fails the guard
}

// Two passes up to 2^23 points with plan::two_pass_limits (issue 37): the pass count
// of every size and precision, runs of at least 32 bytes, and transforms of the same
// geometry at a small scale (tiles of 64: two passes where C_min = 8 would need three).
TEST(FftGpuModel, TwoPassesUpTo2To23WithTwoPassLimits) {
  for (unsigned k = 1; k <= plan::max_log_n; ++k) {
    const std::size_t n = std::size_t{1} << k;
    const plan::fft_plan d = plan::make_plan(n, 1, plan::two_pass_limits<double>());
    const plan::fft_plan f = plan::make_plan(n, 1, plan::two_pass_limits<float>());
    const plan::fft_plan d0 = plan::make_plan(n, 1, plan::default_limits<double>());
    ASSERT_TRUE(d.valid && f.valid && d0.valid) << k;
    EXPECT_EQ(d.npasses, k <= 12 ? 1u : k <= 23 ? 2u : 3u) << "double k=" << k;
    EXPECT_EQ(f.npasses, k <= 13 ? 1u : k <= 23 ? 2u : 3u) << "float k=" << k;
    EXPECT_EQ(d0.npasses, k <= 12 ? 1u : k <= 21 ? 2u : 3u) << "default k=" << k;
    for (const plan::fft_plan* p : {&d, &f}) {
      const unsigned elem = p == &d ? 16 : 8;
      for (unsigned i = 0; i + 1 < p->npasses; ++i) EXPECT_GE(elem << p->pass[i].log_cols, 32u) << k;
      if (k > 21 && k <= 23) continue;  // elsewhere C_min columns already give the fewest passes
      const plan::fft_plan def =
          plan::make_plan(n, 1, p == &d ? plan::default_limits<double>() : plan::default_limits<float>());
      for (unsigned i = 0; i < p->npasses; ++i) EXPECT_EQ(p->pass[i].log_m, def.pass[i].log_m) << k;
    }
  }
  auto g = bigmul::test::rng(611);
  const plan::limits small{6, 3, 4, 0, 1};  // C_min = 8 gives two passes up to 2^9, these up to 2^11
  for (unsigned k = 1; k <= 12; ++k) {  // 3 passes of tiles of 64 reach 2^12
    const plan::fft_plan p = plan::make_plan(std::size_t{1} << k, k <= 10 ? 3 : 1, small);
    ASSERT_TRUE(p.valid);
    EXPECT_EQ(p.npasses, k <= 6 ? 1u : k <= 11 ? 2u : 3u) << k;
    check_transform<cd>(p, g);
    if (HasFailure()) FAIL() << "k=" << k;
  }
}

// The pipelined pass (fft/cuda/device_fft_pipelined.cuh): persistent blocks take tiles
// by plan::pipeline_next and copy their next tile in before storing the current one.
// Under random interleavings of the blocks' steps, every valid element of every pass
// is read exactly once before any block writes it and written exactly once: the passes
// stay in place.
TEST(FftGpuModel, PipelinedScheduleKeepsPassesInPlace) {
  std::mt19937_64 g(613);
  const plan::limits lims[] = {plan::default_limits<double>(), plan::limits{6, 2, 4}, plan::limits{6, 3, 4, 0, 1}};
  for (const plan::limits& lim : lims)
    for (unsigned k : {3u, 9u, 11u, 12u, 14u})
      for (std::size_t batch : {std::size_t{1}, std::size_t{3}}) {
        const plan::fft_plan p = plan::make_plan(std::size_t{1} << k, batch, lim);
        if (!p.valid) continue;
        const std::size_t total = batch << k;
        for (unsigned pi = 0; pi < p.npasses; ++pi) {
          const plan::pass_desc& d = p.pass[pi];
          const std::size_t tiles = d.blocks();
          for (std::size_t grid : {std::size_t{1}, std::size_t{2}, std::size_t{7}, tiles, tiles + 3}) {
            std::vector<int> reads(total, 0), writes(total, 0);
            auto each = [&](std::size_t blk, auto&& f) {
              const plan::tile t = plan::tile_of_block(d, blk);
              for (unsigned q = 0; q < (d.threads << plan::log_elems_per_thread); ++q) {
                unsigned lane, idx;
                plan::tile_coords(d, q, lane, idx);
                const plan::element e = plan::element_at(d, t, lane, idx);
                if (e.valid) f(e.flat);
              }
            };
            auto read = [&](std::size_t blk) {
              each(blk, [&](std::size_t f) {
                EXPECT_EQ(writes[f], 0) << "read after write";
                ++reads[f];
              });
            };
            std::vector<std::size_t> cur;  // each block's current tile (prefetched)
            for (std::size_t b = 0; b < grid && b < tiles; ++b) {
              read(b);
              cur.push_back(b);
            }
            while (!cur.empty()) {
              const std::size_t i = g() % cur.size();
              const std::size_t blk = cur[i], next = plan::pipeline_next(blk, grid < tiles ? grid : tiles, tiles);
              if (next < tiles) read(next);
              each(blk, [&](std::size_t f) { ++writes[f]; });
              if (next < tiles) cur[i] = next;
              else cur.erase(cur.begin() + static_cast<std::ptrdiff_t>(i));
            }
            for (std::size_t f = 0; f < total; ++f) {
              ASSERT_EQ(reads[f], 1) << "k " << k << " pass " << pi << " grid " << grid << " flat " << f;
              ASSERT_EQ(writes[f], 1) << "k " << k << " pass " << pi << " grid " << grid << " flat " << f;
            }
            if (HasFailure()) FAIL() << "k " << k << " pass " << pi << " grid " << grid;
          }
        }
      }
}
