// SPDX-License-Identifier: LGPL-3.0-or-later
// Plan decomposition and index math of the in-house GPU FFT (fft/cuda/device_fft.cuh;
// host part in device_fft_plan.cpp). The per-element arithmetic sits beside it:
// device_complex.hpp, device_stockham.hpp, device_twiddle_tables.hpp,
// device_real_pointwise.hpp, device_roundoff.hpp. All plain C++17 with BIGMUL_HD
// functions and no CUDA headers, so that tests/fft/test_fft_gpu_model.cpp runs the very same code on the
// CPU (it emulates blocks, threads and barriers) and checks it against a DFT.
//
// Shape of a transform of n = 2^k points (batch B, transforms back to back):
//   n = m_0 * m_1 * ... * m_{P-1}, P = 1..3 passes. Pass p sees the whole batch as
//   an array [outer][j][inner] with j < m_p, inner < stride_p = m_{p+1}*...*m_{P-1},
//   len_p = m_p * stride_p, outer < B*n/len_p; the element sits at flat index
//   outer*len_p + j*stride_p + inner (flat = b*n + natural index). The pass runs an
//   m_p-point DFT along j for every (outer, inner), then (forward, p < P-1)
//   multiplies output k by w_{len_p}^{inner*k} and writes it back to the same
//   positions (so every pass can run in place). This is the four-step FFT applied
//   recursively, without transposes.
// Plan order: position pos = k_0*stride_0 + k_1*stride_1 + ... + k_{P-1} holds
//   frequency f = k_0 + m_0*(k_1 + m_1*(k_2 ...)): the bit fields of pos, in reverse
//   order of the fields (see struct order).
// Inverse: passes run from P-1 down to 0, each multiplying its input k by
//   conj(w_{len_p}^{inner*k}) (p < P-1) before an unscaled inverse m_p-point DFT.
//
// A pass is split into tiles, one per thread block: G outer rows x m_p x C inner
// columns (C consecutive inner indices: coalesced loads for column passes; G
// consecutive rows for the last, contiguous pass). The tile (E = G*m*C <= S
// elements) is transformed on chip by a Stockham autosort FFT in stages of radix
// 2..16: every thread holds V = 16 elements in registers (V/R butterflies of radix
// R per stage); stages exchange data through shared memory. Stage s with radix R,
// Ns = product of the earlier radices (Stockham, natural order in and out):
//   read   v[r] = a[j + r*m/R]                     (j < m/R, r < R)
//   twiddle v[r] *= w_{Ns*R}^{(j mod Ns)*r}
//   DFT_R, write a'[(j/Ns)*Ns*R + (j mod Ns) + r*Ns] = v[r].
// A load phase first copies the tile from global memory (Load functor, coalesced,
// thread tid taking elements tid + i*threads) into shared memory; every stage then
// reads and writes shared memory; a store phase writes the tile back (Store functor).
// A tile's read and write sets coincide, and all its reads precede its writes.
#pragma once

#include <cstddef>

#include "bigmul/hd.hpp"

namespace bigmul::fft::cuda::plan {

constexpr unsigned max_passes = 3;
constexpr unsigned max_stages = 8;
constexpr unsigned max_log_n = 26;
constexpr unsigned elems_per_thread = 16;  // V: registers per thread, also the largest radix
constexpr unsigned log_elems_per_thread = 4;
// Threads per block of the pass kernel (its launch bound): tiles of up to 4096 double2
// or 8192 float2 elements.
template <class Real>
constexpr unsigned max_threads() {
  return sizeof(Real) == 8 ? 256 : 512;
}

BIGMUL_HD constexpr unsigned ilog2(std::size_t x) {
  unsigned r = 0;
  while (x > 1) {
    x >>= 1;
    ++r;
  }
  return r;
}

// Shared-memory capacity of one tile (S = 2^log_tile elements) and the fewest inner
// columns a column pass takes (C >= 2^log_min_cols, for coalesced loads).
struct limits {
  unsigned log_tile = 12;
  unsigned log_min_cols = 3;
  unsigned log_min_tile = 9;  // pad tiny tiles to at least this many elements (a full warp of threads)
  // The columns a column pass takes where the split costs no extra pass (0: log_min_cols):
  // longer runs of consecutive addresses per row of a tile.
  unsigned log_pref_cols = 0;
  // The fewest columns a column pass may take where C_min columns would need a third
  // pass (0: never fewer than C_min): two passes up to log_tile + log_tile - this.
  unsigned log_two_pass_cols = 0;
  // Passes that load an array overlap the next tile's loads with the current tile's
  // stages (FP64; also with BIGMUL_GPU_FFT_PIPELINE=1): fft/cuda/device_fft_pipelined.cuh.
  bool pipelined = false;
};

// 64 KiB of data per tile: 4096 double2 or 8192 float2; column segments of at least
// 128 bytes, 256 where the pass count allows.
template <class Real>
constexpr limits default_limits() {
  return sizeof(Real) == 8 ? limits{12, 3, 9, 4} : limits{13, 4, 9, 5};
}

struct pass_desc {
  unsigned log_m = 0;       // DFT length of this pass
  unsigned log_stride = 0;  // distance between the DFT's elements
  unsigned log_len = 0;     // log_m + log_stride
  unsigned log_cols = 0;    // C: inner columns per tile
  unsigned log_rows = 0;    // G: outer rows per tile
  std::size_t outer_total = 0;  // batch * n / len
  std::size_t col_groups = 1;   // stride / C
  std::size_t row_groups = 1;   // ceil(outer_total / G)
  unsigned threads = 1;         // E / V
  unsigned nstages = 0;
  unsigned char stage_log[max_stages] = {};  // log2 of each stage's radix
  bool j_fast = false;  // butterflies/shared layout ordered along j (contiguous pass), else along lanes

  BIGMUL_HD unsigned log_lanes() const { return log_rows + log_cols; }
  BIGMUL_HD unsigned log_tile() const { return log_m + log_rows + log_cols; }
  BIGMUL_HD std::size_t blocks() const { return row_groups * col_groups; }
};

struct fft_plan {
  unsigned log_n = 0;
  std::size_t batch = 0;
  unsigned npasses = 0;
  pass_desc pass[max_passes];
  unsigned log_block_table = 0;  // M: block twiddle table holds w_M^e, e < M (M = largest m)
  unsigned log_split = 0;        // w_n^e = hi[e >> log_split] * lo[e & mask]
  bool valid = false;
  // Passes that load an array run as this many persistent blocks, each loading its next
  // tile during the current one's stages (fft/cuda/device_fft_pipelined.cuh); 0: off.
  unsigned persistent_blocks = 0;
};

// The pipelined pass's schedule: block b takes tiles b, b + grid, b + 2 grid, ...; the
// tile after `blk` (>= tiles: none).
BIGMUL_HD std::size_t pipeline_next(std::size_t blk, std::size_t grid, std::size_t tiles) {
  return blk + grid < tiles ? blk + grid : tiles;
}

// Two passes up to 2^23 points: the column pass of 2^22 and 2^23 points takes 4 or 2
// double2 columns (64- and 32-byte runs, one sector at least) or 8 float2 columns
// (64-byte runs) instead of a third pass. Not the default: whether the shorter runs
// cost less than the third pass is for bench_fft_gpu on a GPU to say.
template <class Real>
constexpr limits two_pass_limits() {
  limits l = default_limits<Real>();
  l.log_two_pass_cols = sizeof(Real) == 8 ? 1 : 3;
  return l;
}

// Bits of each pass (m_p = 2^bits[p]). Column passes (all but the last) hold at most
// S / C_min points, the last at most S; column passes hold at most S / C_pref points
// where the same number of passes allows it; with log_two_pass_cols, sizes past two
// passes of C_min columns that fit two passes of fewer columns take them (the last pass
// a whole tile). Returns 0 when k cannot be planned.
unsigned split_passes(unsigned k, const limits& lim, unsigned bits[max_passes]);

// Radices of the in-tile Stockham FFT: ceil(b/4) stages, bits spread evenly (larger first).
unsigned split_stages(unsigned b, unsigned char out[max_stages]);

// The passes, tiles and stages of a batch of transforms of n points (valid false
// when n is not a power of two in 2 .. 2^max_log_n, or batch is 0).
fft_plan make_plan(std::size_t n, std::size_t batch, const limits& lim);

// Plan order <-> frequency (the bit fields of the passes, reversed).
struct order {
  unsigned npasses = 1;
  unsigned bits[max_passes] = {0, 0, 0};

  // Frequency held at storage position pos.
  BIGMUL_HD std::size_t frequency_at(std::size_t pos) const {
    std::size_t f = 0;
    unsigned fshift = 0;
    unsigned pshift = 0;
    for (unsigned i = 0; i < npasses; ++i) pshift += bits[i];
    for (unsigned i = 0; i < npasses; ++i) {
      pshift -= bits[i];
      const std::size_t digit = (pos >> pshift) & ((std::size_t{1} << bits[i]) - 1);
      f |= digit << fshift;
      fshift += bits[i];
    }
    return f;
  }
  // Storage position of frequency f.
  BIGMUL_HD std::size_t position_of(std::size_t f) const {
    std::size_t pos = 0;
    unsigned fshift = 0;
    unsigned pshift = 0;
    for (unsigned i = 0; i < npasses; ++i) pshift += bits[i];
    for (unsigned i = 0; i < npasses; ++i) {
      pshift -= bits[i];
      const std::size_t digit = (f >> fshift) & ((std::size_t{1} << bits[i]) - 1);
      pos |= digit << pshift;
      fshift += bits[i];
    }
    return pos;
  }
};

order order_of(const fft_plan& p);

// ---- tile and element coordinates ---------------------------------------------

struct tile {
  std::size_t outer0;  // first outer row
  std::size_t col0;    // first inner column
};

BIGMUL_HD tile tile_of_block(const pass_desc& d, std::size_t block) {
  return {(block / d.col_groups) << d.log_rows, (block % d.col_groups) << d.log_cols};
}

// Butterfly bf of a stage whose DFT inputs are j + r*(m/R), j < m/R = 2^log_q.
BIGMUL_HD void butterfly_coords(const pass_desc& d, unsigned log_q, std::size_t bf, unsigned& lane, unsigned& j) {
  if (d.j_fast) {
    j = static_cast<unsigned>(bf & ((std::size_t{1} << log_q) - 1));
    lane = static_cast<unsigned>(bf >> log_q);
  } else {
    lane = static_cast<unsigned>(bf & ((std::size_t{1} << d.log_lanes()) - 1));
    j = static_cast<unsigned>(bf >> d.log_lanes());
  }
}

// Shared memory: one padding element every 16 breaks the power-of-two strides.
BIGMUL_HD constexpr unsigned smem_pad(unsigned i) { return i + (i >> 4); }
BIGMUL_HD constexpr std::size_t smem_elements(unsigned log_tile) {
  return (std::size_t{1} << log_tile) + ((std::size_t{1} << log_tile) >> 4);
}
BIGMUL_HD unsigned smem_index(const pass_desc& d, unsigned lane, unsigned idx) {
  const unsigned i = d.j_fast ? (lane << d.log_m) + idx : (idx << d.log_lanes()) + lane;
  return smem_pad(i);
}

// Element q of a tile in the order of the (unpadded) shared layout: the load and store
// phases give thread tid the elements q = tid + i*threads, i < V, so consecutive
// threads touch consecutive columns (column passes) or consecutive j (contiguous pass):
// coalesced. smem_index(d, lane, idx) == smem_pad(q).
BIGMUL_HD void tile_coords(const pass_desc& d, unsigned q, unsigned& lane, unsigned& idx) {
  if (d.j_fast) {
    idx = q & ((1u << d.log_m) - 1);
    lane = q >> d.log_m;
  } else {
    lane = q & ((1u << d.log_lanes()) - 1);
    idx = q >> d.log_lanes();
  }
}

// Flat position (b*n + index) of element idx (along j) of lane `lane` in tile t;
// `valid` is false for padding rows beyond the batch.
struct element {
  std::size_t flat;
  std::size_t inner;  // inner index (0 .. stride) for the inter-pass twiddle
  bool valid;
};
BIGMUL_HD element element_at(const pass_desc& d, const tile& t, unsigned lane, unsigned idx) {
  const std::size_t g = lane >> d.log_cols;
  const std::size_t c = lane & ((1u << d.log_cols) - 1);
  const std::size_t outer = t.outer0 + g;
  const std::size_t inner = t.col0 + c;
  return {(outer << d.log_len) + (std::size_t(idx) << d.log_stride) + inner, inner, outer < d.outer_total};
}

// Exponent e of the inter-pass twiddle w_n^e = w_len^{inner*k}.
BIGMUL_HD std::size_t pass_twiddle_exponent(unsigned log_n, const pass_desc& d, std::size_t inner, std::size_t k) {
  return (inner * k) << (log_n - d.log_len);
}

}  // namespace bigmul::fft::cuda::plan
