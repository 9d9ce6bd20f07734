// SPDX-License-Identifier: LGPL-3.0-or-later
// Hex digits <-> binary limbs 64 characters (4 limbs) at a time on AVX-512BW,
// validation included; the portable 8-at-a-time SWAR code (swar.hpp) is the
// fallback and finds a bad byte's exact offset. Why: the SWAR parse and
// print are each a visible part of a whole `bigmul --hex` process; these
// run several times faster.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_DIGITS_HEX_AVX512 1

namespace bigmul::digits::hex_avx512 {

// Whether the processor (and OS) run AVX-512 F + BW + VL and this build has the code. Probed once.
bool supported();

// out[0 .. 4) from the 64 hex characters at p (out[3] from p[0 .. 16), most
// significant character first). Returns false, out unspecified, when a byte
// is not a hex digit. Requires supported().
bool parse4(const char* p, limb_t* out);

// The 64 hex characters (lowercase, leading zeros kept) of a[3], a[2], a[1],
// a[0] in that order at out. Requires supported().
void print4(const limb_t* a, char* out);

}  // namespace bigmul::digits::hex_avx512

#endif
