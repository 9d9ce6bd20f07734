// SPDX-License-Identifier: LGPL-3.0-or-later
// The portable NTT engine behind the engine interface
// (mul/ntt_engine_iface.hpp): three primes below 2^62 in scalar 64-bit
// arithmetic (fft/ntt.hpp).
#include "fft/ntt.hpp"
#include "fft/ntt_level_table.hpp"
#include "mul/ntt_driver.hpp"
#include "mul/ntt_engine_iface.hpp"

namespace bigmul::detail {
namespace {

struct engine : ntt_plan_adapter<fft::ntt_plan> {
  static constexpr ntt_engine id = ntt_engine::portable;
  static constexpr ntt_crt_kernels crt{fft::ntt_primes, fft::ntt_prime_count, fft::ntt_mixed_radix_digits,
                                       /*crt3_limbs=*/nullptr, /*decimal3=*/false};
  static constexpr ntt_piece::lanes piece_lanes = ntt_piece::lanes::scalar;
};

bool always() { return true; }

}  // namespace

const ntt_engine_iface ntt_portable_iface{
    ntt_engine::portable, "portable", "", always, fft::ntt_primes, fft::ntt_prime_count,
    1.2,  // scalar passes against scalar transforms
    fft::ntt64_level_table::bytes, engine::build_plans, ntt_engine_mul<engine>,
};

}  // namespace bigmul::detail
