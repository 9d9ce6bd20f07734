// SPDX-License-Identifier: LGPL-3.0-or-later
// Index math and pair arithmetic of the GPU FFT's product tail (fft/cuda/device_fft_tail.cuh):
// one kernel runs the last forward pass of both operands, the pointwise product and the
// first inverse pass, so the spectrum makes one trip through memory fewer [GPUOWL].
// Plain C++17 with BIGMUL_HD functions: tests/fft/test_fft_gpu_tail_model.cpp runs it on
// the CPU.
//
// The last pass (p = P-1) is contiguous (stride 1, no inter-pass twiddle in either
// direction): a row of m = m_{P-1} consecutive positions. Its storage row `outer`
// (b*M + r, M = h/m rows a transform of h points) holds the frequencies
// f = f_row + M*k, k < m, with f_row = low.frequency_at(r) (plan order of the first P-1
// passes). Complex layout: the product is per bin, the tail's tiles are the pass's own.
// Real (packed half-length) layout: the bin f pairs with h - f, which lies in the row of
// f_row' = (M - f_row) mod M at k' = m-1-k (f_row != 0) or in the same row at
// (m - k) mod m (f_row = 0); so a tail tile takes its rows as mirror pairs: slot 2i the
// row of f_row = a, slot 2i+1 the row of a == 0 ? M/2 : M - a (rows 0 and M/2 pair with
// themselves), a = 0 .. M/2-1 per transform. With one pass (M = 1) every slot is a whole
// transform. A tile of G rows then holds E/2 pair items (E = G*m): every shared slot
// belongs to exactly one item, so the product phase needs no barrier inside.
#pragma once

#include <cstddef>

#include "bigmul/hd.hpp"
#include "fft/cuda/device_complex.hpp"
#include "fft/cuda/device_fft_plan.hpp"
#include "fft/cuda/device_real_pointwise.hpp"
#include "fft/cuda/device_twiddle_tables.hpp"

namespace bigmul::fft::cuda::plan {

struct tail_geom {
  pass_desc d;            // the last pass (j_fast: lane = row slot, idx = k)
  unsigned log_h = 0;     // transform length h (the half length of a real transform)
  unsigned log_rows_per = 0;  // log M: rows of one transform
  order low;              // plan order of the first P-1 passes (the row's frequency digits)
  std::size_t batch = 0;
  bool packed = false;    // real layout: mirror rows share a tile
};

// Whether the tail can run on plan p: packed tiles need two rows (or one pass).
inline bool tail_supported(const fft_plan& p, bool packed) {
  if (!p.valid || p.npasses == 0) return false;
  return !packed || p.npasses == 1 || p.pass[p.npasses - 1].log_rows >= 1;
}

inline tail_geom tail_geom_of(const fft_plan& p, bool packed) {
  tail_geom g;
  g.d = p.pass[p.npasses - 1];
  g.log_h = p.log_n;
  g.log_rows_per = p.log_n - g.d.log_m;
  g.low.npasses = p.npasses - 1;
  for (unsigned i = 0; i + 1 < p.npasses; ++i) g.low.bits[i] = p.pass[i].log_m;
  g.batch = p.batch;
  g.packed = packed;
  return g;
}

struct tail_row {
  std::size_t outer;  // storage row: flat position of its bin k is outer*m + k
  bool valid;         // false: a padding slot past the batch
};

// Storage row of slot `slot` of tile `blk`.
BIGMUL_HD tail_row tail_row_of(const tail_geom& g, std::size_t blk, unsigned slot) {
  if (!g.packed || g.log_rows_per == 0) {
    const std::size_t outer = (blk << g.d.log_rows) + slot;
    return {outer, outer < g.d.outer_total};
  }
  const unsigned log_half = g.log_rows_per - 1;
  const std::size_t u = (blk << (g.d.log_rows - 1)) + (slot >> 1);  // mirror pair of rows
  const std::size_t b = u >> log_half, a = u & ((std::size_t{1} << log_half) - 1);
  const std::size_t M = std::size_t{1} << g.log_rows_per;
  const std::size_t f = (slot & 1) == 0 ? a : (a == 0 ? M / 2 : M - a);
  return {(b << g.log_rows_per) + g.low.position_of(f), b < g.batch};
}

// Pair item t (< E/2) of a tile: the bins (lane_lo, idx_lo) = f and (lane_hi, idx_hi) =
// h - f with f < h/2; zero: (lane_lo, idx_lo) holds the real bins 0 and h packed, and
// (lane_hi, idx_hi) the self-paired h/2 (what real_pointwise_at does for f = 0).
struct tail_pair {
  unsigned lane_lo, idx_lo, lane_hi, idx_hi;
  std::size_t f;
  bool zero;
};

BIGMUL_HD tail_pair tail_pair_of(const tail_geom& g, std::size_t blk, unsigned t) {
  const unsigned log_m = g.d.log_m, m = 1u << log_m;
  if (g.log_rows_per == 0) {  // one transform a slot: pairs (k, m-k), k < m/2
    const unsigned lane = t >> (log_m - 1), k = t & (m / 2 - 1);
    if (k == 0) return {lane, 0, lane, m / 2, 0, true};
    return {lane, k, lane, m - k, k, false};
  }
  const unsigned l0 = (t >> log_m) << 1, l1 = l0 + 1, k = t & (m - 1);
  const unsigned log_half = g.log_rows_per - 1;
  const std::size_t u = (blk << (g.d.log_rows - 1)) + (l0 >> 1);
  const std::size_t a = u & ((std::size_t{1} << log_half) - 1);
  const std::size_t M = std::size_t{1} << g.log_rows_per;
  if (a != 0) {
    const std::size_t f1 = a + M * k, h = std::size_t{1} << g.log_h;
    if (2 * f1 < h) return {l0, k, l1, m - 1 - k, f1, false};
    return {l1, m - 1 - k, l0, k, h - f1, false};
  }
  if (k < m / 2) return {l1, k, l1, m - 1 - k, M / 2 + M * k, false};  // row M/2 pairs with itself
  const unsigned k0 = k - m / 2;                                       // row 0 pairs with itself
  if (k0 == 0) return {l0, 0, l0, m / 2, 0, true};
  return {l0, k0, l0, m - k0, M * k0, false};
}

// The real FFT's product of one pair item (the arithmetic of real_pointwise_at): x(lane,
// idx) and y(lane, idx) read the two operands' spectra, put(lane, idx, v) writes the
// product's packed spectrum (2x, scaled). Reads precede writes; no other item touches
// these bins. lo/hi: split table of w_{2h}.
template <class C, bool Square, class Real, class GetX, class GetY, class Put>
BIGMUL_HD void tail_pair_product(const tail_pair& t, unsigned log_h, const C* lo, const C* hi, unsigned log_split,
                                 Real scale, const GetX& x, const GetY& y, const Put& put) {
  const std::size_t quarter = std::size_t{1} << (log_h - 1);
  const std::size_t fe = t.zero ? quarter : t.f;
  const C w = split_root(lo, hi, log_split, fe);
  const C xlo = x(t.lane_lo, t.idx_lo), xhi = x(t.lane_hi, t.idx_hi);
  C xf, xg, yf, yg;
  if (t.zero) {
    real_unpack(xhi, xhi, w, xf, xg);
  } else {
    real_unpack(xlo, xhi, w, xf, xg);
  }
  C ylo = xlo;
  if (Square) {
    yf = xf;
    yg = xg;
  } else {
    ylo = y(t.lane_lo, t.idx_lo);
    const C yhi = y(t.lane_hi, t.idx_hi);
    if (t.zero) {
      real_unpack(yhi, yhi, w, yf, yg);
    } else {
      real_unpack(ylo, yhi, w, yf, yg);
    }
  }
  C zf, zg;
  real_pack(c_scale(c_mul(xf, yf), scale), c_scale(c_mul(xg, yg), scale), w, zf, zg);
  if (t.zero) {
    Real x0, xh, y0, yh;
    real_unpack0(xlo, x0, xh);
    if (Square) {
      y0 = x0;
      yh = xh;
    } else {
      real_unpack0(ylo, y0, yh);
    }
    put(t.lane_lo, t.idx_lo, real_pack0<C>(x0 * y0 * scale, xh * yh * scale));
    put(t.lane_hi, t.idx_hi, zf);  // self pair h/2
    return;
  }
  put(t.lane_lo, t.idx_lo, zf);
  put(t.lane_hi, t.idx_hi, zg);
}

}  // namespace bigmul::fft::cuda::plan
