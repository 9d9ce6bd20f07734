// SPDX-License-Identifier: LGPL-3.0-or-later
// The tuned CPU tables (mul/params_cpu.hpp, mul/params/): the choice on
// synthetic processors (exact key, nearest of the same NTT engine, the
// default, BIGMUL_CPU_TABLE, unknown vendors and names), the names tune_cpu
// gives a processor, the registry against the files in mul/params/, CPUID
// against /proc/cpuinfo, and that the dispatcher's names read the table
// chosen at load (ctest reruns this with BIGMUL_CPU_TABLE set and misspelt).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/karatsuba.hpp"
#include "mul/params_cpu.hpp"
#include "prim/cpu_features.hpp"

namespace {

namespace pc = bigmul::detail::params_cpu;
using bigmul::detail::ntt_engine;

// A table of the given key; the crossovers only tell the entries apart.
constexpr pc::cpu_params entry(const char* name, const char* vendor, unsigned family, unsigned first, unsigned last,
                               ntt_engine e, std::size_t mark) {
  pc::cpu_params p{};
  p.name = name, p.vendor = vendor, p.family = family, p.model_first = first, p.model_last = last, p.engine = e;
  p.binary_radix = {mark, mark, mark, mark, mark, mark, mark};
  return p;
}

// AMD first, so a choice that ignored the vendor would land on it.
constexpr pc::cpu_params synthetic[] = {
    entry("amd_zen4_ifma", "AuthenticAMD", 25, 0, 255, ntt_engine::ifma, 1),
    entry("amd_zen3_avx2", "AuthenticAMD", 25, 0, 255, ntt_engine::avx2, 2),
    entry("intel_f6m85_avx2", "GenuineIntel", 6, 85, 85, ntt_engine::avx2, 3),
    entry("intel_f6m167_ifma", "GenuineIntel", 6, 167, 167, ntt_engine::ifma, 4),
    entry("intel_f6m143_ifma", "GenuineIntel", 6, 143, 143, ntt_engine::ifma, 5),
};

std::string chosen(const pc::processor& cpu, const char* forced = nullptr) {
  return pc::choose_table(synthetic, cpu, forced).table->name;
}

TEST(CpuTable, ExactKey) {
  const pc::processor rocket{"GenuineIntel", 6, 167, ntt_engine::ifma};
  const pc::table_choice c = pc::choose_table(synthetic, rocket, nullptr);
  EXPECT_STREQ(c.table->name, "intel_f6m167_ifma");
  EXPECT_EQ(c.match, pc::table_match::exact);
  EXPECT_TRUE(c.error.empty());
  EXPECT_EQ(chosen({"GenuineIntel", 6, 143, ntt_engine::ifma}), "intel_f6m143_ifma");
  // Same family, the engine tells Zen 3 from Zen 4.
  EXPECT_EQ(chosen({"AuthenticAMD", 25, 33, ntt_engine::avx2}), "amd_zen3_avx2");
  EXPECT_EQ(chosen({"AuthenticAMD", 25, 17, ntt_engine::ifma}), "amd_zen4_ifma");
  EXPECT_EQ(pc::choose_table(synthetic, {"AuthenticAMD", 25, 255, ntt_engine::ifma}, nullptr).match,
            pc::table_match::exact);
}

TEST(CpuTable, NearestOfTheSameEngine) {
  // Intel IFMA of another model: an Intel family-6 IFMA table (the first of them), not AMD's.
  pc::table_choice c = pc::choose_table(synthetic, {"GenuineIntel", 6, 168, ntt_engine::ifma}, nullptr);
  EXPECT_STREQ(c.table->name, "intel_f6m167_ifma");
  EXPECT_EQ(c.match, pc::table_match::same_engine);
  EXPECT_EQ(chosen({"GenuineIntel", 6, 166, ntt_engine::ifma}), "intel_f6m167_ifma");
  // A model in range but another engine is no exact match: Intel AVX2 of model 167.
  c = pc::choose_table(synthetic, {"GenuineIntel", 6, 167, ntt_engine::avx2}, nullptr);
  EXPECT_STREQ(c.table->name, "intel_f6m85_avx2");
  EXPECT_EQ(c.match, pc::table_match::same_engine);
  // Zen 5 (family 26): same vendor beats Intel's IFMA tables.
  EXPECT_EQ(chosen({"AuthenticAMD", 26, 2, ntt_engine::ifma}), "amd_zen4_ifma");
  // A future Intel family: same vendor, other family.
  EXPECT_EQ(chosen({"GenuineIntel", 19, 1, ntt_engine::avx2}), "intel_f6m85_avx2");
  // An unknown vendor: the first table of its engine.
  c = pc::choose_table(synthetic, {"HygonGenuine", 24, 1, ntt_engine::avx2}, nullptr);
  EXPECT_STREQ(c.table->name, "amd_zen3_avx2");
  EXPECT_EQ(c.match, pc::table_match::same_engine);
}

TEST(CpuTable, DefaultWhenNoTableSharesTheEngine) {
  for (const pc::processor& cpu : {pc::processor{"GenuineIntel", 6, 167, ntt_engine::portable},
                                   pc::processor{"", 0, 0, ntt_engine::portable},  // off x86-64
                                   pc::processor{"HygonGenuine", 24, 1, ntt_engine::portable}}) {
    const pc::table_choice c = pc::choose_table(synthetic, cpu, "");
    EXPECT_STREQ(c.table->name, "amd_zen4_ifma") << cpu.vendor;
    EXPECT_EQ(c.match, pc::table_match::fallback) << cpu.vendor;
    EXPECT_TRUE(c.error.empty());
  }
}

TEST(CpuTable, EnvironmentOverride) {
  const pc::processor rocket{"GenuineIntel", 6, 167, ntt_engine::ifma};
  pc::table_choice c = pc::choose_table(synthetic, rocket, "amd_zen3_avx2");
  EXPECT_STREQ(c.table->name, "amd_zen3_avx2");
  EXPECT_EQ(c.match, pc::table_match::forced);
  EXPECT_TRUE(c.error.empty());
  // Unknown or partial names: the automatic choice, and an error naming the value and the tables.
  for (const char* bad : {"amd_zen9_ifma", "amd_zen4", "AMD_ZEN4_IFMA", " amd_zen4_ifma"}) {
    c = pc::choose_table(synthetic, rocket, bad);
    EXPECT_STREQ(c.table->name, "intel_f6m167_ifma") << bad;
    EXPECT_EQ(c.match, pc::table_match::exact) << bad;
    EXPECT_EQ(c.error, "BIGMUL_CPU_TABLE=" + std::string(bad) +
                           " is not a tuned CPU table (amd_zen4_ifma, amd_zen3_avx2, intel_f6m85_avx2, "
                           "intel_f6m167_ifma, intel_f6m143_ifma)");
  }
  // Empty: automatic.
  c = pc::choose_table(synthetic, rocket, "");
  EXPECT_EQ(c.match, pc::table_match::exact);
  EXPECT_TRUE(c.error.empty());
}

TEST(CpuTable, KeyForNamesTheProcessor) {
  pc::table_key k = pc::key_for({"AuthenticAMD", 25, 17, ntt_engine::ifma});
  EXPECT_EQ(k.name, "amd_zen4_ifma");
  EXPECT_EQ(k.model_first, 0u);
  EXPECT_EQ(k.model_last, 255u);
  EXPECT_EQ(pc::key_for({"AuthenticAMD", 25, 33, ntt_engine::avx2}).name, "amd_zen3_avx2");
  EXPECT_EQ(pc::key_for({"AuthenticAMD", 26, 2, ntt_engine::ifma}).name, "amd_zen5_ifma");
  EXPECT_EQ(pc::key_for({"AuthenticAMD", 23, 49, ntt_engine::avx2}).name, "amd_zen2_avx2");
  k = pc::key_for({"AuthenticAMD", 21, 2, ntt_engine::avx2});  // Excavator: no Zen name
  EXPECT_EQ(k.name, "amd_f21m2_avx2");
  EXPECT_EQ(k.model_first, 2u);
  EXPECT_EQ(k.model_last, 2u);
  k = pc::key_for({"GenuineIntel", 6, 167, ntt_engine::ifma});
  EXPECT_EQ(k.name, "intel_f6m167_ifma");
  EXPECT_EQ(k.model_first, 167u);
  EXPECT_EQ(k.model_last, 167u);
  EXPECT_EQ(pc::key_for({"HygonGenuine", 24, 1, ntt_engine::avx2}).name, "hygongenuine_f24m1_avx2");
  EXPECT_EQ(pc::key_for({"", 0, 0, ntt_engine::portable}).name, "cpu_f0m0_portable");
  // A tuned table, keyed as tune_cpu keys its processor, is that processor's exact choice.
  for (const pc::processor& cpu : {pc::processor{"AuthenticAMD", 25, 17, ntt_engine::ifma},
                                   pc::processor{"GenuineIntel", 6, 143, ntt_engine::ifma}}) {
    const pc::table_key key = pc::key_for(cpu);
    const pc::cpu_params own[] = {synthetic[2],
                                  entry(key.name.c_str(), cpu.vendor.data(), cpu.family, key.model_first,
                                        key.model_last, cpu.engine, 9)};
    const pc::table_choice c = pc::choose_table(own, cpu, nullptr);
    EXPECT_EQ(c.table, &own[1]) << key.name;
    EXPECT_EQ(c.match, pc::table_match::exact) << key.name;
  }
}

// Every mul/params/<name>.inc is listed, named after its file, keyed as
// tune_cpu would key its processor, with crossovers a dispatcher can use.
TEST(CpuTable, RegistryMatchesTheFiles) {
  const std::filesystem::path dir = std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "mul" / "params";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  std::set<std::string> files, listed;
  for (const auto& f : std::filesystem::directory_iterator(dir))
    if (f.path().extension() == ".inc" && f.path().stem() != "entries") files.insert(f.path().stem().string());
  for (const pc::cpu_params& t : pc::tables) {
    EXPECT_TRUE(listed.insert(t.name).second) << "listed twice: " << t.name;
    EXPECT_LE(t.model_first, t.model_last) << t.name;
    const pc::table_key k = pc::key_for({t.vendor, t.family, t.model_first, t.engine});
    EXPECT_EQ(k.name, t.name) << "tune_cpu would name this key otherwise";
    EXPECT_EQ(k.model_first, t.model_first) << t.name;
    EXPECT_EQ(k.model_last, t.model_last) << t.name;
    for (const pc::crossovers& x : {t.binary_radix, t.decimal_radix}) {
      EXPECT_GE(x.karatsuba, 2u) << t.name;
      EXPECT_GE(x.karatsuba_basecase, 2u) << t.name;
      EXPECT_GT(x.ntt, 0u) << t.name;
      EXPECT_GT(x.ntt_avx2, 0u) << t.name;
      EXPECT_GT(x.ntt_portable, 0u) << t.name;
    }
    EXPECT_GT(t.tiled_tile, 0u) << t.name;
    EXPECT_GT(t.sqr_karatsuba, 0u) << t.name;
    EXPECT_GT(t.gmp_crossover, 0u) << t.name;
  }
  EXPECT_EQ(files, listed) << "mul/params/entries.inc and the files in mul/params/ differ";
  EXPECT_TRUE(listed.count("amd_zen4_ifma"));
}

// CPUID's vendor, display family and model, as the kernel reports them.
TEST(CpuTable, IdentityMatchesProcCpuinfo) {
  std::ifstream in("/proc/cpuinfo");
  std::string vendor, family, model;
  for (std::string line; std::getline(in, line) && model.empty();) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon), value = line.size() > colon + 2 ? line.substr(colon + 2) : "";
    key.erase(key.find_last_not_of(" \t") + 1);
    if (key == "vendor_id") vendor = value;
    if (key == "cpu family") family = value;
    if (key == "model") model = value;
  }
  const bigmul::prim::cpu_identity id = bigmul::prim::cpu_identify();
  if (vendor.empty()) {
    GTEST_SKIP() << "no x86 /proc/cpuinfo";  // off x86-64 Linux: nothing to compare with
  }
  EXPECT_EQ(std::string(id.vendor), vendor);
  EXPECT_EQ(std::to_string(id.family), family);
  EXPECT_EQ(std::to_string(id.model), model);
  const pc::processor cpu = pc::this_processor();
  EXPECT_EQ(cpu.vendor, vendor);
  EXPECT_EQ(cpu.engine, bigmul::prim::cpu_has_avx512_ifma() ? ntt_engine::ifma
                        : bigmul::prim::cpu_has_avx2_fma()   ? ntt_engine::avx2
                                                             : ntt_engine::portable);
}

// What a constructor of this program saw (it runs before main, and before
// the library's plain initialisers: this file links first).
struct seen_at_load {
  const char* name;
  pc::table_match match;
};
seen_at_load at_load{nullptr, pc::table_match::exact};
[[gnu::constructor]] void read_table_at_load() { at_load = {pc::tuned_table_name(), pc::in_use.match}; }

// The choice made at load is choose_table's for this processor and
// environment, and the dispatcher's names read it.
TEST(CpuTable, InUseIsTheChoiceAndTheNamesReadIt) {
  const char* env = std::getenv("BIGMUL_CPU_TABLE");
  const pc::table_choice c = pc::choose_table(pc::tables, pc::this_processor(), env);
  EXPECT_STREQ(pc::in_use.table.name, c.table->name);
  EXPECT_EQ(pc::in_use.match, c.match);
  EXPECT_STREQ(pc::tuned_table_name(), c.table->name);
  const std::string d = pc::tuned_table_description();
  EXPECT_EQ(d.rfind(std::string(c.table->name) + " (" + pc::table_match_name(c.match) + ")", 0), 0u) << d;
  if (c.error.empty()) {
    EXPECT_NO_THROW(pc::check_table_environment());
  } else {
    EXPECT_NE(d.find(c.error), std::string::npos) << d;
    try {
      pc::check_table_environment();
      ADD_FAILURE() << "no error for BIGMUL_CPU_TABLE=" << env;
    } catch (const bigmul::error& e) {
      EXPECT_EQ(std::string(e.what()).find(c.error) != std::string::npos, true) << e.what();
    }
  }
  if (env && *env && c.error.empty()) {
    EXPECT_EQ(pc::in_use.match, pc::table_match::forced);
  }
  // Made before any other start-up code could multiply.
  EXPECT_STREQ(at_load.name, c.table->name);
  EXPECT_EQ(at_load.match, c.match);
  EXPECT_EQ(&pc::binary_radix, &pc::in_use.table.binary_radix);
  EXPECT_EQ(pc::binary_radix.ntt, c.table->binary_radix.ntt);
  EXPECT_EQ(pc::decimal_radix.karatsuba, c.table->decimal_radix.karatsuba);
  EXPECT_EQ(pc::sqr_toom3, c.table->sqr_toom3);
  EXPECT_EQ(pc::tiled_tile, c.table->tiled_tile);
  EXPECT_EQ(pc::radix_from_decimal_basecase, c.table->radix_from_decimal_basecase);
  EXPECT_EQ(bigmul::detail::sqr_karatsuba_min_limbs, c.table->sqr_karatsuba);
  EXPECT_EQ(pc::sqr_ntt_min, std::min({c.table->sqr_ntt, c.table->sqr_ntt_avx2, c.table->sqr_ntt_portable}));
  // The GMP bridge's switch (mul/dispatch_plan.cpp) comes from the chosen table.
  const ntt_engine e = bigmul::detail::ntt_default_engine();
  EXPECT_EQ(bigmul::gmp_crossover_limbs(), e == ntt_engine::ifma   ? c.table->gmp_crossover
                                           : e == ntt_engine::avx2 ? c.table->gmp_crossover_avx2
                                                                   : c.table->gmp_crossover_portable);
}

}  // namespace
