// SPDX-License-Identifier: LGPL-3.0-or-later
// The NTT multiply on one engine, in phases (mul/ntt_mul.hpp): the layout
// and arrays, the folded shape's low product or piece, each prime's forward
// transforms, product and inverse, then Chinese remaindering and carries.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "fft/ntt.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_crt_carry.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_memory.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_piece.hpp"
#include "mul/ntt_scratch.hpp"
#include "prim/parallel.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul::detail {

// One product r = a b on the engine of adapter E (mul/ntt_engine_iface.hpp:
// its plans, per-transform calls, Chinese remaindering and piece lanes).
template <class E>
class ntt_product {
 public:
  using u64 = fft::u64;
  using Plan = typename E::plan;
  ntt_product(const ntt_request& q, limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
              radix rx, const mul_options& options, mul_stats& st)
      : k_(E::crt), r_(r), a_(a), b_(b), an_(an), bn_(bn), rx_(rx), st_(st),
        layout_(ntt_choose_layout(E::id, an, bn, rx, q.force_primes, q.force_bits, q.fold)),
        count_(layout_.ca + layout_.cb - 1), n_(layout_.shape.n), w_(layout_.shape.wrap),
        used_(layout_.primes), square_(a == b && an == bn), timing_(options.stats != nullptr) {
    if (n_ == 0)
      throw error(error::kind::domain, "ntt: a product of " + std::to_string(an + bn) +
                                           " limbs needs a transform longer than 3*2^32 points");
    if (used_ > k_.prime_count)
      throw error(error::kind::internal, "ntt: the primes do not cover this product's coefficients");
    threads_ = ntt_threads(n_, options.threads);
    st.transform_length = n_;
    st.coefficient_digits = rx == radix::binary ? layout_.bits : decimal_limb_digits;
  }

  void run() {
    // Threads. Small transforms (up to ntt_by_task_max_length): every
    // forward transform (a's and b's for every prime: 2 x primes tasks, an
    // even share for 2 threads) is a task of its own, and so are the
    // products and inverses (a split transform that small pays more in
    // thread hand-offs than it gains); 2 x primes arrays. Larger, with two or
    // three threads: prime by prime, a's and b's forward transforms side by
    // side, then the inverse split over the threads; primes + 1 arrays (or
    // primes, b's in r). More threads: every transform split over all of
    // them. Phase times are summed over the tasks.
    arrays_ = ntt_plan_arrays(layout_, k_.primes[0].p, an_, bn_, threads_, square_);
    res_ = ntt_scratch(arrays_.arrays, arrays_.points);
    if (arrays_.by_task)
      run_by_task();
    else
      run_by_prime();
    ntt_crt_and_carry(k_, used_, res_, r_, count_, an_ + bn_, layout_.bits, rx_, threads_, st_, timing_);
  }

 private:
  // Where b's transforms for prime k go (ntt_plan_arrays); prime k's own
  // residues are in res_[k].
  u64* other(unsigned k) const {
    if (arrays_.by_task) return res_[used_ + k];
    if (k + 1 < used_) return res_[k + 1];
    if (arrays_.last_b_in_result) return r_;
    return arrays_.pack_first ? res_[0] : res_[used_];
  }

  // Phase times, summed over tasks when they run in parallel; only when the
  // caller reads them (options.stats): two clock reads a phase are a
  // visible part of a 10^4-digit product.
  template <class Work>
  void timed(double& slot, Work&& work) {
    if (!timing_) return work();
    const auto t0 = prim::steady_clock::now();
    work();
    const double dt = prim::seconds_since(t0);
    std::lock_guard<std::mutex> lock(stats_mutex_);
    slot += dt;
  }

  // Folded shape: the low product's coefficients c[0 .. w) mod p, parked in
  // res[k][n .. n + w) until the main inverse transform is done; on th
  // threads (a whole-transform pass runs it on all: its length can reach a
  // quarter of n, too long to leave the other threads idle).
  void low_product(unsigned k, unsigned th) {
    const auto t0 = timing_ ? prim::steady_clock::now() : prim::steady_clock::time_point{};
    const auto plan = E::get(k, layout_.shape.low_length);
    u64 *x = res_[k], *y = other(k);
    E::load(*plan, y, a_, an_, std::min(w_, layout_.ca), layout_.bits, th);
    if (!square_) E::load(*plan, x, b_, bn_, std::min(w_, layout_.cb), layout_.bits, th);
    E::forward(*plan, y, std::min(w_, layout_.ca), th);
    if (!square_) E::forward(*plan, x, std::min(w_, layout_.cb), th);
    E::product_inverse(*plan, y, square_ ? y : x, th);
    std::copy(y, y + w_, x + n_);
    if (!timing_) return;
    std::lock_guard<std::mutex> lock(stats_mutex_);
    st_.t_pointwise += prim::seconds_since(t0);  // counted with the products
  }
  // c[n + i] = (cyclic[i] - c[i]) mod p, c[i] = the low product's, i < w.
  void unfold(unsigned k, u64 p) {
    u64* x = res_[k];
    for (std::size_t i = 0; i < w_; ++i) {
      const u64 lo = fft::reduce_2p_to_p(x[n_ + i], p), cyc = fft::reduce_2p_to_p(x[i], p);
      x[i] = lo;
      x[n_ + i] = cyc >= lo ? cyc - lo : cyc + p - lo;
    }
  }

  // One operand's residues and forward transform into x.
  void forward_one(const Plan& plan, u64* x, const limb_t* src, std::size_t len, std::size_t coefficients,
                   unsigned th) {
    const unsigned bits = layout_.bits;
    if (E::loads_in_forward(plan, bits))
      return timed(st_.t_forward, [&] { E::load_forward(plan, x, src, len, coefficients, bits, th); });
    timed(st_.t_split, [&] { E::load(plan, x, src, len, coefficients, bits, th); });
    timed(st_.t_forward, [&] { E::forward(plan, x, coefficients, th); });
  }

  // Prime k's pointwise product, inverse transform and unfolding (low
  // product), in res[k]. Where the engine fuses the product into the inverse
  // (IFMA, AVX2), both count as inverse time.
  void finish(unsigned k, const Plan& plan, unsigned th) {
    const u64* y = square_ ? res_[k] : other(k);
    const bool low = layout_.shape.low_length != 0;
    if constexpr (E::fused_pointwise_inverse) {
      timed(st_.t_inverse, [&] {
        E::pointwise_inverse(plan, res_[k], y, th);
        if (low) unfold(k, plan.modulus());
      });
    } else {
      timed(st_.t_pointwise, [&] { E::pointwise(plan, res_[k], y, th); });
      timed(st_.t_inverse, [&] {
        E::inverse(plan, res_[k], th);
        if (low) unfold(k, plan.modulus());
      });
    }
  }

  // Folded shape with a piece (instead of a low product), after prime k's
  // main product r1 = P mod (x^n - 1) is in res[k][0 .. n): the piece
  // P mod (x^M - c) in other(k) (free again; M <= n / 2, so a's and b's
  // fit), then both joined into res[k][0 .. n + w) (mul/ntt_piece.hpp). The
  // fold counts as split time, the combine as inverse time.
  void piece(unsigned k, unsigned th) {
    const std::size_t m = layout_.shape.piece;
    const auto plan = E::get(k, m);
    const auto pc = ntt_piece::get(k_.primes[k].p, k_.primes[k].generator, n_, m, E::piece_lanes);
    u64* xa = other(k);
    u64* xb = square_ ? xa : xa + ntt_scratch_stride(m);
    timed(st_.t_split, [&] {
      pc->fold(xa, a_, an_, layout_.ca, layout_.bits, th);
      if (!square_) pc->fold(xb, b_, bn_, layout_.cb, layout_.bits, th);
    });
    timed(st_.t_forward, [&] {
      E::forward(*plan, xa, m, th);
      if (!square_) E::forward(*plan, xb, m, th);
    });
    timed(st_.t_inverse, [&] {
      E::product_inverse(*plan, xa, xb, th);
      if (!pc->combine(res_[k], xa, w_, th))
        throw error(error::kind::internal, "ntt: the main product and the folded piece disagree (prime " +
                                               std::to_string(k) + ", n " + std::to_string(n_) + ", piece " +
                                               std::to_string(m) + "); the product was not returned");
    });
  }

  // Small transforms: every forward transform a task, then every prime's
  // product and inverse a task.
  void run_by_task() {
    std::vector<std::shared_ptr<const Plan>> plans(used_);
    for (unsigned k = 0; k < used_; ++k) plans[k] = E::get(k, n_);
    if (layout_.shape.low_length != 0)  // a task a prime (each prime's own arrays)
      prim::parallel_for(used_, threads_, [&](std::size_t k) { low_product(static_cast<unsigned>(k), 1); });
    const unsigned operands = square_ ? 1 : 2;
    prim::parallel_for(used_ * operands, threads_, [&](std::size_t task) {
      const unsigned k = static_cast<unsigned>(task / operands);
      if (task % operands == 1)
        forward_one(*plans[k], other(k), b_, bn_, layout_.cb, 1);
      else
        forward_one(*plans[k], res_[k], a_, an_, layout_.ca, 1);
    });
    prim::parallel_for(used_, threads_, [&](std::size_t k) {
      finish(static_cast<unsigned>(k), *plans[k], 1);
      if (layout_.shape.piece != 0) piece(static_cast<unsigned>(k), 1);
    });
  }

  // Larger transforms: prime by prime, each transform split over the threads
  // (or, two or three threads, a's and b's forward transforms side by side).
  void run_by_prime() {
    const bool pair_forward = !square_ && threads_ > 1 && threads_ < 4;
    const unsigned width = ntt_residue_width(k_.primes[0].p);
    for (unsigned k = 0; k < used_; ++k) {
      const bool park = arrays_.pack_first && k + 1 == used_;
      if (park)
        timed(st_.t_carry,
              [&] { ntt_pack_residues(r_, res_[0], count_, width, k_.primes[0].p, threads_, E::cut_lanes); });
      if (layout_.shape.low_length != 0) low_product(k, threads_);
      const auto plan = E::get(k, n_);
      if (pair_forward) {
        // Nested parallel loops run serially: each transform on one thread.
        prim::parallel_for(2, threads_, [&](std::size_t t) {
          if (t == 0)
            forward_one(*plan, res_[k], a_, an_, layout_.ca, 1);
          else
            forward_one(*plan, other(k), b_, bn_, layout_.cb, 1);
        });
      } else {
        forward_one(*plan, res_[k], a_, an_, layout_.ca, threads_);
        if (!square_) forward_one(*plan, other(k), b_, bn_, layout_.cb, threads_);
      }
      finish(k, *plan, threads_);
      if (layout_.shape.piece != 0) piece(k, threads_);
      if (park) timed(st_.t_carry, [&] { ntt_unpack_residues(res_[0], r_, count_, width, threads_, E::cut_lanes); });
    }
  }

  const ntt_crt_kernels& k_;
  limb_t* r_;
  const limb_t *a_, *b_;
  std::size_t an_, bn_;
  radix rx_;
  mul_stats& st_;
  const ntt_layout layout_;
  const std::size_t count_, n_, w_;  // convolution coefficients, transform length, fold overhang
  const unsigned used_;              // primes
  const bool square_, timing_;
  unsigned threads_ = 1;
  ntt_arrays arrays_;
  u64* const* res_ = nullptr;
  std::mutex stats_mutex_;
};

// ntt_engine_iface::mul for the engine of adapter E.
template <class E>
void ntt_engine_mul(const ntt_request& q, limb_t* r, const limb_t* a, std::size_t an, const limb_t* b,
                    std::size_t bn, radix rx, const mul_options& options, mul_stats& st) {
  ntt_product<E>(q, r, a, an, b, bn, rx, options, st).run();
}

}  // namespace bigmul::detail
