// SPDX-License-Identifier: LGPL-3.0-or-later
// Two-phase parallel carry normalization ([DIEGUEZ18 §7.5]), for any base
// B = 2^k or 10^k and signed coefficients.
//
// Phase 1, bounded spread: every coefficient is cut into D base-B digits
// (and, for signed types, a top digit floor(x / B^D) in {-1, 0}); digit j is
// added to position i + j. Each position then holds s in [-1, D (B-1)]. Rounds
// repeat while D > B (only tiny bases need a second round).
// Phase 2, single carries: s_p = v_p + B q_p with v_p in [1, B] and
// q_p in [-1, B-2], so t_p = v_p + q_(p-1) lies in [0, 2B-2] and a position
// passes on a carry of 0 or 1 only. Position p generates (t_p >= B) or
// propagates (t_p == B-1); the carries are the inclusive scan of the
// (generate, propagate) pairs with prim::carry_op, which is associative but
// not commutative. The digit is t_p + carry_in mod B.
//
// The result never depends on the thread count: chunks are cut by index and
// every step is exact integer arithmetic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "carry/carry.hpp"
#include "carry/digit_base.hpp"
#include "prim/buffer.hpp"
#include "prim/ops.hpp"
#include "prim/parallel.hpp"
#include "prim/scan.hpp"

namespace bigmul::carry {
namespace two_phase {

inline constexpr std::size_t grain = two_phase_grain;

// Smallest D with B^D > M.
inline unsigned digits_above(std::uint64_t B, unsigned __int128 M) {
  unsigned D = 0;
  for (; M > 0; M /= B) ++D;
  return D;
}

// One spread round: out[0..n + W - 1) with W = D + (signed_top ? 1 : 0).
// Each output chunk recomputes the digits of the W - 1 inputs before it
// instead of exchanging spills, so chunks write disjoint ranges.
template <class T, class Base>
void spread(const T* in, std::size_t n, unsigned D, bool signed_top, const Base& base, std::int64_t* out,
            unsigned threads) {
  const std::size_t W = D + (signed_top ? 1 : 0);
  const std::size_t ns = n + W - 1;
  prim::parallel_chunks(ns, grain, threads, [&](std::size_t p0, std::size_t p1) {
    std::fill(out + p0, out + p1, std::int64_t{0});
    const std::size_t i_begin = p0 >= W - 1 ? p0 - (W - 1) : 0, i_end = std::min(n, p1);
    for (std::size_t i = i_begin; i < i_end; ++i) {
      T x = in[i];
      if (i >= p0 && i + W <= p1) {  // interior: every digit lands in this chunk
        for (unsigned j = 0; j < D; ++j) {
          T r;
          x = base.div_floor(x, r);
          out[i + j] += static_cast<std::int64_t>(r);
        }
        if (signed_top) out[i + D] += static_cast<std::int64_t>(x);
      } else {
        for (unsigned j = 0; j < D; ++j) {
          T r;
          x = base.div_floor(x, r);
          if (i + j >= p0 && i + j < p1) out[i + j] += static_cast<std::int64_t>(r);
        }
        if (signed_top && i + D >= p0 && i + D < p1) out[i + D] += static_cast<std::int64_t>(x);
      }
    }
  });
}

// t_p of phase 2 for p in [p0, p1), passed to f(p, t); positions at or past
// ns hold 0.
template <class Base, class F>
void for_each_t(const std::int64_t* s, std::size_t ns, const Base& base, std::size_t p0, std::size_t p1, F&& f) {
  std::int64_t v;
  std::int64_t q_prev = p0 == 0 ? 0 : split_high(base, p0 - 1 < ns ? s[p0 - 1] : 0, v);
  for (std::size_t p = p0; p < p1; ++p) {
    const std::int64_t q = split_high(base, p < ns ? s[p] : 0, v);
    f(p, v + q_prev);
    q_prev = q;
  }
}

// Phase 2 on s[0..ns) (values in [-1, B (B-1)]): digits into out[0..m);
// returns whether the part at and above B^m is zero. Thread -> device
// layering as in CUB: each chunk folds its positions' (g, p) pairs into one
// pair, prim::exclusive_scan over the chunk pairs gives each chunk its carry
// in, and each chunk then ripples its own carries sequentially.
template <class Base>
bool resolve(const std::int64_t* s, std::size_t ns, const Base& base, std::uint32_t* out, std::size_t m,
             unsigned threads) {
  const auto B = static_cast<std::int64_t>(base.base());
  const std::size_t chunks = std::max<std::size_t>(1, prim::chunk_count(m, grain, threads));
  const auto first = [&](std::size_t c) { return m * c / chunks; };
  std::vector<prim::carry_gp> carry_in(chunks);
  if (chunks > 1) {
    prim::parallel_for(chunks - 1, threads, [&](std::size_t c) {
      prim::carry_gp acc = prim::carry_identity;
      for_each_t(s, ns, base, first(c), first(c + 1), [&](std::size_t, std::int64_t t) {
        acc = prim::carry_op{}(acc, prim::carry_gp{t >= B ? 1u : 0u, t == B - 1 ? 1u : 0u});
      });
      carry_in[c] = acc;
    });
  }
  prim::exclusive_scan(carry_in.data(), carry_in.data(), chunks, prim::carry_op{}, prim::carry_identity, 1);
  std::uint32_t last_carry = 0;
  prim::parallel_for(chunks, threads, [&](std::size_t c) {
    std::int64_t carry = carry_in[c].g;
    for_each_t(s, ns, base, first(c), first(c + 1), [&](std::size_t p, std::int64_t t) {
      const std::int64_t d = t + carry;
      carry = d >= B;
      out[p] = static_cast<std::uint32_t>(carry ? d - B : d);
    });
    if (c + 1 == chunks) last_carry = static_cast<std::uint32_t>(carry);
  });
  // What is left above B^m: the last carry, q_(m-1), and s_p B^(p-m) for p >= m.
  std::int64_t v;
  __int128 high = 0;
  constexpr __int128 limit = __int128{1} << 100;  // past this it cannot return to zero
  for (std::size_t p = ns; p-- > m;) {
    high = high * B + s[p];
    if (high > limit || high < -limit) return false;
  }
  if (m > 0) high += last_carry + split_high(base, m - 1 < ns ? s[m - 1] : 0, v);
  return high == 0;
}

}  // namespace two_phase

// Same contract as carry_normalize_sequential, multithreaded. max_abs > 0
// promises |c[i]| <= max_abs (fewer digits to spread); 0 means T's range.
template <class T>
bool carry_normalize_two_phase(const T* c, std::size_t nc, digit_base b, std::uint32_t* out, std::size_t m,
                               unsigned threads, std::uint64_t max_abs) {
  return with_base(b, [&](auto base) {
    const std::uint64_t B = base.base();
    constexpr bool sgn = is_signed_int<T>;
    // Largest |x| for T (2^bits - 1, or 2^(bits-1) - 1 when signed: the
    // signed top digit absorbs -2^(bits-1)). numeric_limits knows no __int128
    // in strict C++20.
    const unsigned __int128 all = ~static_cast<unsigned __int128>(0) >> (128 - 8 * sizeof(T));
    const unsigned __int128 bound = max_abs ? max_abs : sgn ? all >> 1 : all;
    unsigned D = std::max(1u, two_phase::digits_above(B, bound));
    // Every position is written by spread (no zero-filling first).
    prim::buffer<std::int64_t> s(nc + D + (sgn ? 1 : 0) - 1);
    std::size_t ns = nc + D + (sgn ? 1 : 0) - 1;
    two_phase::spread(c, nc, D, sgn, base, s.data(), threads);
    // Further rounds only while D > B (bases below ~50 with wide inputs).
    std::uint64_t hi = static_cast<std::uint64_t>(D) * (B - 1);
    while (D > B) {
      D = two_phase::digits_above(B, hi);
      prim::buffer<std::int64_t> next(ns + D);
      two_phase::spread(s.data(), ns, D, true, base, next.data(), threads);
      s = std::move(next);
      ns += D;
      hi = static_cast<std::uint64_t>(D) * (B - 1);
    }
    return two_phase::resolve(s.data(), ns, base, out, m, threads);
  });
}

}  // namespace bigmul::carry
