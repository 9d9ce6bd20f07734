// Decimal digits -> decimal (10^19) limbs two limbs (38 characters) at a
// time on AVX-512BW + VBMI, validation included; the SWAR code (swar.hpp) is
// the fallback and finds a bad byte's exact offset. Why: at ~1.8 GB/s the
// SWAR parse of two 10^6-digit operands (~1.1 ms) is what the multiplying
// thread waits for once its product is prepared.
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

}  // namespace bigmul::digits::decimal_avx512

#endif
