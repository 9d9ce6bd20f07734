// Plan decomposition, index math and per-element arithmetic of the in-house GPU
// FFT (fft/cuda/device_fft.cuh). Plain C++17 with BIGMUL_HD functions and no CUDA
// headers, so that tests/fft/test_fft_gpu_model.cpp runs the very same code on the
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
#include <cstdint>
#include <type_traits>
#include <vector>

#include "bigmul/hd.hpp"
#include "fft/real_pair.hpp"
#include "fft/twiddle.hpp"

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
};

// 64 KiB of data per tile: 4096 double2 or 8192 float2, 128-byte column segments.
template <class Real>
constexpr limits default_limits() {
  return sizeof(Real) == 8 ? limits{12, 3, 9} : limits{13, 4, 9};
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
};

// Bits of each pass (m_p = 2^bits[p]). Column passes (all but the last) hold at most
// S / C_min points, the last at most S. Returns 0 when k cannot be planned.
inline unsigned split_passes(unsigned k, const limits& lim, unsigned bits[max_passes]) {
  const unsigned s_row = lim.log_tile;
  const unsigned s_col = lim.log_tile - lim.log_min_cols;
  if (k < 1 || k > max_log_n) return 0;
  if (k <= s_row) {
    bits[0] = k;
    return 1;
  }
  if (k <= s_row + s_col) {
    unsigned b0 = (k + 1) / 2;
    if (b0 > s_col) b0 = s_col;
    bits[0] = b0;
    bits[1] = k - b0;
    return 2;
  }
  if (k <= s_row + 2 * s_col) {
    unsigned last = k / 3;
    if (k > 2 * s_col && k - 2 * s_col > last) last = k - 2 * s_col;
    const unsigned rest = k - last;
    bits[0] = (rest + 1) / 2;
    bits[1] = rest / 2;
    bits[2] = last;
    return 3;
  }
  return 0;
}

// Radices of the in-tile Stockham FFT: ceil(b/4) stages, bits spread evenly (larger first).
inline unsigned split_stages(unsigned b, unsigned char out[max_stages]) {
  if (b == 0) return 0;
  const unsigned ns = (b + log_elems_per_thread - 1) / log_elems_per_thread;
  const unsigned base = b / ns, extra = b % ns;
  for (unsigned s = 0; s < ns; ++s) out[s] = static_cast<unsigned char>(base + (s < extra ? 1 : 0));
  return ns;
}

inline fft_plan make_plan(std::size_t n, std::size_t batch, const limits& lim) {
  fft_plan p;
  if (n < 2 || (n & (n - 1)) != 0 || batch == 0) return p;
  const unsigned k = ilog2(n);
  unsigned bits[max_passes] = {};
  const unsigned np = split_passes(k, lim, bits);
  if (np == 0) return p;
  p.log_n = k;
  p.batch = batch;
  p.npasses = np;
  unsigned after = k;
  unsigned max_m = 0;
  for (unsigned i = 0; i < np; ++i) {
    pass_desc& d = p.pass[i];
    d.log_m = bits[i];
    after -= bits[i];
    d.log_stride = after;
    d.log_len = d.log_m + d.log_stride;
    d.outer_total = batch << (k - d.log_len);
    // Columns: as many consecutive inner indices as fit (>= C_min by construction).
    unsigned lc = lim.log_tile - d.log_m;
    if (lc > d.log_stride) lc = d.log_stride;
    d.log_cols = lc;
    d.col_groups = std::size_t{1} << (d.log_stride - lc);
    // Rows: fill the tile, but not beyond the rows there are; pad tiny tiles.
    unsigned lr = lim.log_tile - d.log_m - lc;
    unsigned have = ilog2(d.outer_total);  // floor: no tile is mostly padding
    if (lr > have) lr = have;
    const unsigned min_tile = lim.log_min_tile > lim.log_tile ? lim.log_tile : lim.log_min_tile;
    const unsigned need = min_tile > log_elems_per_thread ? min_tile : log_elems_per_thread;
    if (d.log_m + lc + lr < need) lr = need - d.log_m - lc;
    d.log_rows = lr;
    d.row_groups = (d.outer_total + (std::size_t{1} << lr) - 1) >> lr;
    d.threads = 1u << (d.log_tile() - log_elems_per_thread);
    d.nstages = split_stages(d.log_m, d.stage_log);
    d.j_fast = d.log_stride == 0;
    if (d.log_m > max_m) max_m = d.log_m;
  }
  p.log_block_table = max_m;
  p.log_split = k / 2;
  p.valid = true;
  return p;
}

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

inline order order_of(const fft_plan& p) {
  order o;
  o.npasses = p.npasses;
  for (unsigned i = 0; i < p.npasses; ++i) o.bits[i] = p.pass[i].log_m;
  return o;
}

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

// ---- complex arithmetic on any {x, y} type -------------------------------------

template <class C>
BIGMUL_HD C make_c(decltype(C{}.x) x, decltype(C{}.x) y) {
  C r;
  r.x = x;
  r.y = y;
  return r;
}
template <class C>
BIGMUL_HD C c_add(const C& a, const C& b) { return make_c<C>(a.x + b.x, a.y + b.y); }
template <class C>
BIGMUL_HD C c_sub(const C& a, const C& b) { return make_c<C>(a.x - b.x, a.y - b.y); }
template <class C>
BIGMUL_HD C c_mul(const C& a, const C& b) {
  return make_c<C>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// a * conj(b)
template <class C>
BIGMUL_HD C c_mul_conj(const C& a, const C& b) {
  return make_c<C>(a.x * b.x + a.y * b.y, a.y * b.x - a.x * b.y);
}
template <class C>
BIGMUL_HD C c_conj(const C& a) { return make_c<C>(a.x, -a.y); }
template <class C>
BIGMUL_HD C c_scale(const C& a, decltype(C{}.x) s) { return make_c<C>(a.x * s, a.y * s); }

// cos and sin of 2 pi k / 16, k < 16 (the roots inside the radix-16 butterfly).
BIGMUL_HD constexpr double root16_cos(unsigned k) {
  constexpr double c1 = 0.92387953251128675613, c2 = 0.70710678118654752440, c3 = 0.38268343236508977173;
  switch (k & 15) {
    case 0: return 1.0;
    case 1: return c1;
    case 2: return c2;
    case 3: return c3;
    case 4: return 0.0;
    case 5: return -c3;
    case 6: return -c2;
    case 7: return -c1;
    case 8: return -1.0;
    case 9: return -c1;
    case 10: return -c2;
    case 11: return -c3;
    case 12: return 0.0;
    case 13: return c3;
    case 14: return c2;
    default: return c1;
  }
}
BIGMUL_HD constexpr double root16_sin(unsigned k) { return root16_cos(k + 12); }  // sin x = cos(x - pi/2)

// v * w_R^k with w_R = exp(-2 pi i / R) (forward) or its conjugate (Inv).
template <int R, int K, bool Inv, class C>
BIGMUL_HD C mul_root(const C& v) {
  using Real = decltype(C{}.x);
  constexpr int k = K % R;
  if constexpr (k == 0) {
    return v;
  } else if constexpr (4 * k == R) {  // -i (forward), +i (inverse)
    return Inv ? make_c<C>(-v.y, v.x) : make_c<C>(v.y, -v.x);
  } else if constexpr (2 * k == R) {
    return make_c<C>(-v.x, -v.y);
  } else if constexpr (4 * k == 3 * R) {  // +i (forward), -i (inverse)
    return Inv ? make_c<C>(v.y, -v.x) : make_c<C>(-v.y, v.x);
  } else {
    constexpr unsigned i16 = static_cast<unsigned>(k * (16 / R));
    const Real c = static_cast<Real>(root16_cos(i16));
    const Real s = Inv ? static_cast<Real>(root16_sin(i16)) : -static_cast<Real>(root16_sin(i16));
    return make_c<C>(v.x * c - v.y * s, v.x * s + v.y * c);
  }
}

// In-register DFT of R = 2, 4, 8, 16 points, natural order in and out (radix-2
// decimation in time, all indices compile-time constants).
template <int R, bool Inv, class C>
struct dft {
  template <int K = 0>
  static BIGMUL_HD void combine(C* v, const C* e, const C* o) {
    if constexpr (K < R / 2) {
      const C t = mul_root<R, K, Inv>(o[K]);
      v[K] = c_add(e[K], t);
      v[K + R / 2] = c_sub(e[K], t);
      combine<K + 1>(v, e, o);
    }
  }
  template <int I = 0>
  static BIGMUL_HD void split(const C* v, C* e, C* o) {
    if constexpr (I < R / 2) {
      e[I] = v[2 * I];
      o[I] = v[2 * I + 1];
      split<I + 1>(v, e, o);
    }
  }
  static BIGMUL_HD void run(C* v) {
    C e[R / 2], o[R / 2];
    split(v, e, o);
    dft<R / 2, Inv, C>::run(e);
    dft<R / 2, Inv, C>::run(o);
    combine(v, e, o);
  }
};
template <bool Inv, class C>
struct dft<2, Inv, C> {
  static BIGMUL_HD void run(C* v) {
    const C a = v[0], b = v[1];
    v[0] = c_add(a, b);
    v[1] = c_sub(a, b);
  }
};

// ---- one Stockham stage ----------------------------------------------------------
// A thread owns butterflies tid + i*threads, i < V/R; v[i*R + r] holds input r.

// Read phase: get(lane, idx) gives element idx (along j) of the lane.
template <int R, class C, class Get>
BIGMUL_HD void stage_read(const pass_desc& d, unsigned tid, C* v, const Get& get) {
  constexpr unsigned log_r = ilog2(R);
  const unsigned log_q = d.log_m - log_r;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (unsigned i = 0; i < elems_per_thread / R; ++i) {
    unsigned lane, j;
    butterfly_coords(d, log_q, tid + std::size_t(i) * d.threads, lane, j);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned r = 0; r < unsigned(R); ++r) v[i * R + r] = get(lane, j + (r << log_q));
  }
}

// Compute and write phase: twiddle, DFT_R, put(lane, idx, value). tw(e) gives
// w_M^e from the block table of M = 2^log_table entries; log_ns = log2(Ns).
template <int R, bool Inv, class C, class Tw, class Put>
BIGMUL_HD void stage_write(const pass_desc& d, unsigned tid, unsigned log_ns, unsigned log_table, C* v, const Tw& tw,
                           const Put& put) {
  constexpr unsigned log_r = ilog2(R);
  const unsigned log_q = d.log_m - log_r;
  const unsigned ns_mask = (1u << log_ns) - 1;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (unsigned i = 0; i < elems_per_thread / R; ++i) {
    unsigned lane, j;
    butterfly_coords(d, log_q, tid + std::size_t(i) * d.threads, lane, j);
    const unsigned k = j & ns_mask;
    if (log_ns > 0) {
      const unsigned tshift = log_table - log_ns - log_r;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (unsigned r = 1; r < unsigned(R); ++r) {
        const C w = tw((k * r) << tshift);
        v[i * R + r] = Inv ? c_mul_conj(v[i * R + r], w) : c_mul(v[i * R + r], w);
      }
    }
    dft<R, Inv, C>::run(v + i * R);
    const unsigned base = ((j >> log_ns) << (log_ns + log_r)) + k;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned r = 0; r < unsigned(R); ++r) put(lane, base + (r << log_ns), v[i * R + r]);
  }
}

// Calls f(std::integral_constant<int, R>{}) for the radix R = 2^log_r (log_r = 1..4).
template <class F>
BIGMUL_HD void with_radix(unsigned log_r, F&& f) {
  switch (log_r) {
    case 1: f(std::integral_constant<int, 2>{}); break;
    case 2: f(std::integral_constant<int, 4>{}); break;
    case 3: f(std::integral_constant<int, 8>{}); break;
    default: f(std::integral_constant<int, 16>{}); break;
  }
}

// ---- twiddle tables (host, long double, each entry rounded once) -------------------
// Layout of one table buffer: [block table: M entries w_M^e][lo: 2^log_split entries
// w_n^e][hi: 2^(log_n - log_split) entries w_n^(e << log_split)].
struct table_layout {
  std::size_t block = 0, lo = 0, hi = 0, total = 0;
};
inline table_layout layout_of(const fft_plan& p) {
  table_layout t;
  t.block = 0;
  t.lo = std::size_t{1} << p.log_block_table;
  t.hi = t.lo + (std::size_t{1} << p.log_split);
  t.total = t.hi + (std::size_t{1} << (p.log_n - p.log_split));
  return t;
}

// Fills out[0 .. total) with {re, im} pairs (C has .x/.y of Real).
template <class C>
void fill_tables(const fft_plan& p, std::vector<C>& out) {
  using Real = decltype(C{}.x);
  const table_layout t = layout_of(p);
  out.resize(t.total);
  auto put = [&](std::size_t at, std::uint64_t e, std::uint64_t n) {
    const root_ld w = unit_root(e, n);
    out[at] = make_c<C>(static_cast<Real>(w.re), static_cast<Real>(w.im));
  };
  const std::uint64_t M = std::uint64_t{1} << p.log_block_table, n = std::uint64_t{1} << p.log_n;
  for (std::uint64_t e = 0; e < M; ++e) put(t.block + e, e, M);
  for (std::uint64_t e = 0; e < (std::uint64_t{1} << p.log_split); ++e) put(t.lo + e, e, n);
  for (std::uint64_t e = 0; e < (n >> p.log_split); ++e) put(t.hi + e, e << p.log_split, n);
}

// w_n^e from the split tables.
template <class C>
BIGMUL_HD C split_root(const C* lo, const C* hi, unsigned log_split, std::size_t e) {
  return c_mul(hi[e >> log_split], lo[e & ((std::size_t{1} << log_split) - 1)]);
}

// ---- round-off statistics of a Store (max |error| reduced through atomicMax on bits) --
// The larger error, NaN sticky (fmax would drop a NaN and let a broken pass through).
BIGMUL_HD double worse_error(double a, double b) { return (b > a || b != b) ? b : a; }
// The value whose bits go to atomicMax on unsigned long long: non-negative with a clear
// sign bit (-0.0 has the largest bits of all and would win every max), NaN and
// inf as 1e300 (a huge failing value with ordered bits).
BIGMUL_HD double error_for_atomic_max(double e) {
  if (!(e <= 1e300)) return 1e300;
  return e > 0 ? e : 0.0;
}

// ---- real-FFT pair arithmetic: fft/real_pair.hpp (shared with the CPU real_fft) --
using bigmul::fft::real_pack;
using bigmul::fft::real_pack0;
using bigmul::fft::real_unpack;
using bigmul::fft::real_unpack0;

// The pointwise step of the real FFT for index i = b*h + pos (pos < h = 2^log_h >= 2:
// a storage position of transform b's half-length spectrum Z, plan order `ord`).
// With f = frequency_at(pos): if f < h - f, reads the pair (f, h-f) of dst (and src),
// unpacks X (Y), multiplies P = X*Y*scale (X*X when Square) and re-packs 2x the packed
// spectrum of P into both positions; f = 0 also does the real bins 0 and h and the
// self-paired f = h/2; every other index does nothing. Iterating over positions keeps
// the accesses coalesced (consecutive positions: consecutive partners, descending).
// lo/hi: split table of w_n (n = 2h). src may alias dst.
template <class C, bool Square, class Real>
BIGMUL_HD void real_pointwise_at(C* dst, const C* src, std::size_t i, unsigned log_h, const order& ord, const C* lo,
                                 const C* hi, unsigned log_split, Real scale) {
  const std::size_t h = std::size_t{1} << log_h, quarter = h >> 1;
  const std::size_t b = i >> log_h;
  const std::size_t f = ord.frequency_at(i & (h - 1));
  if (f != 0 && f >= h - f) return;  // the lower frequency of the pair does the work
  C* zd = dst + b * h;
  const C* zs = (Square ? dst : src) + b * h;
  const std::size_t fe = f == 0 ? quarter : f;      // f = 0 also does the self pair h/2
  const std::size_t g = f == 0 ? quarter : h - f;
  const std::size_t pf = ord.position_of(fe), pg = ord.position_of(g);
  const C w = split_root(lo, hi, log_split, fe);
  C xf, xg, yf, yg;
  real_unpack(zd[pf], zd[pg], w, xf, xg);
  if (Square) {
    yf = xf;
    yg = xg;
  } else {
    real_unpack(zs[pf], zs[pg], w, yf, yg);
  }
  C zf, zg;
  real_pack(c_scale(c_mul(xf, yf), scale), c_scale(c_mul(xg, yg), scale), w, zf, zg);
  if (f == 0) {
    const std::size_t p0 = i & (h - 1);
    Real x0, xh, y0, yh;
    real_unpack0(zd[p0], x0, xh);
    if (Square) {
      y0 = x0;
      yh = xh;
    } else {
      real_unpack0(zs[p0], y0, yh);
    }
    zd[p0] = real_pack0<C>(x0 * y0 * scale, xh * yh * scale);
    zd[pf] = zf;  // self pair: pf == pg
    return;
  }
  zd[pf] = zf;
  zd[pg] = zg;
}

}  // namespace bigmul::fft::cuda::plan
