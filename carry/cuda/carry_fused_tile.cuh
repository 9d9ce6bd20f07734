// SPDX-License-Identifier: LGPL-3.0-or-later
// A tile's positions and its carry-in, the part the single-pass carry
// (carry/cuda/carry_fused.cu) and the carry-and-join pass
// (mul/cuda/carry_join_fused.cu) share: each warp's runs of 32 positions from
// the block's shared s, their generate / propagate masks, the warp codes, and
// the tile's carry-in by decoupled look-back [MERRILL16] over the product's
// descriptors. Per-position arithmetic: carry/cuda/carry_fused_hd.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "carry/cuda/carry_fused_hd.hpp"
#include "prim/cuda/carry_code_hd.hpp"
#include "prim/cuda/common.cuh"
#include "prim/cuda/lookback_tile.cuh"

namespace bigmul::carry::cuda::fused_tile {

// One run of 32 positions: position first + local (local counts from the
// tile's first, one a lane) from s_sh (s_sh[i]: position first + i - 1); its t,
// and the warp's generate and propagate masks (positions at or past M propagate).
template <class Base>
__device__ __forceinline__ void run_masks(const Base& base, const std::int64_t* s_sh, std::size_t local,
                                          std::size_t first, std::size_t M, std::int64_t B, std::int64_t& t,
                                          std::uint32_t& gm, std::uint32_t& pm) {
  const std::size_t p = first + local;
  const bool in = p < M;
  t = in ? fused_hd::position_t(base, s_sh[local + 1], s_sh[local], p) : 0;
  gm = __ballot_sync(prim::cuda::full_warp, in && t >= B);
  pm = __ballot_sync(prim::cuda::full_warp, !in || t == B - 1);
}

// The block's Items runs a warp (warp w holds positions w * 32 * Items ..),
// each warp's code in codes[w], and the tile's carry-in bit, found by warp 0
// over product g's descriptors (desc + g * tiles; tile by ticket) and handed
// to every thread through *s_prefix. Two block barriers; codes and *s_prefix are
// shared memory of Warps words and one word.
template <unsigned Items, unsigned Warps, class Base>
__device__ __forceinline__ std::uint32_t tile_carry_in(const Base& base, const std::int64_t* s_sh, std::size_t first,
                                                       std::size_t M, std::int64_t B, std::int64_t (&t)[Items],
                                                       std::uint32_t (&gm)[Items], std::uint32_t (&pm)[Items],
                                                       std::uint32_t* codes, std::uint32_t* s_prefix,
                                                       std::uint64_t* desc, std::size_t g, std::size_t tiles,
                                                       std::size_t tile) {
  namespace code = bigmul::prim::carry_code;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  std::uint32_t wcode = code::identity;
#pragma unroll
  for (unsigned r = 0; r < Items; ++r) {
    run_masks(base, s_sh, std::size_t{warp} * 32 * Items + r * 32 + lane, first, M, B, t[r], gm[r], pm[r]);
    wcode = code::op{}(wcode, fused_hd::warp_code(gm[r], pm[r]));
  }
  if (lane == 0) codes[warp] = wcode;
  __syncthreads();
  if (warp == 0) {
    std::uint32_t aggregate = code::identity;
    for (unsigned w = 0; w < Warps; ++w) aggregate = code::op{}(aggregate, codes[w]);
    const std::uint32_t prefix =
        prim::cuda::lookback_tile_prefix(desc + g * tiles, tile, aggregate, code::op{}, code::identity);
    if (lane == 0) *s_prefix = prefix;
  }
  __syncthreads();
  return *s_prefix & 1u;
}

}  // namespace bigmul::carry::cuda::fused_tile
