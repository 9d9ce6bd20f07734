// SPDX-License-Identifier: LGPL-3.0-or-later
// Decimal products on three primes below 2^50 (ntt52_primes, the vector
// engines'): each coefficient's Chinese remaindering straight into base-10^19
// digits, c = d0 + d1 10^19 + d2 10^38 (d0, d1 < 10^19, d2 < 2^25), every
// coefficient on its own, so that the multiply's decimal carry is a short
// add-and-compare chain (mul/ntt_decimal_carry.hpp) instead of two dependent
// 128-by-64 divisions per coefficient (a large part of a small decimal product).
//
// Math (M = 10^19 = 2^19 F, F = 5^19 < 2^45). Garner's digits v0 < p0,
// v1 < p1, v2 < p2 give c = v0 + p0 v1 + p0 p1 v2 [GARNER59]. Write
// p0 p1 = A1 M + A0 (A0 < M, A1 < 2^37):
//   S = v0 + p0 v1 + A0 v2 < 2^50 + 2^100 + 2^113.2 < 2^114,
//   c = S + A1 v2 M = d0 + T M, d0 = S mod M, T = floor(S / M) + A1 v2 < 2^88,
//   d1 = T mod M, d2 = floor(T / M) < 2^25.
// A quotient floor(X / M) is floor(floor(X / 2^19) / F), and X mod M is
// (floor(X / 2^19) mod F) 2^19 + (X mod 2^19): divisions by F, whose
// remainders are small enough for exact double and int64 arithmetic.
#pragma once

#include <cstddef>

#include "fft/ntt_arith.hpp"

namespace bigmul::fft {

// Residues res[0..2][i .. i + count) (in [0, 2p_k), ntt52_primes 0..2) ->
// d0 at d[c], d1 at d[count + c], d2 at d[2 count + c]. 8 coefficients a
// vector where the processor has AVX-512 IFMA, else scalar.
void ntt52_decimal_digits(const u64* const res[], std::size_t i, std::size_t count, u64* d);

// The scalar reference of the split (tests, and the vector code's tails):
// Garner digits v -> d[0..2].
void ntt52_decimal_split(u64 v0, u64 v1, u64 v2, u64 d[3]);

}  // namespace bigmul::fft
