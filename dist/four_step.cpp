// SPDX-License-Identifier: LGPL-3.0-or-later
// The distributed four-step NTT of one prime (dist/four_step.hpp).
#include "dist/four_step.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "bigmul/error.hpp"
#include "fft/ntt_arith.hpp"
#include "prim/parallel.hpp"

namespace bigmul::dist {

using fft::u128;

namespace {
u64 r_mod(u64 p) { return static_cast<u64>((static_cast<u128>(1) << 64) % p); }
}  // namespace

namespace {
// Where a forward transform of length m (forward(x) in place, values mod p)
// leaves each frequency, learned from the transform of x = (0, 1, 0 ..):
// position q holds w^k (w: the four-step's root to the power n / m), so
// pos[k] = q. The engines' digit-reversed orders differ (the IFMA engine
// also interleaves each 16 outputs); this takes whichever it is, and throws
// bigmul::error (internal) unless every output is a distinct power.
template <class Forward>
std::vector<std::uint32_t> engine_positions(Forward&& forward, std::size_t m, u64 p, u64 w) {
  std::vector<u64> x(m, 0);
  x[1 % m] = 1;
  forward(x.data());
  std::unordered_map<u64, std::uint32_t> power;  // w^k -> k
  u64 wk = 1;
  for (std::size_t k = 0; k < m; ++k, wk = fft::mul_mod(wk, w, p)) power.emplace(wk, static_cast<std::uint32_t>(k));
  std::vector<std::uint32_t> pos(m, 0);
  std::vector<char> seen(m, 0);
  for (std::size_t q = 0; q < m; ++q) {
    const auto it = power.find(fft::reduce_2p_to_p(x[q], p));
    if (it == power.end() || seen[it->second] || power.size() != m)
      throw error(error::kind::internal, "distributed NTT: the engine's transform of length " + std::to_string(m) +
                                             " is not a DFT with the four-step's root in some order");
    seen[it->second] = 1;
    pos[it->second] = static_cast<std::uint32_t>(q);
  }
  return pos;
}
// dst[c dst_stride + r] = src[r src_stride + c] for r < rows, c < cols, in
// 8 x 8 tiles: the transposes' strided side then touches whole cache lines.
void transpose(const u64* src, std::size_t src_stride, u64* dst, std::size_t dst_stride, std::size_t rows,
               std::size_t cols) {
  constexpr std::size_t tile = 8;
  for (std::size_t r0 = 0; r0 < rows; r0 += tile)
    for (std::size_t c0 = 0; c0 < cols; c0 += tile) {
      const std::size_t r1 = std::min(rows, r0 + tile), c1 = std::min(cols, c0 + tile);
      for (std::size_t c = c0; c < c1; ++c)
        for (std::size_t r = r0; r < r1; ++r) dst[c * dst_stride + r] = src[r * src_stride + c];
    }
}
}  // namespace

four_step::four_step(const context& ctx, shape s, unsigned prime, bool ifma)
    : ctx_(ctx),
      s_(s),
      cols_(mpi::block_of(s.n1, ctx.size, ctx.rank)),
      rows_(mpi::block_of(s.n2, ctx.size, ctx.rank)) {
  const fft::ntt_prime pr = ifma ? fft::ntt52_primes[prime] : fft::ntt_primes[prime];
  p_ = pr.p;
  p_neg_inv_ = fft::neg_inverse_mod_2_64(p_);
  root_ = fft::pow_mod(pr.generator, (p_ - 1) / s.n, p_);
  root_inv_ = fft::inv_mod(root_, p_);
  n2_inv_ = fft::inv_mod(s.n2 % p_, p_);
  const u64 w1 = fft::pow_mod(root_, s.n2, p_), w2 = fft::pow_mod(root_, s.n1, p_);  // orders n1, n2
  if (ifma) {
    plan1v_ = fft::ntt52_plan::get(prime, s.n1);
    plan2v_ = fft::ntt52_plan::get(prime, s.n2);
    engine_positions([&](u64* x) { plan1v_->forward(x, 1); }, s.n1, p_, w1);
    pos2_ = engine_positions([&](u64* x) { plan2v_->forward(x, 1); }, s.n2, p_, w2);
  } else {
    plan1_ = fft::ntt_plan::get(prime, s.n1);
    plan2_ = fft::ntt_plan::get(prime, s.n2);
    engine_positions([&](u64* x) { plan1_->forward(x, 1); }, s.n1, p_, w1);
    pos2_ = engine_positions([&](u64* x) { plan2_->forward(x, 1); }, s.n2, p_, w2);
  }
}

// count transforms of length n2 (columns) or n1 (rows), contiguous: one a
// task when there are enough, else each over the threads.
void four_step::local_transforms(u64* data, std::size_t count, bool along_columns, bool inverse) const {
  const std::size_t len = along_columns ? s_.n2 : s_.n1;
  auto run = [&](std::size_t i, unsigned threads) {
    u64* x = data + i * len;
    if (plan1v_) {
      const fft::ntt52_plan& plan = along_columns ? *plan2v_ : *plan1v_;
      inverse ? plan.inverse(x, threads) : plan.forward(x, threads);
    } else {
      const fft::ntt_plan& plan = along_columns ? *plan2_ : *plan1_;
      inverse ? plan.inverse(x, threads) : plan.forward(x, threads);
    }
  };
  if (count >= ctx_.threads) {
    prim::parallel_for(count, ctx_.threads, [&](std::size_t i) { run(i, 1); });
  } else {
    for (std::size_t i = 0; i < count; ++i) run(i, ctx_.threads);
  }
}

// Column j1's position pos2[k2] times w^(+-j1 k2), the powers stepped in
// Montgomery form (R = 2^64); the inverse's also times 1/n2 (the row
// transforms' fused product took 1/n1 only).
void four_step::twiddle(u64* col, bool inverse) const {
  const u64 p = p_, pni = p_neg_inv_, w = inverse ? root_inv_ : root_;
  const u64 r = inverse ? fft::mul_mod(r_mod(p), n2_inv_, p) : r_mod(p);
  const std::size_t n2 = s_.n2;
  prim::parallel_for(cols_.size(), ctx_.threads, [&](std::size_t t) {
    // Four independent chains of powers (k2 = i mod 4), each stepped by
    // w^(4 j1): one chain's multiplications wait on each other.
    const u64 base = fft::pow_mod(w, cols_.begin + t, p);
    const u64 step_m = fft::mul_mod(fft::pow_mod(base, 4, p), r_mod(p), p);
    u64 power_m[4];  // w^(j1 k2) R
    for (unsigned i = 0; i < 4; ++i) power_m[i] = fft::mul_mod(fft::pow_mod(base, i, p), r, p);
    u64* x = col + t * n2;
    const std::uint32_t* pos = pos2_.data();
    for (std::size_t k2 = 0; k2 < n2; k2 += 4)  // n2 >= 4 is a multiple of 4
      for (unsigned i = 0; i < 4; ++i) {
        u64& v = x[pos[k2 + i]];
        v = fft::mont_mul(v, power_m[i], p, pni);
        power_m[i] = fft::mont_mul(power_m[i], step_m, p, pni);
      }
  });
}

// The rank's own block moves by one local transpose, outside the
// all-to-all (one pass over it instead of three: pack, MPI's copy, unpack).
void four_step::cols_to_rows(const u64* col, u64* row, u64* send, u64* recv) const {
  const std::size_t P = static_cast<std::size_t>(ctx_.size), n1 = s_.n1, n2 = s_.n2;
  const std::size_t me = static_cast<std::size_t>(ctx_.rank);
  std::vector<std::size_t> sc(P, 0), rc(P, 0);
  std::size_t at = 0;
  for (std::size_t d = 0; d < P; ++d) {
    if (d == me) continue;
    const range q = mpi::block_of(n2, ctx_.size, static_cast<int>(d));
    for (std::size_t t = 0; t < cols_.size(); ++t, at += q.size())
      std::copy(col + t * n2 + q.begin, col + t * n2 + q.end, send + at);
    sc[d] = cols_.size() * q.size();
    rc[d] = mpi::block_of(n1, ctx_.size, static_cast<int>(d)).size() * rows_.size();
  }
  transpose(col + rows_.begin, n2, row + cols_.begin, n1, cols_.size(), rows_.size());
  exchange(ctx_, "columns to rows", send, sc, recv, rc);
  at = 0;
  for (std::size_t s = 0; s < P; ++s) {  // from s: j1-major, u-minor
    if (s == me) continue;
    const range c = mpi::block_of(n1, ctx_.size, static_cast<int>(s));
    transpose(recv + at, rows_.size(), row + c.begin, n1, c.size(), rows_.size());
    at += c.size() * rows_.size();
  }
}

void four_step::rows_to_cols(const u64* row, u64* col, u64* send, u64* recv) const {
  const std::size_t P = static_cast<std::size_t>(ctx_.size), n1 = s_.n1, n2 = s_.n2;
  const std::size_t me = static_cast<std::size_t>(ctx_.rank);
  std::vector<std::size_t> sc(P, 0), rc(P, 0);
  std::size_t at = 0;
  for (std::size_t d = 0; d < P; ++d) {
    if (d == me) continue;
    const range c = mpi::block_of(n1, ctx_.size, static_cast<int>(d));
    transpose(row + c.begin, n1, send + at, rows_.size(), rows_.size(), c.size());  // to d: j1-major
    at += c.size() * rows_.size();
    sc[d] = c.size() * rows_.size();
    rc[d] = cols_.size() * mpi::block_of(n2, ctx_.size, static_cast<int>(d)).size();
  }
  transpose(row + cols_.begin, n1, col + rows_.begin, n2, rows_.size(), cols_.size());
  exchange(ctx_, "rows to columns", send, sc, recv, rc);
  at = 0;
  for (std::size_t s = 0; s < P; ++s) {
    if (s == me) continue;
    const range q = mpi::block_of(n2, ctx_.size, static_cast<int>(s));
    for (std::size_t t = 0; t < cols_.size(); ++t, at += q.size())
      std::copy(recv + at, recv + at + q.size(), col + t * n2 + q.begin);
  }
}

void four_step::forward(u64* col, u64* row, u64* send, u64* recv) const {
  local_transforms(col, cols_.size(), true, false);
  twiddle(col, false);
  cols_to_rows(col, row, send, recv);
  local_transforms(row, rows_.size(), false, false);
}

// x = x y / n1 row by row, then each row's inverse: the engine's fused pass
// where it has one (IFMA), else its pointwise product and inverse.
void four_step::row_products(u64* x, const u64* y) const {
  const std::size_t n1 = s_.n1, count = rows_.size();
  auto run = [&](std::size_t i, unsigned threads) {
    u64* xi = x + i * n1;
    const u64* yi = y + i * n1;
    if (plan1v_) return plan1v_->pointwise_inverse(xi, yi, threads);
    plan1_->pointwise(xi, yi, threads);
    plan1_->inverse(xi, threads);
  };
  if (count >= ctx_.threads) {
    prim::parallel_for(count, ctx_.threads, [&](std::size_t i) { run(i, 1); });
  } else {
    for (std::size_t i = 0; i < count; ++i) run(i, ctx_.threads);
  }
}

void four_step::product_inverse(u64* row, const u64* y, u64* col, u64* send, u64* recv) const {
  row_products(row, y);
  rows_to_cols(row, col, send, recv);
  twiddle(col, true);
  local_transforms(col, cols_.size(), true, true);
}

}  // namespace bigmul::dist
