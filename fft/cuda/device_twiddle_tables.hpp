// SPDX-License-Identifier: LGPL-3.0-or-later
// Twiddle tables of the in-house GPU FFT: one buffer per plan holding the block
// table and the two split tables of w_n, filled on the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bigmul/hd.hpp"
#include "fft/cuda/device_complex.hpp"
#include "fft/cuda/device_fft_plan.hpp"
#include "fft/twiddle.hpp"

namespace bigmul::fft::cuda::plan {

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

}  // namespace bigmul::fft::cuda::plan
