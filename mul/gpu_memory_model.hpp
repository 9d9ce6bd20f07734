// SPDX-License-Identifier: LGPL-3.0-or-later
// Device memory of one GPU FFT pass (mul/cuda/fft_mul_device.cu): which
// buffers each path plans and where they sit in the pass's temp storage.
// The pass carves its memory by this layout and the memory pre-flight
// (fft_pass_bytes, mul/cuda/mul_device.cu's sizing before any allocation)
// reads its total, so the two cannot disagree; plain C++17, no CUDA:
// tests/mul/test_gpu_byte_model.cpp checks the bytes per path on the CPU.
//
// Buffers by lifetime, in stream order:
//   live all pass: the operands' digits (the unwrap reads them after the
//     inverse), the rounded coefficients, the report, the carry flags;
//   split phase: the split's temp, dead once the digits are written;
//   transform phase: the spectra, cuFFT's real arrays, the workspaces, dead
//     once the inverse has written the coefficients;
//   carry phase: the carry's temp and the product digits (the unfused join's
//     input, and the fused join's fallback when d_r overlaps an operand).
// The three phases overlay one region: a pass needs the live buffers plus the
// largest phase, so the product digits and the split's temp cost no bytes
// whenever the spectra are larger (every shape the tests build).
#pragma once

#include <cstddef>

#include "mul/gpu_byte_model.hpp"

namespace bigmul::detail {

// Bytes of each buffer (0: the path has none).
struct gpu_pass_buffers {
  std::size_t digits_a = 0, digits_b = 0, coeffs = 0, report = 0, ok = 0;            // live
  std::size_t split_temp = 0;                                                         // split
  std::size_t spectrum_a = 0, spectrum_b = 0, real_a = 0, real_b = 0, work = 0, cufft_work = 0;  // transforms
  std::size_t carry_temp = 0, product_digits = 0;                                     // carry
};

// Byte offsets of each buffer from the temp storage's base, and the total.
struct gpu_pass_layout {
  gpu_pass_buffers size;  // the buffers' bytes, as planned
  gpu_pass_buffers at;
  std::size_t live = 0;   // end of the live buffers: the overlay region starts here (aligned)
  std::size_t split = 0, transform = 0, carry = 0;  // each phase's bytes from the region's start
  std::size_t bytes = 0;  // what the pass needs (at least 1, as prim::cuda::temp_carver)
};

namespace gpu_memory {

inline constexpr std::size_t align = 256;  // prim::cuda::temp_carver's alignment of every buffer

inline std::size_t aligned(std::size_t b) { return (b + align - 1) & ~(align - 1); }

// Appends a buffer of b bytes at the aligned end; returns its offset.
inline std::size_t take(std::size_t& end, std::size_t b) {
  const std::size_t at = aligned(end);
  end = at + b;
  return at;
}

}  // namespace gpu_memory

// The buffers of the pass with shape s. What the shape does not hold comes
// from the CUDA side's own size queries: the report's size, the in-house
// workspace in complex elements (0 for one-pass plans), cuFFT's work area,
// the split's and the carry's temp (the fused kernels' or the old ones').
inline gpu_pass_buffers gpu_pass_buffers_of(const gpu_pass_shape& s, std::size_t report_bytes,
                                            std::size_t work_elements, std::size_t cufft_work_bytes,
                                            std::size_t split_temp, std::size_t carry_temp) {
  const std::size_t G = s.G, C = 2 * std::size_t{s.real_bytes};
  gpu_pass_buffers b;
  b.digits_a = G * s.ca * 4;
  b.digits_b = s.square ? 0 : G * s.cb * 4;
  b.coeffs = G * s.nc * 8;
  b.report = report_bytes;
  b.ok = G * sizeof(int);
  b.split_temp = split_temp;
  b.spectrum_a = G * s.spectrum * C;
  b.spectrum_b = s.square ? 0 : G * s.spectrum * C;
  if (s.cufft && s.real_layout) {
    b.real_a = G * s.n * s.real_bytes;
    b.real_b = s.square ? 0 : G * s.n * s.real_bytes;
  }
  b.work = s.cufft ? 0 : work_elements * C;
  b.cufft_work = s.cufft ? cufft_work_bytes : 0;
  b.carry_temp = carry_temp;
  b.product_digits = G * s.m * 4;
  return b;
}

// The layout: live buffers first, then the three phases from one aligned base.
inline gpu_pass_layout gpu_pass_layout_of(const gpu_pass_buffers& b) {
  using gpu_memory::take;
  gpu_pass_layout l;
  l.size = b;
  gpu_pass_buffers& at = l.at;
  std::size_t end = 0;
  at.digits_a = take(end, b.digits_a);
  at.digits_b = take(end, b.digits_b);
  at.coeffs = take(end, b.coeffs);
  at.report = take(end, b.report);
  at.ok = take(end, b.ok);
  l.live = gpu_memory::aligned(end);
  std::size_t split = l.live, transform = l.live, carry = l.live;
  at.split_temp = take(split, b.split_temp);
  at.spectrum_a = take(transform, b.spectrum_a);
  at.spectrum_b = take(transform, b.spectrum_b);
  at.real_a = take(transform, b.real_a);
  at.real_b = take(transform, b.real_b);
  at.work = take(transform, b.work);
  at.cufft_work = take(transform, b.cufft_work);
  at.carry_temp = take(carry, b.carry_temp);
  at.product_digits = take(carry, b.product_digits);
  l.split = split - l.live;
  l.transform = transform - l.live;
  l.carry = carry - l.live;
  const std::size_t phase = l.split > l.transform ? l.split : l.transform;
  l.bytes = l.live + (phase > l.carry ? phase : l.carry);
  if (l.bytes == 0) l.bytes = 1;
  return l;
}

}  // namespace bigmul::detail
