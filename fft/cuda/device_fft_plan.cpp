// SPDX-License-Identifier: LGPL-3.0-or-later
// Host half of the in-house GPU FFT's plan (fft/cuda/device_fft_plan.hpp): how
// n = 2^k splits into passes, tiles and Stockham stages.
#include "fft/cuda/device_fft_plan.hpp"

namespace bigmul::fft::cuda::plan {

unsigned split_passes(unsigned k, const limits& lim, unsigned bits[max_passes]) {
  const unsigned s_row = lim.log_tile;
  const unsigned s_col = lim.log_tile - lim.log_min_cols;
  const unsigned pref = lim.log_pref_cols > lim.log_min_cols ? lim.log_pref_cols : lim.log_min_cols;
  const unsigned s_pref = lim.log_tile > pref ? lim.log_tile - pref : 1;  // column bits for C_pref columns
  if (k < 1 || k > max_log_n) return 0;
  if (k <= s_row) {
    bits[0] = k;
    return 1;
  }
  if (k <= s_row + s_col) {
    // Balanced, but the column pass no longer than C_pref columns allow while the
    // last pass can take the rest.
    unsigned b0 = (k + 1) / 2;
    if (b0 > s_pref) b0 = k - s_row > s_pref ? k - s_row : s_pref;
    if (b0 > s_col) b0 = s_col;
    bits[0] = b0;
    bits[1] = k - b0;
    return 2;
  }
  if (lim.log_two_pass_cols != 0 && lim.log_two_pass_cols < lim.log_min_cols &&
      k <= s_row + (lim.log_tile - lim.log_two_pass_cols)) {
    bits[0] = k - s_row;  // the column pass as short as the last pass allows: the most columns
    bits[1] = s_row;
    return 2;
  }
  if (k <= s_row + 2 * s_col) {
    unsigned last = k / 3;
    if (k > 2 * s_pref && k - 2 * s_pref > last) last = k - 2 * s_pref;  // C_pref columns ...
    if (last > s_row) last = s_row;                                     // ... where the last pass fits
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
unsigned split_stages(unsigned b, unsigned char out[max_stages]) {
  if (b == 0) return 0;
  const unsigned ns = (b + log_elems_per_thread - 1) / log_elems_per_thread;
  const unsigned base = b / ns, extra = b % ns;
  for (unsigned s = 0; s < ns; ++s) out[s] = static_cast<unsigned char>(base + (s < extra ? 1 : 0));
  return ns;
}

fft_plan make_plan(std::size_t n, std::size_t batch, const limits& lim) {
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

order order_of(const fft_plan& p) {
  order o;
  o.npasses = p.npasses;
  for (unsigned i = 0; i < p.npasses; ++i) o.bits[i] = p.pass[i].log_m;
  return o;
}

}  // namespace bigmul::fft::cuda::plan
