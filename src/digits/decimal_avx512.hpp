// SPDX-License-Identifier: LGPL-3.0-or-later
// Decimal digits <-> decimal (10^19) limbs on AVX-512BW + VBMI: parsing two
// limbs (38 characters) at a time, validation included, the SWAR code
// (swar.hpp) the fallback that finds a bad byte's exact offset; printing
// eight limbs (152 characters) at a time. Why: the SWAR parse of the
// operands is what the multiplying thread waits for once its product is
// prepared.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_DIGITS_DECIMAL_AVX512 1

#include "bigmul/config.hpp"

namespace bigmul::digits::decimal_avx512 {

// Whether the processor (and OS) run AVX-512 F + BW + VBMI. Probed once.
bool supported();

// out[1] from p[0 .. 19) and out[0] from p[19 .. 38) (most significant
// character first); reads no byte past p[37]. Returns false, out
// unspecified, when a byte is not a decimal digit. Requires supported().
bool parse2(const char* p, limb_t* out);

// Whether print8 runs here: supported() and AVX-512 DQ (64-bit products and
// conversions to and from doubles). Probed once.
bool print_supported();

// a[7], a[6], .. a[0] (each < 10^19) as 8 x 19 characters, leading zeros
// included, to out[0 .. 152). Why: the SWAR print is a visible part of a
// whole decimal `bigmul` run. Requires print_supported().
void print8(const limb_t* a, char* out);

}  // namespace bigmul::digits::decimal_avx512

#endif
