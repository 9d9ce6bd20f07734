// SPDX-License-Identifier: LGPL-3.0-or-later
// The product's coefficients to its limbs (dist/coefficients.hpp).
#include "dist/coefficients.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "dist/collective.hpp"
#include "fft/ntt.hpp"
#include "fft/ntt_ifma.hpp"
#include "mul/limb_ops.hpp"
#include "mul/limb_vec.hpp"
#include "mul/ntt_avx2_kernels.hpp"
#include "mul/ntt_crt_carry.hpp"
#include "prim/parallel.hpp"

namespace bigmul::dist {

namespace {

constexpr std::size_t tail = 3;  // limbs a segment carries past its end (a coefficient < B^3)

// The engine's Garner and carry kernels, as its single-process adapter
// names them (mul/ntt_engine_ifma.cpp, mul/ntt_avx2_kernels.hpp,
// mul/ntt_engine_portable.cpp).
detail::ntt_crt_kernels kernels_of(engine e) {
  if (e == engine::avx2) return detail::ntt_avx2_crt_kernels;
  if (e == engine::ifma) return {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt52_mixed_radix_digits, fft::ntt52_crt3_limbs,
                    /*decimal3=*/true};
  return {fft::ntt_primes, fft::ntt_prime_count, fft::ntt_mixed_radix_digits, /*crt3_limbs=*/nullptr,
          /*decimal3=*/false};
}

// One segment's limbs (count coefficients from residue index at) into
// r[0 .. limbs); a limb past it that is not zero is an error (internal).
void segment_limbs(const detail::ntt_crt_kernels& k, unsigned primes, std::uint64_t* const res[], std::size_t at,
                   std::size_t count, limb_t* r, std::size_t limbs, radix rx, unsigned threads) {
  std::uint64_t* from[4] = {};
  for (unsigned p = 0; p < primes; ++p) from[p] = res[p] + at;
  mul_stats unused;
  detail::ntt_crt_and_carry(k, primes, from, r, count, limbs, 64, rx, threads, unused, false);
}

// The rank's segments (C = its column count < n1): segment j2 covers
// positions c0 + n1 j2 .. + C, residues from j2 C; coefficients past cn
// (the last nonzero one's position + 1) are left out.
struct segments {
  std::size_t c0, C, n1, n2, cn;
  std::size_t start(std::size_t j2) const { return c0 + n1 * j2; }
  std::size_t count(std::size_t j2) const { return start(j2) < cn ? std::min(C, cn - start(j2)) : 0; }
};

// Garner and carries of every segment: their limbs in place of res[0]
// (the segment's residue index is its limbs' index), their tails to
// tails[tail j2 ..].
void garner_segments(const context& ctx, const segments& g, const detail::ntt_crt_kernels& k, unsigned primes,
                     std::uint64_t* const res[], std::uint64_t* tails, radix rx) {
  constexpr std::size_t group = 16;
  prim::parallel_for((g.n2 + group - 1) / group, ctx.threads, [&](std::size_t t) {
    std::vector<limb_t> r(g.C + tail);
    for (std::size_t j2 = t * group; j2 < std::min(g.n2, (t + 1) * group); ++j2) {
      const std::size_t count = g.count(j2);
      std::fill(tails + tail * j2, tails + tail * (j2 + 1), std::uint64_t{0});
      if (count == 0) continue;
      segment_limbs(k, primes, res, j2 * g.C, count, r.data(), count + tail, rx, 1);
      std::copy(r.data(), r.data() + count, res[0] + j2 * g.C);
      std::copy(r.data() + count, r.data() + count + tail, tails + tail * j2);
    }
  });
}

// out[t - b ..] += v with carries to the block's top; the carry out of it.
unsigned add_at(limb_t* out, std::size_t len, std::size_t i, limb_t v, radix rx) {
  limb_t c = 0;  // add_limb's carry-in is 0 or 1: v is its second operand
  out[i] = detail::add_limb(out[i], v, c, rx);
  return static_cast<unsigned>(detail::add_1(out + i + 1, len - i - 1, c, rx));
}

// The tails' exchange: each tail limb below rn to the rank holding its
// position, added there. Returns the carries out of this rank's block.
unsigned exchange_tails(const context& ctx, const segments& mine, const std::uint64_t* tails, std::size_t rn,
                        mpi::range block, limb_t* out, radix rx) {
  const std::size_t P = static_cast<std::size_t>(ctx.size), me = static_cast<std::size_t>(ctx.rank);
  const std::size_t chunk = std::max(mpi::product_min_block, (rn + P - 1) / P);  // product_block's
  unsigned over = 0;
  std::vector<std::size_t> sc(P, 0), rc(P, 0), sd(P, 0);
  auto each_tail = [&](const segments& g, std::size_t j_lo, std::size_t j_hi, auto&& fn) {
    for (std::size_t j2 = j_lo; j2 < j_hi; ++j2) {
      const std::size_t count = g.count(j2);
      if (count == 0) continue;
      for (std::size_t l = 0; l < tail; ++l) fn(j2, l, g.start(j2) + count + l);
    }
  };
  // Sent in (j2, l) order within each destination's part.
  each_tail(mine, 0, mine.n2, [&](std::size_t, std::size_t, std::size_t t) {
    if (t < rn && t / chunk != me) ++sc[t / chunk];
  });
  displacements(sc, sd);
  std::vector<std::uint64_t> send(std::max<std::size_t>(1, sd.back() + sc.back()));
  std::vector<std::size_t> at = sd;
  each_tail(mine, 0, mine.n2, [&](std::size_t j2, std::size_t l, std::size_t t) {
    const std::uint64_t v = tails[tail * j2 + l];
    if (t >= rn || t / chunk == me) {
      if (t >= block.begin && t < block.end && v) over += add_at(out, block.size(), t - block.begin, v, rx);
      return;
    }
    send[at[t / chunk]++] = v;
  });
  // From source s: its segments whose tails reach into the block.
  auto range_of = [&](const segments& g) {
    const std::size_t reach = g.c0 + g.C + tail;  // a tail's positions lie below start + reach - c0
    const std::size_t lo = block.begin >= reach ? (block.begin - reach) / g.n1 : 0;
    return std::pair<std::size_t, std::size_t>{lo, std::min(g.n2, block.end / g.n1 + 1)};
  };
  std::vector<segments> src(P);
  for (std::size_t s = 0; s < P; ++s) {
    const range c = mpi::block_of(mine.n1, ctx.size, static_cast<int>(s));
    src[s] = {c.begin, c.size(), mine.n1, mine.n2, mine.cn};
    if (s == me || src[s].C == 0) continue;
    const auto [lo, hi] = range_of(src[s]);
    each_tail(src[s], lo, hi, [&](std::size_t, std::size_t, std::size_t t) {
      if (t >= block.begin && t < block.end) ++rc[s];
    });
  }
  std::vector<std::uint64_t> recv(std::max<std::size_t>(1, std::accumulate(rc.begin(), rc.end(), std::size_t{0})));
  exchange(ctx, "tails to positions", send.data(), sc, sd, recv.data(), rc);
  std::size_t k = 0;
  for (std::size_t s = 0; s < P; ++s) {
    if (s == me || src[s].C == 0) continue;
    const auto [lo, hi] = range_of(src[s]);
    each_tail(src[s], lo, hi, [&](std::size_t, std::size_t, std::size_t t) {
      if (t >= block.begin && t < block.end) over += add_at(out, block.size(), t - block.begin, recv[k++], rx);
    });
  }
  return over;
}

// The segments' limbs (in res[0]'s place) to the ranks holding their
// positions, into out, in rounds through recv (exchange_rounds); the
// rank's own straight from its segments.
void exchange_limbs(const context& ctx, const segments& mine, const std::uint64_t* limbs, std::uint64_t* recv,
                    std::size_t rn, mpi::range block, limb_t* out) {
  const std::size_t P = static_cast<std::size_t>(ctx.size), me = static_cast<std::size_t>(ctx.rank);
  const range cols{mine.c0, mine.c0 + mine.C};
  part_side ss, rs;
  ss.counts.assign(P, 0);
  ss.displs.assign(P, 0);
  rs.counts.assign(P, 0);
  ss.direct = limbs;
  auto runs = [&](mpi::range dest, range c, auto&& fn) {
    for_each_run(dest.begin, std::min(dest.end, mine.cn), mine.n1, c, fn);
  };
  // A destination's runs are consecutive in limbs: positions and
  // destinations both increase with j2.
  for (std::size_t d = 0; d < P; ++d) {
    bool first = true;
    runs(mpi::product_block(rn, ctx.size, static_cast<int>(d)), cols,
         [&](std::size_t, std::size_t j1, std::size_t j2, std::size_t k) {
           if (first) ss.displs[d] = j2 * mine.C + (j1 - mine.c0);
           first = false;
           if (d == me)
             std::copy(limbs + j2 * mine.C + (j1 - mine.c0), limbs + j2 * mine.C + (j1 - mine.c0) + k,
                       out + (j1 + mine.n1 * j2 - block.begin));
           else
             ss.counts[d] += k;
         });
  }
  // From rank s: the runs of its columns in this block, in position order.
  std::vector<piece_list> from(P);
  for (std::size_t s = 0; s < P; ++s)
    if (s != me) {
      runs(block, mpi::block_of(mine.n1, ctx.size, static_cast<int>(s)),
           [&](std::size_t j, std::size_t, std::size_t, std::size_t k) { from[s].add(out + (j - block.begin), k); });
      rs.counts[s] = from[s].words();
    }
  rs.copy = [&](std::size_t s, std::size_t at, std::size_t k, std::uint64_t* buf) { from[s].copy(at, k, buf, false); };
  exchange_rounds(ctx, "limbs to positions", ss, nullptr, rs, recv);
  // Positions cn .. rn hold no coefficient: only tails land there.
  for (std::size_t j = std::max(block.begin, mine.cn); j < block.end; ++j) out[j - block.begin] = 0;
}

}  // namespace

carry_table block_table(const limb_t* out, std::size_t len, unsigned over, radix rx) {
  if (len == 0) return {0, 1, 2, 3};
  if (over > 2) throw error(error::kind::internal, "distributed product: a block's carry out exceeds 2");
  const limb_t top = detail::limb_max(rx);
  bool upper_max = true;  // limbs 1 .. len - 1 all B - 1: a carry into limb 0 may run through
  for (std::size_t i = 1; i < len && upper_max; ++i) upper_max = out[i] == top;
  carry_table f{};
  for (unsigned c = 0; c < 4; ++c)
    f[c] = static_cast<std::uint8_t>(over + (c > 0 && upper_max && out[0] >= top - (c - 1) ? 1 : 0));
  return f;
}

carry_table coefficients_to_limbs(const context& ctx, const plan_layout& L, unsigned primes,
                                  std::uint64_t* const res[], std::uint64_t* recv, limb_t* out) {
  const std::size_t rn = L.an + L.bn, cn = rn - 1;
  const mpi::range block = mpi::product_block(rn, ctx.size, ctx.rank);
  const range cols = mpi::block_of(L.s.n1, ctx.size, ctx.rank);
  const detail::ntt_crt_kernels k = kernels_of(L.eng);
  carry_table f{};
  if (ctx.size == 1) {  // every column and every position: one segment, in place
    phase(ctx.comm, "garner", [&] {
      segment_limbs(k, primes, res, 0, cn, out, rn, L.rx, ctx.threads);
      f = block_table(out, block.size(), 0, L.rx);
    });
    return f;
  }
  const segments mine{cols.begin, cols.size(), L.s.n1, L.s.n2, cn};
  std::vector<std::uint64_t> tails(tail * mine.n2);
  phase(ctx.comm, "garner", [&] {
    garner_segments(ctx, mine, k, primes, res, tails.data(), L.rx);
    for (std::size_t j2 = 0; j2 < mine.n2; ++j2)  // a product's limbs end below rn
      for (std::size_t l = 0; l < tail; ++l)
        if (mine.start(j2) + mine.count(j2) + l >= rn && tails[tail * j2 + l] != 0)
          throw error(error::kind::internal, "distributed product: a coefficient exceeded its bound");
  });
  exchange_limbs(ctx, mine, res[0], recv, rn, block, out);
  const unsigned over = exchange_tails(ctx, mine, tails.data(), rn, block, out, L.rx);
  phase(ctx.comm, "carry", [&] { f = block_table(out, block.size(), over, L.rx); });
  return f;
}

}  // namespace bigmul::dist
