// SPDX-License-Identifier: LGPL-3.0-or-later
// The tiled pipeline on the device (see tiled_pass.cuh).
#include "mul/cuda/tiled_pass.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "carry/cuda/carry_device.cuh"
#include "mul/coefficients.hpp"
#include "mul/cuda/coefficients_device.cuh"
#include "mul/cuda/device_status.cuh"
#include "mul/cuda/phase_clock.cuh"
#include "prim/cuda/common.cuh"

namespace bigmul::cuda {
namespace {

using detail::coeff_format;
using prim::cuda::temp_carver;
namespace dc = bigmul::detail::cuda;

// --- the tiled pipeline: digits -> exact 128-bit convolution -> carry -> join --

struct tiled_layout {
  coeff_format f;
  std::size_t cx, cy, nc, m;
  std::uint32_t *x, *y, *digits;
  unsigned __int128* c;
  int* ok;
  void *conv_temp, *carry_temp;
  std::size_t conv_bytes, carry_bytes;
};

cudaError_t tiled_carve(void* base, std::size_t an, std::size_t bn, std::size_t G, radix rx, bool square,
                        dc::tiled_variant v, unsigned tile, tiled_layout& t, std::size_t& bytes) {
  t.f = coeff_format{rx, rx == radix::binary ? 32u : 9u};
  t.cx = t.f.count(an);
  t.cy = t.f.count(bn);
  t.nc = t.cx + t.cy - 1;
  t.m = t.f.count(an + bn);
  temp_carver tc(base);
  t.x = tc.take<std::uint32_t>(G * t.cx);
  t.y = square ? t.x : tc.take<std::uint32_t>(G * t.cy);
  t.c = tc.take<unsigned __int128>(G * t.nc);
  t.digits = tc.take<std::uint32_t>(G * t.m);
  t.ok = tc.take<int>(G);
  t.conv_bytes = t.carry_bytes = 0;
  cudaError_t e = dc::tiled_convolution_device(nullptr, t.conv_bytes, nullptr, t.cx, nullptr, t.cy, G, nullptr, v,
                                               tile, 0);
  if (e != cudaSuccess) return e;
  e = carry::cuda::carry_normalize_device_batched<unsigned __int128>(
      nullptr, t.carry_bytes, nullptr, t.nc, G, carry::digit_base{rx == radix::decimal, t.f.digits}, nullptr, t.m,
      nullptr, 0, 0);
  if (e != cudaSuccess) return e;
  t.conv_temp = tc.take<char>(t.conv_bytes);
  t.carry_temp = tc.take<char>(t.carry_bytes);
  bytes = tc.bytes();
  return cudaSuccess;
}

}  // namespace

cudaError_t tiled_run(void* d_temp, limb_t* d_r, const limb_t* d_a, std::size_t an, const limb_t* d_b,
                      std::size_t bn, std::size_t G, radix rx, unsigned tile, dc::tiled_variant v, cudaStream_t st,
                      mul_stats* stats) {
  const bool square = d_a == d_b && an == bn;
  tiled_layout t{};
  std::size_t bytes = 0;
  BIGMUL_TRY(tiled_carve(d_temp, an, bn, G, rx, square, v, tile, t, bytes));
  dc::phase_clock clock(stats != nullptr, st);
  clock.mark();
  BIGMUL_TRY(dc::split_digits_device_batched(d_a, an, G, t.f, t.x, st));
  if (!square) BIGMUL_TRY(dc::split_digits_device_batched(d_b, bn, G, t.f, t.y, st));
  BIGMUL_TRY(dc::tiled_convolution_device(t.conv_temp, t.conv_bytes, t.x, t.cx, t.y, t.cy, G, t.c, v, tile, st));
  clock.mark();
  BIGMUL_TRY(carry::cuda::carry_normalize_device_batched<unsigned __int128>(
      t.carry_temp, t.carry_bytes, t.c, t.nc, G, carry::digit_base{rx == radix::decimal, t.f.digits}, t.digits, t.m,
      t.ok, st, 0));
  std::vector<int> ok(G, 0);
  BIGMUL_TRY(cudaMemcpyAsync(ok.data(), t.ok, G * sizeof(int), cudaMemcpyDeviceToHost, st));
  BIGMUL_TRY(cudaStreamSynchronize(st));
  if (std::find(ok.begin(), ok.end(), 0) != ok.end())
    return status::fail(cudaErrorUnknown,
                        "bigmul::cuda: tiled convolution: carry normalization overflow (internal error)");
  BIGMUL_TRY(dc::join_digits_device_batched(t.digits, t.m, G, t.f, d_r, an + bn, st));
  clock.mark();
  BIGMUL_TRY(cudaStreamSynchronize(st));
  if (stats) {
    stats->t_forward += clock.seconds(0);  // the convolution itself
    stats->t_carry += clock.seconds(1);
  }
  return cudaSuccess;
}

std::size_t tiled_bytes(std::size_t an, std::size_t bn, std::size_t G, radix rx, bool square, unsigned tile,
                        dc::tiled_variant v) {
  tiled_layout t{};
  std::size_t bytes = 0;
  return tiled_carve(nullptr, an, bn, G, rx, square, v, tile, t, bytes) ==
                 cudaSuccess
             ? bytes
             : 0;
}

}  // namespace bigmul::cuda
