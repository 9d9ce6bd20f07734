// SPDX-License-Identifier: LGPL-3.0-or-later
// The CUDA coefficient split/join, residue mod 2^61 - 1 and tiled convolution
// (mul/cuda/coefficients_device.cuh, mul/cuda/tiled_device.cuh).
//
// MulKernelsModel.* run on the CPU everywhere: they drive the kernels'
// shared per-element arithmetic (mul/coefficients_period.hpp, tiled_hd) with
// the kernels' thread mapping on the host and compare with the CPU code.
// MulKernelsGpu.* run the kernels (skipped without a CUDA device) against the
// CPU twins and, for whole products, GMP's mpz_mul.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <initializer_list>
#include <numeric>
#include <random>
#include <utility>
#include <type_traits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "carry/carry.hpp"
#include "carry/cuda/carry_device.cuh"
#include "carry/cuda/carry_fused.cuh"
#include "carry/carry_two_phase.hpp"
#include "gpu_test_support.cuh"
#include "mul/coefficients.hpp"
#include "mul/coefficients_period.hpp"
#include "mul/cuda/carry_join_fused.cuh"
#include "mul/cuda/coefficients_device.cuh"
#include "mul/cuda/fft_mul_device.cuh"
#include "mul/cuda/split_fused.cuh"
#include "mul/fft_pass_policy.hpp"
#include "mul/cuda/tiled_device.cuh"
#include "mul/modcheck.hpp"
#include "prim/ops.hpp"
#include "test_support.hpp"

using namespace bigmul;
using namespace bigmul::detail;
using bigmul::test::operand_kind;
namespace gpu = bigmul::detail::cuda;
namespace thd = bigmul::detail::cuda::tiled_hd;
using u128 = unsigned __int128;

namespace {

std::vector<coeff_format> all_formats() {
  std::vector<coeff_format> v;
  for (unsigned k = 1; k <= 32; ++k) v.push_back({radix::binary, k});
  for (unsigned k = 1; k <= 9; ++k) v.push_back({radix::decimal, k});
  return v;
}

std::string fmt_name(coeff_format f) {
  return (f.rx == radix::binary ? "2^" : "10^") + std::to_string(f.digits);
}

// Limb counts around the period of f and around a few block sizes.
std::vector<std::size_t> sizes_for(coeff_format f) {
  const std::size_t pl = f.rx == radix::binary ? f.digits / std::gcd(64u, f.digits) : f.digits;
  std::vector<std::size_t> v = {1, 2, pl + 1, 2 * pl + 1, 255, 256, 257};
  if (pl > 1) {
    v.push_back(pl - 1);
    v.push_back(pl);
  }
  return v;
}

const operand_kind kinds[] = {operand_kind::random, operand_kind::all_max, operand_kind::runs,
                              operand_kind::sparse, operand_kind::half_max};

// 0 limbs in the middle (zeros) for some operands.
std::vector<limb_t> operand(operand_kind kind, std::size_t n, radix rx, std::mt19937_64& g, bool zero_middle) {
  auto a = bigmul::test::make_operand(kind, n, rx, g);
  if (zero_middle && n > 2) std::fill(a.begin() + 1, a.end() - 1, limb_t{0});
  return a;
}

std::vector<std::int64_t> cpu_balanced(const std::vector<limb_t>& a, std::size_t n, coeff_format f) {
  std::vector<std::int64_t> c(f.count(n) + 1, 99);
  split_balanced(a.data(), n, f, [&](std::size_t i, std::int64_t v) { c[i] = v; }, 2);
  return c;
}

std::vector<u128> naive_conv(const std::uint32_t* x, std::size_t nx, const std::uint32_t* y, std::size_t ny) {
  std::vector<u128> c(nx + ny - 1, 0);
  for (std::size_t i = 0; i < nx; ++i)
    for (std::size_t j = 0; j < ny; ++j) c[i + j] += static_cast<std::uint64_t>(x[i]) * y[j];
  return c;
}

// ---- host replay of the kernels' thread mapping ----
// The loaders, period sources and visitors are the kernels' own
// (mul/cuda/coefficients_hd.hpp); only the loops over threads are the model's.
namespace chd = bigmul::detail::cuda::coeff_hd;
using chd::digit_loader;
using chd::emit_visit;
using chd::fold_visit;
using chd::limb_loader;
using chd::store_visit;

// Digits of period p through visit(t, d), by the kernels' period sources.
template <class Visit>
void visit_period(coeff_format f, const limb_t* a, std::size_t n, std::size_t p, Visit& visit) {
  if (f.rx == radix::binary) {
    chd::binary_src{f.digits, period_digits(f), period_limbs(f)}(a, n, p, visit);
    return;
  }
  bigmul::carry::with_decimal_digits(f.digits, [&](auto k_const) {
    chd::decimal_src<decltype(k_const)::value>{}(a, n, p, visit);
  });
}

std::vector<std::uint32_t> model_split_digits(const std::vector<limb_t>& a, std::size_t n, coeff_format f) {
  const std::size_t total = f.count(n);
  std::vector<std::uint32_t> out(total, 0xdeadbeef);
  if (f.rx == radix::binary) {  // one thread per digit
    for (std::size_t i = 0; i < total; ++i) out[i] = binary_digit(limb_loader{a.data(), n}, f.digits, i);
  } else {  // one thread per period
    for (std::size_t p = 0; p * 19 < total; ++p) {
      store_visit v{out.data() + p * 19, total - p * 19};
      visit_period(f, a.data(), n, p, v);
    }
  }
  return out;
}

std::vector<limb_t> model_join(const std::vector<std::uint32_t>& d, std::size_t m, coeff_format f,
                               std::size_t out_n) {
  std::vector<limb_t> out(out_n, 0xdeadbeef);
  if (f.rx == radix::binary) {  // one thread per limb
    for (std::size_t j = 0; j < out_n; ++j) out[j] = binary_limb(digit_loader{d.data(), m}, f.digits, j);
    return out;
  }
  bigmul::carry::with_decimal_digits(f.digits, [&](auto k_const) {
    constexpr unsigned K = decltype(k_const)::value;
    for (std::size_t p = 0; p * K < out_n; ++p) {  // one thread per period
      const std::size_t first = p * 19;
      limb_t L[K];
      decimal_period_join<K>(digit_loader{d.data() + std::min(first, m), m > first ? m - first : 0}, L);
      for (unsigned j = 0; j < K; ++j)
        if (p * K + j < out_n) out[p * K + j] = L[j];
    }
  });
  return out;
}

// Balanced split over G operands: per-period (g, p) fold, one exclusive scan
// over all problems with a kill pair closing each, then per-period emit.
std::vector<std::int32_t> model_balanced(const std::vector<limb_t>& a, std::size_t n, std::size_t G,
                                         coeff_format f) {
  using prim::carry_gp;
  const std::size_t total = f.count(n);
  const std::size_t pd = f.rx == radix::binary ? 64 / std::gcd(64u, f.digits) : 19;
  const std::size_t periods = (total + pd - 1) / pd;
  const std::uint64_t B = f.base();
  std::vector<std::int32_t> out(G * (total + 1), 0x5a5a5a5a);
  if (periods == 0) {
    std::fill(out.begin(), out.end(), 0);
    return out;
  }
  std::vector<carry_gp> pairs(G * (periods + 1));
  for (std::size_t g = 0; g < G; ++g) {
    for (std::size_t p = 0; p < periods; ++p) {
      fold_visit v{B, total - p * pd, prim::carry_identity};
      visit_period(f, a.data() + g * n, n, p, v);
      pairs[g * (periods + 1) + p] = v.acc;
    }
    pairs[g * (periods + 1) + periods] = carry_gp{0, 0};
  }
  std::vector<carry_gp> scanned(pairs.size());
  carry_gp acc = prim::carry_identity;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    scanned[i] = acc;
    acc = prim::carry_op{}(acc, pairs[i]);
  }
  for (std::size_t g = 0; g < G; ++g) {
    std::int32_t* og = out.data() + g * (total + 1);
    for (std::size_t p = 0; p < periods; ++p) {
      emit_visit v{B, total - p * pd, scanned[g * (periods + 1) + p].g, og + p * pd};
      visit_period(f, a.data() + g * n, n, p, v);
      if (p + 1 == periods) og[total] = static_cast<std::int32_t>(v.carry);
    }
  }
  return out;
}

// residue_mod_p_device's mapping: one thread per chunk (chd::residue_chunk), summed.
std::uint64_t model_residue(const std::vector<limb_t>& a, radix rx) {
  const std::size_t n = a.size(), CL = gpu::residue_chunk_limbs;
  const std::uint64_t base = limb_base_mod_p(rx);
  const std::uint64_t base_chunk = mod_p_pow(base, CL);
  std::uint64_t sum = 0;
  for (std::size_t c = 0; c * CL < n; ++c) sum = mod_p_add(sum, chd::residue_chunk(a.data(), n, c, base, base_chunk));
  return sum;
}

// modular_check_device_batched's mapping: X blocks per product, each summing the
// chunks c = x*threads + tid (stride X*threads) of a, b and r into three partial
// sums; blocks finish in a scrambled order and the one that takes the last
// ticket of its product adds the partials and gives the verdict.
std::vector<int> model_modular_check(const std::vector<limb_t>& a, const std::vector<limb_t>& b,
                                     const std::vector<limb_t>& r, std::size_t an, std::size_t bn, std::size_t G,
                                     radix rx, std::size_t X, unsigned threads, bool square,
                                     std::mt19937_64& g) {
  const chd::check_operands ops{a.data(), b.data(), r.data(), an, bn};
  const std::uint64_t base = limb_base_mod_p(rx), base_chunk = mod_p_pow(base, gpu::residue_chunk_limbs);
  std::vector<std::uint64_t> partial(G * 3 * X, 0xbad);
  std::vector<unsigned> counters(G, 0);
  std::vector<int> ok(G, -1);
  std::vector<std::pair<std::size_t, std::size_t>> blocks;  // (x, g)
  for (std::size_t p = 0; p < G; ++p)
    for (std::size_t x = 0; x < X; ++x) blocks.emplace_back(x, p);
  std::shuffle(blocks.begin(), blocks.end(), g);
  for (const auto& [x, p] : blocks) {
    for (unsigned s = 0; s < 3; ++s) {
      std::uint64_t sum = 0;
      if (!(square && s == 1))
        for (unsigned tid = 0; tid < threads; ++tid)
          for (std::size_t c = x * threads + tid; c < ops.chunks(s); c += X * threads)
            sum = mod_p_add(sum, chd::residue_chunk(ops.data(p, s), ops.size(s), c, base, base_chunk));
      partial[(p * 3 + s) * X + x] = sum;
    }
    if (++counters[p] == X) {
      std::uint64_t res[3] = {0, 0, 0};
      for (unsigned s = 0; s < 3; ++s)
        for (std::size_t i = 0; i < X; ++i) res[s] = mod_p_add(res[s], partial[(p * 3 + s) * X + i]);
      if (square) res[1] = res[0];
      ok[p] = chd::check_verdict(res[0], res[1], res[2]);
      counters[p] = 0;
    }
  }
  EXPECT_EQ(std::count(counters.begin(), counters.end(), 0u), static_cast<long>(G)) << "tickets left behind";
  return ok;
}

// G products back to back (a: G x an, b: G x bn, r: their exact products), then
// product `bad` (if < G) broken by one limb.
struct check_batch {
  std::vector<limb_t> a, b, r;
};
check_batch make_check_batch(std::size_t an, std::size_t bn, std::size_t G, radix rx, bool square, std::size_t bad,
                             std::mt19937_64& g) {
  check_batch c;
  for (std::size_t p = 0; p < G; ++p) {
    const auto x = operand(kinds[p % 5], an, rx, g, p % 4 == 1);
    const auto y = square ? x : operand(kinds[(p + 2) % 5], bn, rx, g, false);
    const auto z = bigmul::test::gmp_product(x.data(), an, y.data(), bn, rx);
    c.a.insert(c.a.end(), x.begin(), x.end());
    c.b.insert(c.b.end(), y.begin(), y.end());
    c.r.insert(c.r.end(), z.begin(), z.end());
  }
  if (bad < G) {
    limb_t& v = c.r[bad * (an + bn) + (an + bn) / 2];
    v = v == 0 ? 1 : v - 1;  // stays a valid decimal limb
  }
  return c;
}

std::vector<u128> model_tile_pair(const std::vector<std::uint32_t>& x, const std::vector<std::uint32_t>& y,
                                  unsigned T) {
  const std::size_t nx = x.size(), ny = y.size(), nc = nx + ny - 1;
  std::vector<std::uint64_t> lo(nc, 0), hi(nc, 0);
  std::vector<std::uint32_t> xs(T), ys(T);
  for (std::size_t i0 = 0; i0 < nx; i0 += T)
    for (std::size_t j0 = 0; j0 < ny; j0 += T) {
      for (unsigned t = 0; t < T; ++t) {
        xs[t] = i0 + t < nx ? x[i0 + t] : 0;
        ys[t] = j0 + t < ny ? y[j0 + t] : 0;
      }
      for (unsigned t = 0; t < T; ++t)
        for (unsigned k = t; k < 2 * T - 1; k += T) {
          std::uint64_t l = 0, h = 0;
          thd::tile_pair_output(xs.data(), ys.data(), T, k, l, h);
          if (i0 + j0 + k < nc) {
            lo[i0 + j0 + k] += l;
            hi[i0 + j0 + k] += h;
          }
        }
    }
  std::vector<u128> c(nc);
  for (std::size_t k = 0; k < nc; ++k) c[k] = thd::fold(lo[k], hi[k]);
  return c;
}

std::vector<u128> model_output_stationary(const std::vector<std::uint32_t>& x, const std::vector<std::uint32_t>& y,
                                          unsigned T) {
  const std::size_t nx = x.size(), ny = y.size(), nc = nx + ny - 1;
  std::vector<u128> c(nc);
  std::vector<std::uint32_t> xs(T), ys2(2 * T);
  for (std::size_t k0 = 0; k0 < nc; k0 += T) {
    std::size_t first, end;
    thd::os_tile_range(k0, T, nx, ny, first, end);
    std::vector<std::uint64_t> lo(T, 0), hi(T, 0);
    for (std::size_t tile = first; tile < end; ++tile) {
      const std::size_t i0 = tile * T;
      for (unsigned t = 0; t < T; ++t) xs[t] = i0 + t < nx ? x[i0 + t] : 0;
      for (unsigned q = 0; q < 2 * T - 1; ++q) {
        const long long j = thd::os_y_index(k0, i0, T, q);
        ys2[q] = j >= 0 && static_cast<std::size_t>(j) < ny ? y[j] : 0;
      }
      for (unsigned t = 0; t < T; ++t) thd::os_output(xs.data(), ys2.data(), T, t, lo[t], hi[t]);
    }
    for (unsigned t = 0; t < T && k0 + t < nc; ++t) c[k0 + t] = thd::fold(lo[t], hi[t]);
  }
  return c;
}

std::vector<std::uint32_t> random_digits(std::size_t n, std::mt19937_64& g, int mode) {
  std::vector<std::uint32_t> v(n);
  for (auto& d : v) d = mode == 0 ? static_cast<std::uint32_t>(g()) : mode == 1 ? 0xffffffffu : 999999999u;
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------
// CPU: the kernels' mapping over the shared arithmetic.

TEST(MulKernelsModel, SplitAndJoinMappingMatchCpu) {
  auto g = bigmul::test::rng(0x6e01);
  for (const coeff_format f : all_formats()) {
    for (std::size_t n : sizes_for(f)) {
      for (auto kind : kinds) {
        const auto a = operand(kind, n, f.rx, g, kind == operand_kind::sparse);
        std::vector<std::uint32_t> want(f.count(n));
        split_digits(a.data(), n, f, want.data(), 2);
        ASSERT_EQ(model_split_digits(a, n, f), want) << fmt_name(f) << " n " << n;
        for (std::size_t out_n : {n, n + 2, n > 1 ? n - 1 : n}) {
          for (std::size_t m : {want.size(), want.size() > 3 ? want.size() - 3 : want.size()}) {
            std::vector<limb_t> back(out_n);
            join_digits(want.data(), m, f, back.data(), out_n, 2);
            ASSERT_EQ(model_join(want, m, f, out_n), back) << fmt_name(f) << " n " << n << " m " << m;
          }
        }
      }
    }
  }
}

TEST(MulKernelsModel, BalancedLookAheadMatchesCpu) {
  auto g = bigmul::test::rng(0x6e02);
  for (const coeff_format f : all_formats()) {
    for (std::size_t n : sizes_for(f)) {
      for (std::size_t G : {1u, 3u}) {
        std::vector<limb_t> a;
        for (std::size_t p = 0; p < G; ++p) {
          const auto one = operand(kinds[(p + n) % 5], n, f.rx, g, false);
          a.insert(a.end(), one.begin(), one.end());
        }
        const auto got = model_balanced(a, n, G, f);
        for (std::size_t p = 0; p < G; ++p) {
          const std::vector<limb_t> one(a.begin() + p * n, a.begin() + (p + 1) * n);
          const auto want = cpu_balanced(one, n, f);
          const std::size_t s = f.count(n) + 1;
          ASSERT_EQ(std::vector<std::int64_t>(got.begin() + p * s, got.begin() + (p + 1) * s), want)
              << fmt_name(f) << " n " << n << " G " << G << " problem " << p;
        }
      }
    }
  }
  EXPECT_EQ(model_balanced({}, 0, 2, coeff_format{radix::binary, 16}), (std::vector<std::int32_t>{0, 0}));
}

TEST(MulKernelsModel, ResidueChunksMatchCpu) {
  auto g = bigmul::test::rng(0x6e03);
  for (radix rx : {radix::binary, radix::decimal}) {
    for (std::size_t n : {1u, 2u, 31u, 32u, 33u, 1000u, 8193u}) {
      for (auto kind : {operand_kind::random, operand_kind::all_max}) {
        const auto a = bigmul::test::make_operand(kind, n, rx, g);
        ASSERT_EQ(model_residue(a, rx), residue_mod_p(a.data(), n, rx, 1)) << n;
      }
    }
  }
  EXPECT_EQ(model_residue({}, radix::binary), 0u);
}

// The batched modular check's block / ticket scheme, with the kernels' per-chunk
// residue: every product gets its verdict once, a wrong product (one limb off)
// fails and the others pass, whatever the blocks per product and their order.
TEST(MulKernelsModel, BatchedModularCheckOneVerdictPerProduct) {
  auto g = bigmul::test::rng(0x6e05);
  for (radix rx : {radix::binary, radix::decimal}) {
    for (auto [an, bn] : {std::pair<std::size_t, std::size_t>{1, 1}, {40, 33}, {300, 7}, {513, 513}}) {
      for (std::size_t G : {1u, 3u, 8u}) {
        for (bool square : {false, true}) {
          if (square && an != bn) continue;
          for (std::size_t bad : {G, std::size_t{0}, G - 1}) {
            const auto c = make_check_batch(an, bn, G, rx, square, bad, g);
            const auto& b = square ? c.a : c.b;
            for (std::size_t X : {1u, 2u, 5u}) {
              const auto ok = model_modular_check(c.a, b, c.r, an, bn, G, rx, X, 4, square, g);
              for (std::size_t p = 0; p < G; ++p)
                ASSERT_EQ(ok[p], p == bad ? 0 : 1) << "product " << p << " of " << G << ", " << an << " x " << bn
                                                   << ", X " << X << (square ? " square" : "");
            }
          }
        }
      }
    }
  }
}

// The pass memory the pre-flight sizes (fft_pass_bytes) is the layout the pass
// carves (mul/gpu_memory_model.hpp), per path on the job's real shapes: the
// buffers' sizes from the shape, the three phases over one region after the
// live buffers; where the split and the carry run in one pass the product
// digits and the split's temp fit under the spectra, so they cost no bytes (a
// multi-round carry's spread arrays can outgrow them). CPU only (size queries).
TEST(MulKernelsModel, PassMemoryPerPath) {
  std::size_t checked = 0, fused = 0;
  for (algorithm algo :
       {algorithm::fft_real, algorithm::fft_complex, algorithm::fft_real_f32, algorithm::fft_complex_f32})
    for (radix rx : {radix::binary, radix::decimal})
      for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 16})
        for (int path = 0; path < 3; ++path)
          for (bool square : {false, true}) {
            gpu::fft_job j;
            j.algo = algo;
            j.an = n;
            j.bn = square ? n : n - n / 3 + 1;
            j.G = 3;
            j.square = square;
            j.fused_split = j.fused_carry = path > 0;
            j.fused_join = path == 2;
            j.f = coeff_format{rx, detail::fft_pick_digits(algo, rx, j.an, j.bn)};
            if (!j.f.digits) continue;
            detail::gpu_pass_layout l;
            ASSERT_TRUE(gpu::fft_pass_layout(j, l));
            const detail::gpu_pass_shape s = gpu::pass_shape_of(j);
            const std::size_t C = 2 * std::size_t{s.real_bytes};
            const std::string what = std::to_string(int(algo)) + (rx == radix::binary ? " binary n " : " decimal n ") +
                                     std::to_string(n) + " path " + std::to_string(path) + " square " +
                                     std::to_string(square);
            EXPECT_EQ(gpu::fft_pass_bytes(j), l.bytes) << what;
            EXPECT_EQ(l.size.digits_a, 4 * j.G * s.ca) << what;
            EXPECT_EQ(l.size.digits_b, square ? 0 : 4 * j.G * s.cb) << what;
            EXPECT_EQ(l.size.coeffs, 8 * j.G * s.nc) << what;
            EXPECT_EQ(l.size.spectrum_a, j.G * s.spectrum * C) << what;
            EXPECT_EQ(l.size.spectrum_b, square ? 0 : j.G * s.spectrum * C) << what;
            EXPECT_EQ(l.size.work, s.passes > 1 ? j.G * s.points * C : 0) << what;
            EXPECT_EQ(l.size.product_digits, 4 * j.G * s.m) << what;
            EXPECT_EQ(l.bytes, l.live + std::max({l.split, l.transform, l.carry})) << what;
            if (s.fused_split && n > 1) EXPECT_LE(l.split, l.transform) << what;
            if (s.fused_carry && n > 1) EXPECT_LE(l.carry, l.transform) << what;  // the digits cost nothing
            fused += s.fused_carry && n > 1;
            ++checked;
          }
  EXPECT_GT(checked, 60u);
  EXPECT_GT(fused, 20u);  // the single-pass carry took most shapes (not multi-round FP32 plans)
}

TEST(MulKernelsModel, TiledMappingsMatchNaiveConvolution) {
  auto g = bigmul::test::rng(0x6e04);
  for (unsigned T : {1u, 2u, 3u, 32u, 33u}) {
    for (std::size_t nx : {std::size_t{1}, std::size_t{T - 1 ? T - 1 : 1}, std::size_t{T}, std::size_t{T + 1},
                           std::size_t{3 * T + 5}}) {
      for (std::size_t ny : {std::size_t{1}, std::size_t{T + 1}, std::size_t{2 * T + 3}}) {
        for (int mode : {0, 1}) {
          const auto x = random_digits(nx, g, mode), y = random_digits(ny, g, mode);
          const auto want = naive_conv(x.data(), nx, y.data(), ny);
          ASSERT_TRUE(model_tile_pair(x, y, T) == want) << "tile pair T " << T << " " << nx << "x" << ny;
          ASSERT_TRUE(model_output_stationary(x, y, T) == want) << "output stationary T " << T << " " << nx << "x" << ny;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// GPU.

namespace {

using bigmul::test::dev_buf;

// A CUB-shaped call: size query, then the run, then a sync.
template <class F>
void two_phase(F&& f) {
  std::size_t bytes = 0;
  ASSERT_EQ(f(nullptr, bytes), cudaSuccess);
  dev_buf<char> temp(bytes);
  ASSERT_EQ(f(temp.p, bytes), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

std::vector<std::uint32_t> dev_split_digits(const std::vector<limb_t>& a, std::size_t n, std::size_t G,
                                            coeff_format f) {
  const std::size_t total = f.count(n);
  dev_buf<limb_t> d_a(a);
  dev_buf<std::uint32_t> d_out(G * total);
  d_out.poison(G * total);
  EXPECT_EQ(G == 1 ? gpu::split_digits_device(d_a.p, n, f, d_out.p, 0)
                   : gpu::split_digits_device_batched(d_a.p, n, G, f, d_out.p, 0),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  return d_out.get(G * total);
}

std::vector<std::int32_t> dev_split_balanced(const std::vector<limb_t>& a, std::size_t n, std::size_t G,
                                             coeff_format f) {
  const std::size_t s = f.count(n) + 1;
  dev_buf<limb_t> d_a(a);
  dev_buf<std::int32_t> d_out(G * s);
  d_out.poison(G * s);
  two_phase([&](void* t, std::size_t& b) {
    return G == 1 ? gpu::split_balanced_device(t, b, d_a.p, n, f, d_out.p, 0)
                  : gpu::split_balanced_device_batched(t, b, d_a.p, n, G, f, d_out.p, 0);
  });
  return d_out.get(G * s);
}

std::vector<limb_t> dev_join(const std::vector<std::uint32_t>& d, std::size_t m, std::size_t G, coeff_format f,
                             std::size_t out_n) {
  dev_buf<std::uint32_t> d_d(d);
  dev_buf<limb_t> d_out(G * out_n);
  d_out.poison(G * out_n);
  EXPECT_EQ(G == 1 ? gpu::join_digits_device(d_d.p, m, f, d_out.p, out_n, 0)
                   : gpu::join_digits_device_batched(d_d.p, m, G, f, d_out.p, out_n, 0),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  return d_out.get(G * out_n);
}

std::vector<u128> dev_conv(const std::vector<std::uint32_t>& x, std::size_t nx, const std::vector<std::uint32_t>& y,
                           std::size_t ny, std::size_t G, gpu::tiled_variant v, unsigned tile) {
  const std::size_t nc = nx + ny - 1;
  dev_buf<std::uint32_t> d_x(x), d_y(y);
  dev_buf<u128> d_c(G * nc);
  d_c.poison(G * nc);
  two_phase([&](void* t, std::size_t& b) {
    return gpu::tiled_convolution_device(t, b, d_x.p, nx, d_y.p, ny, G, d_c.p, v, tile, 0);
  });
  return d_c.get(G * nc);
}

// a * b on the GPU: split (32-bit / 10^9 digits) -> tiled convolution ->
// carry (u128) -> join; false when the device reports the carry overflowed.
bool dev_product(const std::vector<limb_t>& a, const std::vector<limb_t>& b, radix rx, gpu::tiled_variant v,
                 unsigned tile, std::vector<limb_t>& r) {
  const coeff_format f{rx, rx == radix::binary ? 32u : 9u};
  const std::size_t an = a.size(), bn = b.size(), ca = f.count(an), cb = f.count(bn), nc = ca + cb - 1;
  const std::size_t m = f.count(an + bn);
  dev_buf<limb_t> d_a(a), d_b(b), d_r(an + bn);
  dev_buf<std::uint32_t> d_x(ca), d_y(cb), d_digits(m);
  dev_buf<u128> d_c(nc);
  dev_buf<int> d_ok(1);
  EXPECT_EQ(gpu::split_digits_device(d_a.p, an, f, d_x.p, 0), cudaSuccess);
  EXPECT_EQ(gpu::split_digits_device(d_b.p, bn, f, d_y.p, 0), cudaSuccess);
  two_phase([&](void* t, std::size_t& bytes) {
    return gpu::tiled_convolution_device(t, bytes, d_x.p, ca, d_y.p, cb, 1, d_c.p, v, tile, 0);
  });
  two_phase([&](void* t, std::size_t& bytes) {
    return carry::cuda::carry_normalize_device<u128>(t, bytes, d_c.p, nc, carry::digit_base{rx == radix::decimal, f.digits},
                                                     d_digits.p, m, d_ok.p, 0);
  });
  EXPECT_EQ(gpu::join_digits_device(d_digits.p, m, f, d_r.p, an + bn, 0), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  r = d_r.get(an + bn);
  return d_ok.get(1)[0] == 1;
}

using MulKernelsGpu = bigmul::test::gpu_fixture;  // skips without a GPU, fails under BIGMUL_REQUIRE_GPU=1

}  // namespace

TEST_F(MulKernelsGpu, SplitDigitsAndJoinMatchCpu) {
  auto g = bigmul::test::rng(0x6e11);
  for (const coeff_format f : all_formats()) {
    std::vector<std::size_t> ns = sizes_for(f);
    if (f.digits == 16 || f.digits == 32 || f.digits == 20 || f.digits == 9 || f.digits == 4) ns.push_back(1u << 20);
    for (std::size_t n : ns) {
      for (auto kind : kinds) {
        if (n > 4096 && kind != operand_kind::random && kind != operand_kind::all_max) continue;
        const auto a = operand(kind, n, f.rx, g, kind == operand_kind::sparse);
        std::vector<std::uint32_t> want(f.count(n));
        split_digits(a.data(), n, f, want.data(), 2);
        const auto got = dev_split_digits(a, n, 1, f);
        ASSERT_EQ(got, want) << fmt_name(f) << " n " << n;
        for (std::size_t out_n : {n, n + 2, n > 1 ? n - 1 : n}) {
          std::vector<limb_t> back(out_n);
          join_digits(want.data(), want.size(), f, back.data(), out_n, 2);
          ASSERT_EQ(dev_join(want, want.size(), 1, f, out_n), back) << fmt_name(f) << " n " << n << " out " << out_n;
        }
        if (want.size() > 3) {  // fewer digits than limbs hold: the rest read as zero
          std::vector<limb_t> back(n);
          join_digits(want.data(), want.size() - 3, f, back.data(), n, 2);
          ASSERT_EQ(dev_join(want, want.size() - 3, 1, f, n), back) << fmt_name(f) << " short m, n " << n;
        }
      }
    }
  }
}

TEST_F(MulKernelsGpu, SplitBalancedMatchesCpu) {
  auto g = bigmul::test::rng(0x6e12);
  for (const coeff_format f : all_formats()) {
    std::vector<std::size_t> ns = sizes_for(f);
    ns.push_back(4099);
    if (f.digits == 16 || f.digits == 20 || f.digits == 32 || f.digits == 5) ns.push_back(1u << 20);
    for (std::size_t n : ns) {
      for (auto kind : kinds) {
        if (n > 4099 && kind != operand_kind::random && kind != operand_kind::half_max) continue;
        const auto a = operand(kind, n, f.rx, g, kind == operand_kind::sparse);
        const auto want = cpu_balanced(a, n, f);
        const auto got = dev_split_balanced(a, n, 1, f);
        ASSERT_EQ(std::vector<std::int64_t>(got.begin(), got.end()), want)
            << fmt_name(f) << " n " << n << " " << bigmul::test::operand_kind_name(kind);
      }
    }
  }
}

// The single-pass split (mul/cuda/split_fused.cuh) = the CPU split_balanced,
// single and batched (tickets and descriptors per product), up to 2^20 limbs
// (thousands of tiles: look-back across windows), propagating runs included.
namespace {
void check_fused_split(bool large) {
  auto g = bigmul::test::rng(0x6e1f);
  for (const coeff_format f : all_formats()) {
    if (!large && f.digits % 4 != 1) continue;  // the sanitizers' few formats
    std::vector<std::size_t> ns = sizes_for(f);
    if (large) ns.push_back(4099);
    if (large && (f.digits == 16 || f.digits == 20 || f.digits == 21 || f.digits == 5)) ns.push_back(1u << 20);
    for (std::size_t n : ns) {
      for (std::size_t G : {std::size_t{1}, std::size_t{3}}) {
        for (auto kind : kinds) {
          if (n > 4099 && kind != operand_kind::random && kind != operand_kind::all_max) continue;
          std::vector<limb_t> a;
          for (std::size_t p = 0; p < G; ++p) {
            const auto one = operand(kind, n, f.rx, g, kind == operand_kind::sparse);
            a.insert(a.end(), one.begin(), one.end());
          }
          const std::size_t s = f.count(n) + 1;
          dev_buf<limb_t> d_a(a);
          dev_buf<std::int32_t> d_out(G * s);
          d_out.poison(G * s);
          two_phase([&](void* t, std::size_t& b) {
            return gpu::split_balanced_fused_device_batched(t, b, d_a.p, n, G, f, d_out.p, 0);
          });
          const auto got = d_out.get(G * s);
          for (std::size_t p = 0; p < G; ++p) {
            const std::vector<limb_t> one(a.begin() + p * n, a.begin() + (p + 1) * n);
            ASSERT_EQ(std::vector<std::int64_t>(got.begin() + p * s, got.begin() + (p + 1) * s), cpu_balanced(one, n, f))
                << fmt_name(f) << " n " << n << " G " << G << " product " << p << " "
                << bigmul::test::operand_kind_name(kind);
          }
        }
      }
    }
  }
}
}  // namespace

TEST_F(MulKernelsGpu, SplitBalancedFusedMatchesCpu) { check_fused_split(true); }
TEST_F(MulKernelsGpu, SplitBalancedFusedSmallMatchesCpu) { check_fused_split(false); }

// The single-pass carry = the multi-pass one (digits and fit flag) on FFT-like
// int64 sums, carry chains through every tile, negative and overflowing
// values, batched; small sizes for the sanitizers, then 2^20 positions.
namespace {
void check_fused_carry(std::size_t max_nc) {
  auto g = bigmul::test::rng(0x6e21);
  const std::int64_t lim = std::int64_t{1} << 52;
  for (carry::digit_base b : {carry::digit_base{false, 16}, carry::digit_base{false, 20},
                              carry::digit_base{true, 4}, carry::digit_base{true, 6}}) {
    const auto B = static_cast<std::int64_t>(b.value());
    for (std::size_t nc : {std::size_t{1}, std::size_t{1023}, std::size_t{1025}, std::size_t{5000},
                           std::size_t{1} << 20}) {
      if (nc > max_nc) continue;
      for (int kind = 0; kind < 4; ++kind) {
        const std::size_t G = 3, m = nc + (kind == 2 ? 0 : 6);
        std::vector<std::int64_t> c(G * nc);
        for (std::size_t i = 0; i < c.size(); ++i) {
          const std::size_t k = i % nc;
          c[i] = kind == 0 ? static_cast<std::int64_t>(g() % (2 * lim)) - lim  // random (top >= 0)
               : kind == 3 ? (k == nc - 1 ? -1 : 0)                            // negative
                           : (k == 0 ? B : B - 1);                             // a chain (kind 2: no room)
          if (kind == 0 && k == nc - 1) c[i] = static_cast<std::int64_t>(g() % lim);
        }
        std::vector<std::uint32_t> got[2];
        std::vector<int> ok[2];
        for (int fused = 0; fused < 2; ++fused) {
          dev_buf<std::int64_t> d_c(c);
          dev_buf<std::uint32_t> d_out(G * m);
          dev_buf<int> d_ok(G);
          d_out.poison(G * m);
          d_ok.poison(G);
          two_phase([&](void* t, std::size_t& bytes) {
            return fused ? carry::cuda::carry_normalize_fused_device_batched<std::int64_t>(
                               t, bytes, d_c.p, nc, G, b, d_out.p, m, d_ok.p, 0, static_cast<std::uint64_t>(lim))
                         : carry::cuda::carry_normalize_device_batched<std::int64_t>(
                               t, bytes, d_c.p, nc, G, b, d_out.p, m, d_ok.p, 0, static_cast<std::uint64_t>(lim));
          });
          got[fused] = d_out.get(G * m);
          ok[fused] = d_ok.get(G);
        }
        for (std::size_t q = 0; q < G; ++q) {
          std::vector<std::uint32_t> want(m, 0);
          const bool fits = carry::carry_normalize_two_phase(c.data() + q * nc, nc, b, want.data(), m, 2,
                                                             static_cast<std::uint64_t>(lim));
          ASSERT_EQ(ok[1][q], fits ? 1 : 0) << "base " << b.value() << " nc " << nc << " kind " << kind << " " << q;
          ASSERT_EQ(ok[0][q], ok[1][q]);
          if (fits)
            ASSERT_TRUE(std::equal(want.begin(), want.end(), got[1].begin() + static_cast<long>(q * m)))
                << "base " << b.value() << " nc " << nc << " kind " << kind << " product " << q;
        }
      }
    }
  }
}

}  // namespace

// Carry and join in one kernel (mul/cuda/carry_join_fused.cuh) against the
// CPU carry and join: random, chain, no room, negative coefficients, three
// products, tile counts around 1024 positions; past the guard nothing is
// written (limbs and flags keep their poison).
void check_carry_join(std::size_t max_out_n) {
  auto g = bigmul::test::rng(0x6e23);
  const std::int64_t lim = std::int64_t{1} << 52;
  for (coeff_format f : {coeff_format{radix::binary, 16}, coeff_format{radix::binary, 20},
                         coeff_format{radix::decimal, 4}, coeff_format{radix::decimal, 6}}) {
    const carry::digit_base b{f.rx == radix::decimal, f.digits};
    const auto B = static_cast<std::int64_t>(b.value());
    for (std::size_t out_n : {std::size_t{1}, std::size_t{255}, std::size_t{257}, std::size_t{1500},
                              std::size_t{1} << 18}) {
      if (out_n > max_out_n) continue;
      for (int kind = 0; kind < 4; ++kind) {
        const std::size_t G = 3, m = f.count(out_n), nc = kind == 2 ? m : m - std::min<std::size_t>(m - 1, 3);
        std::vector<std::int64_t> c(G * nc);
        for (std::size_t i = 0; i < c.size(); ++i) {
          const std::size_t k = i % nc;
          c[i] = kind == 0 ? static_cast<std::int64_t>(g() % (2 * lim)) - lim  // random (top >= 0)
               : kind == 3 ? (k == nc - 1 ? -1 : 0)                            // negative
                           : (k == 0 ? B : B - 1);                             // a chain (kind 2: no room)
          if (kind == 0 && k == nc - 1) c[i] = static_cast<std::int64_t>(g() % 1000);
        }
        for (bool past_guard : {false, true}) {
          dev_buf<std::int64_t> d_c(c);
          dev_buf<limb_t> d_out(G * out_n);
          dev_buf<int> d_ok(G), d_accept(1);
          const double err = past_guard ? 0.5 : 0.125;
          unsigned long long bits;
          std::memcpy(&bits, &err, sizeof bits);
          dev_buf<unsigned long long> d_bits(std::vector<unsigned long long>{bits});
          d_out.poison(G * out_n);
          d_ok.poison(G);
          d_accept.poison(1);
          two_phase([&](void* t, std::size_t& bytes) {
            return gpu::carry_join_fused_device_batched(t, bytes, d_c.p, nc, G, f, m, d_out.p, out_n, d_ok.p,
                                                        d_accept.p, d_bits.p, 0.25, 0,
                                                        static_cast<std::uint64_t>(lim));
          });
          const auto got = d_out.get(G * out_n);
          const auto ok = d_ok.get(G);
          const int accept = d_accept.get(1)[0];
          int poison;
          std::memset(&poison, 0xa5, sizeof poison);
          bool all_fit = true;
          for (std::size_t q = 0; q < G; ++q) {
            const std::string what = "base " + std::to_string(b.value()) + " out_n " + std::to_string(out_n) +
                                     " kind " + std::to_string(kind) + " product " + std::to_string(q);
            if (past_guard) {
              ASSERT_EQ(accept, poison) << what;
              ASSERT_EQ(ok[q], poison) << what;
              ASSERT_TRUE(std::all_of(got.begin(), got.end(), [](limb_t x) { return x == 0xa5a5a5a5a5a5a5a5ull; }))
                  << what;
              continue;
            }
            std::vector<std::uint32_t> d(m, 0);
            std::vector<limb_t> want(out_n, 0);
            const bool fits = carry::carry_normalize_two_phase(c.data() + q * nc, nc, b, d.data(), m, 2,
                                                               static_cast<std::uint64_t>(lim));
            if (fits) join_digits(d.data(), m, f, want.data(), out_n, 1);
            ASSERT_EQ(ok[q], fits ? 1 : 0) << what;
            all_fit &= fits;
            if (fits)
              ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin() + static_cast<long>(q * out_n))) << what;
          }
          if (!past_guard) ASSERT_EQ(accept, all_fit ? 1 : 0) << "the verdict, out_n " << out_n << " kind " << kind;
        }
      }
    }
  }
}

TEST_F(MulKernelsGpu, FusedCarryMatchesMultiPass) { check_fused_carry(std::size_t{1} << 20); }
TEST_F(MulKernelsGpu, FusedCarrySmallMatchesMultiPass) { check_fused_carry(5000); }
TEST_F(MulKernelsGpu, CarryJoinMatchesCpu) { check_carry_join(std::size_t{1} << 18); }
TEST_F(MulKernelsGpu, CarryJoinSmallMatchesCpu) { check_carry_join(1500); }

// Whole FFT passes with the single-pass split and carry against GMP (and so
// against the multi-pass kernels they replace): real and complex, in-house
// and cuFFT, two products a pass.
TEST_F(MulKernelsGpu, FusedPassesMatchGmp) {
  auto g = bigmul::test::rng(0x6e20);
  for (algorithm algo : {algorithm::fft_real, algorithm::fft_complex})
    for (fft_engine e : {fft_engine::in_house, fft_engine::cufft})
      for (radix rx : {radix::binary, radix::decimal})
        for (std::size_t n : {std::size_t{3}, std::size_t{1000}, std::size_t{1} << 16}) {
          gpu::fft_job j;
          j.algo = algo;
          j.engine = e;
          j.an = n;
          j.bn = n - n / 3;
          j.G = 2;
          j.fused_split = true;
          j.fused_carry = true;
          j.fused_join = n != 1000;  // carry and join in one kernel, or apart
          j.f = coeff_format{rx, detail::fft_pick_digits(algo, rx, j.an, j.bn)};
          const std::size_t bytes = j.f.digits ? gpu::fft_pass_bytes(j) : 0;
          if (bytes == 0) continue;  // no coefficient size, or the in-house FFT cannot plan the length
          const auto a = operand(operand_kind::random, j.G * j.an, rx, g, false);
          const auto b = operand(operand_kind::all_max, j.G * j.bn, rx, g, false);
          dev_buf<limb_t> d_a(a), d_b(b), d_r(j.G * (j.an + j.bn));
          dev_buf<char> d_t(bytes);
          gpu::fft_outcome out;
          ASSERT_EQ(gpu::fft_pass_device(d_t.p, j, d_r.p, d_a.p, d_b.p, 0, false, out), cudaSuccess);
          ASSERT_TRUE(out.accepted) << n;
          const auto r = d_r.get(j.G * (j.an + j.bn));
          for (std::size_t p = 0; p < j.G; ++p)
            ASSERT_EQ(std::vector<limb_t>(r.begin() + p * (j.an + j.bn), r.begin() + (p + 1) * (j.an + j.bn)),
                      bigmul::test::gmp_product(a.data() + p * j.an, j.an, b.data() + p * j.bn, j.bn, rx))
                << int(algo) << " " << int(e) << " " << (rx == radix::binary ? "binary" : "decimal") << " n " << n
                << " product " << p;
        }
}

// The product tail (fft_job::fused_tail: last forward pass, product, first inverse
// pass in one kernel) in whole passes = GMP: FP64 and FP32, real (mirror rows) and
// complex layouts, squares (one operand) and products, one pass and several, plans the
// tail cannot take (the unfused path then); pass_tail_enqueued() tells which ran.
void fused_tail_products(std::initializer_list<std::size_t> sizes, std::uint64_t seed) {
  auto g = bigmul::test::rng(seed);
  for (algorithm algo :
       {algorithm::fft_real, algorithm::fft_complex, algorithm::fft_real_f32, algorithm::fft_complex_f32})
    for (radix rx : {radix::binary, radix::decimal})
      for (std::size_t n : sizes)
        for (bool square : {false, true}) {
          gpu::fft_job j;
          j.algo = algo;
          j.an = n;
          j.bn = square ? n : n - n / 3;
          j.G = 2;
          j.square = square;
          j.fused_tail = true;
          j.fused_split = j.fused_carry = j.fused_join = n % 2 == 0;
          j.f = coeff_format{rx, detail::fft_pick_digits(algo, rx, j.an, j.bn)};
          const std::size_t bytes = j.f.digits ? gpu::fft_pass_bytes(j) : 0;
          if (bytes == 0) continue;  // no coefficient size, or the in-house FFT cannot plan the length
          const auto a = operand(square ? operand_kind::all_max : operand_kind::random, j.G * j.an, rx, g, false);
          const auto b = square ? a : operand(operand_kind::all_max, j.G * j.bn, rx, g, false);
          dev_buf<limb_t> d_a(a), d_b(b), d_r(j.G * (j.an + j.bn));
          dev_buf<char> d_t(bytes);
          d_r.poison(j.G * (j.an + j.bn));
          gpu::fft_outcome out;
          const std::size_t before = gpu::pass_tail_enqueued();
          ASSERT_EQ(gpu::fft_pass_device(d_t.p, j, d_r.p, d_a.p, square ? d_a.p : d_b.p, 0, false, out), cudaSuccess);
          ASSERT_TRUE(out.accepted) << n;
          const bool tail = gpu::pass_tail_enqueued() != before;
          EXPECT_EQ(tail, gpu::pass_shape_of(j).fused_tail) << n;  // taken exactly where the plan can
          const auto r = d_r.get(j.G * (j.an + j.bn));
          for (std::size_t p = 0; p < j.G; ++p)
            ASSERT_EQ(std::vector<limb_t>(r.begin() + p * (j.an + j.bn), r.begin() + (p + 1) * (j.an + j.bn)),
                      bigmul::test::gmp_product(a.data() + p * j.an, j.an, b.data() + p * j.bn, j.bn, rx))
                << int(algo) << (rx == radix::binary ? " binary" : " decimal") << " n " << n << " square "
                << square << " tail " << tail << " product " << p;
        }
}

TEST_F(MulKernelsGpu, FusedTailSmallMatchesGmp) { fused_tail_products({2, 3, 257}, 0x6e30); }

TEST_F(MulKernelsGpu, FusedTailMatchesGmp) {
  const std::size_t before = gpu::pass_tail_enqueued();
  fused_tail_products({1000, 5000, std::size_t{1} << 14, 70000, std::size_t{1} << 18}, 0x6e31);
  EXPECT_GT(gpu::pass_tail_enqueued() - before, 20u);
}

// The plan rule's two-pass limits (fft_job::two_pass) in whole passes = GMP, at
// the sizes where they drop a pass (2^22 and 2^23 complex points FP64; FP32 is not
// exact that long): the shape has two passes where the default limits plan three;
// real and complex, a square, the fused kernels on and off.
TEST_F(MulKernelsGpu, TwoPassLimitsMatchGmp) {
  auto g = bigmul::test::rng(0x6e40);
  std::size_t ran = 0;
  for (algorithm algo : {algorithm::fft_real, algorithm::fft_complex}) {
    std::size_t found = 0;
    for (std::size_t n = std::size_t{1} << 16; n <= (std::size_t{1} << 20) && found < 2; n += n / 2) {
      gpu::fft_job j;
      j.algo = algo;
      j.an = j.bn = n;
      j.square = found == 1;
      j.fused_split = j.fused_carry = j.fused_join = found == 0;
      j.f = coeff_format{radix::binary, detail::fft_pick_digits(algo, radix::binary, j.an, j.bn)};
      if (!j.f.digits) continue;
      const unsigned plain = gpu::pass_shape_of(j).passes;
      j.two_pass = true;
      const unsigned two = gpu::pass_shape_of(j).passes;
      if (plain == two) continue;
      ++found;
      EXPECT_EQ(plain, 3u) << n;
      EXPECT_EQ(two, 2u) << n;
      const auto a = operand(operand_kind::random, j.an, radix::binary, g, false);
      const auto b = j.square ? a : operand(operand_kind::all_max, j.bn, radix::binary, g, false);
      dev_buf<limb_t> d_a(a), d_b(b), d_r(j.an + j.bn);
      dev_buf<char> d_t(gpu::fft_pass_bytes(j));
      d_r.poison(j.an + j.bn);
      gpu::fft_outcome out;
      ASSERT_EQ(gpu::fft_pass_device(d_t.p, j, d_r.p, d_a.p, j.square ? d_a.p : d_b.p, 0, false, out), cudaSuccess);
      ASSERT_TRUE(out.accepted) << n;
      ASSERT_EQ(d_r.get(j.an + j.bn), bigmul::test::gmp_product(a.data(), j.an, b.data(), j.bn, radix::binary))
          << int(algo) << " n " << n << " square " << j.square;
      ++ran;
    }
  }
  EXPECT_EQ(ran, 4u);
}

// Carry and join in one kernel (fft_job::fused_join) in whole passes: a
// pass past the guard (coefficients far too large for the transform) leaves
// d_r untouched; a product into a buffer overlapping an operand (the
// separate join then) is still GMP's.
TEST_F(MulKernelsGpu, CarryJoinPassGuardAndOverlap) {
  auto g = bigmul::test::rng(0x6e24);
  gpu::fft_job j;
  j.algo = algorithm::fft_real;
  j.an = 4096;
  j.bn = 4000;
  j.fused_split = j.fused_carry = j.fused_join = true;
  j.f = coeff_format{radix::binary, 30};  // 2^60 * 2^14 coefficients: the guard fails
  const auto a = operand(operand_kind::random, j.an, radix::binary, g, false);
  const auto b = operand(operand_kind::all_max, j.bn, radix::binary, g, false);
  {
    dev_buf<limb_t> d_a(a), d_b(b), d_r(j.an + j.bn);
    dev_buf<char> d_t(gpu::fft_pass_bytes(j));
    d_r.poison(j.an + j.bn);
    gpu::fft_outcome out;
    ASSERT_EQ(gpu::fft_pass_device(d_t.p, j, d_r.p, d_a.p, d_b.p, 0, false, out), cudaSuccess);
    ASSERT_FALSE(out.accepted);
    const auto r = d_r.get(j.an + j.bn);
    EXPECT_TRUE(std::all_of(r.begin(), r.end(), [](limb_t x) { return x == 0xa5a5a5a5a5a5a5a5ull; }));
  }
  j.f = coeff_format{radix::binary, detail::fft_pick_digits(j.algo, radix::binary, j.an, j.bn)};
  std::vector<limb_t> ab(a);
  ab.resize(j.an + j.bn);
  dev_buf<limb_t> d_ab(ab), d_b(b);  // d_r = d_a: the product over its first operand
  dev_buf<char> d_t(gpu::fft_pass_bytes(j));
  gpu::fft_outcome out;
  ASSERT_EQ(gpu::fft_pass_device(d_t.p, j, d_ab.p, d_ab.p, d_b.p, 0, false, out), cudaSuccess);
  ASSERT_TRUE(out.accepted);
  EXPECT_EQ(d_ab.get(j.an + j.bn), bigmul::test::gmp_product(a.data(), j.an, b.data(), j.bn, radix::binary));
}

// Graph passes (fft_job::graph) on a stream of their own: the first pass of a
// shape runs plain and is captured, the next ones replay the graph on new
// operands in the same buffers; every product = GMP, with the fused kernels
// and without, real and complex, in-house and cuFFT.
TEST_F(MulKernelsGpu, GraphPassesMatchGmp) {
  auto g = bigmul::test::rng(0x6e22);
  cudaStream_t st;
  ASSERT_EQ(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), cudaSuccess);
  for (algorithm algo : {algorithm::fft_real, algorithm::fft_complex})
    for (fft_engine e : {fft_engine::in_house, fft_engine::cufft})
      for (bool fused : {false, true}) {
        gpu::fft_job j;
        j.algo = algo;
        j.engine = e;
        j.an = 3000;
        j.bn = 2000;
        j.G = 2;
        j.fused_split = j.fused_carry = j.fused_join = fused;
        j.graph = true;
        j.f = coeff_format{radix::binary, detail::fft_pick_digits(algo, radix::binary, j.an, j.bn)};
        const std::size_t bytes = j.f.digits ? gpu::fft_pass_bytes(j) : 0;
        ASSERT_GT(bytes, 0u);
        dev_buf<limb_t> d_a(j.G * j.an), d_b(j.G * j.bn), d_r(j.G * (j.an + j.bn));
        dev_buf<char> d_t(bytes);
        const std::size_t launches = gpu::pass_graph_launches();
        for (int round = 0; round < 3; ++round) {
          const auto a = operand(round == 1 ? operand_kind::all_max : operand_kind::random, j.G * j.an, radix::binary,
                                 g, false);
          const auto b = operand(operand_kind::all_max, j.G * j.bn, radix::binary, g, false);
          d_a.put(a);
          d_b.put(b);
          d_r.poison(j.G * (j.an + j.bn));
          gpu::fft_outcome out;
          ASSERT_EQ(gpu::fft_pass_device(d_t.p, j, d_r.p, d_a.p, d_b.p, st, false, out), cudaSuccess);
          ASSERT_TRUE(out.accepted) << round;
          EXPECT_GT(out.max_roundoff, 0.0) << round;  // the report came back through the graph's copy
          const auto r = d_r.get(j.G * (j.an + j.bn));
          for (std::size_t p = 0; p < j.G; ++p)
            ASSERT_EQ(std::vector<limb_t>(r.begin() + p * (j.an + j.bn), r.begin() + (p + 1) * (j.an + j.bn)),
                      bigmul::test::gmp_product(a.data() + p * j.an, j.an, b.data() + p * j.bn, j.bn, radix::binary))
                << int(algo) << " " << int(e) << " fused " << fused << " round " << round << " product " << p;
        }
        // Rounds 1 and 2 replayed the graph captured after round 0 (a capture
        // that failed would have run them plain, and correct, unnoticed).
        EXPECT_EQ(gpu::pass_graph_launches() - launches, 2u) << int(algo) << " " << int(e) << " fused " << fused;
      }
  EXPECT_EQ(cudaStreamDestroy(st), cudaSuccess);
}

TEST_F(MulKernelsGpu, BatchedEqualsSeparateCalls) {
  auto g = bigmul::test::rng(0x6e13);
  for (const coeff_format f : {coeff_format{radix::binary, 16}, coeff_format{radix::binary, 21},
                               coeff_format{radix::binary, 32}, coeff_format{radix::decimal, 4},
                               coeff_format{radix::decimal, 9}, coeff_format{radix::binary, 1}}) {
    for (std::size_t G : {1u, 3u, 64u}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{129}}) {
        std::vector<limb_t> a;
        for (std::size_t p = 0; p < G; ++p) {
          const auto one = operand(kinds[p % 5], n, f.rx, g, p % 7 == 3);
          a.insert(a.end(), one.begin(), one.end());
        }
        const std::size_t total = f.count(n);
        const auto digits = dev_split_digits(a, n, G, f);
        const auto bal = dev_split_balanced(a, n, G, f);
        const auto joined = dev_join(digits, total, G, f, n);
        ASSERT_EQ(joined, a) << fmt_name(f) << " G " << G << " n " << n;
        for (std::size_t p = 0; p < G; ++p) {
          const std::vector<limb_t> one(a.begin() + p * n, a.begin() + (p + 1) * n);
          const auto d1 = dev_split_digits(one, n, 1, f);
          ASSERT_EQ(std::vector<std::uint32_t>(digits.begin() + p * total, digits.begin() + (p + 1) * total), d1);
          const auto b1 = dev_split_balanced(one, n, 1, f);
          ASSERT_EQ(std::vector<std::int32_t>(bal.begin() + p * (total + 1), bal.begin() + (p + 1) * (total + 1)), b1)
              << fmt_name(f) << " G " << G << " n " << n << " problem " << p;
          const auto want = cpu_balanced(one, n, f);
          ASSERT_EQ(std::vector<std::int64_t>(b1.begin(), b1.end()), want);
        }
      }
    }
  }
}

TEST_F(MulKernelsGpu, ZeroLimbs) {
  const coeff_format f{radix::binary, 16};
  EXPECT_EQ(dev_split_balanced({}, 0, 1, f), std::vector<std::int32_t>{0});
  EXPECT_EQ(dev_split_balanced({}, 0, 3, f), (std::vector<std::int32_t>{0, 0, 0}));
  dev_buf<std::uint64_t> d_r(1);
  two_phase([&](void* t, std::size_t& b) { return gpu::residue_mod_p_device(t, b, nullptr, 0, radix::binary, d_r.p, 0); });
  EXPECT_EQ(d_r.get(1)[0], 0u);
}

TEST_F(MulKernelsGpu, ResidueMatchesCpu) {
  auto g = bigmul::test::rng(0x6e14);
  for (radix rx : {radix::binary, radix::decimal}) {
    for (std::size_t n : {1u, 2u, 31u, 32u, 33u, 8191u, 8192u, 8193u, 200000u, 1u << 20}) {
      for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::sparse}) {
        const auto a = bigmul::test::make_operand(kind, n, rx, g);
        dev_buf<limb_t> d_a(a);
        dev_buf<std::uint64_t> d_r(1);
        two_phase([&](void* t, std::size_t& b) { return gpu::residue_mod_p_device(t, b, d_a.p, n, rx, d_r.p, 0); });
        ASSERT_EQ(d_r.get(1)[0], residue_mod_p(a.data(), n, rx, 2)) << n;
      }
    }
  }
}

// The batched modular check in one launch against the CPU residues.
TEST_F(MulKernelsGpu, BatchedModularCheckFlagsTheWrongProduct) {
  auto g = bigmul::test::rng(0x6e16);
  for (radix rx : {radix::binary, radix::decimal}) {
    for (auto shape : {std::pair<std::size_t, std::size_t>{1, 1}, {33, 5}, {4096, 3}, {100000, 2}, {7, 70000}}) {
      const std::size_t n = shape.first, G = shape.second;  // G > 65535: the grid's y loop
      for (std::size_t bad : {G, G / 2}) {
        const auto c = make_check_batch(n, n, G, rx, false, bad, g);
        dev_buf<limb_t> d_a(c.a), d_b(c.b), d_r(c.r);
        dev_buf<int> d_ok(G);
        two_phase([&](void* t, std::size_t& b) {
          return gpu::modular_check_device_batched(t, b, d_a.p, n, d_b.p, n, d_r.p, G, rx, d_ok.p, 0);
        });
        const auto ok = d_ok.get(G);
        for (std::size_t p = 0; p < G; ++p) ASSERT_EQ(ok[p], p == bad ? 0 : 1) << n << " x " << G << " product " << p;
      }
    }
  }
}

namespace {

// Tiled convolution against the naive one over tile sizes, operand lengths
// at the tile's edges and digit patterns. The full sweep (648 launches) is
// too long under compute-sanitizer racecheck (it ran past 200 s on the H100,
// 2026-11-24), so the sanitizer filter takes the small sweep, which keeps a
// length on each side of every tile edge.
void check_tiled_convolutions(std::initializer_list<unsigned> tiles, int max_mode, bool full_lengths) {
  auto g = bigmul::test::rng(0x6e15);
  for (auto v : {gpu::tiled_variant::tile_pair_atomic, gpu::tiled_variant::output_stationary}) {
    for (unsigned tile : tiles) {
      const std::size_t T = tile ? tile : gpu::tiled_default_tile;
      std::vector<std::size_t> xs{1, T, T + 1}, ys{1, T + 1};
      if (full_lengths) {
        xs = {1, 2, T - 1 ? T - 1 : 1, T, T + 1, 3 * T + 5};
        ys = {1, T + 1, 2 * T - 1 ? 2 * T - 1 : 1};
      }
      for (std::size_t nx : xs) {
        for (std::size_t ny : ys) {
          for (int mode = 0; mode <= max_mode; ++mode) {
            const auto x = random_digits(nx, g, mode), y = random_digits(ny, g, mode);
            ASSERT_TRUE(dev_conv(x, nx, y, ny, 1, v, tile) == naive_conv(x.data(), nx, y.data(), ny))
                << "variant " << int(v) << " tile " << tile << " " << nx << "x" << ny << " mode " << mode;
          }
        }
      }
    }
  }
}

}  // namespace

TEST_F(MulKernelsGpu, TiledConvolutionMatchesNaive) {
  check_tiled_convolutions({0u, 1u, 32u, 255u, 256u, 1024u}, 2, true);
  std::size_t bytes = 0;
  EXPECT_EQ(gpu::tiled_convolution_device(nullptr, bytes, nullptr, 1, nullptr, 1, 1, nullptr,
                                          gpu::tiled_variant::output_stationary, 2048, 0),
            cudaErrorInvalidValue);
}

TEST_F(MulKernelsGpu, TiledConvolutionSmallSweep) { check_tiled_convolutions({1u, 32u, 255u}, 1, false); }

TEST_F(MulKernelsGpu, TiledBatchedEqualsSeparate) {
  auto g = bigmul::test::rng(0x6e16);
  for (auto v : {gpu::tiled_variant::tile_pair_atomic, gpu::tiled_variant::output_stationary}) {
    for (std::size_t G : {1u, 3u, 64u}) {
      const std::size_t nx = 300, ny = 257;
      const auto x = random_digits(G * nx, g, G == 3 ? 1 : 0), y = random_digits(G * ny, g, 0);
      const auto c = dev_conv(x, nx, y, ny, G, v, 128);
      for (std::size_t p = 0; p < G; ++p) {
        const auto want = naive_conv(x.data() + p * nx, nx, y.data() + p * ny, ny);
        ASSERT_TRUE(std::vector<u128>(c.begin() + p * (nx + ny - 1), c.begin() + (p + 1) * (nx + ny - 1)) == want)
            << "G " << G << " problem " << p;
        const std::vector<std::uint32_t> x1(x.begin() + p * nx, x.begin() + (p + 1) * nx),
            y1(y.begin() + p * ny, y.begin() + (p + 1) * ny);
        ASSERT_TRUE(dev_conv(x1, nx, y1, ny, 1, v, 128) == want);
      }
    }
  }
}

// Whole products on the GPU (split -> tiled -> carry -> join) against mpz_mul.
namespace {

struct product_shape {
  std::size_t an, bn;
};

// Split -> tiled convolution -> carry -> join on the GPU against GMP. The
// small shapes are the sanitizer's (no 2^16-limb or 2^20-limb operand).
void check_tiled_products(std::initializer_list<product_shape> shapes) {
  auto g = bigmul::test::rng(0x6e17);
  for (radix rx : {radix::binary, radix::decimal}) {
    for (auto v : {gpu::tiled_variant::tile_pair_atomic, gpu::tiled_variant::output_stationary}) {
      for (product_shape s : shapes) {
        for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::runs}) {
          const auto a = bigmul::test::make_operand(kind, s.an, rx, g);
          const auto b = bigmul::test::make_operand(kind, s.bn, rx, g);
          std::vector<limb_t> r;
          ASSERT_TRUE(dev_product(a, b, rx, v, 0, r)) << "carry overflow " << s.an << "x" << s.bn;
          ASSERT_EQ(r, bigmul::test::gmp_product(a.data(), s.an, b.data(), s.bn, rx))
              << (rx == radix::binary ? "binary " : "decimal ") << int(v) << " " << s.an << "x" << s.bn << " "
              << bigmul::test::operand_kind_name(kind);
        }
      }
    }
  }
}

}  // namespace

TEST_F(MulKernelsGpu, TiledProductsMatchGmp) {
  check_tiled_products({{1, 1}, {2, 1}, {7, 7}, {128, 128}, {129, 127}, {1000, 999}, {1u << 16, 1u << 16},
                        {1u << 20, 3}});
}

TEST_F(MulKernelsGpu, TiledProductsSmallMatchGmp) { check_tiled_products({{1, 1}, {2, 1}, {7, 7}, {129, 127}}); }

// Balanced split on the GPU -> (CPU) signed convolution -> int64 carry on the
// GPU -> join on the GPU: negative FFT-like coefficients end to end.
TEST_F(MulKernelsGpu, BalancedProductsMatchGmp) {
  auto g = bigmul::test::rng(0x6e18);
  for (const coeff_format f : {coeff_format{radix::binary, 16}, coeff_format{radix::binary, 20},
                               coeff_format{radix::decimal, 4}, coeff_format{radix::decimal, 6}}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{300}}) {
      for (auto kind : {operand_kind::all_max, operand_kind::half_max, operand_kind::random}) {
        const auto a = bigmul::test::make_operand(kind, n, f.rx, g);
        const auto b = bigmul::test::make_operand(kind, n, f.rx, g);
        const auto x = dev_split_balanced(a, n, 1, f), y = dev_split_balanced(b, n, 1, f);
        std::vector<std::int64_t> c(x.size() + y.size() - 1, 0);
        for (std::size_t i = 0; i < x.size(); ++i)
          for (std::size_t j = 0; j < y.size(); ++j) c[i + j] += std::int64_t{x[i]} * y[j];
        const std::size_t m = f.count(2 * n);
        dev_buf<std::int64_t> d_c(c);
        dev_buf<std::uint32_t> d_digits(m);
        dev_buf<int> d_ok(1);
        dev_buf<limb_t> d_r(2 * n);
        two_phase([&](void* t, std::size_t& bytes) {
          return carry::cuda::carry_normalize_device<std::int64_t>(t, bytes, d_c.p, c.size(),
                                                                   carry::digit_base{f.rx == radix::decimal, f.digits},
                                                                   d_digits.p, m, d_ok.p, 0);
        });
        ASSERT_EQ(gpu::join_digits_device(d_digits.p, m, f, d_r.p, 2 * n, 0), cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        ASSERT_EQ(d_ok.get(1)[0], 1);
        ASSERT_EQ(d_r.get(2 * n), bigmul::test::gmp_product(a.data(), n, b.data(), n, f.rx))
            << fmt_name(f) << " n " << n << " " << bigmul::test::operand_kind_name(kind);
      }
    }
  }
}
