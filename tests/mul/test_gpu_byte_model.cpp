// SPDX-License-Identifier: LGPL-3.0-or-later
// The GPU product's byte model (mul/gpu_byte_model.hpp) on hand-built pass
// shapes: exact bytes per phase, counted by hand from the kernels' arrays
// (the comments give each sum), and the floor's identity with the whole-product
// floor bench_mul_gpu reported before (limbs in and out + 6 spectra).
#include <gtest/gtest.h>

#include "mul/gpu_byte_model.hpp"

namespace {

using bigmul::detail::gpu_pass_bytes;
using bigmul::detail::gpu_pass_floor;
using bigmul::detail::gpu_pass_shape;
using bigmul::detail::gpu_phase_bytes;

// In-house real FP64, two products of 10 x 6 limbs, two passes per transform.
gpu_pass_shape inhouse_real() {
  gpu_pass_shape s;
  s.G = 2;
  s.an = 10;
  s.bn = 6;
  s.rn = 16;
  s.ca = 49;
  s.cb = 30;
  s.pairs_a = 12;
  s.pairs_b = 8;
  s.n = 128;
  s.points = 64;
  s.spectrum = 64;
  s.real_bytes = 8;
  s.passes = 2;
  s.nc = 78;
  s.spread_rounds = 1;
  s.spread_in[0] = 78;
  s.spread_out[0] = 82;
  s.ns = 82;
  s.carry_pairs = 2;
  s.m = 80;
  return s;
}

// cuFFT real FP32, one square of 8 limbs, a wrapped pass, two spread rounds.
gpu_pass_shape cufft_square() {
  gpu_pass_shape s;
  s.G = 1;
  s.an = s.bn = 8;
  s.rn = 16;
  s.ca = s.cb = 40;
  s.pairs_a = s.pairs_b = 6;
  s.n = 64;
  s.points = 32;
  s.spectrum = 33;
  s.real_bytes = 4;
  s.cufft = true;
  s.square = true;
  s.nc = 79;
  s.wrap = 3;
  s.spread_rounds = 2;
  s.spread_in[0] = 79;
  s.spread_out[0] = 84;
  s.spread_in[1] = 84;
  s.spread_out[1] = 86;
  s.ns = 86;
  s.carry_pairs = 2;
  s.m = 80;
  return s;
}

TEST(GpuByteModel, InHouseRealPerPhase) {
  const gpu_phase_bytes b = gpu_pass_bytes(inhouse_real());
  // a: limbs twice 160 + pairs four times 384 + digits 196; b: 96 + 256 + 120.
  EXPECT_EQ(b.split, 2 * (740 + 472));
  // digits 196 (a) / 120 (b) + 64 points x 16 B x (2 passes x 2 - 1).
  EXPECT_EQ(b.forward, 2 * (196 + 3072 + 120 + 3072));
  // two spectra read, one written.
  EXPECT_EQ(b.pointwise, 2 * 3 * 64 * 16);
  // 3 x 1024 spectrum bytes + 78 int64 coefficients.
  EXPECT_EQ(b.inverse, 2 * (3072 + 624));
  // spread 8 (78 + 82); fold 656 + 16 + 4; scan 32; emit 656 + 16 + 320 + 4.
  EXPECT_EQ(b.carry, 2 * (1280 + 676 + 32 + 996));
  // 80 digits read, 16 limbs written.
  EXPECT_EQ(b.join, 2 * (320 + 128));
  EXPECT_EQ(b.total(), b.split + b.forward + b.pointwise + b.inverse + b.carry + b.join);
}

// The single-pass split and carry (BIGMUL_GPU_FUSED=1): limbs read once,
// digits written, 32 bytes of descriptor per tile; the carry reads its
// coefficients once and writes its digits. Other phases unchanged.
TEST(GpuByteModel, FusedSplitAndCarry) {
  gpu_pass_shape s = inhouse_real();
  const gpu_phase_bytes multi = gpu_pass_bytes(s);
  s.fused_split = s.fused_carry = true;
  s.split_tiles_a = s.split_tiles_b = 1;
  const gpu_phase_bytes b = gpu_pass_bytes(s);
  // a: limbs 80 + digits 196 + 32; b: 48 + 120 + 32.
  EXPECT_EQ(b.split, 2 * (308 + 200));
  // 78 coefficients 624 + 80 digits 320 + one tile 32 + the ok flag 4.
  EXPECT_EQ(b.carry, 2 * (624 + 320 + 32 + 4));
  EXPECT_LT(b.split, multi.split);
  EXPECT_LT(b.carry, multi.carry);
  EXPECT_EQ(b.forward, multi.forward);
  EXPECT_EQ(b.join, multi.join);
}

// The product tail (fused_tail): two passes, so the forward phase is the first pass
// (digits in, points out), the tail reads both operands' points and writes the
// product's, the inverse phase is the last inverse pass (points in, coefficients out):
// the spectrum is read and written once fewer than with the separate pointwise kernel
// (the exact bytes are the test's expectation). One pass: the tail is the whole product.
TEST(GpuByteModel, FusedTail) {
  gpu_pass_shape s = inhouse_real();
  const gpu_phase_bytes plain = gpu_pass_bytes(s);
  s.fused_tail = true;
  const gpu_phase_bytes b = gpu_pass_bytes(s);
  EXPECT_EQ(b.forward, 2 * (196 + 120 + 2 * 1024));
  EXPECT_EQ(b.pointwise, 2 * 3 * 1024);
  EXPECT_EQ(b.inverse, 2 * (1024 + 624));
  EXPECT_EQ(b.total(), plain.total() - 2 * 6 * 1024);
  EXPECT_EQ(b.split, plain.split);
  EXPECT_EQ(b.carry, plain.carry);
  s.square = true;  // one operand's digits and points
  const gpu_phase_bytes sq = gpu_pass_bytes(s);
  EXPECT_EQ(sq.forward, 2 * (196 + 1024));
  EXPECT_EQ(sq.pointwise, 2 * 2 * 1024);
  s.square = false;
  s.passes = 1;
  const gpu_phase_bytes one = gpu_pass_bytes(s);
  EXPECT_EQ(one.forward, 0);
  EXPECT_EQ(one.pointwise, 2 * (196 + 120 + 624));
  EXPECT_EQ(one.inverse, 0);
  s.cufft = true;  // cuFFT has no tail
  s.passes = 2;
  s.fused_tail = false;
  const gpu_phase_bytes cu = gpu_pass_bytes(s);
  s.fused_tail = true;
  EXPECT_EQ(gpu_pass_bytes(s).total(), cu.total());
}

// Carry and join in one pass (fused_join): the carry pass writes the 16
// limbs instead of the 80 digits, the join phase moves nothing, and the
// limbs' floor moves with them.
TEST(GpuByteModel, FusedCarryAndJoin) {
  gpu_pass_shape s = inhouse_real();
  s.fused_split = s.fused_carry = true;
  s.split_tiles_a = s.split_tiles_b = 1;
  const gpu_phase_bytes apart = gpu_pass_bytes(s);
  const gpu_phase_bytes floor_apart = gpu_pass_floor(s);
  s.fused_join = true;
  const gpu_phase_bytes b = gpu_pass_bytes(s), f = gpu_pass_floor(s);
  EXPECT_EQ(b.carry, 2 * (624 + 128 + 32 + 4));
  EXPECT_EQ(b.join, 0);
  EXPECT_EQ(b.total(), apart.total() - 2 * (2 * 320));  // digits neither written nor read
  EXPECT_EQ(b.split, apart.split);
  EXPECT_EQ(f.carry, floor_apart.join);
  EXPECT_EQ(f.join, 0);
  EXPECT_EQ(f.total(), floor_apart.total());
  s.fused_carry = false;  // the join fuses only into the single-pass carry
  EXPECT_EQ(gpu_pass_bytes(s).join, apart.join);
}

TEST(GpuByteModel, CufftSquareWrappedPerPhase) {
  const gpu_phase_bytes b = gpu_pass_bytes(cufft_square());
  EXPECT_EQ(b.split, 128 + 192 + 160);            // one operand
  EXPECT_EQ(b.forward, 160 + 2 * 4 * 64 + 8 * 33);  // digits, cuFFT's real input written and read, spectrum
  EXPECT_EQ(b.pointwise, 2 * 8 * 33);             // square: one spectrum read and written
  EXPECT_EQ(b.inverse, 8 * 33 + 2 * 4 * 64 + 8 * 79);
  // unwrap 3 x (c[j] read, c[j], c[L+j] written) + 3 digits; two spread rounds; fold; scan; emit.
  EXPECT_EQ(b.carry, 72 + 12 + 8 * (79 + 84) + 8 * (84 + 86) + 708 + 32 + 1028);
  EXPECT_EQ(b.join, 320 + 128);
}

TEST(GpuByteModel, InHouseComplexThreePasses) {
  gpu_pass_shape s;
  s.points = s.n = s.spectrum = 256;
  s.real_layout = false;
  s.real_bytes = 4;
  s.passes = 3;
  s.ca = s.cb = 100;
  s.nc = 199;
  const gpu_phase_bytes b = gpu_pass_bytes(s);
  EXPECT_EQ(b.forward, 2 * (400 + 8 * 256 * 5));
  EXPECT_EQ(b.inverse, 8 * 256 * 5 + 8 * 199);
}

TEST(GpuByteModel, FloorPerPhase) {
  const gpu_phase_bytes f = gpu_pass_floor(inhouse_real());
  EXPECT_EQ(f.split, 2 * 8 * 16);
  EXPECT_EQ(f.forward, 2 * 2 * 1024);
  EXPECT_EQ(f.pointwise, 2 * 3 * 1024);
  EXPECT_EQ(f.inverse, 2 * 1024);
  EXPECT_EQ(f.carry, 0);
  EXPECT_EQ(f.join, 2 * 8 * 16);
  const gpu_phase_bytes q = gpu_pass_floor(cufft_square());
  EXPECT_EQ(q.split, 64);
  EXPECT_EQ(q.forward, 264);
  EXPECT_EQ(q.pointwise, 528);
  EXPECT_EQ(q.inverse, 264);
  EXPECT_EQ(q.join, 128);
}

// The whole-product floor bench_mul_gpu used (G (4 n 8 + 6 spectra) for n x n
// limbs) is the sum of the phase floors, and the model never goes below it.
TEST(GpuByteModel, FloorSumsToTheWholeProductFloor) {
  gpu_pass_shape s = inhouse_real();
  s.bn = s.an = 8;
  s.rn = 16;
  const gpu_phase_bytes f = gpu_pass_floor(s), b = gpu_pass_bytes(s);
  EXPECT_EQ(f.total(), s.G * (4.0 * 8 * 8 + 6 * 16.0 * s.spectrum));
  EXPECT_GT(b.total(), f.total());
  EXPECT_GE(b.split, f.split);
  EXPECT_GE(b.forward, f.forward);
  EXPECT_GE(b.inverse, f.inverse);
  EXPECT_GE(b.join, f.join);
}

}  // namespace
