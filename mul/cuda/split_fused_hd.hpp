// SPDX-License-Identifier: LGPL-3.0-or-later
// Per-thread and per-tile work of the single-pass balanced split
// (mul/cuda/split_fused.cu): one kernel folds each period's carry flags, scans
// them in the block, finds the tile's carry-in by decoupled look-back
// [MERRILL16] over packed one-word descriptors (prim/cuda/lookback_packed.hpp) and
// emits the balanced digits through a shared-memory stage, where the old path
// ran fold, a device scan and emit as three launches (mul/cuda/coefficients_device.cu).
//
// A tile is `tp` consecutive periods, one a thread. The (generate, propagate)
// pair of a run packs into 2 bits of a 32-bit word, so a descriptor is one
// 64-bit word (status, pair): a reader never sees it torn. A tile's digits go
// out through a shared stage in one coalesced sweep when they fit in it.
//
// BIGMUL_HD and free of CUDA headers: tests/mul/test_split_fused_model.cpp
// replays the kernel's blocks on the CPU with these functions. C++17.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "bigmul/hd.hpp"
#include "mul/cuda/coefficients_hd.hpp"
#include "prim/cuda/carry_code_hd.hpp"
#include "prim/ops.hpp"

namespace bigmul::detail::cuda::split_hd {

// Threads of the kernel, one period each.
inline constexpr unsigned threads = 256;
// Shared stage in int32 digits: a tile of periods of up to 19 digits (decimal,
// and binary k with 64/gcd(64,k) <= 19) is stored through it; longer periods
// (odd binary k) store each thread's digits directly.
inline constexpr std::size_t stage_capacity = std::size_t{threads} * 19;

// The carry pair in one 32-bit word (prim/cuda/carry_code_hd.hpp).
using code_op = prim::carry_code::op;
inline constexpr std::uint32_t code_identity = prim::carry_code::identity;
using prim::carry_code::pack;

// ---- tiles ----
struct tiling {
  std::size_t periods;  // periods of one operand
  std::size_t tp;       // periods per tile
  std::size_t pd;       // digits per period
  std::size_t total;    // digits of one operand: f.count(n)
  BIGMUL_HD std::size_t tiles() const { return (periods + tp - 1) / tp; }
  BIGMUL_HD std::size_t first_period(std::size_t t) const { return t * tp; }
  BIGMUL_HD std::size_t first_digit(std::size_t t) const { return t * tp * pd; }
  // Digits tile t writes (the last tile's are cut at total).
  BIGMUL_HD std::size_t digits(std::size_t t) const {
    const std::size_t b = first_digit(t), e = b + tp * pd;
    return b >= total ? 0 : (e < total ? e : total) - b;
  }
  BIGMUL_HD bool staged() const { return tp * pd <= stage_capacity; }
};

// ---- per period ----
// Period p's (generate, propagate) over its digits below `total`; the
// identity past the last period.
template <class Src>
BIGMUL_HD std::uint32_t period_code(const Src& src, const limb_t* a, std::size_t n, const tiling& t,
                                    std::uint64_t B, std::size_t p) {
  if (p >= t.periods) return code_identity;
  coeff_hd::fold_visit v{B, t.total - p * t.pd, prim::carry_identity};
  src(a, n, p, v);
  return pack(v.acc);
}

// Period p's balanced digits from carry-in `carry` into dst[0..pd) (digits at
// or past `total` are not written); returns the carry out.
template <class Src>
BIGMUL_HD std::uint32_t period_emit(const Src& src, const limb_t* a, std::size_t n, const tiling& t,
                                    std::uint64_t B, std::size_t p, std::uint32_t carry, std::int32_t* dst) {
  coeff_hd::emit_visit v{B, t.total - p * t.pd, carry, dst};
  src(a, n, p, v);
  return v.carry;
}

// The carry into a period from the tile's exclusive prefix and the thread's
// exclusive prefix within the tile: the generate bit of their composition.
BIGMUL_HD std::uint32_t carry_in(std::uint32_t tile_prefix, std::uint32_t thread_prefix) {
  return code_op{}(tile_prefix, thread_prefix) & 1u;
}

}  // namespace bigmul::detail::cuda::split_hd
