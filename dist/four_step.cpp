// SPDX-License-Identifier: LGPL-3.0-or-later
// The distributed four-step NTT of one prime (dist/four_step.hpp).
#include "dist/four_step.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <mutex>
#include <string>
#include <unordered_map>

#include "bigmul/error.hpp"
#include "dist/collective.hpp"
#include "dist/transpose.hpp"
#include "fft/ntt_arith.hpp"
#include "fft/ntt_ifma_arith.hpp"
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
}  // namespace

four_step::four_step(const context& ctx, shape s, unsigned prime, engine e)
    : ctx_(ctx),
      s_(s),
      cols_(mpi::block_of(s.n1, ctx.size, ctx.rank)),
      rows_(mpi::block_of(s.n2, ctx.size, ctx.rank)) {
  const fft::ntt_prime pr = on_ntt52(e) ? fft::ntt52_primes[prime] : fft::ntt_primes[prime];
  p_ = pr.p;
  p_neg_inv_ = fft::neg_inverse_mod_2_64(p_);
  root_ = fft::pow_mod(pr.generator, (p_ - 1) / s.n, p_);
  root_inv_ = fft::inv_mod(root_, p_);
  n2_inv_ = fft::inv_mod(s.n2 % p_, p_);
  group_ = row_group(s.n1);
  stream_ = streams(std::max(col_words(), row_words()));
  const u64 w1 = fft::pow_mod(root_, s.n2, p_), w2 = fft::pow_mod(root_, s.n1, p_);  // orders n1, n2
  std::vector<std::uint32_t> pos2;  // frequency -> position of the column transforms' output
  if (e == engine::avx2) {
    plan1a_ = fft::ntt_avx2_plan::get(prime, s.n1);
    plan2a_ = fft::ntt_avx2_plan::get(prime, s.n2);
    engine_positions([&](u64* x) { plan1a_->forward(x, 1); }, s.n1, p_, w1);
    pos2 = engine_positions([&](u64* x) { plan2a_->forward(x, 1); }, s.n2, p_, w2);
  } else if (e == engine::ifma) {
    plan1v_ = fft::ntt52_plan::get(prime, s.n1);
    plan2v_ = fft::ntt52_plan::get(prime, s.n2);
    engine_positions([&](u64* x) { plan1v_->forward(x, 1); }, s.n1, p_, w1);
    pos2 = engine_positions([&](u64* x) { plan2v_->forward(x, 1); }, s.n2, p_, w2);
  } else {
    plan1_ = fft::ntt_plan::get(prime, s.n1);
    plan2_ = fft::ntt_plan::get(prime, s.n2);
    engine_positions([&](u64* x) { plan1_->forward(x, 1); }, s.n1, p_, w1);
    pos2 = engine_positions([&](u64* x) { plan2_->forward(x, 1); }, s.n2, p_, w2);
  }
  // w^(+-k2) for the rank's rows q (k2: q's frequency), for twiddle_row.
  std::vector<std::uint32_t> freq(s.n2);
  for (std::size_t k2 = 0; k2 < s.n2; ++k2) freq[pos2[k2]] = static_cast<std::uint32_t>(k2);
  std::vector<u64> up(s.n2, 1), down(s.n2, 1);  // w^k, w^-k
  for (std::size_t k = 1; k < s.n2; ++k) {
    up[k] = fft::mul_mod(up[k - 1], root_, p_);
    down[k] = fft::mul_mod(down[k - 1], root_inv_, p_);
  }
  row_base_.resize(2 * rows_.size());
  for (std::size_t u = 0; u < rows_.size(); ++u) {
    row_base_[2 * u] = up[freq[rows_.begin + u]];
    row_base_[2 * u + 1] = down[freq[rows_.begin + u]];
  }
}

// x[0 .. len) (any 64-bit limbs) to residues in [0, 2p), in place.
void four_step::reduce(u64* x, std::size_t len) const {
  if (plan2v_) return plan2v_->reduce(x, len);
  if (plan2a_) return plan2a_->reduce(x, len);
  const u64 one_shoup = fft::shoup_companion(1, p_);
  for (std::size_t i = 0; i < len; ++i) x[i] = fft::mul_shoup_lazy(x[i], 1, one_shoup, p_);
}

// One transform of length n2 (a column) or n1 (a row), on `threads`.
void four_step::transform(u64* x, bool along_columns, bool inverse, unsigned threads) const {
  if (plan1v_) {
    const fft::ntt52_plan& plan = along_columns ? *plan2v_ : *plan1v_;
    inverse ? plan.inverse(x, threads) : plan.forward(x, threads);
  } else if (plan1a_) {
    const fft::ntt_avx2_plan& plan = along_columns ? *plan2a_ : *plan1a_;
    inverse ? plan.inverse(x, threads) : plan.forward(x, threads);
  } else {
    const fft::ntt_plan& plan = along_columns ? *plan2_ : *plan1_;
    inverse ? plan.inverse(x, threads) : plan.forward(x, threads);
  }
}

// fn(i, threads) for i < count: one a task over the threads when there are
// enough, else each on all of them.
template <class Fn>
void four_step::each(std::size_t count, Fn&& fn) const {
  if (count >= ctx_.threads) {
    prim::parallel_for(count, ctx_.threads, [&](std::size_t i) { fn(i, 1u); });
  } else {
    for (std::size_t i = 0; i < count; ++i) fn(i, ctx_.threads);
  }
}

#if defined(BIGMUL_HAVE_IFMA_CODE)
namespace {
// twiddle_row on the IFMA engine's primes (p < 2^50), 8 lanes a vector and
// V vectors a step (independent chains: one chain's Montgomery products
// wait on each other): lane l of vector v holds the chain of j1 = 8 v + l
// mod 8 V, in Montgomery form with R = 2^52. power[l] = f w^(k2 l) R (f:
// 1 or 1/n2), b8 = w^(8 k2) R, step = w^(8 V k2) R. n1 % (8 V) == 0.
template <unsigned V>
BIGMUL_IFMA void twiddle_lanes(u64* x, std::size_t n1, u64 p, const u64 power[8], u64 b8, u64 step) {
  const fft::ifma::vconst c = fft::ifma::make_vconst(p);
  __m512i pw[V];
  const __m512i by8 = _mm512_set1_epi64(static_cast<long long>(b8));
  pw[0] = _mm512_loadu_si512(static_cast<const void*>(power));
  for (unsigned v = 1; v < V; ++v) pw[v] = fft::ifma::mont52(pw[v - 1], by8, c);
  const __m512i st = _mm512_set1_epi64(static_cast<long long>(step));
  for (std::size_t j1 = 0; j1 < n1; j1 += 8 * V)
    for (unsigned v = 0; v < V; ++v) {
      u64* at = x + j1 + 8 * v;
      const __m512i y = _mm512_loadu_si512(static_cast<const void*>(at));
      _mm512_storeu_si512(static_cast<void*>(at), fft::ifma::mont52(y, pw[v], c));
      pw[v] = fft::ifma::mont52(pw[v], st, c);
    }
}
}  // namespace
#endif

// Row u of the rank's (x[j1], j1 < n1; its position q = rows().begin + u
// of the column transforms' output has frequency k2): x[j1] times
// w^(+-j1 k2), the powers stepped in Montgomery form (R = 2^64); the inverse's also times 1/n2 (the row
// transforms' fused product took 1/n1 only). On the rows, not the columns:
// a row is contiguous, so the twiddles take plain vector loads and stores
// (a column's frequencies lie in the engine's order: gathers and scatters),
// while the strip is in cache for its transforms anyway.
void four_step::twiddle_row(u64* x, std::size_t u, bool inverse) const {
  const u64 p = p_, pni = p_neg_inv_, base = row_base_[2 * u + (inverse ? 1 : 0)];
  u64 pw[9] = {1};  // base^i
  for (unsigned i = 1; i < 9; ++i) pw[i] = fft::mul_mod(pw[i - 1], base, p);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (plan1v_ && s_.n1 % 8 == 0) {
    const u64 r52 = (u64{1} << 52) % p;
    const u64 first = inverse ? fft::mul_mod(r52, n2_inv_, p) : r52;
    u64 power[8];
    for (unsigned l = 0; l < 8; ++l) power[l] = fft::mul_mod(pw[l], first, p);
    const u64 b8 = fft::mul_mod(pw[8], r52, p);
    if (s_.n1 % 32 != 0) return twiddle_lanes<1>(x, s_.n1, p, power, b8, b8);
    const u64 b16 = fft::mul_mod(pw[8], pw[8], p);
    return twiddle_lanes<4>(x, s_.n1, p, power, b8, fft::mul_mod(fft::mul_mod(b16, b16, p), r52, p));
  }
#endif
  const u64 r = inverse ? fft::mul_mod(r_mod(p), n2_inv_, p) : r_mod(p);
  // Four independent chains of powers (j1 = i mod 4), each stepped by
  // w^(4 k2): one chain's multiplications wait on each other.
  const unsigned chains = s_.n1 % 4 == 0 ? 4 : 1;
  const u64 step_m = fft::mul_mod(pw[chains], r_mod(p), p);
  u64 power_m[4];  // w^(j1 k2) R
  for (unsigned i = 0; i < chains; ++i) power_m[i] = fft::mul_mod(pw[i], r, p);
  for (std::size_t j1 = 0; j1 < s_.n1; j1 += chains)
    for (unsigned i = 0; i < chains; ++i) {
      u64& v = x[j1 + i];
      v = fft::mont_mul(v, power_m[i], p, pni);
      power_m[i] = fft::mont_mul(power_m[i], step_m, p, pni);
    }
}

// One column's transform (the twiddles are applied on the rows:
// twiddle_row). Forward, of an operand of `limbs` limbs: column j1 holds limbs j1 + n1 j2
// for j2 below nonzero = ceil((limbs - j1) / n1), reduced here while in
// cache, the rest is zero padding, which is written here (the loader writes
// only the limbs): on the IFMA
// engine only as far as its zero-padded forward reads (forward_extent),
// whose first step skips the zeros as the single-process product's does.
void four_step::column(u64* x, std::size_t j1, bool inverse, std::size_t limbs, unsigned threads,
                       const u64* own) const {
  const std::size_t n1 = s_.n1, n2 = s_.n2;
  if (inverse) return transform(x, true, true, threads);
  const std::size_t nonzero = j1 < limbs ? std::min(n2, (limbs - j1 + n1 - 1) / n1) : 0;
  if (nonzero == 0) return std::fill(x, x + n2, u64{0});  // its transform: zeros
  if (own) {  // the column's limbs read by the transform's first step
    struct column_source {
      const u64* x;
      std::size_t nonzero;
    } src{own, nonzero};
    // Asked for whole blocks: zeros from nonzero on.
    const fft::ntt_fill fill = [](void* c, u64* dst, std::size_t b, std::size_t e) {
      const auto* s = static_cast<const column_source*>(c);
      const std::size_t mid = std::clamp(s->nonzero, b, e);
      std::copy(s->x + b, s->x + mid, dst);
      std::fill(dst + (mid - b), dst + (e - b), u64{0});
    };
    return plan2v_->forward_filled(x, threads, nonzero, fill, &src);
  }
  reduce(x, nonzero);
  if (plan2v_) {
    std::fill(x + nonzero, x + std::max(nonzero, plan2v_->forward_extent(nonzero, threads)), u64{0});
    plan2v_->forward(x, threads, nonzero);
  } else if (plan2a_) {
    std::fill(x + nonzero, x + n2, u64{0});
    plan2a_->forward(x, threads, nonzero);
  } else {
    std::fill(x + nonzero, x + n2, u64{0});
    plan2_->forward(x, threads);
  }
}

// Columns j0 .. j0 + m of the operand x (`limbs` limbs) gathered into
// the task's buffer buf (m n2 words), column t at [t n2 ..): whole 8 x 8
// tiles of the rows they share (a cache line of x a row, not a line and a
// page a limb), the shorter columns' last limbs one by one. The buffer
// stays in the core's cache for the columns' transforms, which read it.
const u64* four_step::gather_columns(const u64* x, std::size_t j0, std::size_t m, std::size_t limbs, u64* buf) const {
  const std::size_t n1 = s_.n1, n2 = s_.n2;
  auto nonzero = [&](std::size_t j) { return j < limbs ? std::min(n2, (limbs - j + n1 - 1) / n1) : 0; };
  const std::size_t full = nonzero(j0 + m - 1);  // rows every column of the batch has
  transpose(x + j0, n1, buf, n2, full, m);
  for (std::size_t t = 0; t < m; ++t)
    for (std::size_t i = full; i < nonzero(j0 + t); ++i) buf[t * n2 + i] = x[j0 + t + n1 * i];
  return buf;
}

// Eight columns a task. Inverse: their results go to row in position
// order (row[j2 C + t], C = cols().size()) while in cache, written around
// the cache. Forward, while they are in cache, their positions
// in the rank's own rows go straight to row (rows layout) as whole 8 x 8
// tiles written around the cache (the rank's own block of the all-to-all
// is this local transpose, its strided side written, not read); the other
// ranks' rows stay in col for the all-to-all's rounds (forward).
void four_step::column_pass(u64* col, bool inverse, std::size_t limbs, u64* row, const u64* whole,
                            u64* scratch) const {
  constexpr std::size_t batch = 8;
  const std::size_t n1 = s_.n1, n2 = s_.n2, C = cols_.size(), R = rows_.size();
  // Read from the limbs, a task gathers gathered_columns columns at once
  // (fewer pages touched a row of limbs) into a free one of the threads'
  // gather buffers, then takes them 8 at a time.
  const std::size_t task = whole ? gathered_columns : batch;
  std::mutex m_free;
  std::vector<u64*> free;
  if (whole)
    for (unsigned i = 0; i < ctx_.threads; ++i) free.push_back(scratch + i * scratch_words(s_, 1, true));
  each((C + task - 1) / task, [&](std::size_t g, unsigned threads) {
    const std::size_t g0 = g * task, gm = std::min(task, C - g0);
    u64* buf = nullptr;
    if (whole) {
      const std::lock_guard<std::mutex> lock(m_free);
      buf = free.back();
      free.pop_back();
    }
    const u64* own = whole ? gather_columns(whole, cols_.begin + g0, gm, limbs, buf) : nullptr;
    for (std::size_t t0 = g0; t0 < g0 + gm; t0 += batch) {
      const std::size_t m = std::min(batch, g0 + gm - t0);
      for (std::size_t t = t0; t < t0 + m; ++t)
        column(col + t * n2, cols_.begin + t, inverse, limbs, threads, own ? own + (t - g0) * n2 : nullptr);
      if (inverse) {  // row: the positions
        transpose(col + t0 * n2, n2, row + t0, C, m, n2, stream_);
        continue;
      }
      if (row) transpose(col + t0 * n2 + rows_.begin, n2, row + cols_.begin + t0, n1, m, R, stream_);
    }
    if (whole) {
      const std::lock_guard<std::mutex> lock(m_free);
      free.push_back(buf);
    }
  });
}

// The rows' twiddles and transforms in groups of group_ rows (the
// all-to-all's rounds and column_pass have put every source's block in
// place).
void four_step::rows_from_columns(u64* row) const {
  const std::size_t n1 = s_.n1, R = rows_.size();
  each((R + group_ - 1) / group_, [&](std::size_t g, unsigned threads) {
    const std::size_t u0 = g * group_, m = std::min(group_, R - u0);
    for (std::size_t u = u0; u < u0 + m; ++u) {
      twiddle_row(row + u * n1, u, false);
      row_forward(row + u * n1, threads);
    }
  });
}

// A row's forward transform, the last step of an operand's: on AVX2 the
// engine's product path, whose outputs stay unreduced doubles (only
// row_product reads them), as the single-process product's do.
void four_step::row_forward(u64* x, unsigned threads) const {
  if (plan1a_) return plan1a_->forward_product(x, threads, s_.n1);
  transform(x, false, false, threads);
}

// x = x y / n1, then x's inverse row transform: the engine's fused pass
// where it has one (IFMA, AVX2's product path), else its pointwise product
// and inverse.
void four_step::row_product(u64* x, const u64* y, unsigned threads) const {
  if (plan1v_) return plan1v_->pointwise_inverse(x, y, threads);
  if (plan1a_) return plan1a_->pointwise_inverse_product(x, y, threads);
  plan1_->pointwise(x, y, threads);
  plan1_->inverse(x, threads);
}

namespace {
// A peer's part of a transpose's all-to-all: pieces of len words, word i of
// the part being element i % len of piece i / len, which lies at
// base[piece * piece_stride + element * elem_stride]: pieces contiguous
// (elem_stride 1: a column's positions in one rank's rows) or across
// (piece_stride 1: a row's points in one rank's columns, moved by whole
// 8 x 8 tiles of pieces, dist/transpose.hpp).
struct strided_part {
  u64* base;
  std::size_t len, piece_stride, elem_stride;
};

// Pieces p0 .. p0 + m (whole) to buf (to_buf) or from it, on `threads`
// (8 pieces a task at least). around: base is written around the cache.
void copy_pieces(const strided_part& x, std::size_t p0, std::size_t m, u64* buf, bool to_buf, unsigned threads,
                 bool around) {
  const std::size_t len = x.len;
  prim::parallel_chunks((m + 7) / 8, std::max<std::size_t>(1, (std::size_t{1} << 15) / (8 * len + 1)), threads,
                        [&](std::size_t g0, std::size_t g1) {
    const std::size_t a = 8 * g0, b = std::min(m, 8 * g1);
    u64* at = x.base + (p0 + a) * x.piece_stride;
    u64* words = buf + a * len;
    if (x.elem_stride == 1) {
      for (std::size_t p = 0; p < b - a; ++p)
        to_buf ? (void)std::copy(at + p * x.piece_stride, at + p * x.piece_stride + len, words + p * len)
               : (void)std::copy(words + p * len, words + (p + 1) * len, at + p * x.piece_stride);
    } else if (to_buf) {  // buf[p len + e] = base[p + e elem_stride]
      transpose(at, x.elem_stride, words, len, len, b - a);
    } else {
      transpose(words, len, at, x.elem_stride, b - a, len, around);
    }
  });
}

// Words [offset, offset + count) of the part to buf or from it: a piece cut
// by the slice's ends word by word, the whole pieces between by copy_pieces.
void copy_part(const strided_part& x, std::size_t offset, std::size_t count, u64* buf, bool to_buf,
               unsigned threads, bool around) {
  auto words = [&](std::size_t piece, std::size_t e0, std::size_t e1) {
    for (std::size_t e = e0; e < e1; ++e, ++buf) {
      u64& v = x.base[piece * x.piece_stride + e * x.elem_stride];
      if (to_buf)
        *buf = v;
      else
        v = *buf;
    }
  };
  const std::size_t end = offset + count;
  if (offset % x.len) {  // the first piece's tail
    const std::size_t e1 = std::min(x.len, offset % x.len + count);
    words(offset / x.len, offset % x.len, e1);
    offset += e1 - offset % x.len;
  }
  const std::size_t m = (end - offset) / x.len;
  copy_pieces(x, offset / x.len, m, buf, to_buf, threads, around);
  buf += m * x.len;
  offset += m * x.len;
  if (offset < end) words(offset / x.len, 0, end - offset);
}
}  // namespace

// The all-to-all between the layouts (forward: columns to rows), in
// rounds: to rank d, the rank's columns' positions in d's rows (C pieces of
// rows(d).size() words, each contiguous in col); from rank s, its columns'
// positions in this rank's rows (cols(s).size() pieces of R words, each
// across row: column j1 of every row). The inverse swaps the sides.
void four_step::transpose_exchange(u64* col, u64* row, u64* send, u64* recv, bool inverse) const {
  const std::size_t P = static_cast<std::size_t>(ctx_.size), me = static_cast<std::size_t>(ctx_.rank);
  const std::size_t n1 = s_.n1, n2 = s_.n2, C = cols_.size(), R = rows_.size();
  std::vector<strided_part> col_side(P), row_side(P);
  part_side cs, rs;
  cs.counts.assign(P, 0);
  rs.counts.assign(P, 0);
  for (std::size_t d = 0; d < P; ++d) {
    const range q = mpi::block_of(n2, ctx_.size, static_cast<int>(d));
    const range c = mpi::block_of(n1, ctx_.size, static_cast<int>(d));
    col_side[d] = {col + q.begin, q.size(), n2, 1};
    row_side[d] = {row + c.begin, R, 1, n1};
    if (d == me) continue;  // its block moved by the local transposes
    cs.counts[d] = C * q.size();
    rs.counts[d] = c.size() * R;
  }
  const unsigned threads = ctx_.threads;
  const bool around = stream_;
  cs.copy = [&, inverse](std::size_t d, std::size_t off, std::size_t k, u64* buf) {
    copy_part(col_side[d], off, k, buf, !inverse, threads, around);
  };
  rs.copy = [&, inverse](std::size_t d, std::size_t off, std::size_t k, u64* buf) {
    copy_part(row_side[d], off, k, buf, inverse, threads, around);
  };
  if (inverse)
    exchange_rounds(ctx_, "rows to columns", rs, send, cs, recv);
  else
    exchange_rounds(ctx_, "columns to rows", cs, send, rs, recv);
}

void four_step::forward(u64* col, std::size_t limbs, u64* row, u64* send, u64* recv) const {
  column_pass(col, false, limbs, row);
  transpose_exchange(col, row, send, recv, false);
  rows_from_columns(row);
}

bool four_step::fills_from_limbs() const {
  return ctx_.size == 1 && plan2v_ && plan2v_->forward_fill_applies();
}

void four_step::forward_from_limbs(const u64* x, std::size_t limbs, u64* col, u64* row, u64* scratch) const {
  if (!fills_from_limbs()) throw error(error::kind::internal, "four_step: no filled forward here");
  column_pass(col, false, limbs, row, x, scratch);
  rows_from_columns(row);
}

void four_step::columns(u64* col, std::size_t limbs, const u64* x, u64* scratch) const {
  if (x && !fills_from_limbs()) throw error(error::kind::internal, "four_step: no filled forward here");
  column_pass(col, false, limbs, nullptr, x, scratch);
}

// Rows u0 .. u0 + m of the round (this rank's, the round's first at
// recv's row 0: from[s] where source s's part starts, its columns' words of
// each row) into strip as whole rows: the other ranks' columns from recv,
// the rank's own from col; each row's twiddles and forward transform, its
// product with row's and the inverse; the result's own columns back to col
// in the places just read.
void four_step::product_strip(u64* row, u64* col, const u64* recv, const std::vector<std::size_t>& from,
                              std::size_t u0, std::size_t m, u64* strip, unsigned threads) const {
  const std::size_t n1 = s_.n1, n2 = s_.n2, C = cols_.size(), me = static_cast<std::size_t>(ctx_.rank);
  const std::size_t first = from.empty() ? 0 : u0 - from.back();  // the strip's first row within the round
  for (std::size_t s = 0; s + 1 < from.size(); ++s) {
    if (s == me) continue;
    const range c = mpi::block_of(n1, ctx_.size, static_cast<int>(s));
    for (std::size_t i = 0; i < m; ++i)
      std::copy(recv + from[s] + (first + i) * c.size(), recv + from[s] + (first + i + 1) * c.size(),
                strip + i * n1 + c.begin);
  }
  transpose(col + rows_.begin + u0, n2, strip + cols_.begin, n1, C, m);
  for (std::size_t i = 0; i < m; ++i) {
    u64* x = row + (u0 + i) * n1;
    twiddle_row(strip + i * n1, u0 + i, false);
    row_forward(strip + i * n1, threads);
    row_product(x, strip + i * n1, threads);
    twiddle_row(x, u0 + i, true);
  }
  transpose(row + u0 * n1 + cols_.begin, n1, col + rows_.begin + u0, n2, m, C, stream_);
}

// The second operand's columns to rows in rounds of h rows of every rank,
// each round's rows multiplied into row (product_strip) in strips of
// group_ rows, one a task. To rank d: the rank's columns at d's rows of the
// round, row-major (an 8 x 8 tiled transpose out of col). Every rank takes
// the same rounds (the largest row block's); one record in ctx.st, the
// same bytes as the whole columns-to-rows all-to-all.
void four_step::product_rounds(u64* row, u64* col, u64* send, u64* recv, u64* scratch) const {
  const std::size_t P = static_cast<std::size_t>(ctx_.size), me = static_cast<std::size_t>(ctx_.rank);
  const std::size_t n1 = s_.n1, n2 = s_.n2, C = cols_.size(), R = rows_.size();
  unsigned long long h_all = ULLONG_MAX - product_rows(ctx_.round, n1), h_max = 0;
  check_mpi(MPI_Allreduce(&h_all, &h_max, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, ctx_.comm), "columns to rows");
  const std::size_t h = static_cast<std::size_t>(ULLONG_MAX - h_max);
  std::size_t most = 0;  // the largest row block
  for (int d = 0; d < ctx_.size; ++d) most = std::max(most, mpi::block_of(n2, ctx_.size, d).size());
  std::vector<int> sc(P, 0), sd(P, 0), rc(P, 0), rd(P, 0);
  std::vector<std::size_t> from(P + 1, 0);  // from.back(): the round's first row
  std::mutex m_free;
  std::vector<u64*> free;
  for (unsigned i = 0; i < ctx_.threads; ++i) free.push_back(scratch + i * scratch_words(s_, 1, fills_from_limbs()));
  std::size_t away = 0;
  double seconds = 0;
  for (std::size_t u0 = 0; u0 < most; u0 += h) {
    auto rows_of = [&](std::size_t size) { return size > u0 ? std::min(h, size - u0) : std::size_t{0}; };
    int at_s = 0, at_r = 0;
    for (std::size_t d = 0; d < P; ++d) {
      if (d == me) continue;
      const range q = mpi::block_of(n2, ctx_.size, static_cast<int>(d));
      const std::size_t hd = rows_of(q.size()), cs = mpi::block_of(n1, ctx_.size, static_cast<int>(d)).size();
      sc[d] = static_cast<int>(C * hd);
      sd[d] = at_s;
      // send[at + u C + t] = col[t n2 + q.begin + u0 + u]
      prim::parallel_chunks((C + 7) / 8, 1, ctx_.threads, [&](std::size_t g0, std::size_t g1) {
        const std::size_t t0 = 8 * g0, t1 = std::min(C, 8 * g1);
        transpose(col + t0 * n2 + q.begin + u0, n2, send + at_s + t0, C, t1 - t0, hd);
      });
      at_s += sc[d];
      rc[d] = static_cast<int>(cs * rows_of(R));
      rd[d] = at_r;
      from[d] = static_cast<std::size_t>(at_r);
      at_r += rc[d];
      away += static_cast<std::size_t>(sc[d]);
    }
    if (P > 1) {
      const auto t0 = std::chrono::steady_clock::now();
      check_mpi(MPI_Alltoallv(send, sc.data(), sd.data(), MPI_UINT64_T, recv, rc.data(), rd.data(), MPI_UINT64_T,
                              ctx_.comm),
                "columns to rows");
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    from.back() = u0;
    const std::size_t hm = rows_of(R);
    each((hm + group_ - 1) / group_, [&](std::size_t g, unsigned threads) {
      u64* strip = nullptr;
      {
        const std::lock_guard<std::mutex> lock(m_free);
        strip = free.back();
        free.pop_back();
      }
      product_strip(row, col, recv, from, u0 + g * group_, std::min(group_, hm - g * group_), strip, threads);
      const std::lock_guard<std::mutex> lock(m_free);
      free.push_back(strip);
    });
  }
  if (ctx_.st) ctx_.st->exchanges.push_back({"columns to rows", away * sizeof(u64), seconds});
}

void four_step::product_inverse(u64* row, u64* col, u64* send, u64* recv, u64* scratch, u64* pos) const {
  product_rounds(row, col, send, recv, scratch);
  transpose_exchange(col, row, send, recv, true);
  column_pass(col, true, 0, pos);
}

}  // namespace bigmul::dist
