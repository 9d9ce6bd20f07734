// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::mul_batched: G products of n x n limbs, on the GPU when it takes
// them, else in the CPU's vector lanes when an engine has lanes for this
// size, else product by product over the threads.
#include <algorithm>
#include <string>

#include "bigmul/config.hpp"
#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/batched_ifma.hpp"
#include "mul/dispatch_choice.hpp"
#include "mul/dispatch_cpu.hpp"
#include "mul/dispatch_cuda.hpp"
#include "mul/entry_checks.hpp"
#include "mul/mul_cuda.hpp"
#include "prim/parallel.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul {
namespace {

constexpr const char* who = "bigmul::mul_batched";

void check_batched_arguments(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G, radix rx,
                             const mul_options& options) {
  if (n == 0 || G == 0)
    throw error(error::kind::invalid_argument, std::string(who) + ": needs n >= 1 and G >= 1 (got n=" +
                                                   std::to_string(n) + ", G=" + std::to_string(G) + ")");
  detail::check_batch_size(n, G, who);
  detail::check_enums(options, rx, who);
  if (!r || !a || !b) throw error(error::kind::invalid_argument, std::string(who) + ": null pointer");
  if (detail::overlaps(r, 2 * n * G, a, n * G) || detail::overlaps(r, 2 * n * G, b, n * G))
    throw error(error::kind::invalid_argument, std::string(who) + ": the result overlaps an operand");
  if (rx == radix::decimal) {
    detail::check_decimal(a, n * G, who, "a");
    if (b != a) detail::check_decimal(b, n * G, who, "b");
  }
}

// The GPU's products when it takes them; false when the CPU computes them
// (automatic after too little GPU memory: st cleared).
bool batched_on_gpu([[maybe_unused]] limb_t* r, [[maybe_unused]] const limb_t* a, [[maybe_unused]] const limb_t* b,
                    std::size_t n, std::size_t G, radix rx, const mul_options& options,
                    [[maybe_unused]] mul_stats& st) {
  if (!detail::use_cuda(options, n, n, G, rx, true)) return false;
#if defined(BIGMUL_HAVE_CUDA)
  return detail::run_on_gpu(options, st, [&] { detail::mul_batched_cuda_host(r, a, b, n, G, rx, options, st); });
#else
  return false;  // not reached: without CUDA use_cuda is false or throws
#endif
}

// Lanes for this batch (mul/batched_ifma.hpp, else mul/batched_avx2.hpp, as
// batched_engine_chosen() says): binary, automatic, up to their largest size.
bool lanes_take(std::size_t n, radix rx, const mul_options& options) {
  if (rx != radix::binary || options.algo != algorithm::automatic) return false;
  if (detail::batched_ifma_supported()) return n <= detail::batched_ifma_max_limbs;
  return n <= detail::batched_avx2_route_max_limbs && detail::batched_avx2_supported();
}

// Eight (IFMA) or four (AVX2) products per vector, the groups spread over the
// threads as small tasks claimed one by one (mul/batched_ifma.hpp says why);
// the modular check (when asked) runs per product after.
void batched_in_lanes(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G,
                      const mul_options& options) {
  const bool ifma = detail::batched_ifma_supported();
  const std::size_t width = ifma ? 8 : 4, groups = (G + width - 1) / width;
  const std::size_t per_task = ifma ? detail::batched_ifma_task_groups(n) : detail::batched_avx2_task_groups(n);
  const auto kernel = ifma ? detail::mul_batched_ifma : detail::mul_batched_avx2;
  prim::parallel_for((groups + per_task - 1) / per_task, options.threads, [&](std::size_t t) {
    const std::size_t g0 = width * per_task * t, g1 = std::min(G, g0 + width * per_task);
    kernel(r + g0 * 2 * n, a + g0 * n, b + g0 * n, n, g1 - g0);
  });
  if (options.modular_check)
    for (std::size_t g = 0; g < G; ++g)
      if (!detail::product_agrees_mod_p(r + g * 2 * n, a + g * n, n, b + g * n, n, radix::binary, 1))
        throw error(error::kind::internal, std::string(who) + ": modular check failed for product " +
                                               std::to_string(g) + (ifma ? " (IFMA lanes)" : " (AVX2 lanes)") +
                                               "; the products were not returned");
}

// Contiguous runs of products per task, each product single-threaded (small
// products do not split well; many of them do, and a task per product would
// cost more in hand-offs than a 1024-bit product).
void batched_per_product(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G, radix rx,
                         const mul_options& options) {
  mul_options one = options;
  one.where = backend::cpu;
  one.threads = 1;
  one.stats = nullptr;
  const std::size_t grain = std::max<std::size_t>(1, 4096 / n);  // ~64 KB of operands a task
  prim::parallel_chunks(G, grain, options.threads, [&](std::size_t g0, std::size_t g1) {
    for (std::size_t g = g0; g < g1; ++g) mul(r + g * 2 * n, a + g * n, n, b + g * n, n, rx, one);
  });
}

}  // namespace

void mul_batched(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G, radix rx,
                 const mul_options& options) try {
  check_batched_arguments(r, a, b, n, G, rx, options);
  mul_stats local;
  mul_stats& st = options.stats ? *options.stats : local;
  st = mul_stats{};
  const auto t_start = prim::steady_clock::now();
  if (batched_on_gpu(r, a, b, n, G, rx, options, st)) {
    st.t_total = prim::seconds_since(t_start);
    return;
  }
  if (lanes_take(n, rx, options)) {
    batched_in_lanes(r, a, b, n, G, options);
    st.used = algorithm::basecase;  // a schoolbook product, in the lanes
  } else {
    batched_per_product(r, a, b, n, G, rx, options);
    st.used = options.algo == algorithm::automatic ? detail::choose_algorithm(n, n, rx) : options.algo;
  }
  st.backend_used = backend::cpu;
  st.modular_check = options.modular_check;
  st.t_total = prim::seconds_since(t_start);
} catch (...) {
  detail::rethrow_allocation_failure(who);  // bad_alloc, length_error -> resource
}

}  // namespace bigmul
