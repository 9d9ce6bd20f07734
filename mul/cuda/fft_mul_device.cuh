// SPDX-License-Identifier: LGPL-3.0-or-later
// The GPU FFT multiplication pipeline (internal to mul/): one pass with a
// fixed coefficient size, for G products at once (G = 1: a single product).
//   split (balanced int32 digits)
//   -> forward FFT of both operands; the int32 -> floating conversion and the
//      zero padding happen in the FFT's first pass (its load functor)
//   -> pointwise product (the real FFT's unpack / re-pack fused into it)
//   -> inverse FFT; rounding, the max round-off and the L2 round-off happen in
//      its last pass (its store functor)
//   -> carry normalization -> verdict on the device (guard and carry flags)
//   -> join into limbs, skipped by a rejected pass -> one copy of the
//      round-off and the verdict to the host, one synchronisation.
//   (fused_join: carry, join and verdict in one kernel, mul/cuda/carry_join_fused.cuh.)
// The in-house engine is bigmul's fft/cuda; the cuFFT engine runs the same
// split / round / carry kernels around cuFFT's transforms (separate passes).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"
#include "mul/algorithm_table.hpp"
#include "mul/coefficients.hpp"
#include "mul/gpu_byte_model.hpp"
#include "mul/gpu_memory_model.hpp"

namespace bigmul::detail::cuda {

struct fft_job {
  algorithm algo = algorithm::fft_real;  // fft_complex, fft_real, fft_complex_f32, fft_real_f32
  fft_engine engine = fft_engine::in_house;
  coeff_format f;
  std::size_t an = 0, bn = 0;  // limbs per operand
  std::size_t G = 1;           // products; with G > 1 operands sit back to back (stride an, bn)
  bool square = false;         // d_a == d_b: one forward transform
  bool fused_split = false;    // balanced split in one pass (mul/cuda/split_fused.cuh), not fold/scan/emit
  bool fused_carry = false;    // carry in one pass (carry/cuda/carry_fused.cuh), not spread/fold/scan/emit
  bool fused_join = false;     // with fused_carry: carry and join in one pass (mul/cuda/carry_join_fused.cuh)
  bool graph = false;          // untimed passes of a repeated shape replay a captured CUDA graph
  bool fused_tail = false;     // in-house FFT: last forward pass, product, first inverse pass in one kernel
  bool two_pass = false;       // in-house FFT: two-pass tile limits where they save a pass (gpu_fft_limits)
};

// What a pass saw. The product is in d_r only when accepted.
struct fft_outcome {
  double max_roundoff = 0;
  double l2_roundoff = 0;
  bool accepted = false;
  std::size_t transform_length = 0;
  double t_split = 0, t_forward = 0, t_pointwise = 0, t_inverse = 0, t_carry = 0, t_join = 0;  // s, when timed
};

// The shape of job j's pass for the byte model (mul/gpu_byte_model.hpp): the
// sizes, plans and carry rounds fft_pass_device uses.
gpu_pass_shape pass_shape_of(const fft_job& j);

// The calling thread's last pass run with timing on: its shape and outcome
// (phase seconds). bench_mul_gpu divides the model's bytes by these times.
struct timed_pass {
  gpu_pass_shape shape;
  fft_outcome out;
  bool valid = false;
};
const timed_pass& last_timed_pass();

// Algorithm properties (FFT, real layout, FP32): mul/algorithm_table.hpp.

// Transform length (points) for job j (mul/fft_pass_policy.hpp's rule).
std::size_t fft_length(const fft_job& j);

// Device bytes one pass of job j needs.
std::size_t fft_pass_bytes(const fft_job& j);

// The layout of job j's pass memory (mul/gpu_memory_model.hpp) that
// fft_pass_device carves and fft_pass_bytes totals; false when the pass cannot
// be planned (the cuFFT engine asks cuFFT for its work area).
bool fft_pass_layout(const fft_job& j, gpu_pass_layout& l);

// Passes run as a captured graph launch so far (fft_job::graph), this process.
std::size_t pass_graph_launches();

// Passes enqueued with the product tail so far (fft_job::fused_tail where the plan
// takes it), this process.
std::size_t pass_tail_enqueued();

// Runs one pass in d_temp (fft_pass_bytes(j) bytes). Synchronizes `stream`
// once, at the end (the report is read on the host). Returns a CUDA error, or
// cudaSuccess with out.accepted telling whether d_r[g*(an+bn) ..] holds the
// products; a rejected pass leaves d_r untouched (with fused_join, a pass
// past the guard; one whose value does not fit, which a pass within the guard
// cannot produce, may have written it: fused_join applies only when d_r
// overlaps neither operand, so a retry still reads them).
cudaError_t fft_pass_device(void* d_temp, const fft_job& j, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                            cudaStream_t stream, bool timed, fft_outcome& out);

}  // namespace bigmul::detail::cuda
