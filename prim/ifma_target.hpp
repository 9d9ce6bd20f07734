// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX-512 IFMA code's preamble, shared by fft/ntt_ifma*.cpp,
// mul/batched_ifma.cpp and src/arith/montgomery_ifma.cpp: the intrinsics and
// BIGMUL_IFMA, the target attribute that every function using them carries
// (the translation units are built for plain x86-64, so no AVX-512
// instruction can leak into code that runs before prim::cpu_has_avx512_ifma()
// said yes). BIGMUL_HAVE_IFMA_CODE is defined where this compiler can build
// such functions at all.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_HAVE_IFMA_CODE 1
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_epi32(), which
// -Wmaybe-uninitialized reports at every use (in the including file too).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#define BIGMUL_IFMA __attribute__((target("avx512f,avx512ifma")))
#endif
