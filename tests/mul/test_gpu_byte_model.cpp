// SPDX-License-Identifier: LGPL-3.0-or-later
// The GPU product's byte model (mul/gpu_byte_model.hpp) on hand-built pass
// shapes: exact bytes per phase, counted by hand from the kernels' arrays
// (the comments give each sum), and the floor's identity with the whole-product
// floor bench_mul_gpu reported before (limbs in and out + 6 spectra).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "mul/gpu_byte_model.hpp"
#include "mul/gpu_memory_model.hpp"

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


// ---- the pass's device memory (mul/gpu_memory_model.hpp) ----

using bigmul::detail::gpu_pass_buffers;
using bigmul::detail::gpu_pass_buffers_of;
using bigmul::detail::gpu_pass_layout;
using bigmul::detail::gpu_pass_layout_of;

// One buffer of a layout: its range and the phase it lives in (0: the whole pass).
struct placed {
  std::size_t at, bytes;
  int phase;
};

std::vector<placed> buffers_of(const gpu_pass_layout& l) {
  const gpu_pass_buffers &a = l.at, &b = l.size;
  return {{a.digits_a, b.digits_a, 0},     {a.digits_b, b.digits_b, 0},     {a.coeffs, b.coeffs, 0},
          {a.report, b.report, 0},         {a.ok, b.ok, 0},                 {a.split_temp, b.split_temp, 1},
          {a.spectrum_a, b.spectrum_a, 2}, {a.spectrum_b, b.spectrum_b, 2}, {a.real_a, b.real_a, 2},
          {a.real_b, b.real_b, 2},         {a.work, b.work, 2},             {a.cufft_work, b.cufft_work, 2},
          {a.carry_temp, b.carry_temp, 3}, {a.product_digits, b.product_digits, 3}};
}

// Every buffer aligned and inside the pass's bytes; two buffers alive at the
// same time (same phase, or one of them live all pass) never overlap.
void expect_sound(const gpu_pass_layout& l) {
  const std::vector<placed> v = buffers_of(l);
  for (std::size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(v[i].at % 256, 0u) << "buffer " << i;
    EXPECT_LE(v[i].at + v[i].bytes, l.bytes) << "buffer " << i;
    for (std::size_t k = i + 1; k < v.size(); ++k) {
      if (!v[i].bytes || !v[k].bytes) continue;
      if (v[i].phase && v[k].phase && v[i].phase != v[k].phase) continue;  // never alive together
      const bool apart = v[i].at + v[i].bytes <= v[k].at || v[k].at + v[k].bytes <= v[i].at;
      EXPECT_TRUE(apart) << "buffers " << i << " and " << k << " overlap";
    }
  }
}

// inhouse_real's pass with the fused split (4 descriptor words) and the fused
// carry and join (7 words), a 64-byte report, a 2-pass plan's workspace of
// G x 64 complex points. By hand: live da 0 + 392, db 512 + 240, c 768 + 1248,
// report 2048 + 64, ok 2304 + 8 -> 2560; spectra 2560 + 2048, 4608 + 2048,
// workspace 6656 + 2048 -> 8704; the split's temp and the carry's temp with
// the product digits (2816 + 640) inside the spectra's bytes.
TEST(GpuMemoryModel, FusedPathByHand) {
  const gpu_pass_layout l = gpu_pass_layout_of(gpu_pass_buffers_of(inhouse_real(), 64, 128, 0, 32, 56));
  EXPECT_EQ(l.at.digits_b, 512u);
  EXPECT_EQ(l.at.coeffs, 768u);
  EXPECT_EQ(l.at.ok, 2304u);
  EXPECT_EQ(l.live, 2560u);
  EXPECT_EQ(l.at.split_temp, 2560u);
  EXPECT_EQ(l.at.spectrum_b, 4608u);
  EXPECT_EQ(l.at.work, 6656u);
  EXPECT_EQ(l.transform, 6144u);
  EXPECT_EQ(l.at.carry_temp, 2560u);
  EXPECT_EQ(l.at.product_digits, 2816u);
  EXPECT_EQ(l.size.product_digits, 640u);
  EXPECT_EQ(l.carry, 896u);
  EXPECT_EQ(l.bytes, 8704u);
  expect_sound(l);
}

// Planned bytes per path on one shape: the paths differ only in their split's
// and carry's temp (old: the scan's pairs and the spread rounds' arrays, here
// 4 KB each; fused: descriptor words), which overlay the spectra with the
// product digits; a one-pass plan has no workspace, cuFFT its real arrays.
TEST(GpuMemoryModel, BytesPerPath) {
  const gpu_pass_shape s = inhouse_real();
  const auto bytes = [&](std::size_t work, std::size_t split, std::size_t carry) {
    return gpu_pass_layout_of(gpu_pass_buffers_of(s, 64, work, 0, split, carry)).bytes;
  };
  EXPECT_EQ(bytes(128, 32, 56), 8704u);      // fused split, carry and join
  EXPECT_EQ(bytes(128, 32, 48), 8704u);      // fused split and carry, separate join
  EXPECT_EQ(bytes(128, 4096, 4096), 8704u);  // old split and carry: still under the spectra
  EXPECT_EQ(bytes(0, 32, 56), 6656u);        // one-pass plan: no workspace
  // The old layout (everything side by side) on the fused path: live, split
  // temp, spectra and workspace, carry temp, digits.
  EXPECT_LT(bytes(128, 32, 56), 2560u + 256 + 6144 + 256 + 640);
  // An old carry temp larger than the spectra sets the region.
  EXPECT_EQ(bytes(128, 32, 8000), 2560u + 8192 + 640);
  // The product digits never add bytes while the carry phase fits the spectra.
  gpu_pass_buffers b = gpu_pass_buffers_of(s, 64, 128, 0, 32, 56);
  const std::size_t with = gpu_pass_layout_of(b).bytes;
  b.product_digits = 0;
  EXPECT_EQ(gpu_pass_layout_of(b).bytes, with);
  // cuFFT real square (cufft_square): one digits array, one spectrum, one real
  // array, its work area.
  const gpu_pass_layout c = gpu_pass_layout_of(gpu_pass_buffers_of(cufft_square(), 64, 999, 1000, 32, 56));
  EXPECT_EQ(c.size.digits_b, 0u);
  EXPECT_EQ(c.size.spectrum_b, 0u);
  EXPECT_EQ(c.size.real_a, 64u * 4);
  EXPECT_EQ(c.size.real_b, 0u);
  EXPECT_EQ(c.size.work, 0u);  // the in-house workspace is not cuFFT's
  EXPECT_EQ(c.size.cufft_work, 1000u);
  EXPECT_EQ(c.size.product_digits, 80u * 4);
  expect_sound(c);
}

// Random shapes and temp sizes: every layout sound, and never more than the
// buffers side by side.
TEST(GpuMemoryModel, RandomShapesAreSound) {
  std::mt19937_64 rng(37);
  for (int i = 0; i < 2000; ++i) {
    gpu_pass_shape s;
    s.G = 1 + rng() % 4;
    s.ca = 1 + rng() % 5000;
    s.cb = 1 + rng() % 5000;
    s.nc = s.ca + s.cb - 1;
    s.m = s.nc - rng() % 3;
    s.n = 2 * s.nc;
    s.real_layout = rng() % 2;
    s.spectrum = s.real_layout ? s.n / 2 + rng() % 2 : s.n;
    s.real_bytes = rng() % 2 ? 8 : 4;
    s.cufft = rng() % 3 == 0;
    s.square = rng() % 4 == 0;
    const gpu_pass_buffers b = gpu_pass_buffers_of(s, 64, rng() % 2 ? s.G * s.spectrum : 0, rng() % 50000,
                                                   rng() % 100000, rng() % 100000);
    const gpu_pass_layout l = gpu_pass_layout_of(b);
    expect_sound(l);
    std::size_t side_by_side = 0;
    for (const placed& p : buffers_of(l)) side_by_side += (p.bytes + 255) / 256 * 256;
    EXPECT_LE(l.bytes, side_by_side + 256);
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
