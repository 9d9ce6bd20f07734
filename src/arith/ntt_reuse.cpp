// SPDX-License-Identifier: LGPL-3.0-or-later
// Fixed-factor cyclic products over the NTT engines: see ntt_reuse.hpp.
#include "src/arith/ntt_reuse.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "bigmul/error.hpp"
#include "fft/ntt.hpp"
#include "fft/ntt_arith.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"
#include "mul/limb_ops.hpp"
#include "mul/ntt_avx2_kernels.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_crt_carry.hpp"
#include "mul/ntt_decimal_carry.hpp"
#include "mul/ntt_decimal_steps.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_garner.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_piece.hpp"
#include "prim/buffer.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {
namespace {

using fft::u128;
using fft::u64;

// Coefficients a carry task handles at least (as mul/ntt_mul.cpp).
constexpr std::size_t grain = std::size_t{1} << 13;
// Decimal pieces a task: their division chains interleaved (as mul/ntt_mul.cpp).
constexpr unsigned decimal_chains = 4;
// The longest transform that runs whole on one thread a task (past it, only
// at two or three threads), as mul/ntt_memory.hpp's.
constexpr std::size_t by_task_max_length = std::size_t{1} << 16;
constexpr unsigned max_task_threads = 3;

// The three engines behind one shape: plan type, primes, Garner digits, the
// multiply's Chinese remaindering kernels (exact products go through its
// carries: kernels), and for the cyclic carries below the three-prime
// kernels the multiply's engine adapters pass (mul/ntt_engine_*.cpp): crt3
// (Garner and Horner to limbs), decimal3 (the decimal digits path, by
// decimal_digits). has_crt3 says whether crt3 is set as a
// plain constant: a function's address compared with null is not a
// constant expression for GCC under the sanitizers.
template <class Plan>
struct engine_of;
template <>
struct engine_of<fft::ntt52_plan> {
  static constexpr const fft::ntt_prime* primes = fft::ntt52_primes;
  static constexpr ntt_crt_kernels kernels{fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt52_mixed_radix_digits,
                                           fft::ntt52_crt3_limbs, /*decimal3=*/true};  // as mul/ntt_engine_ifma.cpp
  static constexpr ntt_crt3_limbs_fn crt3 = fft::ntt52_crt3_limbs;
  static constexpr ntt_piece::lanes piece_lanes = ntt_piece::lanes::ifma;
  static constexpr bool has_crt3 = true;
  static constexpr bool decimal3 = true;  // as mul/ntt_engine_ifma.cpp
  static constexpr ntt_decimal_digits_fn decimal_digits = fft::ntt52_decimal_digits;
  static void digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
    fft::ntt52_mixed_radix_digits(res, i, count, v, used);
  }
};
template <>
struct engine_of<fft::ntt_avx2_plan> {
  static constexpr const fft::ntt_prime* primes = fft::ntt52_primes;
  static constexpr ntt_crt_kernels kernels = ntt_avx2_crt_kernels;
  static constexpr ntt_crt3_limbs_fn crt3 = ntt_avx2_crt_kernels.crt3_limbs;
  static constexpr ntt_piece::lanes piece_lanes = ntt_piece::lanes::avx2;
  static constexpr bool has_crt3 = true;
  static constexpr bool decimal3 = ntt_avx2_crt_kernels.decimal3;
  static constexpr ntt_decimal_digits_fn decimal_digits = ntt_avx2_crt_kernels.decimal3_digits;
  static void digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
    fft::ntt_avx2_mixed_radix_digits(res, i, count, v, used);
  }
};
template <>
struct engine_of<fft::ntt_plan> {
  static constexpr const fft::ntt_prime* primes = fft::ntt_primes;
  static constexpr ntt_crt3_limbs_fn crt3 = nullptr;
  static constexpr ntt_crt_kernels kernels{fft::ntt_primes, fft::ntt_prime_count, fft::ntt_mixed_radix_digits, crt3,
                                           /*decimal3=*/false};  // as mul/ntt_engine_portable.cpp
  static constexpr ntt_piece::lanes piece_lanes = ntt_piece::lanes::scalar;
  static constexpr bool has_crt3 = false;
  static constexpr bool decimal3 = false;
  static constexpr ntt_decimal_digits_fn decimal_digits = nullptr;
  static void digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
    fft::ntt_mixed_radix_digits(res, i, count, v, used);
  }
};

// What a piece of the carries leaves past its end, in limbs.
constexpr std::size_t tail_limbs = 4;

// r += v[0 .. tail_limbs) * B^pos in radix rx (B = 2^64 or 10^19) modulo
// B^n - 1: a carry out of the top limb comes back in at the bottom.
void add_tail(limb_t* r, std::size_t n, std::size_t pos, const u64* v, radix rx) {
  constexpr std::size_t m = tail_limbs;
  limb_t carry = 0;
  std::size_t i = pos % n;
  for (std::size_t k = 0; k < m || carry; ++k) {
    r[i] = add_limb(r[i], k < m ? v[k] : 0, carry, rx);
    if (++i == n) i = 0;
  }
}

// The calling thread's residue buffers, kept between products (a tree level
// makes thousands of them; fresh pages cost more than the small ones' work).
thread_local std::vector<prim::buffer<u64>> thread_scratch;

// Index 4: mul_mod_scratch's result.
u64* scratch(unsigned k, std::size_t n) {
  auto& s = thread_scratch;
  if (s.size() <= k) s.resize(k + 1);
  if (s[k].size() < n) {
    s[k] = prim::buffer<u64>();
    s[k] = prim::buffer<u64>(n);
  }
  return s[k].data();
}

}  // namespace

struct ntt_fixed_factor::state {
  ntt_engine engine = ntt_engine::portable;
  radix rx = radix::binary;
  unsigned used = 0;
  std::size_t n = 0, max_an = 0, bn = 0;
  // Folded (exact products only): coefficients n .. n + wrap wrap onto the
  // lowest ones, which a product of the operands' low wrap limbs, cyclic
  // of length low_n >= 2 wrap - 1, recomputes; or the product modulo
  // x^piece - c (mul/ntt_piece.hpp) joined with the main one; 0: no fold.
  std::size_t wrap = 0, low_n = 0, piece = 0;
  // Binary limbs cut into coefficients of `bits` bits (64: whole limbs;
  // exact products only) where the transforms come out shorter
  // (mul/ntt_coefficients.hpp); sizes n, wrap and low_n count coefficients.
  unsigned bits = 64;
  std::size_t coefficients(std::size_t limbs) const { return bits == 64 ? limbs : ntt_coefficient_count(limbs, bits); }

  // Coefficients 0 .. count of src[0 .. len) as residues, then the forward
  // transform, through the multiply's engine steps (mul/ntt_engine_iface.hpp):
  // the fused load where the plan has one (whole operands only: it reads
  // every coefficient of src), and the plan's product form of the transform
  // (the AVX2 plan's doubles), which only pointwise_inverse and
  // product_inverse below read.
  template <class Plan>
  void load(const Plan& plan, u64* x, const limb_t* src, std::size_t len, std::size_t count, unsigned th) const {
    using E = ntt_plan_adapter<Plan>;
    if (bits == 64) len = std::min(len, count);
    if (count == coefficients(len) && E::loads_in_forward(plan, bits))
      return E::load_forward(plan, x, src, len, count, bits, th);
    E::load(plan, x, src, len, count, bits, th);
    E::forward(plan, x, count, th);
  }
  // b's forward transforms per prime (b mod x^wrap in fb_low, b's twisted
  // piece in fb_piece).
  std::vector<prim::buffer<u64>> fb, fb_low, fb_piece;

  template <class Plan>
  void build(const limb_t* b, std::size_t bn) {
    fb.resize(used);
    const unsigned threads = n < grain ? 1u : prim::resolve_threads(0);
    for (unsigned k = 0; k < used; ++k) {
      fb[k] = prim::buffer<u64>(n);
      load(*Plan::get(k, n), fb[k].data(), b, bn, coefficients(bn), threads);
    }
    if (piece != 0) {
      fb_piece.resize(used);
      for (unsigned k = 0; k < used; ++k) {
        fb_piece[k] = prim::buffer<u64>(piece);
        piece_of<Plan>(k)->fold(fb_piece[k].data(), b, bn, coefficients(bn), bits, threads);
        ntt_plan_adapter<Plan>::forward(*Plan::get(k, piece), fb_piece[k].data(), piece, threads);
      }
    }
    if (low_n == 0) return;
    fb_low.resize(used);
    for (unsigned k = 0; k < used; ++k) {
      fb_low[k] = prim::buffer<u64>(low_n);
      load(*Plan::get(k, low_n), fb_low[k].data(), b, bn, std::min(coefficients(bn), wrap), 1);
    }
  }

  // The cyclic product's residues, one array per prime (the calling
  // thread's scratch): a's forward transforms, then the product with b's
  // and the inverse (fused where the engine fuses them, as the multiply).
  template <class Plan>
  void transforms(u64* res[4], const limb_t* a, std::size_t an, std::size_t w, unsigned threads) const {
    u64* low[4] = {};
    std::shared_ptr<const Plan> plans[4];
    for (unsigned k = 0; k < used; ++k) {
      res[k] = scratch(k, n + wrap);
      if (w && low_n) low[k] = scratch(5 + k, low_n);
      if (w && piece) low[k] = scratch(5 + k, piece);
      plans[k] = Plan::get(k, n);
    }
    const auto forward = [&](unsigned k, unsigned th) { load(*plans[k], res[k], a, an, coefficients(an), th); };
    const auto finish = [&](unsigned k, unsigned th) {
      ntt_plan_adapter<Plan>::pointwise_inverse(*plans[k], res[k], fb[k].data(), th);
      if (w && low_n) unfold<Plan>(k, res[k], low[k], a, an, w, th);
      if (w && piece) join_piece<Plan>(k, res[k], low[k], a, an, w, th);
    };
    if (threads > 1 && (threads <= max_task_threads || n <= by_task_max_length))
      return by_task(forward, finish, threads);
    for (unsigned k = 0; k < used; ++k) forward(k, threads), finish(k, threads);
  }

  // Each transform whole on one thread, as tasks taken in the order every
  // prime's forward transform, then every prime's product and inverse (the
  // multiply's by-task order, and its side-by-side forward transforms at
  // two or three threads: a transform split over threads pays in hand-offs).
  // A finish task waits for its prime's forward task, which was taken
  // before it (the pool hands out tasks in index order, each run by the
  // thread that took it) and so is running or done: no deadlock, and on two
  // threads the 2 x primes tasks split evenly.
  template <class Forward, class Finish>
  void by_task(Forward&& forward, Finish&& finish, unsigned threads) const {
    std::atomic<bool> ready[4] = {};
    prim::parallel_for(2 * used, threads, [&](std::size_t t) {
      const unsigned k = static_cast<unsigned>(t % used);
      if (t < used) {
        struct mark {  // also when the transform throws: its finish then runs and the error is rethrown
          std::atomic<bool>& r;
          ~mark() { r.store(true, std::memory_order_release); }
        } done{ready[k]};
        forward(k, 1u);
        return;
      }
      while (!ready[k].load(std::memory_order_acquire)) std::this_thread::yield();
      finish(k, 1u);
    });
  }

  // The twisted piece: prime k's product modulo x^piece - c from a's fold
  // and b's kept one, joined with the main cyclic product in res into
  // coefficients 0 .. n + w (mul/ntt_piece.hpp; as the multiply's piece).
  template <class Plan>
  static std::shared_ptr<const ntt_piece> piece_of(unsigned k, std::size_t n, std::size_t m) {
    return ntt_piece::get(engine_of<Plan>::primes[k].p, engine_of<Plan>::primes[k].generator, n, m,
                          engine_of<Plan>::piece_lanes);
  }
  template <class Plan>
  std::shared_ptr<const ntt_piece> piece_of(unsigned k) const { return piece_of<Plan>(k, n, piece); }
  template <class Plan>
  void join_piece(unsigned k, u64* res, u64* x, const limb_t* a, std::size_t al, std::size_t w, unsigned th) const {
    const auto pc = piece_of<Plan>(k);
    const auto plan = Plan::get(k, piece);
    pc->fold(x, a, al, coefficients(al), bits, th);
    ntt_plan_adapter<Plan>::forward(*plan, x, piece, th);
    ntt_plan_adapter<Plan>::product_inverse(*plan, x, fb_piece[k].data(), th);
    if (!pc->combine(res, x, w, th))
      throw error(error::kind::internal, "ntt_fixed_factor: the main product and the folded piece disagree (prime " +
                                             std::to_string(k) + ", n " + std::to_string(n) + ", piece " +
                                             std::to_string(piece) + ")");
  }

  // The cyclic product's c_j = x_j + x_(j+n) for j < w (x: the plain
  // product's coefficients, all below n + w): x_j for j < w from the low
  // product (a mod x^w)(b mod x^wrap), which has no coefficient past
  // w + wrap - 2 < low_n, then x_(j+n) = c_j - x_j, in the residues.
  template <class Plan>
  void unfold(unsigned k, u64* res, u64* low, const limb_t* a, std::size_t al, std::size_t w, unsigned th) const {
    const auto plan = Plan::get(k, low_n);
    load(*plan, low, a, al, std::min(coefficients(al), w), th);
    ntt_plan_adapter<Plan>::product_inverse(*plan, low, fb_low[k].data(), th);
    const u64 p = plan->modulus();
    for (std::size_t j = 0; j < w; ++j) {  // the inverse transforms leave [0, 2p)
      const u64 x = fft::reduce_2p_to_p(low[j], p), c = fft::reduce_2p_to_p(res[j], p);
      res[j] = x;
      res[n + j] = c >= x ? c - x : c + p - x;
    }
  }

  // r[0 .. rn) from coefficients 0 .. count of the residues: cyclic, rn =
  // count = n (whole limbs), modulo B^n - 1; otherwise the plain product's
  // coefficients (rn > count), through the multiply's carries.
  template <class Plan>
  void mul(limb_t* r, std::size_t rn, std::size_t count, bool cyclic, const limb_t* a, std::size_t an,
           unsigned threads) const {
    if (threads == 0) threads = prim::resolve_threads(0);
    if (n < grain) threads = 1;
    u64* res[4] = {};
    transforms<Plan>(res, a, an, count > n ? count - n : 0, threads);
    if (!cyclic) {
      mul_stats unused;
      return ntt_crt_and_carry(engine_of<Plan>::kernels, used, res, r, count, rn, bits, rx, threads, unused, false);
    }
    const u64* const* residues = res;
    // The coefficients in pieces: each writes its limbs and keeps what
    // carries past its end (three limbs), added in afterwards, wrapping.
    const bool decimal3 = rx == radix::decimal && used == 3 && engine_of<Plan>::decimal3;
    const std::size_t tasks = prim::chunk_count(count, grain, threads);
    const std::size_t per_task = rx == radix::binary ? 1 : decimal_chains;
    const std::size_t pieces = tasks * per_task;
    const auto bound = [&](std::size_t piece) { return count * piece / pieces; };
    std::vector<u64> tails(tail_limbs * pieces, 0);
    std::vector<char> ok(tasks, 1);
    prim::parallel_for(tasks, threads, [&](std::size_t t) {
      u64* tail = tails.data() + tail_limbs * per_task * t;
      if (rx == radix::binary)
        ok[t] = carry_binary<Plan>(residues, bound(t), bound(t + 1), r, tail);
      else if (decimal3)
        carry_decimal3(residues, t, bound, r, tail, engine_of<Plan>::decimal_digits);
      else
        ok[t] = carry_decimal<Plan>(residues, t, bound, r, tail);
    });
    if (!std::all_of(ok.begin(), ok.end(), [](char f) { return f != 0; }))
      throw error(error::kind::internal, "ntt_fixed_factor: a reconstructed coefficient exceeded its bound");
    for (std::size_t c = 0; c < pieces; ++c) add_tail(r, rn, bound(c + 1), tails.data() + tail_limbs * c, rx);
  }

  // Binary coefficients lo .. hi: Garner, then the carry into r[lo .. hi).
  template <class Plan>
  bool carry_binary(const u64* const* residues, std::size_t lo, std::size_t hi, limb_t* r, u64 tail[3]) const {
    constexpr std::size_t group = 64;
    u64 digits[4 * group], x[3];
    u64 pend[3] = {0, 0, 0};
    bool fine = true;
    for (std::size_t g0 = lo; g0 < hi; g0 += group) {
      const std::size_t len = std::min(group, hi - g0);
      if constexpr (engine_of<Plan>::has_crt3) {
        if (used == 3) {  // Garner and Horner 4 or 8 a vector, the carry adds only (as the multiply)
          engine_of<Plan>::crt3(residues, g0, len, digits);
          ntt_limbs3_carry(digits, len, r + g0, pend);
          continue;
        }
      }
      engine_of<Plan>::digits(residues, g0, len, digits, used);
      if (used == 3) {
        // The common case (the multiply's fused Garner and carry): x = v0 + p0 (v1 + p1 v2) < 2^163.
        ntt_garner3_carry(digits, digits + len, digits + 2 * len, len, engine_of<Plan>::primes[0].p,
                          engine_of<Plan>::primes[1].p, r + g0, pend);
        continue;
      }
      for (std::size_t q = 0; q < len; ++q) {
        fine &= ntt_horner_limbs(engine_of<Plan>::primes, used, digits, len, q, x);
        u128 s = static_cast<u128>(pend[0]) + x[0];
        r[g0 + q] = static_cast<u64>(s);
        s = static_cast<u128>(pend[1]) + x[1] + static_cast<u64>(s >> 64);
        pend[0] = static_cast<u64>(s);
        pend[1] = pend[2] + x[2] + static_cast<u64>(s >> 64);  // pend < 2^163 / 2^64: no overflow
        pend[2] = 0;
      }
    }
    std::copy(pend, pend + 3, tail);
    tail[3] = 0;
    return fine;
  }

  // Decimal, three primes below 2^50 (the vector engines where decimal3 is
  // on): the multiply's carry (mul/ntt_decimal_carry.hpp) with the engine's
  // digits kernel, decimal_chains pieces a task.
  template <class Bound>
  static void carry_decimal3(const u64* const* residues, std::size_t task, Bound&& bound, limb_t* r, u64* tails,
                             ntt_decimal_digits_fn digits) {
    constexpr unsigned C = decimal_chains;
    std::size_t lo[C], hi[C];
    for (unsigned c = 0; c < C; ++c) {
      lo[c] = bound(C * task + c);
      hi[c] = bound(C * task + c + 1);
    }
    ntt_decimal3_carry<C>(residues, lo, hi, r, tails, tail_limbs, digits);
  }

  // Decimal otherwise: Horner's limbs, then a division chain per piece,
  // decimal_chains pieces a task interleaved (each waits on its divisions).
  template <class Plan, class Bound>
  bool carry_decimal(const u64* const* residues, std::size_t task, Bound&& bound, limb_t* r, u64* tails) const {
    constexpr unsigned C = decimal_chains;
    constexpr std::size_t group = 64;
    std::size_t lo[C], hi[C], len[C];
    u64 pend[C][2] = {}, xs[C][3 * group], digits[4 * group];
    bool fine = true;
    for (unsigned c = 0; c < C; ++c) {
      lo[c] = bound(C * task + c);
      hi[c] = bound(C * task + c + 1);
    }
    for (std::size_t off = 0;; off += group) {
      const std::size_t all = chain_group(lo, hi, off, group, len);
      if (all == ~std::size_t{0}) break;
      for (unsigned c = 0; c < C; ++c) {
        if (len[c] == 0) continue;
        engine_of<Plan>::digits(residues, lo[c] + off, len[c], digits, used);
        for (std::size_t q = 0; q < len[c]; ++q)
          fine &= ntt_horner_limbs(engine_of<Plan>::primes, used, digits, len[c], q, xs[c] + 3 * q);
      }
      for (std::size_t q = 0; q < all; ++q)
        for (unsigned c = 0; c < C; ++c) r[lo[c] + off + q] = ntt_decimal_step(xs[c] + 3 * q, pend[c]);
      for (unsigned c = 0; c < C; ++c)
        for (std::size_t q = all; q < len[c]; ++q) r[lo[c] + off + q] = ntt_decimal_step(xs[c] + 3 * q, pend[c]);
    }
    for (unsigned c = 0; c < C; ++c) {  // the binary carry (< 2^101) as base-10^19 limbs
      const qr64 d = div_1e19((static_cast<u128>(pend[c][1]) << 64) | pend[c][0]);
      tails[tail_limbs * c] = d.r;
      tails[tail_limbs * c + 1] = d.q;
      std::fill(tails + tail_limbs * c + 2, tails + tail_limbs * (c + 1), u64{0});
    }
    return fine;
  }
};

ntt_fixed_factor::shape ntt_fixed_factor::choose_shape(ntt_engine e, std::size_t bn, std::size_t max_an,
                                                      std::size_t min_length, bool may_fold) {
  shape sh;
  max_an = std::max<std::size_t>(max_an, 1);
  sh.n = fft::ntt_fit_length(std::max({min_length, max_an, bn, std::size_t{4}}));
  if (!may_fold || sh.n == 0 || min_length <= 8) return sh;
  // The next shorter length, the overhang recomputed by a short product:
  // two transforms of n0 + low_n points a product instead of two of n.
  const std::size_t n0 = fft::ntt_length_below(min_length);
  if (n0 < std::max(max_an, bn)) return sh;
  const std::size_t w = min_length - n0, low = fft::ntt_fit_length(std::max<std::size_t>(2 * w - 1, 4));
  if (low != 0 && low < n0 && n0 + low < sh.n) sh = shape{n0, w, low};
  // Or the multiply's twisted piece where it takes one for a max_an x bn
  // product (its cost model weighs the piece's fold and join passes).
  if (min_length == max_an + bn - 1) {
    const ntt_shape m = ntt_choose_shape(max_an, bn, e);
    if (m.piece != 0 && m.n + m.piece < sh.n + sh.low_n) sh = shape{m.n, m.wrap, 0, m.piece};
  }
  return sh;
}

ntt_fixed_factor::shape ntt_fixed_factor::choose(ntt_engine e, std::size_t bn, std::size_t max_an,
                                                std::size_t min_length, radix rx, bool may_fold,
                                                unsigned force_bits) {
  max_an = std::max<std::size_t>(max_an, 1);
  const auto shaped = [&](unsigned primes, unsigned bits) {
    shape sh;
    if (bits == 64) {
      sh = choose_shape(e, bn, max_an, min_length, may_fold);
    } else {
      const std::size_t ca = ntt_coefficient_count(max_an, bits), cb = ntt_coefficient_count(bn, bits);
      sh = choose_shape(e, cb, ca, ca + cb - 1, may_fold);
    }
    sh.primes = primes;
    sh.bits = bits;
    return sh;
  };
  const auto points = [](const shape& sh) { return std::size_t{sh.primes} * (sh.n + sh.low_n + sh.piece); };
  // Each cyclic coefficient sums at most min(an, bn) products of two limbs,
  // as a plain product's does: the same prime count covers it.
  shape best = shaped(ntt_primes_needed(e, max_an, bn, rx), 64);
  if (!may_fold || rx != radix::binary) return best;
  // Large binary products: the multiply's cuts into b-bit coefficients (b <
  // 64: three primes cover them where they do not cover whole limbs; b >
  // 64: fewer, wider coefficients over four primes), where the kept
  // transforms come out shorter (points over all primes).
  for (const unsigned cap : {63u, ntt_max_coefficient_bits}) {
    const ntt_layout l = ntt_choose_layout(e, std::max(max_an, bn), std::min(max_an, bn), rx, 0, force_bits,
                                           ntt_fold::automatic, cap);
    if (force_bits != 0) return shaped(l.primes, l.bits);
    if (l.bits == 64) continue;
    const shape c = shaped(l.primes, l.bits);
    if (c.n != 0 && (best.n == 0 || points(c) < points(best))) best = c;
  }
  return best;
}

std::size_t ntt_fixed_factor::bytes(std::size_t bn, std::size_t max_an, std::size_t min_length, radix rx,
                                    bool may_fold) {
  const shape sh = choose(ntt_default_engine(), bn, max_an, min_length, rx, may_fold, 0);
  if (sh.n == 0) return SIZE_MAX;
  // The kept transforms, and a product's residue arrays on its thread.
  return std::size_t{sh.primes} * (2 * sh.n + sh.wrap + 2 * sh.low_n + 2 * sh.piece) * sizeof(u64);
}

ntt_fixed_factor::ntt_fixed_factor(const limb_t* b, std::size_t bn, std::size_t max_an, std::size_t min_length,
                                   radix rx, bool may_fold, unsigned force_bits)
    : s_(std::make_unique<state>()) {
  state& s = *s_;
  s.engine = ntt_resolve_engine(ntt_engine::best);
  s.rx = rx;
  s.bn = bn;
  s.max_an = std::max<std::size_t>(max_an, 1);
  const shape sh = choose(s.engine, bn, max_an, min_length, rx, may_fold, force_bits);
  s.n = sh.n;
  s.wrap = sh.wrap;
  s.low_n = sh.low_n;
  s.piece = sh.piece;
  s.bits = sh.bits;
  s.used = sh.primes;
  if (s.n == 0) throw error(error::kind::domain, "ntt_fixed_factor: no transform of " + std::to_string(min_length));
  switch (s.engine) {
    case ntt_engine::ifma: s.build<fft::ntt52_plan>(b, bn); break;
    case ntt_engine::avx2: s.build<fft::ntt_avx2_plan>(b, bn); break;
    default: s.build<fft::ntt_plan>(b, bn); break;
  }
}

ntt_fixed_factor::~ntt_fixed_factor() = default;

std::size_t ntt_fixed_factor::length() const { return s_->n; }
std::size_t ntt_fixed_factor::low_length() const { return s_->low_n; }
std::size_t ntt_fixed_factor::piece_length() const { return s_->piece; }
std::size_t ntt_fixed_factor::kept_bytes() const {
  return std::size_t{s_->used} * (s_->n + s_->low_n + s_->piece) * sizeof(u64);
}
std::size_t ntt_fixed_factor::max_an() const { return s_->max_an; }
unsigned ntt_fixed_factor::primes() const { return s_->used; }
const char* ntt_fixed_factor::engine_name() const { return ntt_engine_name(s_->engine); }
unsigned ntt_fixed_factor::coefficient_bits() const { return s_->bits; }

void ntt_fixed_factor::run(limb_t* r, std::size_t rn, std::size_t count, bool cyclic, const limb_t* a,
                           std::size_t an, unsigned threads) const {
  const state& s = *s_;
  switch (s.engine) {
    case ntt_engine::ifma: return s.mul<fft::ntt52_plan>(r, rn, count, cyclic, a, an, threads);
    case ntt_engine::avx2: return s.mul<fft::ntt_avx2_plan>(r, rn, count, cyclic, a, an, threads);
    default: return s.mul<fft::ntt_plan>(r, rn, count, cyclic, a, an, threads);
  }
}

void ntt_fixed_factor::mul_mod(limb_t* r, const limb_t* a, std::size_t an, unsigned threads) const {
  const state& s = *s_;
  if (an > s.max_an) throw error(error::kind::invalid_argument, "ntt_fixed_factor: operand longer than declared");
  if (s.wrap != 0 || s.bits != 64)
    throw error(error::kind::internal, "ntt_fixed_factor: a folded or bit-split shape has no cyclic product");
  if (an == 0) {
    std::fill(r, r + s.n, limb_t{0});
    return;
  }
  run(r, s.n, s.n, true, a, an, threads);
}

void ntt_fixed_factor::mul_exact(limb_t* r, const limb_t* a, std::size_t an, unsigned threads) const {
  const state& s = *s_;
  const std::size_t count = an == 0 ? 0 : s.coefficients(an) + s.coefficients(s.bn) - 1;
  if (an == 0 || an > s.max_an || count > s.n + s.wrap)
    throw error(error::kind::invalid_argument, "ntt_fixed_factor: an = " + std::to_string(an) +
                                                   " limbs outside 1 .. " + std::to_string(s.max_an));
  run(r, an + s.bn, count, false, a, an, threads);
}

const limb_t* ntt_fixed_factor::mul_mod_scratch(const limb_t* a, std::size_t an, unsigned threads) const {
  limb_t* r = scratch(4, s_->n);
  mul_mod(r, a, an, threads);
  return r;
}

void ntt_reuse_release_scratch() { std::vector<prim::buffer<u64>>().swap(thread_scratch); }

}  // namespace bigmul::detail
