// SPDX-License-Identifier: LGPL-3.0-or-later
// The device-level API (include/bigmul/device.hpp): argument checks, the
// device dispatcher (tiled below the tuned crossover, in-house fft_real
// above), the exactness retry loop and the modular check on the device. The
// pipelines it dispatches to: tiled_pass.cu and fft_mul_device.cu.
#include "bigmul/device.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "carry/cuda/carry_device.cuh"
#include "mul/coefficients.hpp"
#include "mul/cuda/coefficients_device.cuh"
#include "mul/cuda/device_status.cuh"
#include "mul/cuda/fft_mul_device.cuh"
#include "mul/cuda/params_gpu.hpp"
#include "mul/cuda/phase_clock.cuh"
#include "mul/cuda/tiled_device.cuh"
#include "mul/cuda/tiled_pass.cuh"
#include "mul/algorithm_table.hpp"
#include "mul/fft_mul.hpp"
#include "mul/fft_pass_policy.hpp"
#include "mul/gpu_plan_rule.hpp"
#include "mul/modcheck.hpp"
#include "prim/cuda/common.cuh"

namespace bigmul::cuda {
namespace {

using status::fail;

using detail::coeff_format;
using prim::cuda::temp_carver;
namespace dc = bigmul::detail::cuda;
namespace pg = bigmul::detail::params_gpu;

dc::tiled_variant variant_of(const device_options& o) {
  return o.tile_pair_atomic ? dc::tiled_variant::tile_pair_atomic : dc::tiled_variant::output_stationary;
}

// --- the modular check on the device -----------------------------------------

// One launch for the whole batch (coefficients_device.cuh): a verdict per
// product, read back once.
struct check_layout {
  int* ok;  // 1 per product
  void* temp;
  std::size_t temp_bytes;
};

cudaError_t check_carve(void* base, std::size_t an, std::size_t bn, std::size_t G, radix rx, check_layout& c,
                        std::size_t& bytes) {
  temp_carver tc(base);
  c.ok = tc.take<int>(G);
  c.temp_bytes = 0;
  const cudaError_t e =
      dc::modular_check_device_batched(nullptr, c.temp_bytes, nullptr, an, nullptr, bn, nullptr, G, rx, nullptr, 0);
  if (e != cudaSuccess) return e;
  c.temp = tc.take<char>(c.temp_bytes);
  bytes = tc.bytes();
  return cudaSuccess;
}

cudaError_t check_run(void* base, const limb_t* d_r, const limb_t* d_a, std::size_t an, const limb_t* d_b,
                      std::size_t bn, std::size_t G, radix rx, cudaStream_t st) {
  check_layout c{};
  std::size_t bytes = 0;
  BIGMUL_TRY(check_carve(base, an, bn, G, rx, c, bytes));
  BIGMUL_TRY(dc::modular_check_device_batched(c.temp, c.temp_bytes, d_a, an, d_b, bn, d_r, G, rx, c.ok, st));
  std::vector<int> ok(G, 0);
  BIGMUL_TRY(cudaMemcpyAsync(ok.data(), c.ok, G * sizeof(int), cudaMemcpyDeviceToHost, st));
  BIGMUL_TRY(cudaStreamSynchronize(st));
  const auto bad = std::find(ok.begin(), ok.end(), 0);
  if (bad != ok.end())
    return fail(cudaErrorUnknown, "bigmul::cuda: modular check failed for product " +
                                      std::to_string(bad - ok.begin()) + " (" + std::to_string(an) + " x " +
                                      std::to_string(bn) + " limbs); the product is wrong");
  return cudaSuccess;
}

std::size_t check_bytes(std::size_t an, std::size_t bn, std::size_t G, radix rx) {
  check_layout c{};
  std::size_t bytes = 0;
  return check_carve(nullptr, an, bn, G, rx, c, bytes) == cudaSuccess ? bytes : 0;
}

// --- one entry for single and batched products --------------------------------

// BIGMUL_GPU_FUSED=1 selects the single-pass split and carry (docs/gpu-phases.md)
// until a GPU run has measured them against the multi-pass ones.
bool fused_kernels() {
  static const bool on = [] {
    const char* v = std::getenv("BIGMUL_GPU_FUSED");
    return v && std::string(v) == "1";
  }();
  return on;
}

// With BIGMUL_GPU_FUSED=1 the carry and the join run as one kernel
// (mul/cuda/carry_join_fused.cuh); BIGMUL_GPU_FUSED_JOIN=0 keeps them apart
// (the single-pass carry, then the join kernel) to compare.
bool fused_join() {
  static const bool on = [] {
    const char* v = std::getenv("BIGMUL_GPU_FUSED_JOIN");
    return fused_kernels() && !(v && std::string(v) == "0");
  }();
  return on;
}

// BIGMUL_GPU_GRAPH=1: an FFT pass of a shape seen before (same buffers and
// stream) is one CUDA graph launch (docs/gpu-phases.md).
bool graph_passes() {
  static const bool on = [] {
    const char* v = std::getenv("BIGMUL_GPU_GRAPH");
    return v && std::string(v) == "1";
  }();
  return on;
}

// BIGMUL_GPU_FUSED_TAIL=1: the in-house FFT's last forward pass, the pointwise
// product and the first inverse pass run as one kernel (docs/gpu-phases.md).
bool fused_tail() {
  static const bool on = [] {
    const char* v = std::getenv("BIGMUL_GPU_FUSED_TAIL");
    return v && std::string(v) == "1";
  }();
  return on;
}

dc::fft_job make_job(algorithm algo, const device_options& o, radix rx, unsigned digits, std::size_t an,
                     std::size_t bn, std::size_t G, bool square) {
  dc::fft_job j;
  j.algo = algo;
  j.engine = o.engine;
  j.f = coeff_format{rx, digits};
  j.an = an;
  j.bn = bn;
  j.G = G;
  j.square = square;
  j.fused_split = fused_kernels();
  j.fused_carry = fused_kernels();
  j.fused_join = fused_join();
  j.graph = graph_passes();
  j.fused_tail = fused_tail();
  j.two_pass = detail::gpu_fft_two_pass();
  return j;
}

cudaError_t run(void* d_temp, std::size_t& temp_bytes, limb_t* d_r, const limb_t* d_a, std::size_t an,
                const limb_t* d_b, std::size_t bn, std::size_t G, radix rx, algorithm algo, const device_options& o,
                cudaStream_t st) {
  const auto t_start = std::chrono::steady_clock::now();
  const bool square = d_a == d_b && an == bn;
  // Sizes never depend on the pointers (the two-phase contract): the size
  // query passes null operands, which would look like a square, and a square
  // needs less room than a product, so size for the general product.
  constexpr bool sized_square = false;
  if (!detail::is_gpu_algorithm(algo))
    return fail(cudaErrorInvalidValue, std::string("bigmul::cuda: algorithm ") + algorithm_name(algo) +
                                           " has no CUDA version (use tiled or an FFT algorithm)");
  const unsigned tile = o.tile ? o.tile : pg::active().tiled_tile;

  // Sizes: the main part, then the modular check's part after it.
  std::size_t main_bytes = 0;
  unsigned digits = 0;
  if (algo == algorithm::tiled) {
    main_bytes = tiled_bytes(an, bn, G, rx, sized_square, tile, variant_of(o));
    if (!main_bytes) return fail(cudaErrorInvalidValue, "bigmul::cuda: tiled convolution: size query failed");
  } else {
    const detail::fft_digit_choice choice = detail::fft_choose_digits(algo, rx, an, bn, o.coefficient_digits);
    if (choice.first == 0) return fail(cudaErrorInvalidValue, "bigmul::cuda: " + choice.why);
    digits = choice.first;
    // Room for every retry down to the policy's lowest size.
    const unsigned lowest = choice.lowest;
    for (unsigned d = digits; d >= lowest; --d) {
      const dc::fft_job j = make_job(algo, o, rx, d, an, bn, G, sized_square);
      if (o.engine == fft_engine::in_house && !detail::in_house_fft_plannable(algo, dc::fft_length(j)))
        return fail(cudaErrorInvalidValue, std::string("bigmul::cuda: ") + algorithm_name(algo) +
                                               ": the in-house GPU FFT cannot plan a transform of " +
                                               std::to_string(dc::fft_length(j)) + " points (" +
                                               std::to_string(d) + "-digit coefficients)");
      const std::size_t b = dc::fft_pass_bytes(j);
      if (!b) return fail(cudaErrorInvalidValue, "bigmul::cuda: FFT size query failed");
      main_bytes = std::max(main_bytes, b);
      if (d == 1) break;
    }
  }
  main_bytes = (main_bytes + 255) & ~std::size_t{255};
  const std::size_t extra = o.modular_check ? check_bytes(an, bn, G, rx) : 0;
  if (!d_temp) {
    temp_bytes = main_bytes + extra;
    status::clear();
    return cudaSuccess;
  }
  if (temp_bytes < main_bytes + extra)
    return fail(cudaErrorInvalidValue, "bigmul::cuda: temp storage too small: " + std::to_string(temp_bytes) +
                                           " bytes given, " + std::to_string(main_bytes + extra) + " needed");

  mul_stats local;
  mul_stats& s = o.stats ? *o.stats : local;
  s = mul_stats{};
  s.backend_used = backend::cuda;
  if (algo == algorithm::tiled) {
    const cudaError_t e = tiled_run(d_temp, d_r, d_a, an, d_b, bn, G, rx, tile, variant_of(o), st, o.stats);
    if (e != cudaSuccess) return e;
  } else {
    cudaError_t pass_error = cudaSuccess;
    const detail::fft_retry_result done = detail::fft_retry(digits, [&](unsigned d) {
      const dc::fft_job j = make_job(algo, o, rx, d, an, bn, G, square);
      if (dc::fft_pass_bytes(j) > main_bytes) {
        pass_error = fail(cudaErrorUnknown, std::string("bigmul::cuda: ") + algorithm_name(algo) +
                                                ": rounding guard failed (max round-off " +
                                                std::to_string(s.max_roundoff) + ") and the retry with " +
                                                std::to_string(d) +
                                                "-digit coefficients needs more temp storage than was sized");
        return detail::fft_pass_verdict::failed;
      }
      dc::fft_outcome out;
      const cudaError_t e = dc::fft_pass_device(d_temp, j, d_r, d_a, d_b, st, o.stats != nullptr, out);
      if (e != cudaSuccess) {
        pass_error = fail(e, std::string("bigmul::cuda: ") + algorithm_name(algo) + " pass");
        return detail::fft_pass_verdict::failed;
      }
      s.max_roundoff = out.max_roundoff;
      s.l2_roundoff = out.l2_roundoff;
      s.transform_length = out.transform_length;
      s.coefficient_digits = d;
      s.t_split += out.t_split;
      s.t_forward += out.t_forward;
      s.t_pointwise += out.t_pointwise;
      s.t_inverse += out.t_inverse;
      s.t_carry += out.t_carry + out.t_join;  // mul_stats: carries and the join
      return out.accepted ? detail::fft_pass_verdict::accepted : detail::fft_pass_verdict::rejected;
    });
    s.retries += done.retries;
    if (done.failed) return pass_error;
    if (!done.digits)
      return fail(cudaErrorUnknown, std::string("bigmul::cuda: ") + algorithm_name(algo) +
                                        ": rounding guard failed at every coefficient size");
  }
  s.used = algo;
  if (o.modular_check) {
    const auto t0 = std::chrono::steady_clock::now();
    const cudaError_t e = check_run(static_cast<char*>(d_temp) + main_bytes, d_r, d_a, an, d_b, bn, G, rx, st);
    if (e != cudaSuccess) return e;
    s.modular_check = true;
    s.t_check = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  s.t_total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  status::clear();
  return cudaSuccess;
}

}  // namespace

algorithm choose_device_algorithm(std::size_t an, std::size_t bn, radix rx) {
  return detail::gpu_algorithm_for(algorithm::automatic, an, bn, rx, false);
}

const char* last_error_message() { return status::message(); }

cudaError_t mul(void* d_temp, std::size_t& temp_bytes, limb_t* d_r, const limb_t* d_a, std::size_t an,
                const limb_t* d_b, std::size_t bn, radix rx, const device_options& options, cudaStream_t stream) {
  if (bn == 0 || an < bn)
    return fail(cudaErrorInvalidValue, "bigmul::cuda::mul: needs an >= bn >= 1 (got an=" + std::to_string(an) +
                                           ", bn=" + std::to_string(bn) + ")");
  if (d_temp && (!d_r || !d_a || !d_b)) return fail(cudaErrorInvalidValue, "bigmul::cuda::mul: null pointer");
  const algorithm algo = detail::gpu_algorithm_for(options.algo, an, bn, rx, false);
  try {
    return run(d_temp, temp_bytes, d_r, d_a, an, d_b, bn, 1, rx, algo, options, stream);
  } catch (const std::exception& e) {  // plan construction (host allocations, CUDA failures)
    return fail(cudaErrorUnknown, std::string("bigmul::cuda::mul: ") + e.what());
  }
}

cudaError_t mul_batched(void* d_temp, std::size_t& temp_bytes, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                        std::size_t n, std::size_t G, radix rx, const device_options& options, cudaStream_t stream) {
  if (n == 0 || G == 0)
    return fail(cudaErrorInvalidValue, "bigmul::cuda::mul_batched: needs n >= 1 and G >= 1 (got n=" +
                                           std::to_string(n) + ", G=" + std::to_string(G) + ")");
  if (d_temp && (!d_r || !d_a || !d_b)) return fail(cudaErrorInvalidValue, "bigmul::cuda::mul_batched: null pointer");
  const algorithm algo = detail::gpu_algorithm_for(options.algo, n, n, rx, true);
  try {
    return run(d_temp, temp_bytes, d_r, d_a, n, d_b, n, G, rx, algo, options, stream);
  } catch (const std::exception& e) {
    return fail(cudaErrorUnknown, std::string("bigmul::cuda::mul_batched: ") + e.what());
  }
}

}  // namespace bigmul::cuda
