// SPDX-License-Identifier: LGPL-3.0-or-later
// NTT multiplication (three or four primes, three engines): see mul/ntt_mul.hpp.
#include "mul/ntt_mul.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "bigmul/error.hpp"
#include "fft/ntt.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"
#include "fft/ntt_level_table.hpp"
#include "mul/limb_vec.hpp"
#include "mul/ntt_garner.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_decimal_carry.hpp"
#include "mul/ntt_piece.hpp"
#include "mul/ntt_prime_bound.hpp"
#include "prim/buffer.hpp"
#include "prim/cpu_features.hpp"
#include "prim/parallel.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul::detail {
namespace {

using fft::u64;
using clock_type = prim::steady_clock;
using prim::seconds_since;

constexpr std::size_t grain = std::size_t{1} << 13;

// r[i ..] += x (`limbs` limbs) with carries up to r[rn); false if anything
// would land at or beyond rn.
bool add_at(limb_t* r, std::size_t rn, std::size_t i, const u64* x, std::size_t limbs, radix rx) {
  const std::size_t fit = i < rn ? std::min<std::size_t>(limbs, rn - i) : 0;
  for (std::size_t k = fit; k < limbs; ++k)
    if (x[k]) return false;
  if (fit == 0) return true;
  const limb_t c = add_n(r + i, r + i, x, fit, rx);
  return add_1(r + i + fit, rn - i - fit, c, rx) == 0;  // stops with the carry
}

// Limbs -> residues in [0, 2p), zero-padded to n: x - floor(x floor(2^64/p) / 2^64) p.
void load_residues(u64* dst, std::size_t n, const limb_t* src, std::size_t len, u64 p, unsigned threads) {
  const u64 one_shoup = fft::shoup_companion(1, p);
  prim::parallel_chunks(n, grain, threads, [&](std::size_t b, std::size_t e) {
    const std::size_t mid = std::min(std::max(b, len), e);
    for (std::size_t i = b; i < mid; ++i) dst[i] = fft::mul_shoup_lazy(src[i], 1, one_shoup, p);
    for (std::size_t i = mid; i < e; ++i) dst[i] = 0;
  });
}

// An operand's residues into x (zero-padded to the plan's length) and its
// forward transform, through the plan's own vector loader and zero-padded
// forward where it has them (the AVX2 plan).
// The padding stops where the plan's forward transform stops reading
// (forward_extent: the IFMA plan), else at the plan's length.
template <class Plan>
std::size_t padded_extent(const Plan& plan, std::size_t nonzero, unsigned threads) {
  if constexpr (requires { plan.forward_extent(nonzero, threads); })
    return plan.forward_extent(nonzero, threads);
  else
    return plan.length();
}
template <class Plan>
void load_operand(const Plan& plan, u64* x, const limb_t* src, std::size_t len, unsigned threads) {
  if constexpr (requires { plan.load(x, src, len, threads, len); })
    plan.load(x, src, len, threads, padded_extent(plan, len, threads));
  else if constexpr (requires { plan.load(x, src, len, threads); })
    plan.load(x, src, len, threads);
  else
    load_residues(x, padded_extent(plan, len, threads), src, len, plan.modulus(), threads);
}
// The AVX2 plan's forward_product leaves doubles that only its
// pointwise_inverse_product reads (low_product and finish below use it).
template <class Plan>
void forward_operand(const Plan& plan, u64* x, std::size_t len, unsigned threads) {
  if constexpr (requires { plan.forward_product(x, threads, len); })
    plan.forward_product(x, threads, len);  // x[len ..) is zero
  else if constexpr (requires { plan.forward(x, threads, len); })
    plan.forward(x, threads, len);  // x[len ..) is zero
  else
    plan.forward(x, threads);
}
// x = inverse(x y) of two forward_operand transforms: the plan's fused
// product and inverse where it has one (IFMA, AVX2: the only reader of the
// AVX2 forward_product's doubles), else pointwise, then inverse. The low
// product's and the piece's; finish below times the two apart.
template <class Plan>
void product_inverse(const Plan& plan, u64* x, const u64* y, unsigned threads) {
  if constexpr (requires { plan.pointwise_inverse_product(x, y, threads); }) {
    plan.pointwise_inverse_product(x, y, threads);
  } else {
    plan.pointwise(x, y, threads);
    plan.inverse(x, threads);
  }
}

// The calling thread's transform buffers, kept between products: a 10^7-digit
// product touches tens of MB of fresh memory, and the kernel's zeroing of new
// pages is a sizeable part of its time (FLINT's fft_small keeps its buffers
// in its context the same way). release_scratch() gives them back. The arrays
// are carved from one slab: a 10^6-digit product's four arrays are each below
// prim::buffer's huge-page size, their slab is not, and 4 KiB first-touch
// faults are most of a cold product's extra time at that size.
struct scratch_cache {
  prim::buffer<u64> slab;
  std::vector<u64*> ptrs;
};
thread_local scratch_cache thread_scratch;

// Array stride in the slab: points rounded up to 64 bytes, so that every
// array starts on a cache line.
constexpr std::size_t scratch_stride(std::size_t points) { return (points + 7) & ~std::size_t{7}; }

u64* const* scratch(std::size_t count, std::size_t n) {
  scratch_cache& s = thread_scratch;
  const std::size_t stride = scratch_stride(n);
  if (s.slab.size() < count * stride) {
    s.slab = prim::buffer<u64>();  // free first: the peak holds one slab
    s.slab = prim::buffer<u64>(count * stride);
  }
  s.ptrs.resize(count);
  for (std::size_t i = 0; i < count; ++i) s.ptrs[i] = s.slab.data() + i * stride;
  return s.ptrs.data();
}

// Coefficients of an operand's limbs for a plan that fills its first step
// itself (fft::ntt_fill): b-bit pieces (ntt_extract_coefficients) or whole
// limbs, zero past the limbs.
struct limb_source {
  const limb_t* src;
  std::size_t len;
  unsigned bits;
  static void fill(void* ctx, u64* dst, std::size_t b, std::size_t e) {
    const limb_source& s = *static_cast<const limb_source*>(ctx);
    if (s.bits < 64) return ntt_extract_coefficients(dst, s.src, s.len, b, e, s.bits);
    const std::size_t copy_end = std::min(e, std::max(b, s.len));
    if (copy_end > b) std::copy(s.src + b, s.src + copy_end, dst);
    std::fill(dst + (copy_end - b), dst + (e - b), u64{0});
  }
};

// Decimal pieces a task: each piece's carry runs through two dependent
// divisions per coefficient (latency bound), so a task interleaves this many
// independent chains (fewer leave the divider idle, more spill).
constexpr unsigned decimal_chains = 4;

// One decimal position: t = x + carry (binary, < 2^163), digit = t mod 10^19,
// carry = t / 10^19 (< 2^101): two 2-by-1 divisions. The carry chain through
// the divisions is the cost, so callers interleave several chains.
inline limb_t decimal_step(const u64 x[3], u64 pend[2]) {
  const fft::u128 s0 = static_cast<fft::u128>(x[0]) + pend[0];
  const fft::u128 s1 = static_cast<fft::u128>(x[1]) + pend[1] + static_cast<u64>(s0 >> 64);
  const u64 t2 = x[2] + static_cast<u64>(s1 >> 64);  // < 2^35 < 10^19
  const qr64 top = div_1e19((static_cast<fft::u128>(t2) << 64) | static_cast<u64>(s1));
  const qr64 low = div_1e19((static_cast<fft::u128>(top.r) << 64) | static_cast<u64>(s0));
  pend[0] = low.q;
  pend[1] = top.q;
  return low.r;
}

// Chains a task for decimal_garner3_step: its division's latency is the
// chain, and two chains keep their state in registers where four spill.
constexpr unsigned decimal_garner3_chains = 2;

// One decimal position straight from Garner's three digits (v0 < p0, v1 <
// p1, v2 < p2; p0 < B = 10^19): with p0 p1 = q1 B + q0, a coefficient is
// c = S + T B, S = v0 + v1 p0 + v2 q0 (< 2^127), T = v2 q1 (< 2^124, 62-bit
// primes). T goes on to the next position undivided, so a position's value
// V = S + T_previous + carry (< 2^127) takes one 2-by-1 division (V / B <
// 2^64) where the Horner limbs of c took two (decimal_step).
struct decimal_garner3 {
  u64 p0, q0, q1;
  explicit decimal_garner3(u64 p0_, u64 p1) : p0(p0_) {
    const fft::u128 pp = static_cast<fft::u128>(p0_) * p1;
    q1 = static_cast<u64>(pp / decimal_limb_base);
    q0 = static_cast<u64>(pp % decimal_limb_base);
  }
};
// pend = {carry, T low, T high} in and out; returns the position's limb.
// (The sums as bin::addc chains, as the binary carries have them, are
// slower here.)
inline limb_t decimal_garner3_step(const decimal_garner3& g, u64 v0, u64 v1, u64 v2, u64 pend[3]) {
  const fft::u128 t_prev = (static_cast<fft::u128>(pend[2]) << 64) | pend[1];
  const fft::u128 v = static_cast<fft::u128>(v1) * g.p0 + static_cast<fft::u128>(v2) * g.q0 + v0 + pend[0] + t_prev;
  const fft::u128 t = static_cast<fft::u128>(v2) * g.q1;
  const qr64 d = div_1e19(v);
  pend[0] = d.q;
  pend[1] = static_cast<u64>(t);
  pend[2] = static_cast<u64>(t >> 64);
  return d.r;
}

// The decimal carries' interleaved chains: piece C task + c of a task is
// chain c, coefficients lo[c] .. hi[c].
template <unsigned C, class Bound>
void chain_bounds(std::size_t task, Bound&& bound, std::size_t (&lo)[C], std::size_t (&hi)[C]) {
  for (unsigned c = 0; c < C; ++c) {
    lo[c] = bound(C * task + c);
    hi[c] = bound(C * task + c + 1);
  }
}
// Chinese remaindering and carries of `count` coefficients into r[0 .. rn).
// The coefficients are cut into pieces; each piece writes its own limbs and
// keeps what carries past its end (a "tail"), and the tails are added in
// order at the end. Binary pieces run one per task; decimal ones several
// per task, their division chains interleaved. bits < 64
// (binary only): coefficient c sits at bit c bits, not limb c.
template <unsigned K, class MixedRadix>
void crt_and_carry(const fft::ntt_prime (&primes)[K], MixedRadix&& mixed_radix, unsigned used, u64* const* res,
                   limb_t* r, std::size_t count, std::size_t rn, unsigned bits, radix rx, unsigned threads,
                   mul_stats& st, bool timing) {
  const auto t0 = timing ? clock_type::now() : clock_type::time_point{};
  const std::size_t tasks = prim::chunk_count(count, grain, threads);
  const bool ifma_garner = &mixed_radix == &fft::ntt52_mixed_radix_digits;
  const bool decimal3 = rx == radix::decimal && used == 3 && ifma_garner;  // IFMA: ntt_decimal3_carry
  const std::size_t per_task = rx == radix::binary                   ? 1
                               : used == 3 && !ifma_garner ? decimal_garner3_chains
                                                           : decimal_chains;
  const std::size_t pieces = tasks * per_task;
  const auto bound = [&](std::size_t piece) { return count * piece / pieces; };
  // The limb where a piece's tail lands (the first limb the next piece writes).
  const auto limb_at = [&](std::size_t coefficient) { return bits == 64 ? coefficient : (coefficient * bits) >> 6; };
  constexpr std::size_t tail_limbs = 4;
  std::vector<u64> tails(tail_limbs * pieces);
  std::vector<char> task_ok(tasks, 1);
  const u64* residues[K] = {};
  for (unsigned j = 0; j < used; ++j) residues[j] = res[j];
  constexpr std::size_t group = 64;
  const bool bmi2 = prim::cpu_has_bmi2_adx();
  // Limbs x[3 q ..] of coefficients i .. i + len (len <= group).
  const auto coefficients = [&](std::size_t i, std::size_t len, u64* digits, u64* x) {
    bool ok = true;
    if (len == 0) return ok;
    mixed_radix(residues, i, len, digits, used);
    for (std::size_t q = 0; q < len; ++q) ok &= ntt_horner_limbs(primes, used, digits, len, q, x + 3 * q);
    return ok;
  };
  prim::parallel_for(tasks, threads, [&](std::size_t task) {
    u64 digits[K * group], x[3 * group];
    bool ok = true;
    if (rx == radix::binary && bits < 64) {
      // Coefficients at bit offsets: each adds into a 4-limb running sum that
      // emits the limbs below the next coefficient's bit (ntt_bit_accumulator).
      const std::size_t lo = bound(task), hi = bound(task + 1);
      std::size_t out = limb_at(lo);
      ntt_bit_accumulator sum;
      sum.shift = static_cast<unsigned>((lo * bits) & 63);
      for (std::size_t g0 = lo; g0 < hi; g0 += group) {
        const std::size_t len = std::min(group, hi - g0);
        if (used == 3 && ifma_garner) {  // Garner and Horner 8 a vector, the sum adds only
          fft::ntt52_crt3_limbs(residues, g0, len, digits);
          out += (bmi2 ? ntt_bit_carry3_limbs_bmi2 : ntt_bit_carry3_limbs)(digits, len, bits, sum, r + out);
          continue;
        }
        mixed_radix(residues, g0, len, digits, used);
        if (used == 3) {  // the common case: Horner and the sum in registers
          out += (bmi2 ? ntt_bit_carry3_bmi2 : ntt_bit_carry3)(digits, digits + len, digits + 2 * len, len,
                                                               primes[0].p, primes[1].p, bits, sum, r + out);
          continue;
        }
        for (std::size_t q = 0; q < len; ++q) {
          u64 v[3];
          ok &= ntt_horner_limbs(primes, used, digits, len, q, v);
          if (sum.add(v, bits, r + out)) ++out;
        }
      }
      std::copy(sum.acc, sum.acc + 4, tails.begin() + tail_limbs * task);
    } else if (rx == radix::binary) {
      const std::size_t lo = bound(task), hi = bound(task + 1);
      u64 pend[3] = {0, 0, 0};
      for (std::size_t g0 = lo; g0 < hi; g0 += group) {
        const std::size_t len = std::min(group, hi - g0);
        if (used == 3 && ifma_garner) {  // Garner and Horner 8 a vector, the carry adds only
          fft::ntt52_crt3_limbs(residues, g0, len, digits);
          ntt_limbs3_carry(digits, len, r + g0, pend);
          continue;
        }
        if (used == 3) {
          // Three primes (the common case), Horner and the carry fused, no
          // limb array: x = v0 + p0 (v1 + p1 v2) < 2^163 straight into pend
          // (pend[2] is zero at each step, pend[1] + x2 + carry < 2^64).
          mixed_radix(residues, g0, len, digits, used);
          ntt_garner3_carry(digits, digits + len, digits + 2 * len, len, primes[0].p, primes[1].p, r + g0, pend);
          continue;
        }
        ok &= coefficients(g0, len, digits, x);
        for (std::size_t q = 0; q < len; ++q) {
          limb_t carry = 0;
          pend[0] = add_limb(pend[0], x[3 * q], carry, radix::binary);
          pend[1] = add_limb(pend[1], x[3 * q + 1], carry, radix::binary);
          pend[2] = add_limb(pend[2], x[3 * q + 2], carry, radix::binary);  // no carry out: pend < 2^163 / 2^64
          r[g0 + q] = pend[0];
          pend[0] = pend[1];
          pend[1] = pend[2];
          pend[2] = 0;
        }
      }
      std::copy(pend, pend + 3, tails.begin() + tail_limbs * task);
    } else if (decimal3) {
      // IFMA, three primes: mul/ntt_decimal_carry.hpp (digits split off the chain, 8 a vector).
      constexpr unsigned C = decimal_chains;
      std::size_t lo[C], hi[C];
      chain_bounds(task, bound, lo, hi);
      ntt_decimal3_carry<C>(residues, lo, hi, r, tails.data() + tail_limbs * C * task, tail_limbs);
    } else if (used == 3) {
      // decimal_garner3_chains pieces a task, their division chains
      // interleaved, one division a position (decimal_garner3_step). (The
      // position loops stay here: one helper taking the group fill and the
      // step as lambdas is slower in this carry.)
      constexpr unsigned C = decimal_garner3_chains;
      const decimal_garner3 dg(primes[0].p, primes[1].p);
      std::size_t lo[C], hi[C], len[C];
      u64 pend[C][3] = {}, vs[C][3 * group];
      chain_bounds(task, bound, lo, hi);
      for (std::size_t off = 0;; off += group) {
        const std::size_t all = chain_group(lo, hi, off, group, len);
        if (all == ~std::size_t{0}) break;
        for (unsigned c = 0; c < C; ++c)
          if (len[c] != 0) mixed_radix(residues, lo[c] + off, len[c], vs[c], used);
        const auto step = [&](unsigned c, std::size_t q) {
          const u64* v = vs[c];
          r[lo[c] + off + q] = decimal_garner3_step(dg, v[q], v[len[c] + q], v[2 * len[c] + q], pend[c]);
        };
        for (std::size_t q = 0; q < all; ++q)
          for (unsigned c = 0; c < C; ++c) step(c, q);
        for (unsigned c = 0; c < C; ++c)
          for (std::size_t q = all; q < len[c]; ++q) step(c, q);
      }
      // What carries past each piece, carry + T (< 2^125), as base-10^19 digits.
      for (unsigned c = 0; c < C; ++c) {
        const std::size_t piece = C * task + c;
        const fft::u128 rest = ((static_cast<fft::u128>(pend[c][2]) << 64) | pend[c][1]) + pend[c][0];
        const qr64 d = div_1e19(rest);  // rest / 2^64 < 2^61 < 10^19
        tails[tail_limbs * piece] = d.r;
        tails[tail_limbs * piece + 1] = d.q;
      }
    } else {
      // Four primes: Horner's limbs, then decimal_chains pieces a task, their
      // division chains interleaved.
      constexpr unsigned C = decimal_chains;
      std::size_t lo[C], hi[C], len[C];
      u64 pend[C][2] = {}, xs[C][3 * group];
      chain_bounds(task, bound, lo, hi);
      for (std::size_t off = 0;; off += group) {
        const std::size_t all = chain_group(lo, hi, off, group, len);
        if (all == ~std::size_t{0}) break;
        for (unsigned c = 0; c < C; ++c) ok &= coefficients(lo[c] + off, len[c], digits, xs[c]);
        for (std::size_t q = 0; q < all; ++q)
          for (unsigned c = 0; c < C; ++c) r[lo[c] + off + q] = decimal_step(xs[c] + 3 * q, pend[c]);
        for (unsigned c = 0; c < C; ++c)
          for (std::size_t q = all; q < len[c]; ++q) r[lo[c] + off + q] = decimal_step(xs[c] + 3 * q, pend[c]);
      }
      // The binary carries (< 2^101) as base-10^19 digits.
      for (unsigned c = 0; c < C; ++c) {
        const std::size_t piece = C * task + c;
        const qr64 d = div_1e19((static_cast<fft::u128>(pend[c][1]) << 64) | pend[c][0]);  // pend[1] < 2^37
        tails[tail_limbs * piece] = d.r;
        tails[tail_limbs * piece + 1] = d.q;  // < 2^38
      }
    }
    task_ok[task] = ok;
  });
  for (std::size_t i = std::min(limb_at(count), rn); i < rn; ++i) r[i] = 0;
  bool ok = std::all_of(task_ok.begin(), task_ok.end(), [](char c) { return c != 0; });
  for (std::size_t piece = 0; piece < pieces && ok; ++piece)
    ok = add_at(r, rn, limb_at(bound(piece + 1)), tails.data() + tail_limbs * piece, tail_limbs, rx);
  if (!ok)
    throw error(error::kind::internal, "ntt: a reconstructed coefficient exceeded its bound (" +
                                           std::to_string(rn) + "-limb product); the product was not returned");
  if (timing) st.t_carry += seconds_since(t0);
}

// The product's coefficients (whole limbs, or `bits`-bit pieces of binary
// limbs), prime count and transform shape: the cheaper of whole limbs on the
// primes they need and, where that is four, b-bit coefficients on three
// primes with the largest b whose coefficients three primes still cover.
// Cost: primes x (n log n + the folded piece's), the transforms' share.
// Decimal limbs stay whole (a base-10^19 limb has no bit split; past
// ~2^23.8 limbs, 2.7 10^8 digits, decimal products take four primes).
// force_bits (tests; binary) picks b, force_primes raises the prime count.
template <unsigned K>
ntt_layout choose_layout(const fft::ntt_prime (&primes)[K], ntt_engine e, std::size_t an, std::size_t bn, radix rx,
                         unsigned force_primes, unsigned force_bits, ntt_fold fold) {
  const auto cost = [](const ntt_shape& s) {
    const auto f = [](std::size_t len) {
      return len ? static_cast<double>(len) * std::log2(static_cast<double>(len)) : 0.0;
    };
    return f(s.n) + f(s.low_length) + f(s.piece);
  };
  const auto split = [&](unsigned bits) {
    ntt_layout l;
    l.bits = bits;
    l.ca = ntt_coefficient_count(an, bits);
    l.cb = ntt_coefficient_count(bn, bits);
    l.primes = primes_needed_for(primes, K, bits == 64 ? ~u64{0} : (u64{1} << bits) - 1, std::min(l.ca, l.cb));
    l.shape = ntt_choose_shape(l.ca, l.cb, e, fold);
    return l;
  };
  ntt_layout best;
  best.bits = 64;
  best.ca = an;
  best.cb = bn;
  best.primes = primes_needed(primes, K, an, bn, rx);
  best.shape = ntt_choose_shape(an, bn, e, fold);
  if (force_bits != 0 && force_bits < 64) {
    if (rx != radix::binary || force_bits < 8)
      throw error(error::kind::invalid_argument, "ntt: coefficients of " + std::to_string(force_bits) +
                                                     " bits (binary limbs only, 8 .. 64 bits)");
    best = split(force_bits);
  } else if (force_bits == 0 && rx == radix::binary && best.primes > 3 && K > 3) {
    // The largest b for three primes: 2 b + log2(min(ca, cb)) < log2(p0 p1 p2) ~ 150.
    for (unsigned bits = 63; bits >= 40; --bits) {
      const ntt_layout l = split(bits);
      if (l.primes > 3) continue;
      if (l.shape.n != 0 && (best.shape.n == 0 || 3 * cost(l.shape) < best.primes * cost(best.shape))) best = l;
      break;
    }
  }
  best.primes = std::max(best.primes, std::min(force_primes, K));
  return best;
}

// Whole forward transforms as tasks (both operands, every prime: 2 x primes
// arrays) only up to this length, where the memory is small; above it the
// two operands' forward transforms of one prime run side by side (two
// threads) and the inverse is split over the threads: primes + 1 arrays.
constexpr std::size_t by_task_max_length = std::size_t{1} << 16;

// The residue arrays a product allocates (each max(n, count) u64) and where
// b's transforms go. By task: 2 x primes arrays. Otherwise prime k's in
// res[k] and b's for prime k in res[k + 1], still unused; the last prime's b
// in the result r when max(n, count) <= an + bn (nothing in r is read before
// Garner's output overwrites it), else in res[0] with prime 0's finished
// residues parked, packed, in r meanwhile (pack_first), else in one more
// array. Peak heap: primes x max(n, count) u64, about 3 (binary) or 4
// (decimal, past 2.7 10^8 digits) times the operands' bytes.
struct ntt_arrays {
  std::size_t arrays = 0, points = 0;
  bool by_task = false, last_b_in_result = false, pack_first = false;
};
// Below this many points a product takes one more array rather than pack
// prime 0's residues (plan_arrays): at most 512 KiB more.
constexpr std::size_t pack_min_points = std::size_t{1} << 16;
unsigned residue_width(u64 p) { return 64 - static_cast<unsigned>(__builtin_clzll(p)); }
ntt_arrays plan_arrays(const ntt_layout& l, u64 p0, std::size_t an, std::size_t bn, unsigned threads, bool square) {
  ntt_arrays A;
  const std::size_t n = l.shape.n, count = l.ca + l.cb - 1, rn = an + bn;
  A.points = std::max(n, count);
  // A piece's shape is by task only while the whole product fits the
  // by-task length: at n = 2^16 its overhang reaches n / 4 (2:1 products of
  // 10^6 digits), and 2 x primes arrays of n + w points would pass 4x the
  // operands' bytes.
  A.by_task = threads > 1 && (l.shape.piece != 0 ? A.points : n) <= by_task_max_length;
  if (A.by_task) {
    // A square's piece takes a second array per prime too (the primes' pieces run side by side).
    A.arrays = square && l.shape.wrap == 0 ? l.primes : 2 * l.primes;
    return A;
  }
  A.arrays = l.primes;
  // A square needs b's array only for a folded piece (M words).
  A.last_b_in_result = (square ? std::max(l.shape.low_length, l.shape.piece) : A.points) <= rn;
  if (!A.last_b_in_result) {
    // Packing saves one array for two passes over prime 0's residues, a
    // visible cost at mid sizes: only for large arrays.
    A.pack_first =
        l.primes >= 2 && A.points > pack_min_points && ntt_packed_words(count, residue_width(p0)) <= rn;
    if (!A.pack_first) ++A.arrays;
  }
  return A;
}

// The multiply on one engine: Plan (ntt_plan, ntt52_plan or ntt_avx2_plan) over its K primes.
template <class Plan, unsigned K, class MixedRadix>
void mul_ntt_on(const fft::ntt_prime (&primes)[K], ntt_engine engine, MixedRadix&& mixed_radix, unsigned force_primes,
                unsigned force_bits, ntt_fold fold, limb_t* r, const limb_t* a, std::size_t an, const limb_t* b,
                std::size_t bn, radix rx, const mul_options& options, mul_stats& st) {
  const ntt_layout layout = choose_layout(primes, engine, an, bn, rx, force_primes, force_bits, fold);
  const unsigned bits = layout.bits;
  const std::size_t ca = layout.ca, cb = layout.cb;
  const std::size_t count = ca + cb - 1;  // convolution coefficients
  const ntt_shape shape = layout.shape;
  const std::size_t n = shape.n, w = shape.wrap, piece_m = shape.piece;
  const bool low = shape.low_length != 0;
  if (n == 0)
    throw error(error::kind::domain, "ntt: a product of " + std::to_string(an + bn) +
                                         " limbs needs a transform longer than 3*2^32 points");
  const unsigned used = layout.primes;
  if (used > K) throw error(error::kind::internal, "ntt: the primes do not cover this product's coefficients");
  // Below 2^13 points a product is a few hundred microseconds: the thread
  // hand-offs cost more than a second core gains.
  const unsigned threads = n < (std::size_t{1} << 13) ? 1u : prim::resolve_threads(options.threads);
  const bool square = a == b && an == bn;
  const bool timing = options.stats != nullptr;
  st.transform_length = n;
  st.coefficient_digits = rx == radix::binary ? bits : decimal_limb_digits;

  // Threads. Small transforms (up to by_task_max_length): every forward
  // transform (a's and b's for every prime: 2 x primes tasks, an even share
  // for 2 threads) is a task of its own, and so are the products and
  // inverses (a split transform that small pays more in thread hand-offs
  // than it gains); 2 x primes arrays. Larger, with two or three threads:
  // prime by prime, a's and b's forward transforms side by side, then the
  // inverse split over the threads; primes + 1 arrays (or primes, b's in r).
  // More threads: every transform split over all of them. Phase times are
  // summed over the tasks.
  const ntt_arrays A = plan_arrays(layout, primes[0].p, an, bn, threads, square);
  const bool by_task = A.by_task;
  const bool pair_forward = !by_task && !square && threads > 1 && threads < 4;
  // Prime k's residues in res[k]; b's transforms (and, once its main
  // product is done, the piece's two) as plan_arrays says.
  u64* const* res = scratch(A.arrays, A.points);
  const auto other = [&](unsigned k) -> u64* {
    if (by_task) return res[used + k];
    if (k + 1 < used) return res[k + 1];
    if (A.last_b_in_result) return r;
    return A.pack_first ? res[0] : res[used];
  };
  const unsigned width = residue_width(primes[0].p);
  // Operand x's first `coefficients` coefficients as residues, zero-padded.
  const auto load_coefficients = [&](const Plan& plan, u64* x, const limb_t* src, std::size_t len,
                                     std::size_t coefficients, unsigned th) {
    if (bits == 64) {
      load_operand(plan, x, src, coefficients, th);
    } else if constexpr (requires { plan.reduce(x, len); }) {
      // Extracted and reduced 2048 at a time, the block still in L1.
      const std::size_t end = std::max(coefficients, padded_extent(plan, coefficients, th));
      prim::parallel_chunks(end, grain, th, [&](std::size_t b, std::size_t e) {
        const std::size_t mid = std::min(std::max(b, coefficients), e);
        for (std::size_t k = b; k < mid; k += 2048) {
          const std::size_t ke = std::min(mid, k + 2048);
          ntt_extract_coefficients(x + k, src, len, k, ke, bits);
          plan.reduce(x + k, ke - k);
        }
        std::fill(x + mid, x + e, u64{0});
      });
    } else {
      ntt_load_coefficients(x, std::max(coefficients, padded_extent(plan, coefficients, th)), src, len, coefficients,
                            bits, plan.modulus(), th);
    }
  };

  // Folded shape: the low product's coefficients c[0 .. w) mod p, parked in
  // res[k][n .. n + w) until the main inverse transform is done.
  const auto low_product = [&](unsigned k) {
    const auto t0 = timing ? clock_type::now() : clock_type::time_point{};
    const auto plan = Plan::get(k, shape.low_length);
    u64 *x = res[k], *y = other(k);
    load_coefficients(*plan, y, a, an, std::min(w, ca), 1);
    if (!square) load_coefficients(*plan, x, b, bn, std::min(w, cb), 1);
    forward_operand(*plan, y, std::min(w, ca), 1);
    if (!square) forward_operand(*plan, x, std::min(w, cb), 1);
    product_inverse(*plan, y, square ? y : x, 1);
    std::copy(y, y + w, x + n);
    if (timing) st.t_pointwise += seconds_since(t0);  // counted with the products
  };
  // c[n + i] = (cyclic[i] - c[i]) mod p, c[i] = the low product's, i < w.
  const auto unfold = [&](unsigned k, u64 p) {
    u64* x = res[k];
    for (std::size_t i = 0; i < w; ++i) {
      const u64 lo = fft::reduce_2p_to_p(x[n + i], p), cyc = fft::reduce_2p_to_p(x[i], p);
      x[i] = lo;
      x[n + i] = cyc >= lo ? cyc - lo : cyc + p - lo;
    }
  };

  // Phase times, summed over tasks when they run in parallel; only when the
  // caller reads them (options.stats): two clock reads a phase are a
  // visible part of a 10^4-digit product.
  std::mutex stats_mutex;
  const auto timed = [&](double& slot, auto&& work) {
    if (!timing) return work();
    const auto t0 = clock_type::now();
    work();
    const double dt = seconds_since(t0);
    std::lock_guard<std::mutex> lock(stats_mutex);
    slot += dt;
  };
  // One operand's residues and forward transform into x.
  const auto forward_one = [&](const Plan& plan, u64* x, const limb_t* src, std::size_t len, std::size_t coefficients,
                               unsigned th) {
    // The AVX2 plan's first step reads 64-bit coefficients (the limbs) itself.
    if constexpr (requires { plan.load_forward_product(x, src, coefficients, th); })
      if (bits == 64) return timed(st.t_forward, [&] { plan.load_forward_product(x, src, coefficients, th); });
    // The IFMA plan's radix-3 step takes the coefficients straight from the limbs.
    if constexpr (requires { plan.forward_filled(x, th, coefficients, nullptr, nullptr); })
      if (plan.forward_fill_applies()) {
        limb_source from{src, len, bits};
        return timed(st.t_forward, [&] { plan.forward_filled(x, th, coefficients, limb_source::fill, &from); });
      }
    timed(st.t_split, [&] { load_coefficients(plan, x, src, len, coefficients, th); });
    timed(st.t_forward, [&] { forward_operand(plan, x, coefficients, th); });
  };
  // Prime k's pointwise product, inverse transform and unfolding (low product), in res[k].
  // Where the plan fuses the product into the inverse (IFMA, AVX2), both count as
  // inverse time.
  const auto finish = [&](unsigned k, const Plan& plan, unsigned th) {
    const u64* y = square ? res[k] : other(k);
    if constexpr (requires { plan.pointwise_inverse_product(res[k], y, th); }) {
      timed(st.t_inverse, [&] {
        plan.pointwise_inverse_product(res[k], y, th);
        if (low) unfold(k, plan.modulus());
      });
    } else if constexpr (requires { plan.pointwise_inverse(res[k], y, th); }) {
      timed(st.t_inverse, [&] {
        plan.pointwise_inverse(res[k], y, th);
        if (low) unfold(k, plan.modulus());
      });
    } else {
      timed(st.t_pointwise, [&] { plan.pointwise(res[k], y, th); });
      timed(st.t_inverse, [&] {
        plan.inverse(res[k], th);
        if (low) unfold(k, plan.modulus());
      });
    }
  };
  // Folded shape with a piece (instead of a low product), after prime k's main product r1 = P mod (x^n - 1) is in
  // res[k][0 .. n): the piece P mod (x^M - c) in other(k) (free again; M <=
  // n / 2, so a's and b's fit), then both joined into res[k][0 .. n + w)
  // (mul/ntt_piece.hpp). The fold counts as split time, the combine as inverse time.
  constexpr ntt_piece::lanes piece_lanes = std::is_same_v<Plan, fft::ntt52_plan>      ? ntt_piece::lanes::ifma
                                           : std::is_same_v<Plan, fft::ntt_avx2_plan> ? ntt_piece::lanes::avx2
                                                                                      : ntt_piece::lanes::scalar;
  const auto piece = [&](unsigned k, unsigned th) {
    const auto plan = Plan::get(k, piece_m);
    const auto pc = ntt_piece::get(primes[k].p, primes[k].generator, n, piece_m, piece_lanes);
    u64* xa = other(k);
    u64* xb = square ? xa : xa + scratch_stride(piece_m);
    timed(st.t_split, [&] {
      pc->fold(xa, a, an, ca, bits, th);
      if (!square) pc->fold(xb, b, bn, cb, bits, th);
    });
    timed(st.t_forward, [&] {
      forward_operand(*plan, xa, piece_m, th);
      if (!square) forward_operand(*plan, xb, piece_m, th);
    });
    timed(st.t_inverse, [&] {
      product_inverse(*plan, xa, xb, th);
      if (!pc->combine(res[k], xa, w, th))
        throw error(error::kind::internal, "ntt: the main product and the folded piece disagree (prime " +
                                               std::to_string(k) + ", n " + std::to_string(n) + ", piece " +
                                               std::to_string(piece_m) + "); the product was not returned");
    });
  };

  if (by_task) {
    std::vector<std::shared_ptr<const Plan>> plans(used);
    for (unsigned k = 0; k < used; ++k) plans[k] = Plan::get(k, n);
    if (low)
      for (unsigned k = 0; k < used; ++k) low_product(k);
    const unsigned operands = square ? 1 : 2;
    prim::parallel_for(used * operands, threads, [&](std::size_t task) {
      const unsigned k = static_cast<unsigned>(task / operands);
      const bool is_b = task % operands == 1;
      forward_one(*plans[k], is_b ? other(k) : res[k], is_b ? b : a, is_b ? bn : an, is_b ? cb : ca, 1);
    });
    prim::parallel_for(used, threads, [&](std::size_t k) {
      finish(static_cast<unsigned>(k), *plans[k], 1);
      if (piece_m != 0) piece(static_cast<unsigned>(k), 1);
    });
  } else {
    for (unsigned k = 0; k < used; ++k) {
      const bool park = A.pack_first && k + 1 == used;
      if (park) timed(st.t_carry, [&] { ntt_pack_residues(r, res[0], count, width, primes[0].p, threads); });
      if (low) low_product(k);
      const auto plan = Plan::get(k, n);
      if (pair_forward) {
        // Nested parallel loops run serially: each transform on one thread.
        prim::parallel_for(2, threads, [&](std::size_t t) {
          if (t == 0)
            forward_one(*plan, res[k], a, an, ca, 1);
          else
            forward_one(*plan, other(k), b, bn, cb, 1);
        });
      } else {
        forward_one(*plan, res[k], a, an, ca, threads);
        if (!square) forward_one(*plan, other(k), b, bn, cb, threads);
      }
      finish(k, *plan, threads);
      if (piece_m != 0) piece(k, threads);
      if (park) timed(st.t_carry, [&] { ntt_unpack_residues(res[0], r, count, width, threads); });
    }
  }
  crt_and_carry<K>(primes, mixed_radix, used, res, r, count, an + bn, bits, rx, threads, st, timing);
}

}  // namespace

// Two ways to fold, by cost (per prime, in point-levels len log2 len of the
// three transforms, plus the piece's passes at pass_cost each per element):
// a low product recomputes c[0 .. w) from the operands' low w limbs, a
// transform of ~2w points and nothing else, the cheaper for a small
// overhang; a piece (mul/ntt_piece.hpp) takes M >= w points (M | n, about
// half the low product's) but passes over both operands and r1, the cheaper
// from w ~ n/10 on, and it also folds w up to n/4 where the low product's
// 2w points would cost as much as the next length. A low product is taken
// when it is 10% below the plain shape (its model leaves out its loads), a
// piece when 5% below (its passes are in the model). The piece beats the
// plain next length at w ~ n/5 and loses to the low product below w ~ n/10
// (bench/mul/bench_mul's rows at those sizes).
namespace {
double ntt_piece_pass_cost(ntt_engine e) {
  switch (e) {
    case ntt_engine::ifma: return 2.6;      // 8 IFMA lanes against the IFMA transforms
    case ntt_engine::portable: return 1.2;  // scalar passes against scalar transforms
    default: return 4.5;                    // 4 AVX2 lanes against the AVX2 transforms
  }
}
}  // namespace

ntt_shape ntt_choose_shape(std::size_t an, std::size_t bn, ntt_engine e, ntt_fold fold) {
  const std::size_t count = an + bn - 1;
  ntt_shape plain;
  plain.n = fft::ntt_fit_length(count);
  if (count < 256 || plain.n == 0) return plain;
  const std::size_t n = fft::ntt_length_below(count), wrap = count - n;
  if (an > n || bn > n) return plain;  // an operand longer than n would have to be folded too
  const auto f = [](std::size_t len) { return static_cast<double>(len) * std::log2(static_cast<double>(len)); };
  const std::size_t low = fft::ntt_fit_length(std::min(wrap, an) + std::min(wrap, bn) - 1);
  const std::size_t m = ntt_piece_length(n, wrap);
  const double c_low = 3 * (f(n) + f(low));
  // Past 2^19 points the passes stream from memory, not cache: several
  // times their in-cache cost relative to the transforms'.
  const double pass = ntt_piece_pass_cost(e == ntt_engine::best ? ntt_default_engine() : e) *
                      (n > (std::size_t{1} << 19) ? 3.5 : 1.0);
  const double c_piece = m == 0 ? c_low : 3 * (f(n) + f(m)) + pass * static_cast<double>(an + bn + n + 2 * m);
  const double c_plain = 3 * f(plain.n);
  if (fold == ntt_fold::automatic && c_low > 0.9 * c_plain && (m == 0 || c_piece > 0.95 * c_plain)) return plain;
  ntt_shape s{n, wrap, 0, 0};
  if (m != 0 && (fold == ntt_fold::piece ||
                 (fold == ntt_fold::automatic && (c_piece < c_low || c_low > 0.9 * c_plain))))
    s.piece = m;
  else
    s.low_length = low;
  return s;
}

std::size_t ntt_transform_length(std::size_t an, std::size_t bn) {
  return ntt_choose_layout(ntt_default_engine(), an, bn, radix::binary).shape.n;
}

ntt_layout ntt_choose_layout(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned force_primes,
                             unsigned force_bits, ntt_fold fold) {
  if (e == ntt_engine::best) e = ntt_default_engine();
  if (e == ntt_engine::portable) return choose_layout(fft::ntt_primes, e, an, bn, rx, force_primes, force_bits, fold);
  return choose_layout(fft::ntt52_primes, e, an, bn, rx, force_primes, force_bits, fold);
}

namespace {
// A product whose limbs alone pass the longest transform (coefficients are at
// least as many as limbs): no layout fits, and the sizes stay clear of the
// overflow in an + bn and in limbs * 64 / bits.
bool beyond_ntt_reach(std::size_t an, std::size_t bn) {
  return an > fft::ntt_max_length || bn > fft::ntt_max_length || an + bn - 1 > fft::ntt_max_length;
}
}  // namespace

std::size_t ntt_heap_bytes(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned threads) {
  if (e == ntt_engine::best) e = ntt_default_engine();
  if (beyond_ntt_reach(an, bn)) return SIZE_MAX;
  const ntt_layout l = ntt_choose_layout(e, an, bn, rx);
  if (l.shape.n == 0) return SIZE_MAX;
  const unsigned th = l.shape.n < (std::size_t{1} << 13) ? 1u : prim::resolve_threads(threads);
  const u64 p0 = e == ntt_engine::portable ? fft::ntt_primes[0].p : fft::ntt52_primes[0].p;
  const ntt_arrays A = plan_arrays(l, p0, an, bn, th, false);
  return A.arrays * scratch_stride(A.points) * sizeof(u64);
}

std::size_t ntt_table_bytes(ntt_engine e, std::size_t an, std::size_t bn, radix rx) {
  if (e == ntt_engine::best) e = ntt_default_engine();
  if (beyond_ntt_reach(an, bn)) return SIZE_MAX;
  const ntt_layout l = ntt_choose_layout(e, an, bn, rx);
  const std::size_t n = l.shape.n;
  if (n == 0) return SIZE_MAX;
  // Every plan of length n = m or 3m (m a power of two) takes its prime's
  // table up to m / 2 (fft/ntt_ifma.cpp, fft/ntt.cpp, fft/ntt_avx2.cpp).
  const std::size_t m = n & (~n + 1);
  const std::size_t per_prime = e == ntt_engine::avx2       ? fft::ntt_avx2_twiddle_table::bytes(m / 2)
                                : e == ntt_engine::portable ? fft::ntt64_level_table::bytes(m / 2)
                                                            : fft::ntt52_level_table::bytes(m / 2);
  return l.primes * per_prime;
}

std::size_t ntt_scratch_bytes() {
  return thread_scratch.slab.size() * sizeof(u64);
}

void ntt_release_scratch() { thread_scratch = scratch_cache{}; }

void* ntt_reserve_scratch(std::size_t bytes, bool& fresh) {
  const std::size_t words = (bytes + sizeof(u64) - 1) / sizeof(u64);
  fresh = thread_scratch.slab.size() < words;
  if (fresh) scratch(1, words);  // scratch() grows the slab as a product would
  return thread_scratch.slab.data();
}

unsigned ntt_primes_needed(ntt_engine e, std::size_t an, std::size_t bn, radix rx) {
  if (e == ntt_engine::best) e = ntt_default_engine();
  return e == ntt_engine::portable ? primes_needed(fft::ntt_primes, fft::ntt_prime_count, an, bn, rx)
                                   : primes_needed(fft::ntt52_primes, fft::ntt52_prime_count, an, bn, rx);
}

void mul_ntt(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
             const mul_options& options, mul_stats& st, ntt_engine engine, unsigned force_primes,
             unsigned force_bits, ntt_fold fold) {
  engine = ntt_resolve_engine(engine);
  st.ntt_engine = ntt_engine_name(engine);
  switch (engine) {
    case ntt_engine::ifma:
      return mul_ntt_on<fft::ntt52_plan>(fft::ntt52_primes, engine, fft::ntt52_mixed_radix_digits, force_primes, force_bits, fold, r,
                                         a, an, b, bn, rx, options, st);
    case ntt_engine::avx2:
      return mul_ntt_on<fft::ntt_avx2_plan>(fft::ntt52_primes, engine, fft::ntt_avx2_mixed_radix_digits, force_primes,
                                            force_bits, fold, r, a, an, b, bn, rx, options, st);
    default:
      return mul_ntt_on<fft::ntt_plan>(fft::ntt_primes, engine, fft::ntt_mixed_radix_digits, force_primes, force_bits, fold, r, a,
                                       an, b, bn, rx, options, st);
  }
}

}  // namespace bigmul::detail
