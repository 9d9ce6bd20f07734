// SPDX-License-Identifier: LGPL-3.0-or-later
// The avx2 NTT engine behind the engine interface (mul/ntt_engine_iface.hpp):
// the IFMA engine's primes in exact double-precision FMA arithmetic, 4 lanes
// (fft/ntt_avx2.hpp).
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_level_table.hpp"
#include "mul/ntt_avx2_kernels.hpp"
#include "mul/ntt_driver.hpp"
#include "mul/ntt_engine_iface.hpp"

namespace bigmul::detail {
namespace {

struct engine : ntt_plan_adapter<fft::ntt_avx2_plan, 4> {
  static constexpr ntt_engine id = ntt_engine::avx2;
  static constexpr ntt_crt_kernels crt = ntt_avx2_crt_kernels;  // decimal3 off: see there
  static constexpr ntt_piece::lanes piece_lanes = ntt_piece::lanes::avx2;
};

}  // namespace

const ntt_engine_iface ntt_avx2_iface{
    ntt_engine::avx2, "avx2", "no AVX2 and FMA", fft::ntt_avx2_supported, fft::ntt52_primes, fft::ntt52_prime_count,
    4.5,  // 4 AVX2 lanes against the AVX2 transforms
    fft::ntt_avx2_twiddle_table::bytes, engine::build_plans, ntt_engine_mul<engine>,
};

}  // namespace bigmul::detail
