// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Limb-level multiplication with GMP's mpn contract.
#pragma once

#include <string>

#include "bigmul/config.hpp"

namespace bigmul {

/// What one multiplication did, filled in when mul_options::stats is set.
struct mul_stats {
  algorithm used = algorithm::automatic;  ///< the algorithm that produced the product
  backend backend_used = backend::cpu;    ///< where it ran
  std::size_t transform_length = 0;       ///< FFT length in points (0: no FFT)
  unsigned coefficient_digits = 0;        ///< base-B digit size: bits (binary) or decimal digits
  double max_roundoff = 0;                ///< max |x - round(x)| seen by the accepted FFT pass
  double l2_roundoff = 0;                 ///< GPU FFT: ||x - round(x)||_2 / ||round(x)||_2 ([DIEGUEZ18 Table 7.2])
  unsigned retries = 0;                   ///< FFT passes rejected by the rounding guard
  bool modular_check = false;             ///< the mod-(2^61-1) check ran and passed
  const char* ntt_engine = nullptr;       ///< NTT products: the CPU engine that ran, "ifma", "avx2" or "portable"
  /// Seconds per phase (summed over retries): split into coefficients, forward
  /// transforms, pointwise product, inverse transform, rounding, carries,
  /// modular check, and the whole call.
  ///@{
  double t_split = 0, t_forward = 0, t_pointwise = 0, t_inverse = 0, t_round = 0, t_carry = 0,
         t_check = 0, t_total = 0;
  ///@}
  double t_transfer = 0;  ///< GPU: host <-> device copies (host API only)
};

/// How bigmul::mul computes a product; the defaults pick everything by size.
struct mul_options {
  algorithm algo = algorithm::automatic;  ///< the algorithm (automatic: by size from the tuned table)
  unsigned threads = 0;          ///< 0: bigmul::prim::default_threads()
  bool modular_check = false;    ///< verify the product mod 2^61-1; throws bigmul::error on mismatch
  unsigned tile = 0;             ///< tiled convolution tile size (0: tuned default)
  unsigned coefficient_digits = 0;  ///< force the FFT coefficient size (0: from the exactness table);
                                    ///< the rounding guard still applies
  backend where = backend::automatic;       ///< cpu, cuda, or automatic (GPU past its crossover when usable)
  fft_engine engine = fft_engine::in_house;  ///< GPU FFT algorithms: bigmul's FFT or cuFFT
  mul_stats* stats = nullptr;  ///< when set, receives what the product did (mul_stats)
};

/// r[0 .. an+bn) = a[0 .. an) * b[0 .. bn), in radix rx (both operands and the
/// result use it). Requires an >= bn >= 1 and r not overlapping a or b.
/// Throws bigmul::error on invalid arguments (or a failed modular check).
void mul(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
         radix rx = radix::binary, const mul_options& options = {});

/// G independent products of equal size: r[g*2n .. (g+1)*2n) = a[g*n ..) * b[g*n ..)
/// for g < G (operands back to back, n limbs each). The crypto-size case
/// (1024-8192-bit operands): on the CPU the products are spread over the
/// threads; on the GPU one batched launch computes them all.
void mul_batched(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G,
                 radix rx = radix::binary, const mul_options& options = {});

/// Frees the scratch buffers the calling thread keeps between products (the
/// NTT's transform buffers, about primes * 8 bytes per transform point of
/// the largest product so far); the next product allocates them again.
/// Products run inside mul_batched keep theirs in the pool's worker threads.
/// Also frees the radix converter's caches (the table of powers 10^(19 2^k),
/// their reciprocals, the calling thread's conversion buffers): the next
/// conversion rebuilds them; one running on another thread keeps what it holds.
void release_scratch();

/// The heap bytes bigmul::mul allocates for a product of an x bn limbs with
/// these options, beyond the operands and the result (whose an + bn limbs the
/// caller holds): the NTT's residue arrays (what automatic runs from ~10^4
/// digits: about 3 x the operands' bytes, 4 for decimal past 2.7 10^8 digits),
/// computed from the same rule the product uses; small per-call tables not
/// counted. Other algorithms: 0 (not estimated; they run only on smaller
/// products unless forced). A caller can check it against free memory
/// before starting (the CLI does). A product beyond the NTT's longest
/// transform (from ~6.4 10^9 limbs in all) gives SIZE_MAX, as does
/// mul_table_bytes: never 0 or a wrapped count.
std::size_t mul_heap_bytes(std::size_t an, std::size_t bn, radix rx = radix::binary, const mul_options& options = {});
/// The NTT's twiddle tables for the same product: one per prime, shared by
/// every transform length and kept once built (16 bytes a point of the
/// largest power-of-two part of the transform, a prime), so they are new
/// memory only for the first product of a process at that size: an upper
/// bound to add to mul_heap_bytes for it. Other algorithms: 0.
std::size_t mul_table_bytes(std::size_t an, std::size_t bn, radix rx = radix::binary, const mul_options& options = {});

/// Gets a product of an x bn limbs (radix rx, these options) ready before its
/// operands are: builds the NTT's plans and twiddle tables and gives the
/// calling thread's scratch buffers (see release_scratch) the size that
/// product takes, every page touched by the calling thread (the pool's
/// threads stay free for work beside it). The first product of a
/// process otherwise pays for them itself, and fresh pages are costly where
/// the memory was handed back to a hypervisor (a first product can take
/// several times a warm one). A caller that
/// knows the sizes early (the CLI, after reading the operands' text) runs it
/// on the thread that will multiply while another parses. Sizes that differ
/// from the product's are allowed: that product stays exact and allocates
/// what it needs. Products that would not run the NTT on the CPU: nothing.
void prepare_mul(std::size_t an, std::size_t bn, radix rx = radix::binary, const mul_options& options = {});

/// The smaller-operand size (limbs) from which bigmul::mul(automatic) beats
/// GMP's mpz_mul on this processor: measured by bench/tune/tune_cpu for the
/// NTT engine this processor runs (mul/params_cpu.inc). The GMP bridge
/// (bigmul/gmp.hpp) uses GMP below it.
std::size_t gmp_crossover_limbs();

/// Whether the CUDA backend is built in and a GPU is usable; when not, *why
/// (if given) says what is missing. Probed once, then cached.
bool cuda_usable(std::string* why = nullptr);

/// The name of an algorithm, as the CLI and benchmarks take it ("basecase",
/// "toom3", "fft_real", ...); "?" for a value outside the enum.
const char* algorithm_name(algorithm a);
/// The algorithm named `name` (as algorithm_name() spells it, "auto" for
/// automatic) into out; false, out unchanged, for an unknown name.
bool parse_algorithm(const std::string& name, algorithm& out);

}  // namespace bigmul
