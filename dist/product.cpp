// SPDX-License-Identifier: LGPL-3.0-or-later
// The distributed product (include/bigmul/mpi.hpp): limbs to columns, three
// primes' four-step transforms (dist/four_step.hpp), Garner, the digits to
// their positions, the carry scan (dist/carry_scan.hpp), the modular check.
#include "dist/product.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <climits>
#include <cstdint>
#include <memory>
#include <atomic>
#include <mutex>
#include <string>

#include "bigmul/error.hpp"
#include "bigmul/mpi.hpp"
#include "dist/carry_scan.hpp"
#include "dist/coefficients.hpp"
#include "dist/collective.hpp"
#include "dist/exchange.hpp"
#include "dist/four_step.hpp"
#include "dist/transpose.hpp"
#include "fft/ntt_crt.hpp"
#include "fft/ntt_ifma.hpp"
#include "mul/limb_ops.hpp"
#include "mul/modcheck.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_prime_bound.hpp"
#include "prim/buffer.hpp"
#include "prim/parallel.hpp"

namespace bigmul::dist {

namespace {

// The working arrays: prim::buffer's (2 MiB aligned, huge pages advised
// where it advises them): the four-step's strided sides touch a cache line
// a column, which on 4 KiB pages is a TLB miss each. Past prim::buffer's
// huge-page limit its reason holds here too: for arrays that large the
// faults of advised huge pages cost more than the TLB misses they save.
//
// They are kept between products (mpi::release_scratch() frees them), as
// the single-process product keeps its scratch: a product's fresh pages'
// faults are a sizeable part of its time. Within a product every
// allocation phase takes what fits from the kept arrays and then frees the
// rest (drop_kept) beyond what the planned peak leaves room for, so its peak
// stays the planned one.
struct kept_arrays {
  std::mutex m;
  std::vector<prim::buffer<u64>> free;
};
// The words of the arrays this process holds, in use or kept, and their
// peak (held_peak_bytes: what the preflight's plan must bound).
std::atomic<std::size_t> held_now{0}, held_top{0};
void hold(std::size_t n) {
  const std::size_t now = held_now += n;
  std::size_t top = held_top.load();
  while (now > top && !held_top.compare_exchange_weak(top, now)) {
  }
}
void unhold(std::size_t n) { held_now -= n; }
kept_arrays& kept() {
  static kept_arrays k;
  return k;
}
struct words {
  prim::buffer<u64> b;
  words() = default;
  explicit words(prim::buffer<u64> x) : b(std::move(x)) {}
  words(words&&) noexcept = default;
  words& operator=(words&& o) noexcept {
    reset();
    b = std::move(o.b);
    return *this;
  }
  ~words() { reset(); }
  u64* get() const { return b.data(); }
  void reset() noexcept {
    if (!b.data()) return;
    try {
      const std::lock_guard<std::mutex> lock(kept().m);
      kept().free.push_back(std::move(b));
    } catch (...) {  // no room to keep it: free it
      unhold(b.size());
    }
    b = prim::buffer<u64>();
  }
};
// The smallest kept array of at least n words, else a new one.
words make_words(std::size_t n) {
  if (n == 0) return words();
  {
    const std::lock_guard<std::mutex> lock(kept().m);
    auto& f = kept().free;
    std::size_t best = f.size();
    for (std::size_t i = 0; i < f.size(); ++i)
      if (f[i].size() >= n && (best == f.size() || f[i].size() < f[best].size())) best = i;
    if (best < f.size()) {
      words w(std::move(f[best]));
      f.erase(f.begin() + static_cast<std::ptrdiff_t>(best));
      return w;
    }
  }
  prim::buffer<u64> fresh(n);
  hold(fresh.size());
  return words(std::move(fresh));
}
// Frees the kept arrays an allocation phase did not take, the largest
// first, until at most `keep` words of them stay.
void drop_kept(std::size_t keep = 0) {
  std::vector<prim::buffer<u64>> gone;
  const std::lock_guard<std::mutex> lock(kept().m);
  auto& f = kept().free;
  std::sort(f.begin(), f.end(), [](const auto& x, const auto& y) { return x.size() < y.size(); });
  std::size_t total = 0;
  for (const auto& x : f) total += x.size();
  while (!f.empty() && total > keep) {
    total -= f.back().size();
    unhold(f.back().size());
    gone.push_back(std::move(f.back()));
    f.pop_back();
  }
}


}  // namespace

plan_layout gather_layout(MPI_Comm comm, std::size_t a_local, std::size_t b_local, radix rx) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  // Sizes, and the engine the rank runs best: all ranks must use one
  // engine (its primes), the least capable.
  // BIGMUL_DIST_PRIMES=4 (tests) on any rank: four primes at any size.
  const char* force = std::getenv("BIGMUL_DIST_PRIMES");
  const unsigned long long mine[4] = {a_local, b_local, static_cast<unsigned long long>(local_engine()),
                                      force && std::string(force) == "4" ? 1ull : 0ull};
  std::vector<unsigned long long> all(4 * static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(mine, 4, MPI_UNSIGNED_LONG_LONG, all.data(), 4, MPI_UNSIGNED_LONG_LONG, comm),
            "operand sizes");
  plan_layout L;
  L.rx = rx;
  L.eng = engine::ifma;
  for (int r = 0; r < size; ++r) {
    L.a_off.push_back(L.an);
    L.b_off.push_back(L.bn);
    L.a_len.push_back(all[4 * r]);
    L.b_len.push_back(all[4 * r + 1]);
    L.an += all[4 * r];
    L.bn += all[4 * r + 1];
    L.eng = std::min(L.eng, static_cast<engine>(all[4 * r + 2]));
    L.four_primes = L.four_primes || all[4 * r + 3];
  }
  if (L.an && L.bn) {
    if (L.an + L.bn - 1 > mpi::max_product_limbs())
      throw error(error::kind::invalid_argument,
                  "distributed product of " + std::to_string(L.an) + " and " + std::to_string(L.bn) +
                      " limbs exceeds the three primes' largest transform (" +
                      std::to_string(mpi::max_product_limbs()) + " product limbs)");
    L.s = four_step_shape(L.an + L.bn - 1);
  }
  return L;
}

namespace {

// A run of k points of one j2 whose columns start at j1: its words in a
// contiguous buffer (the all-to-all's, or the operand's own limbs).
struct run_ref {
  std::size_t j1, j2, k;
  u64* words;
};

// The runs' words into the columns layout (col[(j1 + i - first_col) n2 +
// j2] = words[i]), eight runs that share j1 and k,
// have consecutive j2 and words evenly spaced (a source's runs, the rank's
// own limbs) move as whole 8 x 8 tiles (dist/transpose.hpp).
void copy_runs_to_cols(const std::vector<run_ref>& runs, u64* col, std::size_t first_col, std::size_t n2,
                       unsigned threads, bool stream) {
  constexpr std::size_t tile = 8;
  auto even = [&](std::size_t g0) {
    const run_ref& a = runs[g0];
    if (g0 + tile > runs.size() || a.k < tile) return false;
    // Addresses as integers: a group may span two sources (two arrays).
    auto at = [&](std::size_t q) { return reinterpret_cast<std::uintptr_t>(runs[g0 + q].words); };
    const std::uintptr_t step = at(1) - at(0);
    if (at(1) <= at(0) || step % sizeof(u64)) return false;
    for (std::size_t q = 1; q < tile; ++q) {
      const run_ref& b = runs[g0 + q];
      if (b.j1 != a.j1 || b.k != a.k || b.j2 != a.j2 + q || at(q) - at(0) != step * q) return false;
    }
    return true;
  };
  prim::parallel_for((runs.size() + tile - 1) / tile, threads, [&](std::size_t g) {
    const std::size_t g0 = g * tile;
    if (!even(g0)) {
      for (std::size_t r = g0; r < std::min(runs.size(), g0 + tile); ++r) {
        const run_ref& x = runs[r];
        u64* c = col + (x.j1 - first_col) * n2 + x.j2;
        for (std::size_t i = 0; i < x.k; ++i) c[i * n2] = x.words[i];
      }
      return;
    }
    const run_ref& a = runs[g0];
    const std::size_t stride = (reinterpret_cast<std::uintptr_t>(runs[g0 + 1].words) -
                                reinterpret_cast<std::uintptr_t>(a.words)) / sizeof(u64);
    const std::size_t whole = a.k / tile * tile;
    u64* c = col + (a.j1 - first_col) * n2 + a.j2;
    // Read back by the forward pass only: around the cache, for large arrays.
    transpose(a.words, stride, c, n2, tile, whole, stream);
    for (std::size_t q = 0; q < tile; ++q)
      for (std::size_t i = whole; i < a.k; ++i) c[i * n2 + q] = a.words[q * stride + i];
  });
}

// An operand's limbs (this rank: x[0 .. len) at global offset off) to the
// columns layout, only at the limbs' positions (the forward transform
// reduces them and writes the padding it reads): one all-to-all of one word
// a limb in rounds (the rank's own limbs go straight to their columns).
// Both ends walk the same runs (for_each_run): to rank d the runs of this
// rank's limbs in d's columns, from rank s the runs of s's limbs in this
// rank's columns, each run's words in order.
void limbs_to_cols(const context& ctx, const plan_layout& L, const limb_t* x, const std::vector<std::size_t>& off,
                   const std::vector<std::size_t>& len, u64* col, u64* send, u64* recv) {
  const std::size_t P = static_cast<std::size_t>(ctx.size), n1 = L.s.n1, n2 = L.s.n2;
  const std::size_t me = static_cast<std::size_t>(ctx.rank);
  const range cols = mpi::block_of(n1, ctx.size, ctx.rank);
  const bool stream = streams(cols.size() * n2);
  std::vector<piece_list> out(P);                 // to rank d: runs of x
  std::vector<std::vector<run_ref>> in(P);        // from rank s: its runs (words: where in its part)
  std::vector<std::vector<std::size_t>> in_at(P);  // the part's word where each run starts
  part_side ss, rs;
  ss.counts.assign(P, 0);
  rs.counts.assign(P, 0);
  std::vector<run_ref> own;
  for (std::size_t d = 0; d < P; ++d) {
    if (d == me) {
      for_each_run(off[me], off[me] + len[me], n1, cols, [&](std::size_t j, std::size_t j1, std::size_t j2, std::size_t k) {
        own.push_back({j1, j2, k, const_cast<u64*>(x) + (j - off[me])});  // only read
      });
      continue;
    }
    for_each_run(off[me], off[me] + len[me], n1, mpi::block_of(n1, ctx.size, static_cast<int>(d)),
                 [&](std::size_t j, std::size_t, std::size_t, std::size_t k) {
                   out[d].add(const_cast<u64*>(x) + (j - off[me]), k);  // only read
                 });
    ss.counts[d] = out[d].words();
    for_each_run(off[d], off[d] + len[d], n1, cols, [&](std::size_t, std::size_t j1, std::size_t j2, std::size_t k) {
      in_at[d].push_back(rs.counts[d]);
      in[d].push_back({j1, j2, k, nullptr});
      rs.counts[d] += k;
    });
  }
  copy_runs_to_cols(own, col, cols.begin, n2, ctx.threads, stream);  // limbs; four_step::forward reduces them
  ss.copy = [&](std::size_t d, std::size_t at, std::size_t k, u64* buf) { out[d].copy(at, k, buf, true); };
  // A round's slice of source s's part: the runs it cuts, trimmed to it,
  // their words in buf.
  std::vector<run_ref> runs;
  rs.copy = [&](std::size_t s, std::size_t at, std::size_t k, u64* buf) {
    const auto& a = in_at[s];
    runs.clear();
    for (std::size_t i = static_cast<std::size_t>(std::upper_bound(a.begin(), a.end(), at) - a.begin()) - 1;
         i < a.size() && a[i] < at + k; ++i) {
      const std::size_t b = std::max(at, a[i]), e = std::min(at + k, a[i] + in[s][i].k);
      runs.push_back({in[s][i].j1 + (b - a[i]), in[s][i].j2, e - b, buf + (b - at)});
    }
    copy_runs_to_cols(runs, col, cols.begin, n2, ctx.threads, stream);
  };
  exchange_rounds(ctx, "limbs to columns", ss, send, rs, recv);
}

// x[0 .. len) at global limb offset off, modulo 2^61 - 1.
u64 residue_at(const limb_t* x, std::size_t len, std::size_t off, radix rx, unsigned threads) {
  const u64 r = detail::residue_mod_p(x, len, rx, threads);
  return detail::mod_p_mul(r, detail::mod_p_pow(detail::limb_base_mod_p(rx), off));
}
void sum_mod_op(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const u64*>(in);
  auto* b = static_cast<u64*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = detail::mod_p_add(a[i], b[i]);
}

struct phase_clock {
  mpi::stats* st;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  void lap(const char* name) {
    const auto t1 = std::chrono::steady_clock::now();
    if (st) st->phases.emplace_back(name, std::chrono::duration<double>(t1 - t0).count());
    t0 = t1;
  }
};


// The product after the preflight: every step between two collectives is a
// phase, so a failure anywhere reaches every rank.
// out: the caller's product block, or null: then `grown` takes it, allocated
// in the Garner phase, within the planned peak.
void run_product(const context& caller, const plan_layout& L, const limb_t* a, const limb_t* b,
                 const mpi::options& opt, mpi::range out_block, limb_t* out, std::vector<limb_t>* grown,
                 phase_clock& clock) {
  const MPI_Comm comm = caller.comm;
  const std::size_t me = static_cast<std::size_t>(caller.rank);
  const buffer_words w = plan_buffers(L, caller.size, caller.rank, caller.threads);
  context ctx = caller;
  ctx.round = w.round;
  const unsigned primes = w.primes;
  words row_a, send, recv, scratch, res[4];
  // A grown product block counts as held while this product runs (it is
  // the caller's after).
  struct held_block {
    std::size_t n = 0;
    ~held_block() { unhold(n); }
  } grown_held;
  std::vector<std::unique_ptr<four_step>> fs(primes);
  phase(comm, "allocation", [&] {
    row_a = make_words(w.arr);
    send = make_words(w.send);
    recv = make_words(w.recv);
    scratch = make_words(w.scratch);
    for (unsigned k = 0; k < primes; ++k) {
      res[k] = make_words(w.arr);
      fs[k] = std::make_unique<four_step>(ctx, L.s, k, L.eng);
    }
    drop_kept();
  });
  clock.lap("allocation");
  // Each prime takes the operands' limbs afresh (one word a limb, an
  // all-to-all each): cheaper in memory than keeping them as columns. A's
  // forward transform goes to row_a, B's column transforms to the prime's
  // array, whose rows product_inverse multiplies into row_a strip by strip
  // (B's rows are never a whole array), the result in position order into
  // row_a, which then becomes the prime's array.
  for (unsigned k = 0; k < primes; ++k) {
    const four_step& f = *fs[k];
    u64* x = res[k].get();
    const std::size_t a_limbs = L.a_off.back() + L.a_len.back(), b_limbs = L.b_off.back() + L.b_len.back();
    if (f.fills_from_limbs()) {
      f.forward_from_limbs(a, a_limbs, x, row_a.get(), scratch.get());
      f.columns(x, b_limbs, b, scratch.get());
    } else {
      limbs_to_cols(ctx, L, a, L.a_off, L.a_len, x, send.get(), recv.get());
      f.forward(x, a_limbs, row_a.get(), send.get(), recv.get());
      limbs_to_cols(ctx, L, b, L.b_off, L.b_len, x, send.get(), recv.get());
      f.columns(x, b_limbs, nullptr, scratch.get());
    }
    f.product_inverse(row_a.get(), x, send.get(), recv.get(), scratch.get(), row_a.get());
    std::swap(res[k], row_a);
  }
  clock.lap("transforms");
  row_a.reset();
  send.reset();
  recv.reset();
  scratch.reset();
  // The transforms' arrays stay kept for the next product as far as the
  // planned peak allows beside what this phase holds.
  phase(comm, "allocation", [&] {
    if (ctx.size > 1) recv = make_words(w.limbs_in);
    std::size_t held = recv.b.size() + (out ? 0 : out_block.size());
    for (const words& r : res) held += r.b.size();
    const std::size_t planned = w.peak_bytes() / sizeof(u64);
    drop_kept(planned > held ? planned - held : 0);
    if (!out) {
      grown->resize(out_block.size());
      out = grown->data();
      hold(grown_held.n = out_block.size());
    }
  });
  u64* const dig[4] = {res[0].get(), res[1].get(), res[2].get(), res[3].get()};
  const carry_table f = coefficients_to_limbs(ctx, L, primes, dig, recv.get(), out);
  for (words& r : res) r.reset();
  recv.reset();
  clock.lap("garner and carry");
  const unsigned c = carry_in(comm, f);
  add_carry(out, out_block.size(), c, opt.rx);  // its carry out, f[c], is the next rank's business
  phase(comm, "carry", [&] {
    if (ctx.rank == ctx.size - 1 && f[c] != 0)
      throw error(error::kind::internal, "distributed product: a carry out of the top limb");
  });
  clock.lap("carry scan");
  if (opt.modular_check) {
    u64 r[3] = {residue_at(a, L.a_len[me], L.a_off[me], opt.rx, ctx.threads),
                residue_at(b, L.b_len[me], L.b_off[me], opt.rx, ctx.threads),
                residue_at(out, out_block.size(), out_block.begin, opt.rx, ctx.threads)};
    MPI_Op op;
    MPI_Op_create(&sum_mod_op, 1, &op);
    u64 total[3] = {0, 0, 0};
    check_mpi(MPI_Allreduce(r, total, 3, MPI_UINT64_T, op, comm), "modular check");
    MPI_Op_free(&op);
    if (detail::mod_p_mul(total[0], total[1]) != total[2])
      throw error(error::kind::internal, "distributed product: the modular check (mod 2^61 - 1) failed");
    clock.lap("modular check");
  }
}

}  // namespace

const char* engine_name(engine e) {
  return e == engine::ifma ? "ifma" : e == engine::avx2 ? "avx2" : "portable";
}

engine local_engine() {
  const char* e = std::getenv("BIGMUL_DIST_ENGINE");
  if (e && std::string(e) == "portable") return engine::portable;
  switch (detail::ntt_resolve_engine(detail::ntt_engine::best)) {
    case detail::ntt_engine::ifma: return engine::ifma;
    case detail::ntt_engine::avx2: return engine::avx2;
    default: return engine::portable;
  }
}

std::size_t buffer_words::transform_words() const { return (primes + 1) * arr + send + recv + scratch; }

std::size_t buffer_words::peak_bytes() const {
  const std::size_t transform = transform_words();
  // residues, the product's block, the limbs received, the tails sent and
  // received (dist/coefficients.hpp)
  const std::size_t garner = primes * arr + out + limbs_in + tails;
  return 8 * std::max(transform, garner);
}

buffer_words plan_buffers(const plan_layout& L, int size, int rank, unsigned threads) {
  buffer_words w;
  // The primes below 2^50 (IFMA, AVX2) as the single-process product
  // counts them: three while they cover min(an, bn) B^2 for the limbs'
  // base B, else four.
  const bool p52 = on_ntt52(L.eng);
  w.primes = p52 && L.an && L.bn ? detail::primes_needed(fft::ntt52_primes, 4, L.an, L.bn, L.rx) : 3;
  if (p52 && L.four_primes) w.primes = 4;
  if (!L.an || !L.bn) return w;
  const std::size_t me = static_cast<std::size_t>(rank);
  w.cols = mpi::block_of(L.s.n1, size, rank).size() * L.s.n2;
  w.rows = mpi::block_of(L.s.n2, size, rank).size() * L.s.n1;
  // The all-to-alls carry only the other ranks' parts (the rank's own
  // block stays; one rank sends and receives nothing): the transforms'
  // C (n2 - R) and (n1 - C) R words one way and the other, the operands'
  // limbs at most their block here, and into the rank's columns at most
  // ceil(max(an, bn) / n1) limbs a column.
  const std::size_t n1 = L.s.n1, n2 = L.s.n2, C = w.cols / n2, R = w.rows / n1;
  const std::size_t col_side = C * (n2 - R), row_side = (n1 - C) * R;
  // The all-to-alls run in rounds of w.round words at most (exchange_rounds).
  const std::size_t limbs_in = C * ((std::max(L.an, L.bn) + n1 - 1) / n1);
  w.round = round_words(L.s.n, size);
  // product_inverse's rounds of h rows of every rank: to each other rank
  // C words a row, from each C' (its columns).
  const std::size_t h = product_rows(w.round, n1);
  const std::size_t rows_send = std::min(C * h * static_cast<std::size_t>(size - 1), col_side);
  const std::size_t rows_recv = (n1 - C) * std::min(h, R);
  w.send = size > 1 ? std::max(std::min(w.round, std::max({col_side, row_side, L.a_len[me], L.b_len[me]})), rows_send)
                    : 0;
  w.recv = size > 1 ? std::max(std::min(w.round, std::max({col_side, row_side, limbs_in})), rows_recv) : 0;
  w.arr = std::max(w.cols, w.rows);
  w.out = mpi::product_block(L.an + L.bn, size, rank).size();
  w.limbs_in = size > 1 ? std::min(w.round, w.out) : 0;
  w.tails = size > 1 ? 2 * 3 * L.s.n2 : 0;
  // One rank on the IFMA engine gathers its columns straight from the limbs
  // (four_step::forward_from_limbs) where the filled forward applies; every
  // rank takes B's rows in strips (four_step::product_inverse).
  const bool gathers = size == 1 && L.eng == engine::ifma && fft::ntt52_plan::get(0, n2)->forward_fill_applies();
  w.scratch = scratch_words(L.s, threads, gathers);
  return w;
}

std::size_t held_peak_bytes() { return held_top.load() * sizeof(u64); }
void reset_held_peak() { held_top = held_now.load(); }

}  // namespace bigmul::dist

namespace bigmul::mpi {

using dist::u64;

void release_scratch() { dist::drop_kept(); }

std::size_t max_product_limbs() { return static_cast<std::size_t>(fft::ntt_max_length); }

std::size_t preflight_bytes(MPI_Comm comm, std::size_t a_local, std::size_t b_local, radix rx) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  dist::plan_layout L;
  dist::phase(comm, "preflight", [&] { L = dist::gather_layout(comm, a_local, b_local, rx); });
  return dist::plan_buffers(L, size, rank, prim::resolve_threads(0)).peak_bytes();
}

namespace {
// The first of x[0 .. n) that is not a decimal limb, else n: the largest
// of each block first (a loop the compiler vectorizes), then the block.
std::size_t first_non_decimal(const limb_t* x, std::size_t n) {
  constexpr std::size_t block = 4096;
  for (std::size_t b = 0; b < n; b += block) {
    const std::size_t e = std::min(n, b + block);
    limb_t top = 0;
    for (std::size_t i = b; i < e; ++i) top = std::max(top, x[i]);
    if (top >= decimal_limb_base)
      return static_cast<std::size_t>(std::find_if(x + b, x + e, [](limb_t v) { return v >= decimal_limb_base; }) - x);
  }
  return n;
}

// The layout and the checks before any work (collective): out_size, the
// caller's product block's length (SIZE_MAX: mul allocates it).
dist::plan_layout checked_layout(const dist::context& ctx, const limb_t* a, std::size_t a_local, const limb_t* b,
                                 std::size_t b_local, std::size_t out_size, const options& opt, stats* st) {
  const MPI_Comm comm = ctx.comm;
  const std::size_t me = static_cast<std::size_t>(ctx.rank);
  dist::plan_layout L;
  std::size_t need = 0;
  dist::phase(comm, "preflight", [&] {
    L = dist::gather_layout(comm, a_local, b_local, opt.rx);
    const dist::buffer_words w = dist::plan_buffers(L, ctx.size, ctx.rank, ctx.threads);
    need = w.peak_bytes();
    // MPI's counts are ints: no rank may send or receive more words at once.
    if (std::max({w.send, w.recv, w.cols, w.out}) > static_cast<std::size_t>(INT_MAX))
      throw error(error::kind::resource, "an all-to-all of this product exceeds MPI's int counts on this rank: use more ranks");
    if (st) {
      st->planned_bytes = need;
      st->primes = w.primes;
      st->ifma = L.eng == dist::engine::ifma;
      st->engine = dist::engine_name(L.eng);
    }
    if (opt.memory_cap && need > opt.memory_cap)
      throw error(error::kind::resource, "the product needs " + std::to_string(need) +
                                             " bytes on this rank, over its memory cap of " +
                                             std::to_string(opt.memory_cap) + " bytes");
    if (opt.rx == radix::decimal) {
      for (int op = 0; op < 2; ++op) {
        const limb_t* x = op ? b : a;
        const std::size_t n = op ? b_local : a_local, off = op ? L.b_off[me] : L.a_off[me];
        const std::size_t i = first_non_decimal(x, n);
        if (i < n)
          throw error(error::kind::invalid_argument, std::string("operand ") + (op ? "B" : "A") + " limb " +
                                                         std::to_string(off + i) + " is not a decimal limb (>= 10^19)");
      }
    }
    const std::size_t block = product_block(L.an + L.bn, ctx.size, ctx.rank).size();
    if (out_size != SIZE_MAX && out_size != block)
      throw error(error::kind::invalid_argument, "the product's block on this rank has " + std::to_string(block) +
                                                     " limbs, not " + std::to_string(out_size));
  });
  return L;
}

dist::context context_of(MPI_Comm comm, const options& opt, stats* st) {
  dist::context ctx{comm, 0, 1, prim::resolve_threads(opt.threads), st};
  MPI_Comm_size(comm, &ctx.size);
  MPI_Comm_rank(comm, &ctx.rank);
  return ctx;
}
}  // namespace

void mul(MPI_Comm comm, const limb_t* a, std::size_t a_local, const limb_t* b, std::size_t b_local, limb_t* out,
         std::size_t out_size, const options& opt, stats* st) {
  const dist::context ctx = context_of(comm, opt, st);
  dist::phase_clock clock{st};
  const dist::plan_layout L = checked_layout(ctx, a, a_local, b, b_local, out_size, opt, st);
  const mpi::range out_block = product_block(L.an + L.bn, ctx.size, ctx.rank);
  if (!L.an || !L.bn) return std::fill(out, out + out_block.size(), limb_t{0});
  clock.lap("plan");
  dist::run_product(ctx, L, a, b, opt, out_block, out, nullptr, clock);
}

std::vector<limb_t> mul(MPI_Comm comm, const limb_t* a, std::size_t a_local, const limb_t* b, std::size_t b_local,
                        const options& opt, stats* st) {
  const dist::context ctx = context_of(comm, opt, st);
  dist::phase_clock clock{st};
  const dist::plan_layout L = checked_layout(ctx, a, a_local, b, b_local, SIZE_MAX, opt, st);
  const mpi::range out_block = product_block(L.an + L.bn, ctx.size, ctx.rank);
  std::vector<limb_t> out;
  if (!L.an || !L.bn) {
    dist::phase(comm, "allocation", [&] { out.assign(out_block.size(), 0); });
    return out;
  }
  clock.lap("plan");
  dist::run_product(ctx, L, a, b, opt, out_block, nullptr, &out, clock);
  return out;
}

}  // namespace bigmul::mpi
