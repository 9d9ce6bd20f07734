// SPDX-License-Identifier: LGPL-3.0-or-later
// Per-position and per-tile work of the single-pass carry
// (carry/cuda/carry_fused.cu): for a one-round carry plan, one kernel gathers
// each position's spread value s_p (carry/cuda/carry_device.cuh's
// hd::gather_position), the phase-2 value t_p from s_p and s_(p-1) (a halo of
// one position before the tile, recomputed by the tile itself), folds the
// warps' (generate, propagate) ballots, finds the tile's carry-in by
// decoupled look-back [MERRILL16] on one-word descriptors
// (prim/cuda/carry_code_hd.hpp) and emits the digits, where the multi-pass
// path writes s to memory and runs spread, fold, a device scan and emit.
// The fit check ("ok") is folded per product by the last tile to finish.
//
// BIGMUL_HD host code (the CUDA runtime API header only, through
// carry_device.cuh): tests/carry/test_carry_fused_model.cpp replays the
// kernel's blocks on the CPU with these functions. C++17.
#pragma once

#include <cstddef>
#include <cstdint>

#include "carry/cuda/carry_device.cuh"
#include "carry/digit_base.hpp"
#include "prim/cuda/carry_code_hd.hpp"

namespace bigmul::carry::cuda::fused_hd {

// Positions per tile: the multi-pass phase 2's block (carry_threads threads,
// carry_items rounds of 32 positions a warp).
inline constexpr std::size_t tile_positions = carry_block_positions;

// Whether the single pass applies: one spread round (the FFT's int64 sums).
inline bool fusable(const carry_plan& plan) { return plan.rounds == 1; }

struct tiling {
  std::size_t M;   // positions phase 2 resolves
  std::size_t P;   // positions per tile
  BIGMUL_HD std::size_t tiles() const { return (M + P - 1) / P; }
};

// s of position q (0 at or past ns, and for the halo before position 0).
template <class T, class Base>
BIGMUL_HD std::int64_t position_s(const Base& base, const T* c, std::size_t nc, std::size_t ns, unsigned D,
                                  bool signed_top, std::size_t q) {
  return q < ns ? hd::gather_position(base, c, nc, q, D, signed_top) : 0;
}

// t_p = v_p + q_(p-1) from s_p and s_(p-1) (hd::phase2_t without the array).
template <class Base>
BIGMUL_HD std::int64_t position_t(const Base& base, std::int64_t s_p, std::int64_t s_prev, std::size_t p) {
  std::int64_t v, v_prev;
  split_high(base, s_p, v);
  const std::int64_t q_prev = p == 0 ? 0 : split_high(base, s_prev, v_prev);
  return v + q_prev;
}

// The packed pair of a run of 32 positions from its ballots.
BIGMUL_HD std::uint32_t warp_code(std::uint32_t gm, std::uint32_t pm) {
  return prim::carry_code::pack(hd::warp_pair(gm, pm));
}

// Carry into a warp's first position from the tile's carry-in and the codes
// of the warps before it in the tile.
BIGMUL_HD std::uint32_t warp_carry_in(std::uint32_t tile_carry, const std::uint32_t* codes, unsigned warp) {
  std::uint32_t cin = tile_carry;
  for (unsigned w = 0; w < warp; ++w) {
    const prim::carry_gp x = prim::carry_code::unpack(codes[w]);
    cin = x.g | (x.p & cin);
  }
  return cin;
}

}  // namespace bigmul::carry::cuda::fused_hd
