// SPDX-License-Identifier: LGPL-3.0-or-later
// The carry look-ahead pair (prim::carry_gp) packed into 2 bits of a 32-bit
// word, so that a decoupled look-back descriptor (prim/cuda/lookback_packed.hpp)
// holds status and pair in one 64-bit word and is never read torn. Used by
// the single-pass split (mul/cuda/split_fused.cu) and carry
// (carry/cuda/carry_fused.cu). BIGMUL_HD, free of CUDA headers. C++17.
#pragma once

#include <cstdint>

#include "bigmul/hd.hpp"
#include "prim/ops.hpp"

namespace bigmul::prim::carry_code {

BIGMUL_HD std::uint32_t pack(carry_gp x) { return (x.g & 1u) | ((x.p & 1u) << 1); }
BIGMUL_HD carry_gp unpack(std::uint32_t v) { return carry_gp{v & 1u, (v >> 1) & 1u}; }
// carry_op on packed pairs (op(earlier, later)).
struct op {
  BIGMUL_HD std::uint32_t operator()(std::uint32_t lo, std::uint32_t hi) const {
    return pack(carry_op{}(unpack(lo), unpack(hi)));
  }
};
inline constexpr std::uint32_t identity = 2;  // pack(carry_identity): (g, p) = (0, 1)

}  // namespace bigmul::prim::carry_code
