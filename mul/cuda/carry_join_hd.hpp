// SPDX-License-Identifier: LGPL-3.0-or-later
// Per-position and per-tile work of the carry-and-join pass
// (mul/cuda/carry_join_fused.cu): the single-pass carry of
// carry/cuda/carry_fused_hd.hpp (tickets, one-position halo before the tile,
// decoupled look-back [MERRILL16]) whose digits stay in shared memory and are
// joined there into the product's limbs, so digits never go to memory.
//
// Ownership: a tile owns the limbs (binary) or periods (decimal: K limbs from
// 19 digits) whose FIRST digit lies in its positions; their last digits can
// lie past the tile, so a tile also resolves the first halo_positions
// positions of the next tile from its own carry-out (the look-back's
// inclusive prefix) and their phase-2 values (the same gather as that tile).
// 32 are enough: a binary limb's last digit floor((64 j + 63) / k) is at most
// 32 past its first for k >= 2, and for k = 1 its first digit 64 j is at
// most P - 32 into a tile (tiles and P are multiples of 32), so its last is
// at most 31 past the tile; a decimal period's is 18 past its first.
//
// BIGMUL_HD host code (the CUDA runtime API header only, through
// carry_device.cuh): tests/mul/test_carry_join_model.cpp replays the kernel's
// blocks on the CPU with these functions. C++17.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "bigmul/hd.hpp"
#include "carry/cuda/carry_device.cuh"
#include "carry/cuda/carry_fused_hd.hpp"
#include "mul/coefficients_period.hpp"

namespace bigmul::detail::cuda::carry_join_hd {

// Positions resolved past a tile (one run of 32).
inline constexpr std::size_t halo_positions = 32;
inline constexpr unsigned halo_runs = halo_positions / 32;

// The tile's digits and its halo's: position first + i at sh[i], i < P + halo_positions; 0 from m on.
struct tile_digits {
  const std::uint32_t* sh;
  std::size_t first, m;
  BIGMUL_HD limb_t operator()(std::size_t i) const { return i < m ? sh[i - first] : 0; }
};

// A period's digits (decimal_period_join reads digit I of the period).
struct period_digits {
  tile_digits d;
  std::size_t first;  // the period's first position
  BIGMUL_HD limb_t operator()(std::size_t i) const { return d(first + i); }
};

// [lo, hi): the limbs or periods a tile owns.
struct owned {
  std::size_t lo, hi;
};

// Binary, B = 2^k: limb j is owned by the tile holding digit floor(64 j / k).
// One limb a thread: a warp's stores are already consecutive.
struct binary_join {
  static constexpr bool staged = false;
  unsigned k;
  BIGMUL_HD owned owned_by(std::size_t first, std::size_t P, std::size_t out_n) const {
    const std::size_t lo = (first * k + 63) / 64, hi = ((first + P) * k + 63) / 64;
    return owned{lo < out_n ? lo : out_n, hi < out_n ? hi : out_n};
  }
  // binary_limb (mul/coefficients_period.hpp) in 32-bit arithmetic relative to
  // the tile: an owned limb starts rel < P k <= 2^15 bits after the tile's
  // first digit, so no 64-bit division.
  BIGMUL_HD void put(const tile_digits& d, std::size_t j, limb_t* out, std::size_t) const {
    const auto rel = static_cast<std::uint32_t>(64 * j - d.first * k);
    const std::uint32_t i0 = rel / k, i1 = (rel + 63) / k;
    const std::size_t have = d.m - d.first;  // digits at or past m are 0 (the tile holds one: first < m)
    limb_t v = 0;
    for (std::uint32_t i = i0; i <= i1; ++i) {
      const std::uint32_t bit = i * k;
      const limb_t x = i < have ? d.sh[i] : 0;
      v |= bit >= rel ? x << (bit - rel) : x >> (rel - bit);
    }
    out[j] = v;
  }
};

// Limbs of the decimal join's stage for a tile of P positions: at most
// ceil(P / 19) + 1 owned periods of at most 9 limbs.
BIGMUL_HD constexpr std::size_t stage_limbs(std::size_t P) { return 9 * ((P + 18) / 19 + 1); }

// Decimal, B = 10^K: period p (limbs K p .. K p + K - 1, digits 19 p .. 19 p + 18)
// is owned by the tile holding digit 19 p. A thread joins a period, K limbs:
// written straight out, a warp's stores would be K limbs apart, so the tile's
// limbs go through a shared stage (stage) and out in one consecutive sweep
// (limbs_of: stage[i] is limb limbs_of(own).lo + i).
template <unsigned K>
struct decimal_join {
  static constexpr bool staged = true;
  BIGMUL_HD owned owned_by(std::size_t first, std::size_t P, std::size_t out_n) const {
    const std::size_t periods = (out_n + K - 1) / K, lo = (first + 18) / 19, hi = (first + P + 18) / 19;
    return owned{lo < periods ? lo : periods, hi < periods ? hi : periods};
  }
  // The limbs of the owned periods below out_n.
  BIGMUL_HD owned limbs_of(const owned& own, std::size_t out_n) const {
    const std::size_t lo = own.lo * K, hi = own.hi * K;
    return owned{lo, hi < out_n ? hi : out_n};
  }
  // Period p's K limbs into the stage (own_lo: the tile's first owned period).
  BIGMUL_HD void stage(const tile_digits& d, std::size_t p, std::size_t own_lo, limb_t* st) const {
    limb_t L[K];
    decimal_period_join<K>(period_digits{d, p * 19}, L);
    for (unsigned j = 0; j < K; ++j) st[(p - own_lo) * K + j] = L[j];
  }
};

// R runs of 32 positions of a warp, the first at tile position local0 (the
// product's position first + local0): digits into sh[local] (0 from m on),
// from phase-2 values t, the runs' generate/propagate masks and cin, the
// carry into the first run. count_bad: whether these positions are the
// tile's own (the halo's are the next tile's to check). True when one of
// them breaks the fit (position_bad).
template <unsigned R>
BIGMUL_HD bool resolve_runs(const std::int64_t (&t)[R], const std::uint32_t (&gm)[R], const std::uint32_t (&pm)[R],
                            std::uint32_t cin, std::size_t local0, std::size_t first, unsigned lane, std::size_t M,
                            std::size_t m, std::int64_t B, bool count_bad, std::uint32_t* sh) {
  bool bad = false;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (unsigned r = 0; r < R; ++r) {
    const std::uint64_t bits = carry::cuda::hd::warp_carry_bits(gm[r], pm[r], cin);
    cin = static_cast<std::uint32_t>(bits >> 32) & 1u;
    const std::size_t local = local0 + r * 32 + lane, p = first + local;
    std::uint32_t d = 0;
    if (p < M) {
      bool carry_out;
      d = carry::cuda::hd::resolve_digit(t[r], static_cast<std::uint32_t>(bits >> lane) & 1u, B, carry_out);
      bad |= count_bad && carry::cuda::hd::position_bad(p, d, carry_out, m, M);
    }
    sh[local] = p < m ? d : 0;
  }
  return bad;
}

// The carry into the halo: the tile's carry-out.
BIGMUL_HD std::uint32_t halo_carry_in(std::uint32_t tile_carry, const std::uint32_t* codes, unsigned warps) {
  return carry::cuda::fused_hd::warp_carry_in(tile_carry, codes, warps);
}

// Whether a pass with this round-off (max_bits: a non-negative double's bits)
// may publish: the host's guard comparison (mul/cuda/fft_mul_device.cu).
BIGMUL_HD bool within_guard(double max_err, double guard) { return max_err <= guard; }

}  // namespace bigmul::detail::cuda::carry_join_hd
