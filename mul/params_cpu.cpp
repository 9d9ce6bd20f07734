// SPDX-License-Identifier: LGPL-3.0-or-later
// Choice of the tuned CPU table (mul/params_cpu.hpp): once, at load.
#include "mul/params_cpu.hpp"

#include <cctype>
#include <cstdlib>

#include "bigmul/error.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"
#include "prim/cpu_features.hpp"

namespace bigmul::detail::params_cpu {

namespace {

constexpr std::size_t least_sqr_ntt(const cpu_params& t) {
  return std::min({t.sqr_ntt, t.sqr_ntt_portable, t.sqr_ntt_avx2});
}

bool same_key(const cpu_params& t, const processor& cpu) {
  return cpu.vendor == t.vendor && cpu.family == t.family && cpu.model >= t.model_first &&
         cpu.model <= t.model_last && cpu.engine == t.engine;
}

// Among the tables of the processor's engine, the one sharing most of its
// identity (vendor and family, then vendor); the first on a tie.
const cpu_params* nearest_same_engine(std::span<const cpu_params> from, const processor& cpu) {
  const cpu_params* best = nullptr;
  int best_score = -1;
  for (const cpu_params& t : from) {
    if (t.engine != cpu.engine) continue;
    const int score = cpu.vendor == t.vendor ? (cpu.family == t.family ? 2 : 1) : 0;
    if (score > best_score) best = &t, best_score = score;
  }
  return best;
}

std::string unknown_name_error(std::span<const cpu_params> from, std::string_view name) {
  std::string known;
  for (const cpu_params& t : from) known += (known.empty() ? "" : ", ") + std::string(t.name);
  return "BIGMUL_CPU_TABLE=" + std::string(name) + " is not a tuned CPU table (" + known + ")";
}

std::string& environment_error() {
  static std::string text;
  return text;
}

}  // namespace

constinit table_in_use in_use{tables[0], least_sqr_ntt(tables[0]), table_match::fallback};

table_choice choose_table(std::span<const cpu_params> from, const processor& cpu, const char* forced) {
  table_choice c{from.empty() ? nullptr : &from[0], table_match::fallback, {}};
  if (forced && *forced) {
    for (const cpu_params& t : from)
      if (std::string_view(forced) == t.name) return {&t, table_match::forced, {}};
    c.error = unknown_name_error(from, forced);
  }
  for (const cpu_params& t : from)
    if (same_key(t, cpu)) {
      c.table = &t, c.match = table_match::exact;
      return c;
    }
  if (const cpu_params* t = nearest_same_engine(from, cpu)) c.table = t, c.match = table_match::same_engine;
  return c;
}

// The engine is what the NTT runs by default here (fft's own checks, as
// mul/ntt_engine_select.cpp); the identity outlives the view of its vendor.
processor this_processor() {
  static const prim::cpu_identity id = prim::cpu_identify();
  const ntt_engine e = fft::ntt52_supported()       ? ntt_engine::ifma
                       : fft::ntt_avx2_supported() ? ntt_engine::avx2
                                                   : ntt_engine::portable;
  return {id.vendor, id.family, id.model, e};
}

table_key key_for(const processor& cpu) {
  const std::string engine = ntt_engine_name(cpu.engine);
  if (cpu.vendor == "AuthenticAMD") {
    // Zen 3 and 4 share family 25, and only Zen 4 has AVX-512: the engine tells them apart.
    const char* zen = cpu.family == 23                                  ? "zen2"
                      : cpu.family == 25 && cpu.engine == ntt_engine::ifma ? "zen4"
                      : cpu.family == 25                                 ? "zen3"
                      : cpu.family == 26                                 ? "zen5"
                                                                         : nullptr;
    if (zen) return {std::string("amd_") + zen + "_" + engine, 0, 255};
  }
  std::string vendor;  // another vendor string, lower-case and alphanumeric ("" off x86-64: "cpu")
  for (char ch : cpu.vendor)
    if (std::isalnum(static_cast<unsigned char>(ch)))
      vendor += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  vendor = cpu.vendor == "GenuineIntel" ? "intel" : cpu.vendor == "AuthenticAMD" ? "amd" : vendor.empty() ? "cpu" : vendor;
  return {vendor + "_f" + std::to_string(cpu.family) + "m" + std::to_string(cpu.model) + "_" + engine, cpu.model,
          cpu.model};
}

const char* table_match_name(table_match m) {
  switch (m) {
    case table_match::exact: return "this processor";
    case table_match::same_engine: return "nearest: same NTT engine";
    case table_match::forced: return "BIGMUL_CPU_TABLE";
    default: return "default: no table for this NTT engine";
  }
}

const char* tuned_table_name() noexcept { return in_use.table.name; }

std::string tuned_table_description() {
  std::string s = std::string(in_use.table.name) + " (" + table_match_name(in_use.match) + ")";
  if (!environment_error().empty()) s += "; " + environment_error();
  return s;
}

void check_table_environment() {
  if (!environment_error().empty()) throw error(error::kind::invalid_argument, environment_error());
}

namespace {

// At load: the dispatcher reads `in_use` from then on, no CPUID or getenv per
// product. An unknown BIGMUL_CPU_TABLE cannot throw here; it is kept for
// check_table_environment and the description.
struct choose_at_load {
  choose_at_load() {
    table_choice c = choose_table(tables, this_processor(), std::getenv("BIGMUL_CPU_TABLE"));
    in_use = {*c.table, least_sqr_ntt(*c.table), c.match};
    environment_error() = std::move(c.error);
  }
};
// Before the initialisers and constructors without a priority in the same
// binary, which may multiply (the GMP preload reads gmp_crossover_limbs in
// its constructor); it reads only constants and function-local statics.
#if defined(__GNUC__)
choose_at_load chosen __attribute__((init_priority(101)));
#else
choose_at_load chosen;
#endif

}  // namespace

}  // namespace bigmul::detail::params_cpu
