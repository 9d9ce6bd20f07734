// SPDX-License-Identifier: LGPL-3.0-or-later
// The NTT engines' twiddle tables, one per prime and engine, shared by all
// the engine's transform lengths and built level by level (IFMA, portable)
// or half by half (AVX2).
//
// Why: tables built per (prime, length) cost as much as the product itself on
// a process's first product (one 128-by-64 division per entry, and fresh
// zero-filled pages).
// Level t holds w_2t^j, j = 0 .. t, with w_2t = g^((p - 1) / 2t): the same for
// every length, so a table up to level T is a prefix of one up to level 2T
// and one table serves every length of the prime. Level 2t's even entries are
// level t's; its odd ones are level t's times w_2t, independent products with
// no dependency chain, and the 52-bit Shoup companions come from a
// floating-point quotient corrected exactly, not from a division.
#pragma once

#include <bit>
#include <cstddef>
#include <memory>

#include "fft/ntt_arith.hpp"
#include "prim/buffer.hpp"

namespace bigmul::fft {

// Levels above `cap` are not stored whole: level t's twiddle j = jh F + jl
// (F = fine(t), jl < F) is w_2t^(jh F) w_2t^jl, the first factor level t/F's
// entry jh (t/F <= cap, in the full table), the second one of level t's
// first F + 1 entries (the "fine" table, F small). A transform multiplies by
// the two factors in turn (two Shoup products instead of one): the big
// levels are the memory-bound passes, where the extra product is hidden,
// and the table stays ~32 (2 cap + 2m/cap) bytes (forward and inverse)
// instead of 32m. Why: full tables are many times the operands' bytes,
// which breaks the product's heap bound (4x operands + result) and evicts
// the data from the caches. The cap: 2^12 keeps level 2^12, the pair just
// above the leaves, to one product; a larger cap gains nothing more and its
// tables break the heap bound at 10^6 digits.
struct ntt52_level_table {
  static constexpr std::size_t cap = std::size_t{1} << 12;  // the highest level stored whole
  static constexpr std::size_t fine_min = 64;               // fine entries of a big level, at least
  u64 p = 0;
  std::size_t top = 0;         // the highest level served (a power of two; 0: none)
  prim::buffer<u64> w, wq;     // level t <= cap: w_2t^j in [0, p) and floor(w_2t^j 2^52 / p) at offset(t) + j
  prim::buffer<u64> fw, fwq;   // level t > cap: w_2t^jl, jl = 0 .. fine(t), and companions at fine_offset(t) + jl
  // The inverse's, read in increasing j as the forward's (no lane reversal
  // in the kernels): level t <= cap: w_2t^(t - j) = -w_2t^-j at offset(t) + j
  // (each level reversed); level t > cap: w_2t^-jl at fine_offset(t) + jl,
  // so -w_2t^-j = w_2t^-jl times the reversed level t / F's entry jh.
  prim::buffer<u64> iw, iwq, fiw, fiwq;

  // Where level t's t + 1 entries start: levels 1, 2, 4 .. packed in order.
  static std::size_t offset(std::size_t t) { return (t - 1) + static_cast<std::size_t>(std::bit_width(t - 1)); }
  // Full-table entries of a table serving levels up to top.
  static std::size_t entries(std::size_t top) { return top == 0 ? 0 : offset(2 * (top < cap ? top : cap)); }
  // A big level's fine span F: t / F <= cap, and F >= 64 so that 8 lanes share one coarse entry.
  static std::size_t fine(std::size_t t) { return t / cap > fine_min ? t / cap : fine_min; }
  // Where big level t's fine entries start (levels 2 cap, 4 cap .. in order).
  static std::size_t fine_offset(std::size_t t) {
    std::size_t at = 0;
    for (std::size_t s = 2 * cap; s < t; s *= 2) at += fine(s) + 1;
    return at;
  }
  static std::size_t fine_entries(std::size_t top) { return top <= cap ? 0 : fine_offset(2 * top); }
  // The table's heap bytes (forward and inverse, values and companions).
  static std::size_t bytes(std::size_t top) { return (entries(top) + fine_entries(top)) * 4 * sizeof(u64); }
};

// floor(w 2^52 / p) for w < p < 2^50, with inv = 2^52 / p as a double: the
// estimate w * inv is within one of the quotient, the remainder w 2^52 - q p
// (exact mod 2^64, its true value below 2^52 in magnitude) corrects it.
inline u64 shoup52_companion_estimated(u64 w, u64 p, double inv) {
  u64 q = static_cast<u64>(static_cast<double>(w) * inv);
  auto r = static_cast<long long>((w << 52) - q * p);
  while (r < 0) --q, r += static_cast<long long>(p);
  while (r >= static_cast<long long>(p)) ++q, r -= static_cast<long long>(p);
  return q;
}

// A table of levels 1 .. top (a power of two >= 1) for prime p with generator
// g; levels up to prefix->top are copied from prefix when given (same p).
// threads as prim::parallel_chunks (0: all).
ntt52_level_table ntt52_build_levels(u64 p, u64 generator, std::size_t top, const ntt52_level_table* prefix = nullptr,
                                     unsigned threads = 0);

// The shared table of ntt52_primes[prime] with at least levels 1 .. top,
// extended (into a new table: plans keep the one they hold) when a longer
// transform first asks. Thread safe.
std::shared_ptr<const ntt52_level_table> ntt52_levels(unsigned prime, std::size_t top);

// The portable engine's (fft/ntt.hpp, 62-bit primes) in the same level
// layout: level t holds (w_2t^j, floor(w_2t^j 2^64 / p)), j = 0 .. t. The
// 64-bit companion is one division an entry (no double estimate is close
// enough at 64 bits); the sharing is what saves: every length after the
// longest so far costs nothing.
struct ntt_twiddle {
  u64 w, w_shoup;
};
// Levels above ntt52_level_table::cap are coarse x fine, as there.
struct ntt64_level_table {
  u64 p = 0;
  std::size_t top = 0;             // the highest level served (a power of two; 0: none)
  prim::buffer<ntt_twiddle> tw;    // level t <= cap: entries at ntt52_level_table::offset(t) + j
  prim::buffer<ntt_twiddle> fine;  // level t > cap: w_2t^jl, jl = 0 .. fine(t), at fine_offset(t) + jl

  const ntt_twiddle* level(std::size_t t) const { return tw.data() + ntt52_level_table::offset(t); }
  const ntt_twiddle* fine_level(std::size_t t) const { return fine.data() + ntt52_level_table::fine_offset(t); }
  // A big level's coarse factors: w_2t^(jh F) = level t / F's entry jh.
  const ntt_twiddle* coarse_level(std::size_t t) const { return level(t / ntt52_level_table::fine(t)); }
  static std::size_t bytes(std::size_t top) {
    return (ntt52_level_table::entries(top) + ntt52_level_table::fine_entries(top)) * sizeof(ntt_twiddle);
  }
};
ntt64_level_table ntt64_build_levels(u64 p, u64 generator, std::size_t top, const ntt64_level_table* prefix = nullptr,
                                     unsigned threads = 0);
// The shared table of ntt_primes[prime], as ntt52_levels.
std::shared_ptr<const ntt64_level_table> ntt64_levels(unsigned prime, std::size_t top);

// The AVX2 engine's (fft/ntt_avx2.hpp, ntt52_primes): w[k] = w_m^bitrev(k)
// and iw[k] = w_m^-bitrev(k) for k < m/2 (bitrev over log2(m/2) bits), as
// signed doubles in (-p/2, p/2) with fw_p = fw / p. For k < m/2 the same k
// reversed over one more bit is twice the value, and w_2m^(2r) = w_m^r: the
// table of m is the first half of the table of 2m, so one table per prime
// serves every length. The new half of 2m's is the old half times w_2m
// (bitrev(h + k) = 2 bitrev(k) + 1): one independent product an entry.
// So w[k] is multiplicative in k's bits: w[kh cap + kl] = w[kh cap] w[kl]
// (kl < cap). Only the first cap entries are stored ("fine"), with the
// coarse ones c[kh] = w[kh cap], kh < half / cap (the same recursion with
// roots of cap times the order); the transform builds each in-cache leaf's
// range of entries from the two before it runs (fft/ntt_avx2_transform.cpp).
// Why: the whole table takes 16 bytes a point a prime (as much as the data),
// which breaks the product's heap bound (4x operands + result); this one
// takes ~256 KiB + 32 half / cap bytes a prime. The cap: 2^13 spares half
// the leaves of a 3 2^15-point transform (10^6 digits) their gathering (a
// division an entry); 2^14 would break the heap bound at 10^6 digits.
struct ntt_avx2_twiddle_table {
  static constexpr std::size_t cap = std::size_t{1} << 13;  // >= the largest leaf's run (fft/ntt_avx2_transform.cpp)
  u64 p = 0;
  std::size_t half = 0;  // entries served (a power of two; 0: none) = the largest m / 2 served
  prim::buffer<double> fw, fw_p, iw, iw_p;      // k < min(half, cap)
  prim::buffer<double> cw, cw_p, ciw, ciw_p;    // w[kh cap] and its inverse, kh < half / cap (half > cap)
  static std::size_t fine_entries(std::size_t half) { return half < cap ? half : cap; }
  static std::size_t coarse_entries(std::size_t half) { return half > cap ? half / cap : 0; }
  // The table's heap bytes (both directions, values and quotients).
  static std::size_t bytes(std::size_t half) {
    return 4 * (fine_entries(half) + coarse_entries(half)) * sizeof(double);
  }
};
ntt_avx2_twiddle_table ntt_avx2_build_twiddles(u64 p, u64 generator, std::size_t half,
                                               const ntt_avx2_twiddle_table* prefix = nullptr, unsigned threads = 0);
// The shared table of ntt52_primes[prime] with at least `half` entries, as
// ntt52_levels. Thread safe.
std::shared_ptr<const ntt_avx2_twiddle_table> ntt_avx2_twiddles(unsigned prime, std::size_t half);

}  // namespace bigmul::fft
