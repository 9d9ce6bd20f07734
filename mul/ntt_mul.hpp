// SPDX-License-Identifier: LGPL-3.0-or-later
#pragma once

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"

namespace bigmul::detail {

// NTT multiplication r[0..an+bn) = a * b (algorithm::ntt), modulo three or
// four primes.
//
// Every limb is one coefficient (base 2^64 or 10^19), or, for large binary
// products on the vector engines, binary limbs are cut into b-bit
// coefficients so that three primes still cover them (ntt_choose_layout);
// the cyclic convolution of length n >= ca + cb - 1 (n = 2^k or 3 * 2^k;
// or a little less, folded: ntt_shape below) is computed modulo several
// primes whose product exceeds every coefficient (< min(ca, cb)
// (2^b - 1)^2, or min(an, bn) B^2 for whole limbs), and each
// coefficient is recovered exactly by Chinese remaindering (Garner) and added
// into the result at its bit offset with its carries. Integer arithmetic throughout:
// there is no rounding to guard. Squaring (a == b, an == bn) transforms once.
// Throws bigmul::error (domain) past the largest transform, 3 * 2^32 points.
//
// Three engines, the same product: `ifma`, four primes below 2^50 on
// AVX-512 IFMA (8 lanes of 52-bit multiplies; fft/ntt_ifma.hpp); `avx2`, the
// same primes in exact double-precision FMA arithmetic (4 lanes;
// fft/ntt_avx2.hpp); and `portable`, three primes below 2^62 in scalar
// 64-bit arithmetic (fft/ntt.hpp). `best` is ntt_resolve_engine's choice.
// Each engine sits behind one interface (mul/ntt_engine_iface.hpp).
// The vector engines use three of their primes while min(an, bn) (B - 1)^2
// stays below their product (about 2^22 binary limbs); beyond, binary
// products take b-bit coefficients on three primes (b < 64) or wide ones
// on four (64 < b <= 127: fewer points than whole limbs), whichever costs
// less, decimal ones four primes. force_primes (tests) raises
// the count, force_bits (tests, binary) sets b. stats.ntt_engine names the
// engine, stats.coefficient_digits the coefficient bits (binary); phase times
// are measured only when options.stats is set.
// fold (tests) forces the way a folded shape is unfolded (ntt_shape below)
// wherever the product has a folded shape at all, whatever it costs.
enum class ntt_engine { best, portable, ifma, avx2 };
enum class ntt_fold { automatic, low, piece };
void mul_ntt(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
             const mul_options& options, mul_stats& stats, ntt_engine engine = ntt_engine::best,
             unsigned force_primes = 0, unsigned force_bits = 0, ntt_fold fold = ntt_fold::automatic);
// The calling thread's cached transform buffers: their size, and freeing them
// (bigmul::release_scratch()).
std::size_t ntt_scratch_bytes();
void ntt_release_scratch();
// Grows the calling thread's scratch to at least `bytes` (ntt_heap_bytes of
// a product to come) and returns it; fresh: it was allocated now, untouched.
void* ntt_reserve_scratch(std::size_t bytes, bool& fresh);

// The number of primes the engine needs for this product.
unsigned ntt_primes_needed(ntt_engine e, std::size_t an, std::size_t bn, radix rx);
// Whether this processor runs the engine (best and portable: always).
bool ntt_engine_available(ntt_engine e);
// The engine a request runs on. best: BIGMUL_NTT_ENGINE when it is set and
// not empty (ifma, avx2 or portable), else the fastest this processor runs
// (ifma, else avx2, else portable). Throws bigmul::error (invalid_argument)
// for an unknown BIGMUL_NTT_ENGINE and (resource) for an engine this
// processor cannot run, named or from the environment: never a silent fallback.
ntt_engine ntt_resolve_engine(ntt_engine requested = ntt_engine::best);
// As ntt_resolve_engine(best), but for choices that must not throw (the
// dispatcher's crossovers): an unusable BIGMUL_NTT_ENGINE gives the
// processor's fastest engine here, and the product itself throws.
ntt_engine ntt_default_engine() noexcept;
const char* ntt_engine_name(ntt_engine e);  // "ifma", "avx2", "portable" ("best")

// The transform shape of a product: the main transform length n, and when
// the an + bn - 1 coefficients overhang n by a little, `wrap` = how many of
// them the cyclic product folds onto its lowest ones, unfolded exactly
// (instead of a longer n) in one of two ways: `low_length` = the length of
// a small transform that recomputes the lowest coefficients (the product of
// the operands' low `wrap` limbs), or `piece` = the length M (M | n, M >=
// wrap) of the twisted product P mod (x^M - c) that, joined with P mod
// (x^n - 1), gives them back (mul/ntt_piece.hpp). The engine's cost decides
// (mul/ntt_fold_cost.cpp). wrap = 0: plain, n >= an + bn - 1.
struct ntt_shape {
  std::size_t n = 0, wrap = 0, low_length = 0, piece = 0;
};
// The fold forced (not automatic): folded wherever count >= 256 and both
// operands fit n, that way (a piece only where one exists, else the low product).
ntt_shape ntt_choose_shape(std::size_t an, std::size_t bn, ntt_engine e = ntt_engine::best,
                           ntt_fold fold = ntt_fold::automatic);

// The main transform length mul_ntt uses for a product of an + bn limbs on
// the default engine (0: too large).
std::size_t ntt_transform_length(std::size_t an, std::size_t bn);

// How a product is cut into coefficients: `bits` per coefficient (64: whole
// limbs), ca and cb coefficients, the primes and the transform shape.
struct ntt_layout {
  unsigned primes = 0, bits = 64;
  std::size_t ca = 0, cb = 0;
  ntt_shape shape;
};
// max_bits caps the automatic choice of b (63: never wide coefficients, for
// a caller whose coefficients are at most 64 bits: src/arith/ntt_reuse.cpp);
// BIGMUL_NTT_WIDE=0 caps it at 63 for every product (A/B runs), and a value
// other than 0, 1 or empty throws bigmul::error (invalid_argument).
ntt_layout ntt_choose_layout(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned force_primes = 0,
                             unsigned force_bits = 0, ntt_fold fold = ntt_fold::automatic,
                             unsigned max_bits = 127);

// The heap bytes mul_ntt allocates for this product (its residue arrays;
// the thread's cached scratch counts as already there only if it is as
// large), threads as in mul_options (0: the default). Both estimates are
// SIZE_MAX for a product beyond the longest transform (it cannot be run),
// never 0 or a wrapped count.
std::size_t ntt_heap_bytes(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned threads);
// The bytes of the shared per-prime twiddle tables (fft/ntt_level_table)
// this product's transforms read: built by the first product of a process
// that needs them and kept, so a later product of the same or a smaller
// transform allocates none of it; an upper bound for a process's first one.
std::size_t ntt_table_bytes(ntt_engine e, std::size_t an, std::size_t bn, radix rx);

}  // namespace bigmul::detail
