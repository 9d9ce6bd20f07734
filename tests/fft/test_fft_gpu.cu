// SPDX-License-Identifier: LGPL-3.0-or-later
// In-house GPU FFT (fft/cuda/device_fft.cuh) against the CPU FFT and cuFFT, and the
// cuFFT adapter. Every test skips when no CUDA device is usable, and fails then
// under BIGMUL_REQUIRE_GPU=1 (no CUDA call happens before SetUp();
// tests/support/gpu_test_support.cuh).
#include <gtest/gtest.h>

#include <cuda_runtime.h>
#include <gmp.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fft/cuda/cufft_plans.cuh"
#include "fft/cuda/device_fft.cuh"
#include "fft/fft_complex.hpp"
#include "fft/fft_real.hpp"
#include "test_support.hpp"
// CUDA_OK also prints the cuFFT adapter's last message.
#define BIGMUL_CUDA_OK_DETAIL "/ " << bigmul::fft::cuda::cufft_last_error()
#include "gpu_test_support.cuh"

namespace gpu = bigmul::fft::cuda;
namespace plan = bigmul::fft::cuda::plan;
using gpu::cplx;
using bigmul::test::dev_buf;

namespace {

class FftGpu : public bigmul::test::gpu_fixture {
 protected:
  static void TearDownTestSuite() {
    if (bigmul::test::gpu_usable()) gpu::cufft_release_plans();
  }
};

template <class Real>
std::vector<cplx<Real>> random_c(std::size_t n, std::mt19937_64& g) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<cplx<Real>> v(n);
  for (auto& c : v) c = plan::make_c<cplx<Real>>(static_cast<Real>(u(g)), static_cast<Real>(u(g)));
  return v;
}

// Relative L2 distance of a and b, where a[i] is compared with b[map(i)].
template <class Real, class Map>
double rel_dist(const cplx<Real>* a, const cplx<Real>* b, std::size_t n, Map map) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const cplx<Real> y = b[map(i)];
    const double dx = double(a[i].x) - double(y.x), dy = double(a[i].y) - double(y.y);
    num += dx * dx + dy * dy;
    den += double(y.x) * double(y.x) + double(y.y) * double(y.y);
  }
  return den == 0 ? std::sqrt(num) : std::sqrt(num / den);
}

template <class Real>
double tol(std::size_t n) {
  const double lg = std::log2(double(n)) + 1;
  return (sizeof(Real) == 8 ? 4e-15 : 2e-6) * lg;
}

// CPU forward (natural order in, bins by frequency out) of one transform.
template <class Real>
std::vector<cplx<Real>> cpu_forward(const cplx<Real>* x, std::size_t n) {
  bigmul::fft::complex_fft<Real> f(n);
  std::vector<Real> re(n), im(n);
  for (std::size_t j = 0; j < n; ++j) re[j] = x[j].x, im[j] = x[j].y;
  f.forward(re.data(), im.data());
  std::vector<cplx<Real>> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t p = f.position_of(k);
    out[k] = plan::make_c<cplx<Real>>(re[p], im[p]);
  }
  return out;
}

// In-house forward vs CPU and cuFFT, inverse vs cuFFT, round trip, for one size.
template <class Real>
void check_complex(std::size_t n, std::size_t batch, std::mt19937_64& g,
                   const plan::limits& lim = plan::default_limits<Real>()) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " batch=" << batch << " real=" << sizeof(Real)
                                    << " log_tile=" << lim.log_tile);
  gpu::device_complex_fft<Real> f(n, batch, lim);
  ASSERT_EQ(f.size(), n);
  ASSERT_EQ(f.batch(), batch);
  const auto ord = f.plan_order();
  const std::vector<cplx<Real>> x = random_c<Real>(n * batch, g);
  dev_buf<cplx<Real>> d(x), work(std::max<std::size_t>(f.workspace_elements(), 1)), ref(x);
  CUDA_OK(f.forward(d.p, f.workspace_elements() ? work.p : nullptr, 0));
  CUDA_OK(gpu::cufft_forward_c2c(ref.p, ref.p, n, batch, 0));
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<cplx<Real>> y = d.get(), yc = ref.get();
  for (std::size_t b = 0; b < batch; b += (batch > 4 ? batch / 3 : 1)) {
    const std::size_t o = b * n;
    // y at plan position pos holds frequency frequency_at(pos).
    EXPECT_LT(rel_dist<Real>(y.data() + o, yc.data() + o, n, [&](std::size_t pos) { return ord.frequency_at(pos); }),
              tol<Real>(n))
        << "vs cuFFT, b=" << b;
    if (b == 0 && n <= (std::size_t{1} << 23)) {
      const std::vector<cplx<Real>> yr = cpu_forward<Real>(x.data(), n);
      EXPECT_LT(rel_dist<Real>(y.data(), yr.data(), n, [&](std::size_t pos) { return ord.frequency_at(pos); }),
                tol<Real>(n))
          << "vs CPU";
    }
  }
  // Inverse of the in-house spectrum: n x, natural order (in place, no workspace).
  CUDA_OK(f.inverse(d.p, nullptr, 0));
  // Inverse alone vs cuFFT: plan-order input -> natural output.
  std::vector<cplx<Real>> s = random_c<Real>(n * batch, g), sn(n * batch);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t pos = 0; pos < n; ++pos) sn[b * n + ord.frequency_at(pos)] = s[b * n + pos];
  dev_buf<cplx<Real>> ds(s), dsn(sn);
  CUDA_OK(f.inverse(ds.p, f.workspace_elements() ? work.p : nullptr, 0));
  CUDA_OK(gpu::cufft_inverse_c2c(dsn.p, dsn.p, n, batch, 0));
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<cplx<Real>> z = d.get(), zi = ds.get(), zc = dsn.get();
  std::vector<cplx<Real>> nx(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) nx[i] = plan::c_scale(x[i], static_cast<Real>(n));
  EXPECT_LT(rel_dist<Real>(z.data(), nx.data(), n * batch, [](std::size_t i) { return i; }), 2 * tol<Real>(n))
      << "round trip";
  EXPECT_LT(rel_dist<Real>(zi.data(), zc.data(), n * batch, [](std::size_t i) { return i; }), tol<Real>(n))
      << "inverse vs cuFFT";
}

}  // namespace

TEST_F(FftGpu, ComplexDoubleAllSizes) {
  auto g = bigmul::test::rng(701);
  for (unsigned k = 1; k <= 23; ++k) check_complex<double>(std::size_t{1} << k, 1, g);
}

TEST_F(FftGpu, ComplexFloatAllSizes) {
  auto g = bigmul::test::rng(702);
  for (unsigned k = 1; k <= 23; ++k) check_complex<float>(std::size_t{1} << k, 1, g);
}

TEST_F(FftGpu, ComplexBatched) {
  auto g = bigmul::test::rng(703);
  for (unsigned k = 1; k <= 22; ++k) {
    const std::size_t n = std::size_t{1} << k;
    const std::size_t batch = std::max<std::size_t>(3, (std::size_t{1} << 21) / n);  // G*n ~ 2^21 points
    check_complex<double>(n, batch, g);
    check_complex<float>(n, batch + 1, g);  // odd and even batch counts: padding rows
    check_complex<double>(n, 3, g);
  }
}

TEST_F(FftGpu, ComplexLargestSizes) {
  auto g = bigmul::test::rng(704);
  for (unsigned k = 24; k <= 26; ++k) {
    check_complex<float>(std::size_t{1} << k, 1, g);
    check_complex<double>(std::size_t{1} << k, 1, g);
  }
}

TEST_F(FftGpu, OtherTileLimits) {
  // Small tiles: three passes from 2^11 (the code paths of 2^22 .. 2^26 at small sizes,
  // as in the CPU model test); and FP32 with FP64-sized tiles.
  auto g = bigmul::test::rng(710);
  for (unsigned k = 1; k <= 14; ++k) {
    for (std::size_t batch : {std::size_t{1}, std::size_t{3}}) {
      check_complex<double>(std::size_t{1} << k, batch, g, plan::limits{6, 2, 4});
      check_complex<float>(std::size_t{1} << k, batch, g, plan::limits{6, 2, 4});
    }
  }
  for (unsigned k = 10; k <= 22; k += 3) check_complex<float>(std::size_t{1} << k, 2, g, plan::default_limits<double>());
}

TEST_F(FftGpu, PlanOrderMapsFrequencies) {
  // A delta at j = 1 has spectrum w_n^f: the value at position pos must be w_n^frequency_at(pos).
  for (unsigned k : {1u, 4u, 12u, 13u, 17u, 22u, 23u}) {
    const std::size_t n = std::size_t{1} << k;
    gpu::device_complex_fft<double> f(n, 1);
    std::vector<double2> x(n, double2{0, 0});
    x[1] = double2{1, 0};
    dev_buf<double2> d(x), w(std::max<std::size_t>(f.workspace_elements(), 1));
    CUDA_OK(f.forward(d.p, w.p, 0));
    const std::vector<double2> y = d.get();
    const auto ord = f.plan_order();
    double worst = 0;
    for (std::size_t pos = 0; pos < n; ++pos) {
      const std::size_t fr = ord.frequency_at(pos);
      ASSERT_EQ(ord.position_of(fr), pos);
      const long double a = -2 * 3.141592653589793238462643383279502884L * static_cast<long double>(fr) / n;
      worst = std::max(worst, std::hypot(y[pos].x - double(std::cos(a)), y[pos].y - double(std::sin(a))));
    }
    EXPECT_LT(worst, 1e-14) << "n=" << n;
  }
}

namespace {

// Load: integers from a separate array (real part), scaled; proves the functor path.
struct int_load {
  const int* src;
  std::size_t n;
  __device__ double2 operator()(std::size_t b, std::size_t j) const {
    return double2{static_cast<double>(src[b * n + j]), 0.5 * static_cast<double>(src[b * n + j])};
  }
};

// Store: writes the value, and reduces per thread (count, max |re|) and in end() per
// warp with shuffles + one atomic per warp: checks begin/op/end are called as documented.
struct reducing_store {
  double2* out;
  std::size_t n;
  unsigned long long* count;
  unsigned long long* max_bits;  // bits of a non-negative double: ordered like the value
  struct state {
    unsigned long long c;
    double m;
  };
  __device__ state begin() const { return {0, 0.0}; }
  __device__ void operator()(state& s, std::size_t b, std::size_t idx, double2 v) const {
    out[b * n + idx] = v;
    ++s.c;
    s.m = fmax(s.m, fabs(v.x));
  }
  __device__ void end(state& s) const {
    unsigned long long c = s.c;
    double m = s.m;
    for (int off = 16; off > 0; off >>= 1) {
      c += __shfl_down_sync(0xffffffffu, c, off);
      m = fmax(m, __shfl_down_sync(0xffffffffu, m, off));
    }
    if ((threadIdx.x & 31) == 0) {
      atomicAdd(count, c);
      atomicMax(max_bits, static_cast<unsigned long long>(__double_as_longlong(m)));
    }
  }
};

}  // namespace

TEST_F(FftGpu, LoadStoreFunctors) {
  auto g = bigmul::test::rng(705);
  for (unsigned k : {2u, 9u, 12u, 13u, 18u, 21u, 22u, 23u}) {
    const std::size_t n = std::size_t{1} << k;
    for (std::size_t batch : {std::size_t{1}, std::size_t{3}}) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " batch=" << batch);
      gpu::device_complex_fft<double> f(n, batch);
      std::vector<int> src(n * batch);
      for (auto& v : src) v = static_cast<int>(g() % 2001) - 1000;
      std::vector<double2> x(n * batch);
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = double2{double(src[i]), 0.5 * src[i]};
      dev_buf<int> dsrc(src);
      dev_buf<double2> out(n * batch), ref(x), work(std::max<std::size_t>(f.workspace_elements(), 1));
      dev_buf<unsigned long long> stats(std::vector<unsigned long long>{0, 0});
      CUDA_OK(f.forward(int_load{dsrc.p, n}, reducing_store{out.p, n, stats.p, stats.p + 1}, work.p, 0));
      CUDA_OK(f.forward(ref.p, work.p, 0));
      CUDA_OK(cudaDeviceSynchronize());
      const auto y = out.get(), yr = ref.get();
      const auto st = stats.get();
      EXPECT_EQ(st[0], n * batch);
      double mx = 0;
      for (const auto& v : y) mx = std::max(mx, std::fabs(v.x));
      double got_max;
      std::memcpy(&got_max, &st[1], sizeof got_max);
      EXPECT_EQ(got_max, mx);
      // Same arithmetic as the array path (only FMA contraction may differ).
      EXPECT_LT(rel_dist<double>(y.data(), yr.data(), y.size(), [](std::size_t i) { return i; }), 1e-15);
      EXPECT_EQ(dsrc.get(), src);  // the load source is untouched
      // Inverse with functors: back to 2x the integers... (n x).
      dev_buf<unsigned long long> stats2(std::vector<unsigned long long>{0, 0});
      dev_buf<double2> back(n * batch);
      CUDA_OK(f.inverse(gpu::array_load<double>{out.p, n}, reducing_store{back.p, n, stats2.p, stats2.p + 1}, work.p,
                        0));
      CUDA_OK(cudaDeviceSynchronize());
      EXPECT_EQ(stats2.get()[0], n * batch);
      const auto z = back.get();
      for (std::size_t i = 0; i < z.size(); ++i) {
        ASSERT_EQ(std::llround(z[i].x / double(n)), src[i]) << i;
        ASSERT_NEAR(z[i].y / double(n), 0.5 * src[i], 1e-6) << i;
      }
    }
  }
}

namespace {

// Host unpack of a half-length spectrum Z (plan order) into real-FFT bins X_0..X_h.
template <class Real>
std::vector<std::complex<double>> unpack_bins(const cplx<Real>* z, std::size_t n, const plan::order& ord) {
  const std::size_t h = n / 2;
  std::vector<std::complex<double>> X(h + 1);
  const cplx<Real> z0 = z[ord.position_of(0)];
  X[0] = double(z0.x) + double(z0.y);
  X[h] = double(z0.x) - double(z0.y);
  for (std::size_t f = 1; f < h; ++f) {
    const auto w = bigmul::fft::unit_root(f, n);
    const double2 ww{double(w.re), double(w.im)};
    const cplx<Real> a = z[ord.position_of(f)], b = z[ord.position_of(h - f)];
    double2 xf, xg;
    plan::real_unpack(double2{double(a.x), double(a.y)}, double2{double(b.x), double(b.y)}, ww, xf, xg);
    X[f] = {xf.x, xf.y};
  }
  return X;
}

}  // namespace

template <class Real>
void check_real_vs_cufft(std::size_t n, std::size_t batch, std::mt19937_64& g) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " batch=" << batch << " real=" << sizeof(Real));
  gpu::device_real_fft<Real> f(n, batch);
  ASSERT_EQ(f.size(), n);
  const std::size_t h = n / 2, bins = h + 1;
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Real> x(n * batch);
  for (auto& v : x) v = static_cast<Real>(u(g));
  std::vector<cplx<Real>> packed(h * batch);
  for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = plan::make_c<cplx<Real>>(x[2 * i], x[2 * i + 1]);
  dev_buf<cplx<Real>> dz(packed), work(std::max<std::size_t>(f.workspace_elements(), 1)), dc(bins * batch);
  dev_buf<Real> dx(x);
  CUDA_OK(f.forward(dz.p, work.p, 0));
  CUDA_OK(gpu::cufft_forward_r2c(dx.p, dc.p, n, batch, 0));
  CUDA_OK(cudaDeviceSynchronize());
  const auto z = dz.get();
  const auto c = dc.get();
  const auto ord = f.half_plan().plan_order();
  for (std::size_t b = 0; b < batch; b += (batch > 4 ? batch / 3 : 1)) {
    const auto X = unpack_bins<Real>(z.data() + b * h, n, ord);
    double num = 0, den = 0;
    for (std::size_t k = 0; k < bins; ++k) {
      const std::complex<double> r(c[b * bins + k].x, c[b * bins + k].y);
      num += std::norm(X[k] - r);
      den += std::norm(r);
    }
    EXPECT_LT(std::sqrt(num / den), 2 * tol<Real>(n)) << "b=" << b;
  }
  // inverse(forward(x)) = (n/2) x: the half-length inverse without re-packing.
  CUDA_OK(f.inverse(dz.p, work.p, 0));
  CUDA_OK(cudaDeviceSynchronize());
  const auto back = dz.get();
  double num = 0, den = 0;
  for (std::size_t i = 0; i < back.size(); ++i) {
    const double ex = double(x[2 * i]) * h, ey = double(x[2 * i + 1]) * h;
    num += (back[i].x - ex) * (back[i].x - ex) + (back[i].y - ey) * (back[i].y - ey);
    den += ex * ex + ey * ey;
  }
  EXPECT_LT(std::sqrt(num / den), 2 * tol<Real>(n));
}

TEST_F(FftGpu, RealForwardMatchesCufftR2C) {
  auto g = bigmul::test::rng(706);
  for (unsigned k = 2; k <= 23; ++k) {
    const std::size_t n = std::size_t{1} << k;
    check_real_vs_cufft<double>(n, 1, g);
    check_real_vs_cufft<float>(n, 1, g);
    if (k <= 20) check_real_vs_cufft<double>(n, 5, g);
  }
}

namespace {

// Exact check through GMP: coefficients c_j (rounded) of x*y in base 2^bits must
// carry to the product of the integers with those digits.
bool digits_match_product(const std::vector<std::int64_t>& c, const std::vector<std::uint8_t>& a,
                          const std::vector<std::uint8_t>& b, unsigned bits) {
  // Carry c into bytes of base 2^bits (bits divides 8 or equals 8).
  std::vector<std::uint8_t> r;
  __int128 carry = 0;
  unsigned acc_bits = 0;
  unsigned acc = 0;
  for (std::size_t j = 0; j < c.size() || carry != 0; ++j) {
    const __int128 v = carry + (j < c.size() ? c[j] : 0);
    if (v < 0) return false;
    const unsigned digit = static_cast<unsigned>(v & ((1u << bits) - 1));
    carry = v >> bits;
    acc |= digit << acc_bits;
    acc_bits += bits;
    if (acc_bits == 8) {
      r.push_back(static_cast<std::uint8_t>(acc));
      acc = 0;
      acc_bits = 0;
    }
    if (j > c.size() + 64) return false;
  }
  if (acc_bits) r.push_back(static_cast<std::uint8_t>(acc));
  auto to_mpz = [](mpz_t z, const std::vector<std::uint8_t>& bytes) {
    mpz_init(z);
    if (!bytes.empty()) mpz_import(z, bytes.size(), -1, 1, 0, 0, bytes.data());
  };
  auto pack = [&](const std::vector<std::uint8_t>& digs) {  // digits of `bits` bits -> bytes
    std::vector<std::uint8_t> out((digs.size() * bits + 7) / 8, 0);
    for (std::size_t i = 0; i < digs.size(); ++i) out[i * bits / 8] |= static_cast<std::uint8_t>(digs[i] << (i * bits % 8));
    return out;
  };
  mpz_t A, B, P, R;
  to_mpz(A, pack(a));
  to_mpz(B, pack(b));
  to_mpz(R, r);
  mpz_init(P);
  mpz_mul(P, A, B);
  const bool ok = mpz_cmp(P, R) == 0;
  mpz_clear(A);
  mpz_clear(B);
  mpz_clear(P);
  mpz_clear(R);
  return ok;
}

}  // namespace

// Real forward of x and y -> real_pointwise_multiply (or square) -> inverse gives the
// exact integer convolution after rounding (operands in the lower half: no wrap).
template <class Real>
void check_real_product(std::size_t n, std::size_t batch, unsigned bits, bool square, std::mt19937_64& g) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " batch=" << batch << " bits=" << bits << " square=" << square
                                    << " real=" << sizeof(Real));
  gpu::device_real_fft<Real> f(n, batch);
  const std::size_t h = n / 2;
  std::vector<std::vector<std::uint8_t>> xa(batch), ya(batch);
  std::vector<cplx<Real>> px(h * batch), py(h * batch);
  for (std::size_t b = 0; b < batch; ++b) {
    xa[b].assign(n / 2, 0);
    ya[b].assign(n / 2, 0);
    for (std::size_t j = 0; j < n / 2; ++j) {
      xa[b][j] = static_cast<std::uint8_t>(g() & ((1u << bits) - 1));
      ya[b][j] = square ? xa[b][j] : static_cast<std::uint8_t>(g() & ((1u << bits) - 1));
    }
    for (std::size_t l = 0; l < h; ++l) {
      const Real e = 2 * l < n / 2 ? Real(xa[b][2 * l]) : Real(0), o = 2 * l + 1 < n / 2 ? Real(xa[b][2 * l + 1]) : Real(0);
      const Real ey = 2 * l < n / 2 ? Real(ya[b][2 * l]) : Real(0), oy = 2 * l + 1 < n / 2 ? Real(ya[b][2 * l + 1]) : Real(0);
      px[b * h + l] = plan::make_c<cplx<Real>>(e, o);
      py[b * h + l] = plan::make_c<cplx<Real>>(ey, oy);
    }
  }
  dev_buf<cplx<Real>> dx(px), dy(py), work(std::max<std::size_t>(f.workspace_elements(), 1));
  CUDA_OK(f.forward(dx.p, work.p, 0));
  if (square) {
    CUDA_OK(gpu::real_pointwise_square(f, dx.p, f.inverse_scale(), 0));
  } else {
    CUDA_OK(f.forward(dy.p, work.p, 0));
    CUDA_OK(gpu::real_pointwise_multiply(f, dx.p, dy.p, f.inverse_scale(), 0));
  }
  CUDA_OK(f.inverse(dx.p, work.p, 0));
  CUDA_OK(cudaDeviceSynchronize());
  const auto z = dx.get();
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<std::int64_t> c(n);
    double worst = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const double v = j % 2 ? double(z[b * h + j / 2].y) : double(z[b * h + j / 2].x);
      c[j] = std::llround(v);
      worst = std::max(worst, std::fabs(v - double(c[j])));
    }
    EXPECT_LT(worst, 0.25) << "b=" << b;
    EXPECT_TRUE(digits_match_product(c, xa[b], ya[b], bits)) << "b=" << b;
  }
}

TEST_F(FftGpu, RealPointwiseExactConvolution) {
  auto g = bigmul::test::rng(707);
  for (unsigned k = 2; k <= 22; ++k) {
    const std::size_t n = std::size_t{1} << k;
    check_real_product<double>(n, 1, 8, false, g);
    check_real_product<double>(n, 1, 8, true, g);
    if (k <= 16) check_real_product<double>(n, 3, 8, false, g);
    if (k <= 15) check_real_product<float>(n, 1, 2, false, g);
    if (k <= 12) check_real_product<float>(n, 4, 2, true, g);
  }
}

TEST_F(FftGpu, ComplexPointwiseExactConvolution) {
  auto g = bigmul::test::rng(708);
  for (unsigned k = 1; k <= 20; ++k) {
    const std::size_t n = std::size_t{1} << k;
    for (bool square : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " square=" << square);
      gpu::device_complex_fft<double> f(n, 2);
      std::vector<std::uint8_t> a[2], b[2];
      std::vector<double2> x(2 * n, double2{0, 0}), y(2 * n, double2{0, 0});
      for (int t = 0; t < 2; ++t) {
        a[t].resize(std::max<std::size_t>(n / 2, 1));
        b[t].resize(a[t].size());
        for (std::size_t j = 0; j < a[t].size(); ++j) {
          a[t][j] = static_cast<std::uint8_t>(g());
          b[t][j] = square ? a[t][j] : static_cast<std::uint8_t>(g());
          x[t * n + j].x = a[t][j];
          y[t * n + j].x = b[t][j];
        }
      }
      dev_buf<double2> dx(x), dy(y), w(std::max<std::size_t>(f.workspace_elements(), 1));
      CUDA_OK(f.forward(dx.p, w.p, 0));
      if (square) {
        CUDA_OK(gpu::complex_pointwise_square(f, dx.p, f.inverse_scale(), 0));
      } else {
        CUDA_OK(f.forward(dy.p, w.p, 0));
        CUDA_OK(gpu::complex_pointwise_multiply(f, dx.p, dy.p, f.inverse_scale(), 0));
      }
      CUDA_OK(f.inverse(dx.p, w.p, 0));
      CUDA_OK(cudaDeviceSynchronize());
      const auto z = dx.get();
      for (int t = 0; t < 2; ++t) {
        std::vector<std::int64_t> c(n);
        for (std::size_t j = 0; j < n; ++j) {
          c[j] = std::llround(z[t * n + j].x);
          ASSERT_LT(std::fabs(z[t * n + j].x - double(c[j])), 0.25);
          ASSERT_LT(std::fabs(z[t * n + j].y), 0.25);
        }
        if (n >= 2) EXPECT_TRUE(digits_match_product(c, a[t], b[t], 8)) << "t=" << t;
      }
    }
  }
}

TEST_F(FftGpu, CufftPipelineExactConvolution) {
  auto g = bigmul::test::rng(709);
  for (unsigned k : {4u, 10u, 16u, 20u}) {
    const std::size_t n = std::size_t{1} << k, bins = n / 2 + 1;
    std::vector<std::uint8_t> a(n / 2), b(n / 2);
    std::vector<double> x(n, 0), y(n, 0);
    for (std::size_t j = 0; j < n / 2; ++j) {
      a[j] = static_cast<std::uint8_t>(g());
      b[j] = static_cast<std::uint8_t>(g());
      x[j] = a[j];
      y[j] = b[j];
    }
    dev_buf<double> dx(x), dy(y);
    dev_buf<double2> sx(bins), sy(bins);
    CUDA_OK(gpu::cufft_forward_r2c(dx.p, sx.p, n, 1, 0));
    CUDA_OK(gpu::cufft_forward_r2c(dy.p, sy.p, n, 1, 0));
    CUDA_OK(gpu::cufft_pointwise_multiply_r2c(sx.p, sy.p, n, 1, 1.0 / double(n), 0));
    CUDA_OK(gpu::cufft_inverse_c2r(sx.p, dx.p, n, 1, 0));
    CUDA_OK(cudaDeviceSynchronize());
    const auto z = dx.get();
    std::vector<std::int64_t> c(n);
    for (std::size_t j = 0; j < n; ++j) {
      c[j] = std::llround(z[j]);
      ASSERT_LT(std::fabs(z[j] - double(c[j])), 0.25) << "n=" << n;
    }
    EXPECT_TRUE(digits_match_product(c, a, b, 8)) << "n=" << n;
    // c2c pointwise on the same data (imaginary part zero).
    std::vector<double2> cx(n), cy(n);
    for (std::size_t j = 0; j < n; ++j) cx[j] = double2{x[j], 0}, cy[j] = double2{y[j], 0};
    dev_buf<double2> dcx(cx), dcy(cy);
    CUDA_OK(gpu::cufft_forward_c2c(dcx.p, dcx.p, n, 1, 0));
    CUDA_OK(gpu::cufft_forward_c2c(dcy.p, dcy.p, n, 1, 0));
    CUDA_OK(gpu::cufft_pointwise_multiply_c2c(dcx.p, dcy.p, n, 1, 1.0 / double(n), 0));
    CUDA_OK(gpu::cufft_inverse_c2c(dcx.p, dcx.p, n, 1, 0));
    CUDA_OK(cudaDeviceSynchronize());
    const auto zc = dcx.get();
    for (std::size_t j = 0; j < n; ++j) ASSERT_EQ(std::llround(zc[j].x), c[j]) << "n=" << n << " j=" << j;
  }
}

TEST_F(FftGpu, CufftAdapterReportsErrors) {
  double2* p = nullptr;
  EXPECT_NE(gpu::cufft_forward_c2c(p, p, 0, 1, 0), cudaSuccess);
  EXPECT_NE(std::string(gpu::cufft_last_error()), "");
  EXPECT_NE(gpu::cufft_forward_r2c(static_cast<const double*>(nullptr), p, 3, 1, 0), cudaSuccess);
  EXPECT_EQ(gpu::cufft_prepare(gpu::cufft_kind::z2z, 1024, 4), cudaSuccess);
  EXPECT_EQ(gpu::cufft_prepare(gpu::cufft_kind::r2c_c2r, 1024, 4), cudaSuccess);
}

// Pipelined passes (plan::limits::pipelined: persistent blocks copying the next tile
// in during the current one's stages) give the plain passes' results bit for bit
// (same arithmetic, other schedule), forward and inverse, with a workspace and in place.
template <class Real>
void check_pipelined(std::size_t n, std::size_t batch, plan::limits lim, std::mt19937_64& g) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " batch=" << batch << " log_tile=" << lim.log_tile);
  gpu::device_complex_fft<Real> plain(n, batch, lim);
  lim.pipelined = true;
  gpu::device_complex_fft<Real> piped(n, batch, lim);
  ASSERT_GT(piped.plan_desc().persistent_blocks, 0u);
  const std::vector<cplx<Real>> x = random_c<Real>(n * batch, g);
  dev_buf<cplx<Real>> a(x), b(x), wa(std::max<std::size_t>(plain.workspace_elements(), 1)),
      wb(std::max<std::size_t>(plain.workspace_elements(), 1));
  CUDA_OK(plain.forward(a.p, wa.p, 0));
  CUDA_OK(piped.forward(b.p, wb.p, 0));
  CUDA_OK(cudaDeviceSynchronize());
  const auto ya = a.get(), yb = b.get();
  ASSERT_EQ(0, std::memcmp(ya.data(), yb.data(), ya.size() * sizeof(cplx<Real>))) << "forward";
  CUDA_OK(plain.inverse(a.p, nullptr, 0));  // in place
  CUDA_OK(piped.inverse(b.p, nullptr, 0));
  CUDA_OK(cudaDeviceSynchronize());
  const auto za = a.get(), zb = b.get();
  ASSERT_EQ(0, std::memcmp(za.data(), zb.data(), za.size() * sizeof(cplx<Real>))) << "inverse";
}

TEST_F(FftGpu, PipelinedPassesMatchPlainBitForBit) {
  auto g = bigmul::test::rng(720);
  for (unsigned k : {13u, 16u, 19u, 22u, 24u})
    check_pipelined<double>(std::size_t{1} << k, k <= 16 ? 3 : 1, plan::default_limits<double>(), g);
  for (unsigned k = 7; k <= 14; ++k) check_pipelined<double>(std::size_t{1} << k, 3, plan::limits{6, 2, 4}, g);
  check_pipelined<float>(std::size_t{1} << 16, 2, plan::default_limits<float>(), g);  // FP32: the plain kernel
}

// Two passes up to 2^23 points (plan::two_pass_limits) against cuFFT and the CPU.
TEST_F(FftGpu, TwoPassLimits) {
  auto g = bigmul::test::rng(721);
  for (unsigned k : {21u, 22u, 23u}) {
    check_complex<double>(std::size_t{1} << k, 1, g, plan::two_pass_limits<double>());
    check_complex<float>(std::size_t{1} << k, 1, g, plan::two_pass_limits<float>());
  }
}

TEST_F(FftGpu, InvalidSizesThrow) {
  EXPECT_THROW(gpu::device_complex_fft<double>(3, 1), bigmul::error);
  EXPECT_THROW(gpu::device_complex_fft<double>(std::size_t{1} << 27, 1), bigmul::error);
  EXPECT_THROW(gpu::device_complex_fft<float>(1024, 0), bigmul::error);
  EXPECT_THROW(gpu::device_real_fft<double>(2, 1), bigmul::error);
  gpu::device_complex_fft<double> a(1024, 2);
  gpu::device_complex_fft<double> b(std::move(a));
  EXPECT_EQ(b.size(), 1024u);
  gpu::device_real_fft<float> r(64, 1);
  gpu::device_real_fft<float> r2(std::move(r));
  EXPECT_EQ(r2.half_plan().size(), 32u);
}
