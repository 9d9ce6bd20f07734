// SPDX-License-Identifier: LGPL-3.0-or-later
// Chinese remaindering and carries of an NTT product: see mul/ntt_crt_carry.hpp.
#include "mul/ntt_crt_carry.hpp"

#include <immintrin.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "mul/limb_vec.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_decimal_carry.hpp"
#include "mul/ntt_decimal_steps.hpp"
#include "mul/ntt_garner.hpp"
#include "mul/ntt_operand.hpp"
#include "prim/cpu_features.hpp"
#include "prim/parallel.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul::detail {
namespace {

using fft::u64;

constexpr unsigned max_primes = 4;
constexpr std::size_t group = 64;       // coefficients a Garner step
constexpr std::size_t tail_limbs = 4;   // a piece's tail

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

// The decimal carries' interleaved chains: piece C task + c of a task is
// chain c, coefficients lo[c] .. hi[c].
template <unsigned C, class Bound>
void chain_bounds(std::size_t task, Bound&& bound, std::size_t (&lo)[C], std::size_t (&hi)[C]) {
  for (unsigned c = 0; c < C; ++c) {
    lo[c] = bound(C * task + c);
    hi[c] = bound(C * task + c + 1);
  }
}

// What every task of one product shares.
struct crt_job {
  const ntt_crt_kernels& k;
  unsigned used;
  const u64* residues[max_primes];
  limb_t* r;
  std::size_t count, rn, pieces;
  unsigned bits;
  u64* tails;
  bool bmi2;
  std::size_t bound(std::size_t piece) const { return count * piece / pieces; }
  // The limb where a piece's tail lands (the first limb the next piece writes).
  std::size_t limb_at(std::size_t coefficient) const {
    return bits == 64 ? coefficient : (coefficient * bits) >> 6;
  }
  // Limbs x[3 q ..] of coefficients i .. i + len (len <= group).
  bool coefficients(std::size_t i, std::size_t len, u64* digits, u64* x) const {
    bool ok = true;
    if (len == 0) return ok;
    k.mixed_radix(residues, i, len, digits, used);
    for (std::size_t q = 0; q < len; ++q) ok &= ntt_horner_limbs(k.primes, used, digits, len, q, x + 3 * q);
    return ok;
  }
};

// Binary coefficients at bit offsets (bits < 64): each adds into a 4-limb
// running sum that emits the limbs below the next coefficient's bit
// (ntt_bit_accumulator).
bool task_bit_offsets(const crt_job& j, std::size_t task) {
  u64 digits[max_primes * group];
  bool ok = true;
  const std::size_t lo = j.bound(task), hi = j.bound(task + 1);
  std::size_t out = j.limb_at(lo);
  ntt_bit_accumulator sum;
  sum.shift = static_cast<unsigned>((lo * j.bits) & 63);
  for (std::size_t g0 = lo; g0 < hi; g0 += group) {
    const std::size_t len = std::min(group, hi - g0);
    if (j.used == 3 && j.k.crt3_limbs) {  // Garner and Horner 8 a vector, the sum adds only
      j.k.crt3_limbs(j.residues, g0, len, digits);
      const ntt_bit_sum3_fn add = j.k.bit_sum3 ? j.k.bit_sum3
                                  : j.bmi2     ? ntt_bit_carry3_limbs_bmi2
                                               : ntt_bit_carry3_limbs;
      out += add(digits, len, j.bits, sum, j.r + out);
      continue;
    }
    j.k.mixed_radix(j.residues, g0, len, digits, j.used);
    if (j.used == 3) {  // the common case: Horner and the sum in registers
      out += (j.bmi2 ? ntt_bit_carry3_bmi2 : ntt_bit_carry3)(digits, digits + len, digits + 2 * len, len,
                                                             j.k.primes[0].p, j.k.primes[1].p, j.bits, sum,
                                                             j.r + out);
      continue;
    }
    for (std::size_t q = 0; q < len; ++q) {
      u64 v[3];
      ok &= ntt_horner_limbs(j.k.primes, j.used, digits, len, q, v);
      if (sum.add(v, j.bits, j.r + out)) ++out;
    }
  }
  std::copy(sum.acc, sum.acc + 4, j.tails + tail_limbs * task);
  return ok;
}

// Wide binary coefficients (64 < bits <= 127) at bit offsets: Garner's
// four-limb values summed by ntt_wide_carry_run (four primes below 2^50:
// Horner and the sum fused; else ntt_horner_limbs4 first). The last piece's
// limbs can reach past rn (count bits < 64 rn + bits): a group that could
// goes through a buffer, and what lands past rn must be zero.
bool task_wide(const crt_job& j, std::size_t task) {
  u64 digits[max_primes * group], x[4 * group], spill[2 * group + 2];
  bool ok = true;
  const std::size_t lo = j.bound(task), hi = j.bound(task + 1);
  std::size_t out = j.limb_at(lo);
  ntt_wide_accumulator sum;
  sum.shift = static_cast<unsigned>((lo * j.bits) & 63);
  const bool fused = j.used == 4 && j.k.primes[0].p < (u64{1} << 50) && j.k.primes[1].p < (u64{1} << 50) &&
                     j.k.primes[2].p < (u64{1} << 50);
  const u64 P0 = j.k.primes[0].p, P1 = j.k.primes[1].p, P2 = j.k.primes[2].p;
  for (std::size_t g0 = lo; g0 < hi; g0 += group) {
    const std::size_t len = std::min(group, hi - g0);
    j.k.mixed_radix(j.residues, g0, len, digits, j.used);
    const bool direct = out + (sum.shift + len * j.bits) / 64 <= j.rn;
    u64* to = direct ? j.r + out : spill;
    std::size_t n;
    if (fused) {
      n = ntt_wide_carry_run(
          len,
          [&](std::size_t q, u64& v0, u64& v1, u64& v2, u64& v3) {
            u64 v[4];
            garner4_horner(digits[q], digits[len + q], digits[2 * len + q], digits[3 * len + q], P0, P1, P2, v);
            v0 = v[0];
            v1 = v[1];
            v2 = v[2];
            v3 = v[3];
          },
          j.bits, sum, to);
    } else {
      for (std::size_t q = 0; q < len; ++q) ok &= ntt_horner_limbs4(j.k.primes, j.used, digits, len, q, x + 4 * q);
      n = ntt_wide_carry_run(
          len,
          [&](std::size_t q, u64& v0, u64& v1, u64& v2, u64& v3) {
            v0 = x[4 * q];
            v1 = x[4 * q + 1];
            v2 = x[4 * q + 2];
            v3 = x[4 * q + 3];
          },
          j.bits, sum, to);
    }
    for (std::size_t t = 0; t < n && !direct; ++t) {
      if (out + t < j.rn) {
        j.r[out + t] = spill[t];
      } else {
        ok &= spill[t] == 0;
      }
    }
    out += n;
  }
  ok &= sum.acc[4] == 0;
  std::copy(sum.acc, sum.acc + 4, j.tails + tail_limbs * task);
  return ok;
}

// Binary, whole limbs: coefficient c adds at limb c.
bool task_binary_limbs(const crt_job& j, std::size_t task) {
  u64 digits[max_primes * group], x[3 * group];
  bool ok = true;
  const std::size_t lo = j.bound(task), hi = j.bound(task + 1);
  u64 pend[3] = {0, 0, 0};
  for (std::size_t g0 = lo; g0 < hi; g0 += group) {
    const std::size_t len = std::min(group, hi - g0);
    if (j.used == 3 && j.k.crt3_limbs) {  // Garner and Horner 8 a vector, the carry adds only
      j.k.crt3_limbs(j.residues, g0, len, digits);
      ntt_limbs3_carry(digits, len, j.r + g0, pend);
      continue;
    }
    if (j.used == 3) {
      // Three primes (the common case), Horner and the carry fused, no
      // limb array: x = v0 + p0 (v1 + p1 v2) < 2^163 straight into pend
      // (pend[2] is zero at each step, pend[1] + x2 + carry < 2^64).
      j.k.mixed_radix(j.residues, g0, len, digits, j.used);
      ntt_garner3_carry(digits, digits + len, digits + 2 * len, len, j.k.primes[0].p, j.k.primes[1].p, j.r + g0,
                        pend);
      continue;
    }
    ok &= j.coefficients(g0, len, digits, x);
    for (std::size_t q = 0; q < len; ++q) {
      limb_t carry = 0;
      pend[0] = add_limb(pend[0], x[3 * q], carry, radix::binary);
      pend[1] = add_limb(pend[1], x[3 * q + 1], carry, radix::binary);
      pend[2] = add_limb(pend[2], x[3 * q + 2], carry, radix::binary);  // no carry out: pend < 2^163 / 2^64
      j.r[g0 + q] = pend[0];
      pend[0] = pend[1];
      pend[1] = pend[2];
      pend[2] = 0;
    }
  }
  std::copy(pend, pend + 3, j.tails + tail_limbs * task);
  return ok;
}

// Decimal, three primes, the engine's vectorized digits (mul/ntt_decimal_carry.hpp).
void task_decimal3_vector(const crt_job& j, std::size_t task) {
  constexpr unsigned C = ntt_decimal_chains;
  std::size_t lo[C], hi[C];
  chain_bounds(task, [&](std::size_t p) { return j.bound(p); }, lo, hi);
  ntt_decimal3_carry<C>(j.residues, lo, hi, j.r, j.tails + tail_limbs * C * task, tail_limbs, j.k.decimal3_digits);
}

// Decimal, three primes: ntt_decimal_garner3_chains pieces a task, their
// division chains interleaved, one division a position
// (ntt_decimal_garner3_step). (The position loops stay here: one helper
// taking the group fill and the step as lambdas is slower in this carry.)
void task_decimal_garner3(const crt_job& j, std::size_t task) {
  constexpr unsigned C = ntt_decimal_garner3_chains;
  const ntt_decimal_garner3 dg(j.k.primes[0].p, j.k.primes[1].p);
  std::size_t lo[C], hi[C], len[C];
  u64 pend[C][3] = {}, vs[C][3 * group];
  chain_bounds(task, [&](std::size_t p) { return j.bound(p); }, lo, hi);
  limb_t* const r = j.r;
  for (std::size_t off = 0;; off += group) {
    const std::size_t all = chain_group(lo, hi, off, group, len);
    if (all == ~std::size_t{0}) break;
    for (unsigned c = 0; c < C; ++c)
      if (len[c] != 0) j.k.mixed_radix(j.residues, lo[c] + off, len[c], vs[c], j.used);
    const auto step = [&](unsigned c, std::size_t q) {
      const u64* v = vs[c];
      r[lo[c] + off + q] = ntt_decimal_garner3_step(dg, v[q], v[len[c] + q], v[2 * len[c] + q], pend[c]);
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
    j.tails[tail_limbs * piece] = d.r;
    j.tails[tail_limbs * piece + 1] = d.q;
  }
}

// Decimal, four primes: Horner's limbs, then ntt_decimal_chains pieces a
// task, their division chains interleaved.
bool task_decimal_limbs(const crt_job& j, std::size_t task) {
  constexpr unsigned C = ntt_decimal_chains;
  u64 digits[max_primes * group];
  bool ok = true;
  std::size_t lo[C], hi[C], len[C];
  u64 pend[C][2] = {}, xs[C][3 * group];
  chain_bounds(task, [&](std::size_t p) { return j.bound(p); }, lo, hi);
  limb_t* const r = j.r;
  for (std::size_t off = 0;; off += group) {
    const std::size_t all = chain_group(lo, hi, off, group, len);
    if (all == ~std::size_t{0}) break;
    for (unsigned c = 0; c < C; ++c) ok &= j.coefficients(lo[c] + off, len[c], digits, xs[c]);
    for (std::size_t q = 0; q < all; ++q)
      for (unsigned c = 0; c < C; ++c) r[lo[c] + off + q] = ntt_decimal_step(xs[c] + 3 * q, pend[c]);
    for (unsigned c = 0; c < C; ++c)
      for (std::size_t q = all; q < len[c]; ++q) r[lo[c] + off + q] = ntt_decimal_step(xs[c] + 3 * q, pend[c]);
  }
  // The binary carries (< 2^101) as base-10^19 digits.
  for (unsigned c = 0; c < C; ++c) {
    const std::size_t piece = C * task + c;
    const qr64 d = div_1e19((static_cast<fft::u128>(pend[c][1]) << 64) | pend[c][0]);  // pend[1] < 2^37
    j.tails[tail_limbs * piece] = d.r;
    j.tails[tail_limbs * piece + 1] = d.q;  // < 2^38
  }
  return ok;
}

// One position of ntt_decimal_sums: d0 + a + b = h M + l (d0, a < M, b < 2^25).
inline void decimal_sum(u64 d0, u64 a, u64 b, u64& l, u64& h) {
  constexpr u64 M = decimal_limb_base;
  const u64 room = M - a;  // d0 + a < 2M can pass 2^64: compare with the room
  const bool c1 = d0 >= room;
  const u64 y = (c1 ? d0 - room : d0 + a) + b;  // < M + 2^25
  const bool c2 = y >= M;
  l = c2 ? y - M : y;
  h = static_cast<u64>(c1) + static_cast<u64>(c2);
}

// ntt_decimal_sums from position 2 on (the neighbours in the group), 4 a
// vector; unsigned compares as signed ones on the sign-flipped values.
// Returns the first position left.
__attribute__((target("avx2"))) std::size_t decimal_sums_avx2(const u64* d, std::size_t len, u64* l, u64* h) {
  const __m256i M = _mm256_set1_epi64x(static_cast<long long>(decimal_limb_base));
  const __m256i S = _mm256_set1_epi64x(static_cast<long long>(u64{1} << 63));
  const __m256i Ms = _mm256_xor_si256(M, S), two = _mm256_set1_epi64x(2);
  std::size_t q = 2;
  for (; q + 4 <= len; q += 4) {
    const __m256i d0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + q));
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + len + q - 1));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + 2 * len + q - 2));
    const __m256i room = _mm256_sub_epi64(M, a);
    const __m256i no1 = _mm256_cmpgt_epi64(_mm256_xor_si256(room, S), _mm256_xor_si256(d0, S));  // d0 < room
    const __m256i x = _mm256_blendv_epi8(_mm256_sub_epi64(d0, room), _mm256_add_epi64(d0, a), no1);
    const __m256i y = _mm256_add_epi64(x, b);
    const __m256i no2 = _mm256_cmpgt_epi64(Ms, _mm256_xor_si256(y, S));  // y < M
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(l + q), _mm256_sub_epi64(y, _mm256_andnot_si256(no2, M)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + q), _mm256_add_epi64(two, _mm256_add_epi64(no1, no2)));
  }
  return q;
}

}  // namespace

void ntt_decimal_sums(const u64* d, std::size_t len, u64 prev[3], u64* l, u64* h) {
  if (len == 0) return;
  const u64* d1 = d + len;
  const u64* d2 = d + 2 * len;
  decimal_sum(d[0], prev[0], prev[1], l[0], h[0]);
  if (len > 1) decimal_sum(d[1], d1[0], prev[2], l[1], h[1]);
  std::size_t q = 2;
  if (len > 5 && prim::cpu_has_avx2_fma()) q = decimal_sums_avx2(d, len, l, h);
  for (; q < len; ++q) decimal_sum(d[q], d1[q - 1], d2[q - 2], l[q], h[q]);
  prev[1] = len > 1 ? d2[len - 2] : prev[2];
  prev[0] = d1[len - 1];
  prev[2] = d2[len - 1];
}

void ntt_crt_and_carry(const ntt_crt_kernels& kernels, unsigned used, u64* const* res, limb_t* r,
                       std::size_t count, std::size_t rn, unsigned bits, radix rx, unsigned threads, mul_stats& st,
                       bool timing) {
  const auto t0 = timing ? prim::steady_clock::now() : prim::steady_clock::time_point{};
  if (used > max_primes) throw error(error::kind::internal, "ntt: more primes than the carry takes");
  const std::size_t tasks = prim::chunk_count(count, ntt_grain, threads);
  const bool decimal3 = rx == radix::decimal && used == 3 && kernels.decimal3;
  const std::size_t per_task = rx == radix::binary                     ? 1
                               : used == 3 && !kernels.decimal3 ? ntt_decimal_garner3_chains
                                                                : ntt_decimal_chains;
  std::vector<u64> tails(tail_limbs * tasks * per_task);
  crt_job j{kernels, used, {}, r, count, rn, tasks * per_task, bits, tails.data(), prim::cpu_has_bmi2_adx()};
  for (unsigned p = 0; p < used; ++p) j.residues[p] = res[p];
  std::vector<char> task_ok(tasks, 1);
  prim::parallel_for(tasks, threads, [&](std::size_t task) {
    bool ok = true;
    if (rx == radix::binary && bits > 64)
      ok = task_wide(j, task);
    else if (rx == radix::binary && bits < 64)
      ok = task_bit_offsets(j, task);
    else if (rx == radix::binary)
      ok = task_binary_limbs(j, task);
    else if (decimal3)
      task_decimal3_vector(j, task);
    else if (used == 3)
      task_decimal_garner3(j, task);
    else
      ok = task_decimal_limbs(j, task);
    task_ok[task] = ok;
  });
  for (std::size_t i = std::min(j.limb_at(count), rn); i < rn; ++i) r[i] = 0;
  bool ok = std::all_of(task_ok.begin(), task_ok.end(), [](char c) { return c != 0; });
  for (std::size_t piece = 0; piece < j.pieces && ok; ++piece)
    ok = add_at(r, rn, j.limb_at(j.bound(piece + 1)), tails.data() + tail_limbs * piece, tail_limbs, rx);
  if (!ok)
    throw error(error::kind::internal, "ntt: a reconstructed coefficient exceeded its bound (" +
                                           std::to_string(rn) + "-limb product); the product was not returned");
  if (timing) st.t_carry += prim::seconds_since(t0);
}

}  // namespace bigmul::detail
