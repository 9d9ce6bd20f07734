// SPDX-License-Identifier: LGPL-3.0-or-later
// The portable engine's power-of-two transforms (see fft/ntt.hpp): radix-2
// levels, recursive down to an in-cache leaf, whole-array levels shared over
// the threads first. Plan and tables: fft/ntt.cpp; radix-3 stage:
// ntt_radix3.cpp.
#include <algorithm>

#include "fft/ntt.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

// Sub-transforms of at most this many values (16 KiB) run level by level in
// L1; larger ones recurse. Measured with bench_ntt (bench/fft).
constexpr std::size_t leaf_size = std::size_t{1} << 11;
// Butterflies per task in a parallel level pass.
constexpr std::size_t level_grain = std::size_t{1} << 14;

// Level t's butterflies j0 .. j0 + len of a block (x[i], x[i + t]) =
// block[j0 + i], block[j0 + t + i]. A level above the table's cap
// (fft/ntt_level_table.hpp) multiplies by its fine then its coarse factor,
// one run of F butterflies (one coarse entry) at a time.
void level_run_forward(const ntt64_level_table& T, u64* x, std::size_t t, std::size_t j0, std::size_t len, u64 p) {
  if (t <= ntt52_level_table::cap) {
    const ntt_twiddle* L = T.level(t);
    for (std::size_t i = 0; i < len; ++i) butterfly_dif(x[i], x[i + t], L[j0 + i].w, L[j0 + i].w_shoup, p);
    return;
  }
  const std::size_t F = ntt52_level_table::fine(t);
  const ntt_twiddle *fine = T.fine_level(t), *coarse = T.coarse_level(t);
  for (std::size_t i = 0; i < len;) {
    const std::size_t j = j0 + i, jh = j / F, jl = j % F, run = std::min(F - jl, len - i);
    const ntt_twiddle c = coarse[jh];
    for (std::size_t r = 0; r < run; ++r, ++i) {
      butterfly_dif(x[i], x[i + t], fine[jl + r].w, fine[jl + r].w_shoup, p);
      x[i + t] = mul_shoup_lazy(x[i + t], c.w, c.w_shoup, p);
    }
  }
}
// The inverse: twiddle w_2t^(t - j) (negated butterfly), index t - j split
// as (t - j) / F, (t - j) % F (entry F of a fine table is never needed here).
void level_run_inverse(const ntt64_level_table& T, u64* x, std::size_t t, std::size_t j0, std::size_t len, u64 p) {
  if (t <= ntt52_level_table::cap) {
    const ntt_twiddle* L = T.level(t);
    for (std::size_t i = 0; i < len; ++i) {
      const ntt_twiddle& w = L[t - (j0 + i)];
      butterfly_dit_negated(x[i], x[i + t], w.w, w.w_shoup, p);
    }
    return;
  }
  const std::size_t F = ntt52_level_table::fine(t);
  const ntt_twiddle *fine = T.fine_level(t), *coarse = T.coarse_level(t);
  for (std::size_t i = 0; i < len; ++i) {
    const std::size_t k = t - (j0 + i);
    const ntt_twiddle c = coarse[k / F], f = fine[k % F];
    x[i + t] = mul_shoup_lazy(x[i + t], c.w, c.w_shoup, p);
    butterfly_dit_negated(x[i], x[i + t], f.w, f.w_shoup, p);
  }
}

}  // namespace

void ntt_plan::leaf_forward(u64* a, std::size_t size) const {
  const u64 p = p_, two_p = 2 * p;
  for (std::size_t t = size / 2; t >= 2; t /= 2) {
    const twiddle* L = level(t);  // w_2t^j
    for (std::size_t k = 0; k < size; k += 2 * t) {
      u64* x = a + k;
      u64* y = x + t;
      for (std::size_t j = 0; j < t; ++j) butterfly_dif(x[j], y[j], L[j].w, L[j].w_shoup, p);
    }
  }
  if (size >= 2)  // t = 1: the twiddle is 1
    for (std::size_t k = 0; k < size; k += 2) {
      const u64 x = a[k], y = a[k + 1];
      const u64 s = x + y, d = x - y + two_p;
      a[k] = s >= two_p ? s - two_p : s;
      a[k + 1] = d >= two_p ? d - two_p : d;
    }
}

void ntt_plan::leaf_inverse(u64* a, std::size_t size) const {
  const u64 p = p_, two_p = 2 * p;
  if (size >= 2)
    for (std::size_t k = 0; k < size; k += 2) {
      const u64 x = a[k], y = a[k + 1];
      const u64 s = x + y, d = x - y + two_p;
      a[k] = s >= two_p ? s - two_p : s;
      a[k + 1] = d >= two_p ? d - two_p : d;
    }
  for (std::size_t t = 2; t < size; t *= 2) {
    const twiddle* L = level(t);  // -w_2t^-j = w_2t^(t - j)
    for (std::size_t k = 0; k < size; k += 2 * t) {
      u64* x = a + k;
      u64* y = x + t;
      for (std::size_t j = 0; j < t; ++j) {
        const twiddle& w = L[t - j];
        butterfly_dit_negated(x[j], y[j], w.w, w.w_shoup, p);
      }
    }
  }
}

void ntt_plan::rec_forward(u64* a, std::size_t size) const {
  if (size <= leaf_size) return leaf_forward(a, size);
  const std::size_t t = size / 2;
  level_run_forward(*levels_, a, t, 0, t, p_);
  rec_forward(a, t);
  rec_forward(a + t, t);
}

void ntt_plan::rec_inverse(u64* a, std::size_t size) const {
  if (size <= leaf_size) return leaf_inverse(a, size);
  const std::size_t t = size / 2;
  rec_inverse(a, t);
  rec_inverse(a + t, t);
  level_run_inverse(*levels_, a, t, 0, t, p_);
}

// One radix-2 level with half-size t over the whole power-of-two array, the
// m/2 butterflies split over the threads.
void ntt_plan::level_forward(u64* a, std::size_t t, unsigned threads) const {
  ntt_parallel_level(m_, t, 1, level_grain, threads, [&](std::size_t at, std::size_t j0, std::size_t len) {
    level_run_forward(*levels_, a + at, t, j0, len, p_);
  });
}

void ntt_plan::level_inverse(u64* a, std::size_t t, unsigned threads) const {
  ntt_parallel_level(m_, t, 1, level_grain, threads, [&](std::size_t at, std::size_t j0, std::size_t len) {
    level_run_inverse(*levels_, a + at, t, j0, len, p_);
  });
}

// With several threads: whole-array levels until there are enough
// independent sub-transforms to share out, then one task per sub-transform.
void ntt_plan::pow2_forward(u64* a, unsigned threads) const {
  if (threads <= 1 || m_ <= leaf_size) return rec_forward(a, m_);
  const std::size_t size = ntt_task_size(m_, leaf_size, threads);
  for (std::size_t s = m_; s > size; s /= 2) level_forward(a, s / 2, threads);
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_forward(a + b * size, size); });
}

void ntt_plan::pow2_inverse(u64* a, unsigned threads) const {
  if (threads <= 1 || m_ <= leaf_size) return rec_inverse(a, m_);
  std::size_t size = ntt_task_size(m_, leaf_size, threads);
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_inverse(a + b * size, size); });
  for (; size < m_; size *= 2) level_inverse(a, size, threads);
}
void ntt_plan::forward(u64* a, unsigned threads) const {
  threads = prim::resolve_threads(threads);
  if (n_ == m_) return pow2_forward(a, threads);
  radix3_.forward(a, threads);
  for (int r = 0; r < 3; ++r) pow2_forward(a + r * m_, threads);
}

void ntt_plan::inverse(u64* a, unsigned threads) const {
  threads = prim::resolve_threads(threads);
  if (n_ == m_) return pow2_inverse(a, threads);
  for (int r = 0; r < 3; ++r) pow2_inverse(a + r * m_, threads);
  radix3_.inverse(a, threads);
}

}  // namespace bigmul::fft
