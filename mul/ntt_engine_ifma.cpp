// SPDX-License-Identifier: LGPL-3.0-or-later
// The ifma NTT engine behind the engine interface (mul/ntt_engine_iface.hpp):
// four primes below 2^50 in AVX-512 IFMA lanes (fft/ntt_ifma.hpp), Garner
// and the three-prime carries 8 coefficients a vector.
#include "fft/ntt_ifma.hpp"
#include "fft/ntt_level_table.hpp"
#include "mul/ntt_driver.hpp"
#include "mul/ntt_engine_iface.hpp"

namespace bigmul::detail {
namespace {

struct engine : ntt_plan_adapter<fft::ntt52_plan> {
  static constexpr ntt_engine id = ntt_engine::ifma;
  static constexpr ntt_crt_kernels crt{fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt52_mixed_radix_digits,
                                       fft::ntt52_crt3_limbs, /*decimal3=*/true};
  static constexpr ntt_piece::lanes piece_lanes = ntt_piece::lanes::ifma;
};

}  // namespace

const ntt_engine_iface ntt_ifma_iface{
    ntt_engine::ifma, "ifma", "no AVX-512 IFMA", fft::ntt52_supported, fft::ntt52_primes, fft::ntt52_prime_count,
    2.6,  // 8 IFMA lanes against the IFMA transforms
    fft::ntt52_level_table::bytes, engine::build_plans, ntt_engine_mul<engine>,
};

}  // namespace bigmul::detail
