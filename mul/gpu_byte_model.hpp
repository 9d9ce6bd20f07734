// SPDX-License-Identifier: LGPL-3.0-or-later
// Bytes each kernel of the GPU FFT product moves (mul/cuda/fft_mul_device.cu),
// per phase, and the fused-design floor per phase: the host-side model that
// bench_mul_gpu divides by its phase times (achieved bandwidth, fraction of
// the floor). Plain C++17, no CUDA: tests/mul/test_gpu_byte_model.cpp checks
// exact counts on the CPU.
//
// Counted: the unique footprint of every array a kernel reads or writes, once
// (what DRAM must move when caches catch the re-reads of a gather); not
// counted: twiddle tables, atomics on the round-off sink, memsets of a few
// words, the scan's internal tile state. A pass over the spectrum in place
// reads and writes it once each.
//
// The floor is a fully fused design's traffic: the operands read once
// (split), the forward transforms' spectra written once (forward), the
// pointwise pass reading two spectra and writing one (pointwise), the inverse
// reading one (inverse), nothing for the carry, the product written once
// (join). Its sum is the "limb bytes in+out + 6 spectra" bench_mul_gpu used
// before the phases had a model of their own.
#pragma once

#include <cstddef>
#include <utility>

namespace bigmul::detail {

// The shape of one GPU FFT pass: what mul/cuda's fft_pass_device sizes and
// plans (filled there by pass_shape_of; the tests build known ones by hand).
struct gpu_pass_shape {
  static constexpr unsigned max_spread_rounds = 8;  // carry_plan::max_rounds
  std::size_t G = 1;                 // products
  std::size_t an = 0, bn = 0;        // limbs per operand
  std::size_t rn = 0;                // product limbs per product (an + bn)
  std::size_t ca = 0, cb = 0;        // balanced int32 digits per operand (with the top carry)
  std::size_t pairs_a = 0, pairs_b = 0;  // the split's look-ahead pairs per product (periods + 1)
  std::size_t n = 0;                 // transform length in real points (complex layout: complex points)
  std::size_t points = 0;            // complex points per transform (real layout: n / 2)
  std::size_t spectrum = 0;          // complex elements per stored spectrum (cuFFT R2C: n / 2 + 1)
  unsigned real_bytes = 8;           // 8 (FP64) or 4 (FP32)
  unsigned passes = 1;               // in-house: passes over the data per transform; cuFFT: counted as 1
  bool real_layout = true;           // real FFT (packed) or complex
  bool cufft = false;                // cuFFT engine: separate load / store passes around its transforms
  bool square = false;               // one operand, one forward transform
  std::size_t nc = 0;                // int64 product coefficients per product
  std::size_t wrap = 0;              // coefficients the unwrap kernel recomputes
  unsigned spread_rounds = 0;        // carry phase 1 rounds
  std::size_t spread_in[max_spread_rounds] = {}, spread_out[max_spread_rounds] = {};
  std::size_t ns = 0;                // positions after phase 1
  std::size_t carry_pairs = 0;       // phase 2's block pairs per product (blocks + 1)
  std::size_t m = 0;                 // uint32 product digits per product
  // Single-pass kernels (BIGMUL_GPU_FUSED=1, docs/gpu-phases.md): the split's
  // look-back tiles per operand, and whether the carry ran in one pass (its
  // tiles are phase 2's blocks, carry_pairs - 1); fused_join: the carry
  // pass also joins (mul/cuda/carry_join_fused.cuh), limbs written there and
  // no digits in memory, the join phase empty.
  bool fused_split = false, fused_carry = false, fused_join = false;
  std::size_t split_tiles_a = 0, split_tiles_b = 0;
  // The in-house FFT's product tail (BIGMUL_GPU_FUSED_TAIL=1 where the plan takes it,
  // fft/cuda/device_fft_tail.cuh): the pointwise phase is the tail kernel (the last
  // forward pass of both operands, the product, the first inverse pass).
  bool fused_tail = false;
};

// Bytes per phase for all G products (doubles: 2^26-point batches overflow nothing,
// and the bench divides them anyway).
struct gpu_phase_bytes {
  double split = 0, forward = 0, pointwise = 0, inverse = 0, carry = 0, join = 0;
  double total() const { return split + forward + pointwise + inverse + carry + join; }
};

namespace gpu_bytes {

constexpr double limb = 8, digit32 = 4, coeff64 = 8, pair = 8, ok_flag = 4;

inline double complex_bytes(const gpu_pass_shape& s) { return 2.0 * s.real_bytes; }

// One operand's balanced split: fold reads the limbs and writes a pair per
// period, the exclusive scan reads the pairs and writes them, emit reads the
// limbs and the scanned pairs and writes the digits.
inline double split_one(std::size_t limbs, std::size_t digits, std::size_t pairs) {
  return 2 * limb * double(limbs) + 4 * pair * double(pairs) + digit32 * double(digits);
}

// A look-back tile's descriptor word: zeroed, published twice, read once.
constexpr double descriptor = 4 * 8;

// The single-pass split: limbs read once (emit's second read hits the
// cache), digits written, the tiles' descriptors.
inline double split_fused_one(std::size_t limbs, std::size_t digits, std::size_t tiles) {
  return limb * double(limbs) + digit32 * double(digits) + descriptor * double(tiles);
}

// One forward transform of `digits` int32 inputs. In-house: the first pass
// loads the digits (padding is not read) and every pass writes the points,
// every later pass reads them. cuFFT: a load pass writes cuFFT's input
// (n reals or n complex points), cuFFT reads it and writes the spectrum.
inline double forward_one(const gpu_pass_shape& s, std::size_t digits) {
  const double C = complex_bytes(s), in = digit32 * double(digits);
  if (!s.cufft) return in + C * double(s.points) * (2.0 * s.passes - 1);
  const double input = s.real_layout ? double(s.real_bytes) * double(s.n) : C * double(s.points);
  return in + 2 * input + C * double(s.spectrum);
}

// The inverse: reads the spectrum, later passes read and write the points,
// the last pass (in-house) or the store pass (cuFFT, after its output is
// written and read back) writes the rounded coefficients.
inline double inverse_one(const gpu_pass_shape& s) {
  const double C = complex_bytes(s), out = coeff64 * double(s.nc);
  if (!s.cufft) return C * double(s.points) * (2.0 * s.passes - 1) + out;
  const double output = s.real_layout ? double(s.real_bytes) * double(s.n) : C * double(s.points);
  return C * double(s.spectrum) + 2 * output + out;
}

// Unwrap (wrap threads: c[j] read, c[j] and c[L + j] written, the digits
// x[0..wrap) and y[0..wrap) read), the spread rounds (gather: inputs read,
// outputs written), fold (t read, pairs written, the ok flag), the pairs'
// scan, emit (t and the scanned pairs read, digits written).
inline double carry_one(const gpu_pass_shape& s) {
  double b = 0;
  if (s.wrap) {
    const double wa = double(s.wrap < s.ca ? s.wrap : s.ca), wb = double(s.wrap < s.cb ? s.wrap : s.cb);
    b += 3 * coeff64 * double(s.wrap) + digit32 * (s.square ? wa : wa + wb);
  }
  if (s.fused_carry) {  // one pass: coefficients read, digits (or limbs) written, descriptors, the ok flag
    const double tiles = s.carry_pairs ? double(s.carry_pairs - 1) : 0;
    const double out = s.fused_join ? limb * double(s.rn) : digit32 * double(s.m);
    return b + coeff64 * double(s.spread_in[0]) + out + descriptor * tiles + ok_flag;
  }
  for (unsigned r = 0; r < s.spread_rounds && r < gpu_pass_shape::max_spread_rounds; ++r)
    b += coeff64 * double(s.spread_in[r] + s.spread_out[r]);
  b += coeff64 * double(s.ns) + pair * double(s.carry_pairs) + ok_flag;  // fold
  b += 2 * pair * double(s.carry_pairs);                                  // scan
  b += coeff64 * double(s.ns) + pair * double(s.carry_pairs) + digit32 * double(s.m) + ok_flag;  // emit
  return b;
}

// With the product tail: the forward phase is the passes but the last (the first reads
// the digits, each writes the points, later ones read them), the tail reads both
// operands' points and writes the product's (one pass: reads the digits and writes the
// rounded coefficients: the whole product), the inverse phase the passes after the first.
inline void tail_phases(const gpu_pass_shape& s, gpu_phase_bytes& b) {
  const double G = double(s.G), C = complex_bytes(s), pts = double(s.points);
  const double in = digit32 * double(s.square ? s.ca : s.ca + s.cb), out = coeff64 * double(s.nc);
  const double ops = s.square ? 1 : 2;
  if (s.passes <= 1) {
    b.forward = 0;
    b.pointwise = G * (in + out);
    b.inverse = 0;
    return;
  }
  const double later = C * pts * (2.0 * s.passes - 3);  // passes 0..P-2: written once each, read by the next
  b.forward = G * (in + ops * later);
  b.pointwise = G * C * pts * (ops + 1);
  b.inverse = G * (later + out);
}

}  // namespace gpu_bytes

// The model: bytes each phase's kernels move for the shape.
inline gpu_phase_bytes gpu_pass_bytes(const gpu_pass_shape& s) {
  using namespace gpu_bytes;
  const double G = double(s.G);
  gpu_phase_bytes b;
  if (s.fused_split)
    b.split = G * (split_fused_one(s.an, s.ca, s.split_tiles_a) +
                   (s.square ? 0 : split_fused_one(s.bn, s.cb, s.split_tiles_b)));
  else
    b.split = G * (split_one(s.an, s.ca, s.pairs_a) + (s.square ? 0 : split_one(s.bn, s.cb, s.pairs_b)));
  b.forward = G * (forward_one(s, s.ca) + (s.square ? 0 : forward_one(s, s.cb)));
  b.pointwise = G * complex_bytes(s) * double(s.spectrum) * (s.square ? 2 : 3);
  b.inverse = G * inverse_one(s);
  if (s.fused_tail && !s.cufft) tail_phases(s, b);
  b.carry = G * carry_one(s);
  b.join = s.fused_carry && s.fused_join ? 0 : G * (digit32 * double(s.m) + limb * double(s.rn));
  return b;
}

// The fused-design floor per phase (see the top of the file).
inline gpu_phase_bytes gpu_pass_floor(const gpu_pass_shape& s) {
  using namespace gpu_bytes;
  const double G = double(s.G), spec = complex_bytes(s) * double(s.spectrum);
  gpu_phase_bytes f;
  f.split = G * limb * double(s.square ? s.an : s.an + s.bn);
  f.forward = G * spec * (s.square ? 1 : 2);
  f.pointwise = G * spec * (s.square ? 2 : 3);
  f.inverse = G * spec;
  f.carry = 0;
  f.join = G * limb * double(s.rn);
  if (s.fused_carry && s.fused_join) std::swap(f.carry, f.join);  // the carry pass writes the limbs
  return f;
}

}  // namespace bigmul::detail
