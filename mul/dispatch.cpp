// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::mul: argument checks, algorithm choice from the tuned crossover
// table, the optional modular check, per-phase statistics.
#include <algorithm>
#include <chrono>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <mutex>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/algorithm_table.hpp"
#include "mul/basecase.hpp"
#include "mul/basecase_small.hpp"
#include "mul/batched_ifma.hpp"
#include "mul/entry_checks.hpp"
#include "mul/fft_mul.hpp"
#include "mul/gpu_plan_rule.hpp"
#include "mul/karatsuba.hpp"
#include "mul/modcheck.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_prepare.hpp"
#include "mul/mul_cuda.hpp"
#include "prim/cpu_features.hpp"
#include "mul/params_cpu.hpp"
#include "mul/release_hooks.hpp"
#include "mul/sqr_basecase.hpp"
#include "mul/tiled.hpp"
#include "mul/toom3.hpp"
#include "prim/parallel.hpp"

namespace bigmul {
namespace {

bool overlaps(const limb_t* r, std::size_t rn, const limb_t* p, std::size_t pn) {
  const auto rb = reinterpret_cast<std::uintptr_t>(r), re = rb + rn * sizeof(limb_t);
  const auto pb = reinterpret_cast<std::uintptr_t>(p), pe = pb + pn * sizeof(limb_t);
  return rb < pe && pb < re;
}

// Decimal limbs are checked 64 at a time, 4 limbs a compare with AVX2 (a
// branch a limb is a visible part of a 10^4-digit decimal product); the exact limb
// is looked up only in a block that has one.
constexpr std::size_t check_block = 64;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// x >= 10^19 as a signed compare of x ^ 2^63 with (10^19 - 1) ^ 2^63.
__attribute__((target("avx2"))) bool block_has_non_decimal_avx2(const limb_t* p) {
  const __m256i sign = _mm256_set1_epi64x(static_cast<long long>(limb_t{1} << 63));
  const __m256i most = _mm256_set1_epi64x(static_cast<long long>((decimal_limb_base - 1) ^ (limb_t{1} << 63)));
  __m256i bad = _mm256_setzero_si256();
  for (std::size_t i = 0; i < check_block; i += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    bad = _mm256_or_si256(bad, _mm256_cmpgt_epi64(_mm256_xor_si256(x, sign), most));
  }
  return _mm256_testz_si256(bad, bad) == 0;
}
#define BIGMUL_CHECK_DECIMAL_AVX2 1
#endif

void check_decimal(const limb_t* p, std::size_t n, const char* which) {
  std::size_t i = 0;
#if defined(BIGMUL_CHECK_DECIMAL_AVX2)
  if (prim::cpu_has_avx2_fma())
    for (; i + check_block <= n; i += check_block)
      if (block_has_non_decimal_avx2(p + i)) break;
#endif
  for (; i < n; ++i)  // from a block that has one (the exact limb), the tail, or all without AVX2
    if (p[i] >= decimal_limb_base)
      throw error(error::kind::invalid_argument, std::string("bigmul::mul: operand ") + which + " limb " +
                                                     std::to_string(i) + " is not a decimal limb (>= 10^19)");
}

algorithm choose(std::size_t an, std::size_t bn, radix rx) {
  const auto& x = rx == radix::binary ? detail::params_cpu::binary_radix : detail::params_cpu::decimal_radix;
  (void)an;
  if (bn < x.karatsuba) return algorithm::basecase;
  // The engine (BIGMUL_NTT_ENGINE, a getenv) only where some engine's crossover is reached.
  if (bn >= std::min({x.ntt, x.ntt_avx2, x.ntt_portable}) &&
      bn >= detail::params_cpu::ntt_crossover(x, detail::ntt_default_engine()))
    return algorithm::ntt;
  if (bn < x.fft) return rx == radix::binary && x.toom3 && bn >= x.toom3 ? algorithm::toom3 : algorithm::karatsuba;
  return algorithm::fft_real;
}

// Whether this product goes to the GPU: always for backend cuda (after the
// checks), for automatic when a GPU is usable, the product is past the
// measured crossover and the GPU can plan every pass it may need (else the
// CPU computes it: automatic never fails for a size the GPU cannot plan).
// G products of an x bn limbs (batched: from mul_batched, even when G = 1).
bool use_cuda(const mul_options& o, std::size_t an, std::size_t bn, std::size_t G, radix rx, bool batched) {
  if (o.where == backend::cuda) {
    if (!detail::has_cuda_version(o.algo))
      throw error(error::kind::invalid_argument,
                  std::string("bigmul::mul: algorithm ") + algorithm_name(o.algo) + " has no CUDA version");
    std::string why;
    if (!cuda_usable(&why)) throw error(error::kind::resource, "bigmul::mul: backend cuda: " + why);
    return true;
  }
#if defined(BIGMUL_HAVE_CUDA)
  if (o.where == backend::automatic && detail::automatic_prefers_gpu(o, an, bn, G, rx, batched))
    return cuda_usable();
#else
  (void)an;
  (void)bn;
  (void)G;
  (void)rx;
  (void)batched;
#endif
  return false;
}

}  // namespace

bool cuda_usable(std::string* why) {
#if defined(BIGMUL_HAVE_CUDA)
  std::string w;
  const bool ok = detail::cuda_probe(w);
  if (why) *why = w;
  return ok;
#else
  if (why) *why = "this build of bigmul has no CUDA backend (it was configured without nvcc or with BIGMUL_CUDA=OFF)";
  return false;
#endif
}

namespace {
std::mutex release_hooks_mutex;
std::vector<void (*)()>& release_hooks() {
  static std::vector<void (*)()> hooks;
  return hooks;
}
}  // namespace

void detail::add_release_hook(void (*hook)()) {
  std::lock_guard<std::mutex> lock(release_hooks_mutex);
  auto& hooks = release_hooks();
  if (std::find(hooks.begin(), hooks.end(), hook) == hooks.end()) hooks.push_back(hook);
}

void release_scratch() {
  detail::ntt_release_scratch();
#if defined(BIGMUL_HAVE_CUDA)
  detail::cuda_release_plans();  // the GPU FFT plans and their twiddle tables
#endif
  std::vector<void (*)()> hooks;
  {
    std::lock_guard<std::mutex> lock(release_hooks_mutex);
    hooks = release_hooks();
  }
  for (auto hook : hooks) hook();  // the layers above: src/arith's conversion caches
}

std::size_t mul_heap_bytes(std::size_t an, std::size_t bn, radix rx, const mul_options& options) {
  if (an < bn) std::swap(an, bn);
  if (bn == 0) return 0;
  const algorithm algo = options.algo == algorithm::automatic ? choose(an, bn, rx) : options.algo;
  return algo == algorithm::ntt ? detail::ntt_heap_bytes(detail::ntt_engine::best, an, bn, rx, options.threads) : 0;
}

std::size_t mul_table_bytes(std::size_t an, std::size_t bn, radix rx, const mul_options& options) {
  if (an < bn) std::swap(an, bn);
  if (bn == 0) return 0;
  const algorithm algo = options.algo == algorithm::automatic ? choose(an, bn, rx) : options.algo;
  return algo == algorithm::ntt ? detail::ntt_table_bytes(detail::ntt_engine::best, an, bn, rx) : 0;
}

void prepare_mul(std::size_t an, std::size_t bn, radix rx, const mul_options& options) {
  if (an < bn) std::swap(an, bn);
  // Not for a product the GPU will compute (its buffers are the device's).
  if (bn == 0 || options.where == backend::cuda || use_cuda(options, an, bn, 1, rx, false)) return;
  const algorithm algo = options.algo == algorithm::automatic ? choose(an, bn, rx) : options.algo;
  if (algo == algorithm::ntt) detail::ntt_prepare(detail::ntt_engine::best, an, bn, rx, options.threads);
}

std::size_t gmp_crossover_limbs() {
  return detail::params_cpu::gmp_crossover_for(detail::ntt_default_engine());
}

const char* algorithm_name(algorithm a) {
  const detail::algorithm_desc* d = detail::find_algorithm(a);
  return d ? d->name : "?";
}

bool parse_algorithm(const std::string& name, algorithm& out) {
  for (const auto& d : detail::algorithm_table)
    if (name == d.name) {
      out = d.algo;
      return true;
    }
  return false;
}

// The whole entry point; mul() below answers the smallest products first.
[[gnu::noinline]] static void mul_checked(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b,
                                          std::size_t bn, radix rx, const mul_options& options) try {
  using clock = std::chrono::steady_clock;
  // The clock only when someone reads the times: two reads cost more than a
  // 4-limb product.
  const bool timed = options.stats != nullptr;
  const auto t_start = timed ? clock::now() : clock::time_point{};
  if (bn == 0 || an < bn)
    throw error(error::kind::invalid_argument,
                "bigmul::mul: needs an >= bn >= 1 (got an=" + std::to_string(an) + ", bn=" + std::to_string(bn) + ")");
  detail::check_product_size(an, bn, "bigmul::mul");
  detail::check_enums(options, rx, "bigmul::mul");
  if (!r || !a || !b) throw error(error::kind::invalid_argument, "bigmul::mul: null pointer");
  if (overlaps(r, an + bn, a, an) || overlaps(r, an + bn, b, bn))
    throw error(error::kind::invalid_argument, "bigmul::mul: the result overlaps an operand");
  if (rx == radix::decimal) {
    check_decimal(a, an, "a");
    if (b != a) check_decimal(b, bn, "b");
  }
  // Basecase sizes without statistics or a check go straight to the
  // basecase: clearing the statistics record (rep stos) costs several times
  // a 1-limb product. (Far below any GPU crossover.)
  if (!options.stats && !options.modular_check && options.where != backend::cuda &&
      (options.algo == algorithm::basecase ||
       (options.algo == algorithm::automatic && choose(an, bn, rx) == algorithm::basecase))) {
    detail::mul_basecase(r, a, an, b, bn, rx);
    return;
  }
  mul_stats local;
  mul_stats& st = options.stats ? *options.stats : local;
  st = mul_stats{};

#if defined(BIGMUL_HAVE_CUDA)
  if (use_cuda(options, an, bn, 1, rx, false)) {
    try {
      detail::mul_cuda_host(r, a, an, b, bn, rx, options, st);
      if (timed) st.t_total = std::chrono::duration<double>(clock::now() - t_start).count();
      return;
    } catch (const error& e) {
      // Too little GPU memory: automatic falls back to the CPU; cuda says so.
      if (options.where == backend::cuda || e.code() != error::kind::resource) throw;
      st = mul_stats{};
    }
  }
#else
  use_cuda(options, an, bn, 1, rx, false);  // throws for backend cuda
#endif

  algorithm algo = options.algo == algorithm::automatic ? choose(an, bn, rx) : options.algo;
  const bool binary_square = rx == radix::binary && a == b && an == bn;
  // Binary squares have their own crossovers (mul/params_cpu.hpp): below the
  // engine's sqr_ntt, Karatsuba's or Toom-3's squares beat the NTT's.
  if (options.algo == algorithm::automatic && binary_square &&
      ((algo == algorithm::ntt && bn < detail::params_cpu::sqr_ntt_crossover(detail::ntt_default_engine())) ||
       algo == algorithm::karatsuba || algo == algorithm::toom3))
    algo = detail::params_cpu::sqr_toom3 && bn >= detail::params_cpu::sqr_toom3 ? algorithm::toom3 : algorithm::karatsuba;
  st.used = algo;
  switch (algo) {
    case algorithm::basecase:
      detail::mul_basecase(r, a, an, b, bn, rx);
      break;
    case algorithm::karatsuba: {
      const auto& x = rx == radix::binary ? detail::params_cpu::binary_radix : detail::params_cpu::decimal_radix;
      detail::mul_karatsuba(r, a, an, b, bn, rx, x.karatsuba_basecase);
      break;
    }
    case algorithm::toom3: {
      if (rx != radix::binary)
        throw error(error::kind::domain, "bigmul::mul: algorithm toom3 multiplies binary limbs only (decimal radix: "
                                         "karatsuba, ntt or an FFT algorithm)");
      const auto& x = detail::params_cpu::binary_radix;
      // Chosen automatically, pieces split three ways down to the tuned size
      // (a square's own); asked for by name, Toom-3 throughout.
      const std::size_t below = options.algo != algorithm::automatic ? detail::toom3_min_limbs
                                : binary_square                     ? detail::params_cpu::sqr_toom3
                                                                    : x.toom3;
      detail::mul_toom3(r, a, an, b, bn, below, x.karatsuba_basecase);
      break;
    }
    case algorithm::tiled:
      detail::mul_tiled(r, a, an, b, bn, rx, options.tile ? options.tile : detail::params_cpu::tiled_tile,
                        options.threads);
      break;
    case algorithm::fft_complex:
    case algorithm::fft_real:
    case algorithm::fft_complex_f32:
    case algorithm::fft_real_f32:
      detail::mul_fft(r, a, an, b, bn, rx, algo, options, st);
      break;
    case algorithm::ntt:
      detail::mul_ntt(r, a, an, b, bn, rx, options, st);
      break;
    case algorithm::automatic:
      break;
  }

  if (options.modular_check) {
    const auto t0 = timed ? clock::now() : clock::time_point{};
    const std::uint64_t ra = detail::residue_mod_p(a, an, rx, options.threads);
    const std::uint64_t rb = b == a && bn == an ? ra : detail::residue_mod_p(b, bn, rx, options.threads);
    const std::uint64_t rr = detail::residue_mod_p(r, an + bn, rx, options.threads);
    if (detail::mod_p_mul(ra, rb) != rr)
      throw error(error::kind::internal, std::string("bigmul::mul: modular check failed for algorithm ") +
                                             algorithm_name(algo) + " (" + std::to_string(an) + " x " +
                                             std::to_string(bn) + " limbs); the product is wrong and was not returned");
    st.modular_check = true;
    if (timed) st.t_check = std::chrono::duration<double>(clock::now() - t0).count();
  }
  if (timed) st.t_total = std::chrono::duration<double>(clock::now() - t_start).count();
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
  // choose()'s Karatsuba range: below every NTT engine's crossover (so no
  // engine is asked for) and the FFT's, and below Toom-3's.
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
  // overflow), and the same choice as choose(); anything unusual (including
  // every error) takes the full path.
  if (an < (std::size_t{1} << 48) && bn >= 1 && bn <= an && rx == radix::binary && r && a && b && !options.stats &&
      !options.modular_check && (options.where == backend::automatic || options.where == backend::cpu) &&
      static_cast<unsigned>(options.engine) <= static_cast<unsigned>(fft_engine::cufft) &&
      !overlaps(r, an + bn, a, an) && !overlaps(r, an + bn, b, bn)) {
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

namespace bigmul {

void mul_batched(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G, radix rx,
                 const mul_options& options) try {
  if (n == 0 || G == 0)
    throw error(error::kind::invalid_argument, "bigmul::mul_batched: needs n >= 1 and G >= 1 (got n=" +
                                                   std::to_string(n) + ", G=" + std::to_string(G) + ")");
  detail::check_batch_size(n, G, "bigmul::mul_batched");
  detail::check_enums(options, rx, "bigmul::mul_batched");
  if (!r || !a || !b) throw error(error::kind::invalid_argument, "bigmul::mul_batched: null pointer");
  if (overlaps(r, 2 * n * G, a, n * G) || overlaps(r, 2 * n * G, b, n * G))
    throw error(error::kind::invalid_argument, "bigmul::mul_batched: the result overlaps an operand");
  if (rx == radix::decimal) {
    check_decimal(a, n * G, "a");
    if (b != a) check_decimal(b, n * G, "b");
  }
  mul_stats local;
  mul_stats& st = options.stats ? *options.stats : local;
  st = mul_stats{};
  const auto t_start = std::chrono::steady_clock::now();
#if defined(BIGMUL_HAVE_CUDA)
  if (use_cuda(options, n, n, G, rx, true)) {
    try {
      detail::mul_batched_cuda_host(r, a, b, n, G, rx, options, st);
      st.t_total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
      return;
    } catch (const error& e) {
      if (options.where == backend::cuda || e.code() != error::kind::resource) throw;
      st = mul_stats{};
    }
  }
#else
  use_cuda(options, n, n, G, rx, true);
#endif
  // CPU, binary, automatic, up to ~10^4 bits with IFMA: eight products per
  // vector in the lanes (mul/batched_ifma.hpp), groups of eight spread over
  // the threads; the modular check (when asked) runs per product after.
  if (rx == radix::binary && options.algo == algorithm::automatic && n <= detail::batched_ifma_max_limbs &&
      detail::batched_ifma_supported()) {
    // Small tasks claimed one by one (mul/batched_ifma.hpp says why).
    const std::size_t groups = (G + 7) / 8, per_task = detail::batched_ifma_task_groups(n);
    prim::parallel_for((groups + per_task - 1) / per_task, options.threads, [&](std::size_t t) {
      const std::size_t g0 = 8 * per_task * t, g1 = std::min(G, g0 + 8 * per_task);
      detail::mul_batched_ifma(r + g0 * 2 * n, a + g0 * n, b + g0 * n, n, g1 - g0);
    });
    if (options.modular_check)
      for (std::size_t g = 0; g < G; ++g)
        if (detail::mod_p_mul(detail::residue_mod_p(a + g * n, n, rx, 1), detail::residue_mod_p(b + g * n, n, rx, 1)) !=
            detail::residue_mod_p(r + g * 2 * n, 2 * n, rx, 1))
          throw error(error::kind::internal, "bigmul::mul_batched: modular check failed for product " +
                                                 std::to_string(g) + " (IFMA lanes); the products were not returned");
    st.used = algorithm::basecase;  // a schoolbook product, in the lanes
    st.backend_used = backend::cpu;
    st.modular_check = options.modular_check;
    st.t_total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    return;
  }
  // CPU otherwise: contiguous runs of products per task, each product single-threaded
  // (small products do not split well; many of them do, and a task per
  // product would cost more in hand-offs than a 1024-bit product).
  mul_options one = options;
  one.where = backend::cpu;
  one.threads = 1;
  one.stats = nullptr;
  const std::size_t grain = std::max<std::size_t>(1, 4096 / n);  // ~64 KB of operands a task
  prim::parallel_chunks(G, grain, options.threads, [&](std::size_t g0, std::size_t g1) {
    for (std::size_t g = g0; g < g1; ++g) mul(r + g * 2 * n, a + g * n, n, b + g * n, n, rx, one);
  });
  st.used = options.algo == algorithm::automatic ? choose(n, n, rx) : options.algo;
  st.backend_used = backend::cpu;
  st.modular_check = options.modular_check;
  st.t_total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::mul_batched");  // bad_alloc, length_error -> resource
}

}  // namespace bigmul
