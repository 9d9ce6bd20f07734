// SPDX-License-Identifier: LGPL-3.0-or-later
#include "preload/settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "bigmul/mul.hpp"
#include "mul/ntt_mul.hpp"

namespace bigmul::preload {
namespace {
#include "preload/params_preload.inc"

constexpr std::size_t never = std::numeric_limits<std::size_t>::max();

// A limb count from variable `name`, or `fallback` (with a warning when the
// variable is set but not a count).
std::size_t limbs_from_env(const char* name, std::size_t fallback) {
  const char* s = std::getenv(name);
  if (!s || !*s) return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *end != '\0' || s[0] == '-') {
    std::fprintf(stderr, "libbigmul_gmp: %s='%s' is not a limb count; using %zu\n", name, s, fallback);
    return fallback;
  }
  return static_cast<std::size_t>(v);
}

}  // namespace

std::atomic<std::size_t> g_mul_crossover{never};
std::atomic<std::size_t> g_get_str_crossover{never};
std::atomic<std::size_t> g_set_str_crossover{never};
std::atomic<bool> g_verbose{false};

void load_settings() {
  // The tuned table holds for the engine it was measured with; on another
  // engine, products take the library's own crossover for that engine.
  const bool tuned = std::strcmp(detail::ntt_engine_name(detail::ntt_default_engine()), tuned_engine) == 0;
  const std::size_t mul_default = tuned && mul_crossover_limbs ? mul_crossover_limbs : gmp_crossover_limbs();
  // bigmul needs a 1-limb operand at least; 0 and 1 both mean "every product".
  std::size_t mul = limbs_from_env("BIGMUL_GMP_CROSSOVER", mul_default);
  std::size_t get = limbs_from_env("BIGMUL_GMP_STR_CROSSOVER", get_str_crossover_limbs);
  std::size_t set = limbs_from_env("BIGMUL_GMP_STR_CROSSOVER", set_str_crossover_limbs);
  g_mul_crossover.store(mul < 1 ? 1 : mul, std::memory_order_relaxed);
  g_get_str_crossover.store(get < 1 ? 1 : get, std::memory_order_relaxed);
  g_set_str_crossover.store(set < 1 ? 1 : set, std::memory_order_relaxed);
  const char* v = std::getenv("BIGMUL_GMP_VERBOSE");
  g_verbose.store(v && *v && std::strcmp(v, "0") != 0, std::memory_order_relaxed);
}

}  // namespace bigmul::preload
