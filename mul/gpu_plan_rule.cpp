// SPDX-License-Identifier: LGPL-3.0-or-later
#include "mul/gpu_plan_rule.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "fft/cuda/device_fft_plan.hpp"
#include "mul/algorithm_table.hpp"
#include "mul/cuda/params_gpu.hpp"
#include "mul/fft_pass_policy.hpp"

namespace bigmul::detail {

algorithm gpu_algorithm_for(algorithm requested, std::size_t an, std::size_t bn, radix rx, bool batched) {
  (void)an;
  if (requested != algorithm::automatic) return requested;
  const params_gpu::device_table& t = params_gpu::active();
  const auto& x = rx == radix::binary ? t.binary_radix : t.decimal_radix;
  return bn < (batched ? x.batched_fft : x.fft) ? algorithm::tiled : algorithm::fft_real;
}

bool in_house_fft_plannable(algorithm algo, std::size_t n) {
  namespace plan = bigmul::fft::cuda::plan;
  if (!is_fft_algorithm(algo) || n < fft_transform_length(algo, 1)) return false;
  const std::size_t points = is_real_layout(algo) ? n / 2 : n;  // the complex transform that runs
  const plan::limits lim =
      is_single_precision(algo) ? plan::default_limits<float>() : plan::default_limits<double>();
  return plan::make_plan(points, 1, lim).valid;
}

namespace {
std::atomic<int> two_pass_override{-1};
}

bool gpu_fft_two_pass() {
  static const bool env = [] {
    const char* v = std::getenv("BIGMUL_GPU_FFT_TWO_PASS");
    return v && std::strcmp(v, "1") == 0;
  }();
  const int o = two_pass_override.load(std::memory_order_relaxed);
  return o < 0 ? env : o != 0;
}

void set_gpu_fft_two_pass(int on) { two_pass_override.store(on < 0 ? -1 : on != 0, std::memory_order_relaxed); }

bigmul::fft::cuda::plan::limits gpu_fft_limits(bool single, std::size_t points, std::size_t G, bool two_pass) {
  namespace plan = bigmul::fft::cuda::plan;
  const plan::limits def = single ? plan::default_limits<float>() : plan::default_limits<double>();
  if (!two_pass) return def;
  const plan::limits two = single ? plan::two_pass_limits<float>() : plan::two_pass_limits<double>();
  const plan::fft_plan a = plan::make_plan(points, G, def), b = plan::make_plan(points, G, two);
  return a.valid && b.valid && b.npasses < a.npasses ? two : def;
}

bool gpu_plannable(algorithm requested, fft_engine engine, unsigned forced_digits, std::size_t an, std::size_t bn,
                   radix rx, bool batched) {
  const algorithm algo = gpu_algorithm_for(requested, an, bn, rx, batched);
  if (!is_gpu_algorithm(algo)) return false;
  if (!is_fft_algorithm(algo)) return true;  // tiled
  const fft_digit_choice c = fft_choose_digits(algo, rx, an, bn, forced_digits);
  if (c.first == 0) return false;
  if (engine == fft_engine::cufft) return true;
  for (unsigned d = c.first; d >= c.lowest; --d) {
    const coeff_format f{rx, d};
    if (!in_house_fft_plannable(algo, fft_pass_length(algo, f, an, bn))) return false;
    if (d == 1) break;
  }
  return true;
}

std::size_t gpu_host_crossover(radix rx) {
  const params_gpu::device_table& t = params_gpu::active();
  return rx == radix::binary ? t.binary_radix.host : t.decimal_radix.host;
}

bool automatic_prefers_gpu(const mul_options& o, std::size_t an, std::size_t bn, std::size_t G, radix rx,
                           bool batched) {
  // Below every table's host crossover the answer is no on any device, and
  // the device (its table) need not be asked for: the CUDA probe stays for
  // products that may go to the GPU.
  constexpr std::size_t least[2] = {params_gpu::least_host_crossover(false), params_gpu::least_host_crossover(true)};
  const std::size_t size = G * (an + bn);
  return has_cuda_version(o.algo) && size >= least[rx == radix::decimal] &&
         size >= gpu_host_crossover(rx) &&
         gpu_plannable(o.algo, o.engine, o.coefficient_digits, an, bn, rx, batched);
}

}  // namespace bigmul::detail
