// SPDX-License-Identifier: LGPL-3.0-or-later
// CUDA twin of the two-phase carry normalization (carry/carry_two_phase.hpp),
// in CUB's shape: call once with d_temp == nullptr to get temp_bytes, then
// again to run. Asynchronous on `stream`, returns a cudaError_t, never throws,
// never synchronizes.
//
// Phase 1 (bounded spread) runs in GATHER form: position p sums digit j of
// c[p - j] over the W = D (+1 signed top) inputs that reach it, recomputing
// the digits, so no two threads write one position and no atomics are needed.
// Extra rounds while D > B, exactly as on the CPU.
// Phase 2 (single carries) folds the (generate, propagate) flags of t_p with
// warp ballots (the adder identity carries = (2g + p + carry_in) ^ p of
// [DIEGUEZ18 Eq. 7.6]), one (g, p) pair per block of positions, an exclusive
// prim::cuda::device_exclusive_scan<carry_gp, carry_op> over the block pairs,
// and a second pass that emits digit = (t + carry) mod B.
// Batched problems share one scan: every problem's block pairs end with a
// "kill" pair (0, 0), so no carry crosses from one problem into the next.
//
// The high-part check runs phase 2 over M = max(m, ns) + 1 positions (ns:
// positions after phase 1); V fits in [0, B^m) exactly when the digits at
// [m, M) are zero and position M - 1 carries out (see resolve_positions()).
//
// The per-element arithmetic below (namespace hd) is __host__ __device__ and
// covered by CPU tests (tests/carry/test_carry_gpu.cu runs it on the host).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "carry/digit_base.hpp"
#include "prim/ops.hpp"

namespace bigmul::carry::cuda {

// Digits of V = sum c[i] B^i into d_out[0..m); *d_ok (device int) = 1 when
// 0 <= V < B^m, else 0 (and d_out must not be used). T = std::int64_t
// (rounded FFT output) or unsigned __int128 (exact tiled sums). max_abs > 0
// promises |c[i]| <= max_abs; 0 means T's range.
template <class T>
cudaError_t carry_normalize_device(void* d_temp, std::size_t& temp_bytes, const T* d_c, std::size_t nc,
                                   digit_base b, std::uint32_t* d_out, std::size_t m, int* d_ok,
                                   cudaStream_t stream = 0, std::uint64_t max_abs = 0);

// G independent problems: c at d_c + g*nc, digits at d_out + g*m, d_ok[g].
template <class T>
cudaError_t carry_normalize_device_batched(void* d_temp, std::size_t& temp_bytes, const T* d_c, std::size_t nc,
                                           std::size_t G, digit_base b, std::uint32_t* d_out, std::size_t m,
                                           int* d_ok, cudaStream_t stream = 0, std::uint64_t max_abs = 0);

#define BIGMUL_CARRY_DEVICE_EXTERN(T)                                                                          \
  extern template cudaError_t carry_normalize_device<T>(void*, std::size_t&, const T*, std::size_t, digit_base, \
                                                        std::uint32_t*, std::size_t, int*, cudaStream_t,        \
                                                        std::uint64_t);                                         \
  extern template cudaError_t carry_normalize_device_batched<T>(void*, std::size_t&, const T*, std::size_t,     \
                                                                std::size_t, digit_base, std::uint32_t*,        \
                                                                std::size_t, int*, cudaStream_t, std::uint64_t);
BIGMUL_CARRY_DEVICE_EXTERN(std::int64_t)
BIGMUL_CARRY_DEVICE_EXTERN(unsigned __int128)
#undef BIGMUL_CARRY_DEVICE_EXTERN

// Launch shape of phase 2: a block resolves carry_block_positions positions,
// each warp 32 * carry_items consecutive ones.
inline constexpr unsigned carry_threads = 256;
inline constexpr unsigned carry_items = 4;
inline constexpr std::size_t carry_block_positions = std::size_t{carry_threads} * carry_items;

// ---------------------------------------------------------------------------
// Host plan: the spread rounds of carry_normalize_two_phase, position counts.
struct carry_plan {
  static constexpr unsigned max_rounds = 8;
  unsigned rounds = 0;
  unsigned D[max_rounds] = {};          // digits spread per input in round r
  bool signed_top[max_rounds] = {};     // round r adds the signed top digit floor(x / B^D)
  std::size_t n_in[max_rounds] = {};    // positions read by round r
  std::size_t n_out[max_rounds] = {};   // positions written: n_in + D + signed_top - 1
  std::size_t ns = 0;                   // positions after the last round
  std::size_t M = 0;                    // positions phase 2 resolves: max(m, ns) + 1
};

// Smallest D with B^D > M.
inline unsigned digits_above_u128(std::uint64_t B, unsigned __int128 M) {
  unsigned D = 0;
  for (; M > 0; M /= B) ++D;
  return D;
}

// Mirrors carry_normalize_two_phase: D from max_abs (or T's range), further
// rounds while D > B. Returns false for an invalid base.
template <class T>
bool make_carry_plan(digit_base b, std::size_t nc, std::size_t m, std::uint64_t max_abs, carry_plan& plan) {
  if (!b.valid()) return false;
  const std::uint64_t B = b.value();
  constexpr bool sgn = is_signed_int<T>;
  const unsigned __int128 all = ~static_cast<unsigned __int128>(0) >> (128 - 8 * sizeof(T));
  const unsigned __int128 bound = max_abs ? max_abs : sgn ? all >> 1 : all;
  unsigned D = digits_above_u128(B, bound);
  if (D < 1) D = 1;
  plan = carry_plan{};
  plan.rounds = 1;
  plan.D[0] = D;
  plan.signed_top[0] = sgn;
  plan.n_in[0] = nc;
  plan.n_out[0] = nc + D + (sgn ? 1 : 0) - 1;
  std::size_t ns = plan.n_out[0];
  std::uint64_t hi = static_cast<std::uint64_t>(D) * (B - 1);
  while (D > B) {
    if (plan.rounds == carry_plan::max_rounds) return false;  // cannot happen for B >= 2
    D = digits_above_u128(B, hi);
    const unsigned r = plan.rounds++;
    plan.D[r] = D;
    plan.signed_top[r] = true;
    plan.n_in[r] = ns;
    plan.n_out[r] = ns + D;
    ns += D;
    hi = static_cast<std::uint64_t>(D) * (B - 1);
  }
  plan.ns = ns;
  plan.M = (m > ns ? m : ns) + 1;
  return true;
}

// ---------------------------------------------------------------------------
// Per-element arithmetic, host and device.
namespace hd {

// x / B and x mod B (B = 10^K < 2^32) for unsigned __int128 in four 64-bit by
// constant divisions: nvcc's 128-bit division is a slow software routine.
template <unsigned K>
BIGMUL_HD unsigned __int128 div_floor(const decimal_base<K>&, unsigned __int128 x, unsigned __int128& rem) {
  constexpr std::uint64_t B = decimal_base<K>::B;
  std::uint64_t r = 0;
  unsigned __int128 q = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int s = 96; s >= 0; s -= 32) {
    const std::uint64_t cur = (r << 32) | static_cast<std::uint32_t>(x >> s);
    const std::uint64_t qd = cur / B;
    r = cur - qd * B;
    q |= static_cast<unsigned __int128>(qd) << s;
  }
  rem = r;
  return q;
}
template <class Base, class T>
BIGMUL_HD T div_floor(const Base& base, T x, T& rem) {
  return base.div_floor(x, rem);
}

// Digit j (0 <= j, B^j <= |x| range) of x in [0, B): floor(x / B^j) mod B.
template <class T>
BIGMUL_HD std::int64_t spread_digit(const binary_base& b, T x, unsigned j) {
  return static_cast<std::int64_t>((x >> (j * b.k)) & static_cast<T>((std::uint64_t{1} << b.k) - 1));
}
template <unsigned K, class T>
BIGMUL_HD std::int64_t spread_digit(const decimal_base<K>& b, T x, unsigned j) {
  T r;
  for (unsigned i = 0; i < j; ++i) x = div_floor(b, x, r);
  div_floor(b, x, r);
  return static_cast<std::int64_t>(r);
}

// Signed top digit floor(x / B^D) (signed T only).
template <class T>
BIGMUL_HD std::int64_t spread_top(const binary_base& b, T x, unsigned D) {
  const unsigned sh = D * b.k;
  if (sh >= 8 * sizeof(T)) return x < 0 ? -1 : 0;
  return static_cast<std::int64_t>(x >> sh);
}
template <unsigned K, class T>
BIGMUL_HD std::int64_t spread_top(const decimal_base<K>& b, T x, unsigned D) {
  T r;
  for (unsigned i = 0; i < D; ++i) x = div_floor(b, x, r);
  return static_cast<std::int64_t>(x);
}

// Phase-1 value of position p (gather form of two_phase::spread): digit j of
// in[p - j] for j < D, plus the signed top digit of in[p - D].
template <class T, class Base>
BIGMUL_HD std::int64_t gather_position(const Base& base, const T* in, std::size_t n, std::size_t p, unsigned D,
                                       bool signed_top) {
  std::int64_t s = 0;
  const std::size_t jmax = p < D - 1 ? p : D - 1;
  for (std::size_t j = 0; j <= jmax; ++j) {
    const std::size_t i = p - j;
    if (i < n) s += spread_digit(base, in[i], static_cast<unsigned>(j));
  }
  if constexpr (is_signed_int<T>) {
    if (signed_top && p >= D && p - D < n) s += spread_top(base, in[p - D], D);
  }
  return s;
}

// t_p = v_p + q_(p-1) of phase 2 (two_phase::for_each_t); s_p = 0 past ns.
template <class Base>
BIGMUL_HD std::int64_t phase2_t(const Base& base, const std::int64_t* s, std::size_t ns, std::size_t p) {
  std::int64_t v, v_prev;
  split_high(base, p < ns ? s[p] : 0, v);
  const std::int64_t q_prev = p == 0 ? 0 : split_high(base, p - 1 < ns ? s[p - 1] : 0, v_prev);
  return v + q_prev;
}

// 32 consecutive positions with generate mask g and propagate mask p
// (disjoint) and a carry-in bit: bit i < 32 of the result is the carry INTO
// position i, bit 32 the carry out of position 31. An adder with operands
// A = g | p and B = g has exactly these generate/propagate bits, and its
// carries are (A + B + cin) ^ A ^ B ([DIEGUEZ18 Eq. 7.6]).
BIGMUL_HD std::uint64_t warp_carry_bits(std::uint32_t g, std::uint32_t p, std::uint32_t cin) {
  return (2 * static_cast<std::uint64_t>(g) + p + cin) ^ p;
}

// The (g, p) pair of 32 positions.
BIGMUL_HD prim::carry_gp warp_pair(std::uint32_t g, std::uint32_t p) {
  return prim::carry_gp{static_cast<std::uint32_t>(warp_carry_bits(g, p, 0) >> 32), p == 0xffffffffu ? 1u : 0u};
}

// Digit of a position with phase-2 value t and carry-in c; sets carry_out.
BIGMUL_HD std::uint32_t resolve_digit(std::int64_t t, std::uint32_t c, std::int64_t B, bool& carry_out) {
  const std::int64_t d = t + c;
  carry_out = d >= B;
  return static_cast<std::uint32_t>(carry_out ? d - B : d);
}

// Whether position p with digit d (carry out carry_out) breaks the fit:
// a nonzero digit at or past m, or no carry out of the last position M - 1.
BIGMUL_HD bool position_bad(std::size_t p, std::uint32_t d, bool carry_out, std::size_t m, std::size_t M) {
  return (p >= m && d != 0) || (p == M - 1 && !carry_out);
}

// A thread's carry_items positions first + 32 r + lane (r < carry_items) of a
// product: their digits into out[0, m), from phase-2 values t, the warp's
// generate/propagate masks gm, pm and cin, the carry into the warp's first
// position. True when one of them is bad (position_bad). The multi-pass emit kernel and the
// fused carry kernel (carry_fused.cu) both end with it.
BIGMUL_HD bool emit_positions(const std::int64_t (&t)[carry_items], const std::uint32_t (&gm)[carry_items],
                              const std::uint32_t (&pm)[carry_items], std::uint32_t cin, std::size_t first,
                              unsigned lane, std::size_t M, std::size_t m, std::int64_t B, std::uint32_t* out) {
  bool bad = false;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (unsigned r = 0; r < carry_items; ++r) {
    const std::uint64_t bits = warp_carry_bits(gm[r], pm[r], cin);
    cin = static_cast<std::uint32_t>(bits >> 32) & 1u;
    const std::size_t p = first + r * 32 + lane;
    if (p < M) {
      bool carry_out;
      const std::uint32_t d = resolve_digit(t[r], static_cast<std::uint32_t>(bits >> lane) & 1u, B, carry_out);
      if (p < m) out[p] = d;
      bad |= position_bad(p, d, carry_out, m, M);
    }
  }
  return bad;
}

}  // namespace hd

}  // namespace bigmul::carry::cuda
