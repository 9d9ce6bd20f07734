// SPDX-License-Identifier: LGPL-3.0-or-later
// A single-pass kernel's tile prefix by decoupled look-back [MERRILL16] over
// packed one- or two-word descriptors (prim/cuda/lookback_packed.hpp): the
// step the packed scan (prim/cuda/device_scan_impl.cuh) runs, for kernels
// that fuse their own per-tile work around it (the single-pass split and
// carry).
#pragma once

#include <cstddef>
#include <cstdint>

#include "prim/cuda/device_scan_impl.cuh"
#include "prim/cuda/lookback_packed.hpp"

namespace bigmul::prim::cuda {

// Run by all lanes of one warp of the block working on tile `tile` (tiles in
// ticket order): publishes the tile's aggregate, looks back for the total of
// the tiles before it and publishes the inclusive prefix. Returns that
// exclusive prefix (identity for tile 0), on every lane.
template <class T, class Op>
__device__ T lookback_tile_prefix(std::uint64_t* desc, std::size_t tile, const T& aggregate, const Op& op,
                                  T identity) {
  namespace lb = bigmul::prim::lookback;
  namespace sd = scan_detail;
  const bool lane0 = (threadIdx.x & 31) == 0;
  const auto t = static_cast<long long>(tile);
  if (tile == 0) {
    if (lane0) sd::publish(desc, 0, lb::status_prefix, aggregate);
    return identity;
  }
  if (lane0) sd::publish(desc, t, lb::status_aggregate, aggregate);
  const T prefix = sd::packed_look_back(desc, t, op, identity);
  if (lane0) sd::publish(desc, t, lb::status_prefix, op(prefix, aggregate));
  return prefix;
}

}  // namespace bigmul::prim::cuda
