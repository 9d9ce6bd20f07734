// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched crypto-size products across the lanes of AVX2 vectors, for
// processors without AVX-512 IFMA: four independent products per vector, one
// product per 64-bit lane, as mul/batched_ifma.hpp does with eight. The
// 52-bit digit products are exact double-precision FMA splits
// (mul/batched_avx2_arith.hpp).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Whether mul_batched and the batched modular operations use these lanes:
// batched_engine_chosen() (mul/batched_ifma.hpp) is avx2.
bool batched_avx2_supported();

// Largest operand size (limbs) the lane kernel takes (its stack arrays).
inline constexpr std::size_t batched_avx2_max_limbs = 128;
// Largest size for which mul_batched routes a batch to the lanes (else one
// product at a time, through Karatsuba and Toom-3): every size the lanes
// take, since their own Karatsuba split (from 48 limbs) runs in cache-sized
// chunks (bench/crypto, BIGMUL_BATCHED_ENGINE=avx2 against =scalar, tells
// where the lanes win).
inline constexpr std::size_t batched_avx2_route_max_limbs = batched_avx2_max_limbs;

// Groups of four products per task when mul_batched spreads a batch over
// threads (small tasks claimed one by one, as batched_ifma_task_groups says).
constexpr std::size_t batched_avx2_task_groups(std::size_t n) { return n >= 128 ? 2 : 256 / n; }

// Binary radix: r[g*2n .. (g+1)*2n) = a[g*n ..) * b[g*n ..) for g < G, four
// products at a time (a last partial group runs with zero lanes); b == a
// takes the squaring path. From 48 limbs the batch splits into three
// half-size batches (Karatsuba), below that a schoolbook in the lanes.
// Single-threaded. Requires batched_avx2_supported()
// or at least prim::cpu_has_avx2_fma(), 1 <= n <= batched_avx2_max_limbs, and
// r not overlapping a or b.
void mul_batched_avx2(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G);

}  // namespace bigmul::detail
