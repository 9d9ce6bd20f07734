// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched crypto-size products across the lanes of AVX-512 IFMA vectors:
// eight independent products per vector, one product per 64-bit lane, in
// 52-bit digits (vpmadd52luq / vpmadd52huq give the low and high 52 bits of a
// 52 x 52-bit product). This is how the fastest RSA code works: with lanes =
// products there is no carry or shuffle between lanes, and every lane does the
// same work because every product in a batch has the same size.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"
#include "mul/batched_avx2.hpp"  // the other lanes batched_engine_chosen() may pick

namespace bigmul::detail {

// The lanes that run mul_batched and the batched modular operations,
// probed once: BIGMUL_BATCHED_ENGINE=ifma, avx2 or scalar (one product at a
// time) forces one (an error names a value the processor cannot run or that
// is no engine); unset, empty or "auto": ifma where the processor has AVX-512
// IFMA, else avx2 where it has AVX2 and FMA (mul/batched_avx2.hpp), else
// scalar; auto under BIGMUL_NTT_ENGINE=avx2 takes avx2, so that setting makes
// an IFMA processor run what an AVX2 one runs.
enum class batched_engine { scalar, avx2, ifma };
batched_engine batched_engine_chosen();

// Whether these lanes run: batched_engine_chosen() is ifma (and this
// compiler built them).
bool batched_ifma_supported();

// Largest operand size (limbs) for which mul_batched uses the lanes: up to
// here an 8-lane schoolbook beats a Karatsuba product per lane (measured by
// bench/crypto; 160 limbs keep eight 10240-bit operands in L1).
inline constexpr std::size_t batched_ifma_max_limbs = 160;

// Groups of eight products per task when mul_batched spreads a batch over
// threads: a few microseconds of work. Small tasks claimed one by one,
// because a parked helper thread starts long after the call (a wake-up):
// with a few large chunks the caller would do most of a batch before the
// helper came.
constexpr std::size_t batched_ifma_task_groups(std::size_t n) { return n >= 128 ? 1 : 128 / n; }

// Binary radix: r[g*2n .. (g+1)*2n) = a[g*n ..) * b[g*n ..) for g < G, eight
// products at a time (a last partial group runs with zero lanes). Operands are
// transposed into 52-bit digit columns, multiplied by product scanning and
// transposed back to 64-bit limbs. Single-threaded (mul_batched splits the
// groups over the threads). Requires batched_ifma_supported(), 1 <= n <=
// batched_ifma_max_limbs, and r not overlapping a or b.
void mul_batched_ifma(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G);

}  // namespace bigmul::detail
