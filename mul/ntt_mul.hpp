#pragma once

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"

namespace bigmul::detail {

// NTT multiplication r[0..an+bn) = a * b (algorithm::ntt), modulo three or
// four primes.
//
// Every limb is one coefficient (base 2^64 or 10^19, no splitting), the
// cyclic convolution of length n >= an + bn - 1 (n = 2^k or 3 * 2^k) is
// computed modulo several primes whose product exceeds every coefficient
// (< min(an, bn) B^2 < 2^162), and each coefficient is recovered exactly by
// Chinese remaindering (Garner) and added into the result with its carries. Integer arithmetic throughout:
// there is no rounding to guard. Squaring (a == b, an == bn) transforms once.
// Throws bigmul::error (domain) past the largest transform, 3 * 2^32 points.
//
// Three engines, the same product: `ifma`, four primes below 2^50 on
// AVX-512 IFMA (8 lanes of 52-bit multiplies; fft/ntt_ifma.hpp); `avx2`, the
// same primes in exact double-precision FMA arithmetic (4 lanes;
// fft/ntt_avx2.hpp); and `portable`, three primes below 2^62 in scalar
// 64-bit arithmetic (fft/ntt.hpp). `best` is ntt_resolve_engine's choice.
// The vector engines use three of their primes while min(an, bn) (B - 1)^2
// stays below their product (about 2^22 binary limbs), four beyond;
// force_primes (tests) raises the count. stats.ntt_engine names the engine;
// its phase times are measured only when options.stats is set.
enum class ntt_engine { best, portable, ifma, avx2 };
void mul_ntt(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
             const mul_options& options, mul_stats& stats, ntt_engine engine = ntt_engine::best,
             unsigned force_primes = 0);
// The calling thread's cached transform buffers: their size, and freeing them
// (bigmul::release_scratch()).
std::size_t ntt_scratch_bytes();
void ntt_release_scratch();

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
// them the cyclic product folds onto its lowest ones and `low_length` = the
// length of the small transform that recomputes those lowest coefficients
// (the product of the operands' low `wrap` limbs), so that the overhang is
// unfolded exactly instead of doubling n. wrap = 0: plain, n >= an + bn - 1.
struct ntt_shape {
  std::size_t n = 0, wrap = 0, low_length = 0;
};
ntt_shape ntt_choose_shape(std::size_t an, std::size_t bn);

// The main transform length mul_ntt uses for a product of an + bn limbs (0: too large).
std::size_t ntt_transform_length(std::size_t an, std::size_t bn);

}  // namespace bigmul::detail
