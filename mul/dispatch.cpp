// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::mul: the short paths for small binary products, the argument
// checks, the GPU when it takes the product (mul/dispatch_cuda.hpp), else the
// CPU's algorithm (mul/dispatch_cpu.hpp), the optional modular check and the
// statistics. Batched products: mul/dispatch_batched.cpp.
#include <algorithm>
#include <string>

#include "bigmul/config.hpp"
#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/basecase.hpp"
#include "mul/basecase_small.hpp"
#include "mul/dispatch_choice.hpp"
#include "mul/dispatch_cpu.hpp"
#include "mul/dispatch_cuda.hpp"
#include "mul/entry_checks.hpp"
#include "mul/gpu_plan_rule.hpp"
#include "mul/karatsuba.hpp"
#include "mul/mul_cuda.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/params_cpu.hpp"
#include "mul/sqr_basecase.hpp"
#include "mul/toom3.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul {
namespace {

void check_mul_arguments(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                         const mul_options& options) {
  static constexpr const char* who = "bigmul::mul";
  if (bn == 0 || an < bn)
    throw error(error::kind::invalid_argument,
                "bigmul::mul: needs an >= bn >= 1 (got an=" + std::to_string(an) + ", bn=" + std::to_string(bn) + ")");
  detail::check_product_size(an, bn, who);
  detail::check_enums(options, rx, who);
  if (!r || !a || !b) throw error(error::kind::invalid_argument, "bigmul::mul: null pointer");
  if (detail::overlaps(r, an + bn, a, an) || detail::overlaps(r, an + bn, b, bn))
    throw error(error::kind::invalid_argument, "bigmul::mul: the result overlaps an operand");
  if (rx == radix::decimal) {
    detail::check_decimal(a, an, who, "a");
    if (b != a) detail::check_decimal(b, bn, who, "b");
  }
}

// The GPU's product when it takes this one; false when the CPU computes it
// (automatic after too little GPU memory: st cleared). Throws for backend
// cuda without a usable GPU.
bool mul_on_gpu([[maybe_unused]] limb_t* r, [[maybe_unused]] const limb_t* a, std::size_t an,
                [[maybe_unused]] const limb_t* b, std::size_t bn, radix rx, const mul_options& options,
                [[maybe_unused]] mul_stats& st) {
  if (!detail::use_cuda(options, an, bn, 1, rx, false)) return false;
#if defined(BIGMUL_HAVE_CUDA)
  return detail::run_on_gpu(options, st, [&] { detail::mul_cuda_host(r, a, an, b, bn, rx, options, st); });
#else
  return false;  // not reached: without CUDA use_cuda is false or throws
#endif
}

}  // namespace

// The whole entry point; mul() below answers the smallest products first.
[[gnu::noinline]] static void mul_checked(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b,
                                          std::size_t bn, radix rx, const mul_options& options) try {
  // The clock only when someone reads the times: two reads cost more than a
  // 4-limb product.
  const bool timed = options.stats != nullptr;
  const auto t_start = timed ? prim::steady_clock::now() : prim::steady_clock::time_point{};
  check_mul_arguments(r, a, an, b, bn, rx, options);
  // Basecase sizes without statistics or a check go straight to the
  // basecase: clearing the statistics record (rep stos) costs several times
  // a 1-limb product. (Far below any GPU crossover.)
  if (!options.stats && !options.modular_check && options.where != backend::cuda &&
      (options.algo == algorithm::basecase ||
       (options.algo == algorithm::automatic && detail::choose_algorithm(an, bn, rx) == algorithm::basecase))) {
    detail::mul_basecase(r, a, an, b, bn, rx);
    return;
  }
  mul_stats local;
  mul_stats& st = options.stats ? *options.stats : local;
  st = mul_stats{};
  if (mul_on_gpu(r, a, an, b, bn, rx, options, st)) {
    if (timed) st.t_total = prim::seconds_since(t_start);
    return;
  }
  detail::mul_on_cpu(r, a, an, b, bn, rx, options, st);
  if (options.modular_check) {
    const auto t0 = timed ? prim::steady_clock::now() : prim::steady_clock::time_point{};
    if (!detail::product_agrees_mod_p(r, a, an, b, bn, rx, options.threads))
      throw error(error::kind::internal, std::string("bigmul::mul: modular check failed for algorithm ") +
                                             algorithm_name(st.used) + " (" + std::to_string(an) + " x " +
                                             std::to_string(bn) + " limbs); the product is wrong and was not returned");
    st.modular_check = true;
    if (timed) st.t_check = prim::seconds_since(t0);
  }
  if (timed) st.t_total = prim::seconds_since(t_start);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::mul");  // bad_alloc, length_error -> resource
}

namespace {
// The short path past the schoolbook: Karatsuba and Toom-3 products and
// squares below the NTT, else the full entry point. Out of line so that
// mul()'s schoolbook path keeps a frameless prologue: with this inline, a
// CUDA build's call to automatic_prefers_gpu made GCC save registers on
// every call, a visible cost at 1-5 limbs.
[[gnu::noinline]] void mul_short_above_basecase(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b,
                                                std::size_t bn, radix rx, const mul_options& options) {
  const auto& x = detail::params_cpu::binary_radix;
#if defined(BIGMUL_HAVE_CUDA)
  // automatic's own rule (mul/gpu_plan_rule): the GPU only past its host
  // crossover, far above these sizes. Without it every Karatsuba-range
  // product of a CUDA build would take the full entry point.
  const bool cpu_only = options.where == backend::cpu ||
                        !detail::automatic_prefers_gpu(options, an, bn, 1, radix::binary, false);
#else
  const bool cpu_only = true;
#endif
  // Binary squares below the engine's sqr_ntt stay off the NTT: Karatsuba's
  // or Toom-3's squares (mul/params_cpu.hpp; the engine, a getenv, only
  // where some engine's square crossover is reached).
  if (options.algo == algorithm::automatic && cpu_only && a == b && an == bn && bn < x.fft &&
      (bn < detail::params_cpu::sqr_ntt_min ||
       bn < detail::params_cpu::sqr_ntt_crossover(detail::ntt_default_engine()))) {
    if (detail::params_cpu::sqr_toom3 && bn >= detail::params_cpu::sqr_toom3)
      detail::mul_toom3(r, a, an, b, bn, detail::params_cpu::sqr_toom3, x.karatsuba_basecase);
    else
      detail::mul_karatsuba(r, a, an, b, bn, rx, x.karatsuba_basecase);
    return;
  }
  // choose_algorithm()'s Karatsuba range: below every NTT engine's crossover
  // (so no engine is asked for) and the FFT's, and below Toom-3's.
  if (options.algo == algorithm::automatic && cpu_only && bn < std::min({x.ntt, x.ntt_avx2, x.ntt_portable}) &&
      bn < x.fft && (x.toom3 == 0 || bn < x.toom3)) {
    detail::mul_karatsuba(r, a, an, b, bn, rx, x.karatsuba_basecase);
    return;
  }
  mul_checked(r, a, an, b, bn, rx, options);
}
}  // namespace

void mul(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
         const mul_options& options) {
  // Binary products below the NTT with default options go straight to the
  // schoolbook (up to 10 limbs: its fixed kernel) or Karatsuba: the full
  // entry point's checks, frame and dispatch cost more than a 2-limb
  // product, and a visible part of one at Karatsuba sizes. The same
  // argument checks, as plain comparisons (an below 2^48: an + bn cannot
  // overflow), and the same choice as choose_algorithm(); anything unusual
  // (including every error) takes the full path.
  if (an < (std::size_t{1} << 48) && bn >= 1 && bn <= an && rx == radix::binary && r && a && b && !options.stats &&
      !options.modular_check && (options.where == backend::automatic || options.where == backend::cpu) &&
      static_cast<unsigned>(options.engine) <= static_cast<unsigned>(fft_engine::cufft) &&
      !detail::overlaps(r, an + bn, a, an) && !detail::overlaps(r, an + bn, b, bn)) {
    const auto& x = detail::params_cpu::binary_radix;
    if ((options.algo == algorithm::automatic && bn < x.karatsuba) || options.algo == algorithm::basecase) {
      if (a == b && an == bn && an <= detail::sqr_basecase_small_max)  // a square: its fixed kernel
        detail::sqr_small_kernels.f[an](r, a);
      else if (an <= detail::basecase_small_max && (a != b || an != bn))
        detail::mul_basecase_small(r, a, an, b, bn);
      else if (an == bn && an <= detail::basecase_balanced_max)  // balanced: its fixed kernel
        detail::basecase_balanced_kernels.f[an](r, a, b);
      else
        detail::mul_basecase(r, a, an, b, bn, rx);
      return;
    }
    mul_short_above_basecase(r, a, an, b, bn, rx, options);
    return;
  }
  mul_checked(r, a, an, b, bn, rx, options);
}

}  // namespace bigmul
