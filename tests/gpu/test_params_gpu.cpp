// SPDX-License-Identifier: LGPL-3.0-or-later
// The per-device GPU crossover tables (mul/cuda/params_gpu.hpp), on the CPU:
// file names by device, the choice of a table (own, else nearest), the table
// in use and what bigmul -v says of it, and the bound the GPU check's
// backend-auto step relies on (10^7 digits must go to the GPU on every table).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "bigmul/mul.hpp"
#include "mul/cuda/params_gpu.hpp"
#include "mul/gpu_plan_rule.hpp"

namespace pg = bigmul::detail::params_gpu;

namespace {

TEST(ParamsGpu, DeviceKeysNameTheChipNotTheVariant) {
  EXPECT_EQ(pg::device_key("NVIDIA H100 80GB HBM3"), "h100");
  EXPECT_EQ(pg::device_key("NVIDIA H100 PCIe"), "h100");
  EXPECT_EQ(pg::device_key("NVIDIA H200"), "h200");
  EXPECT_EQ(pg::device_key("NVIDIA GH200 480GB"), "gh200");
  EXPECT_EQ(pg::device_key("NVIDIA B200"), "b200");
  EXPECT_EQ(pg::device_key("Tesla V100-SXM2-16GB"), "v100sxm216gb");
  EXPECT_EQ(pg::device_key("NVIDIA GeForce RTX 4090"), "rtx4090");
  EXPECT_EQ(pg::device_key("  NVIDIA  H200  "), "h200");
  EXPECT_EQ(pg::device_key("NVIDIA"), "gpu");
  EXPECT_EQ(pg::device_key(""), "gpu");
}

// Each table is named by the device it was tuned on, once.
TEST(ParamsGpu, EveryTableIsNamedByItsDevice) {
  ASSERT_GE(pg::table_count, 1u);
  std::set<std::string> keys;
  for (const pg::device_table& t : pg::tables) {
    EXPECT_EQ(pg::device_key(t.device), t.key) << t.device;
    EXPECT_TRUE(keys.insert(t.key).second) << "two tables for " << t.key;
    EXPECT_GE(t.sm, 90) << t.key;  // the build's code is sm_90
    EXPECT_GT(t.sms, 0) << t.key;
    EXPECT_GT(t.dram_gbs, 0) << t.key;
    EXPECT_GT(t.tiled_tile, 0u) << t.key;
    for (const pg::crossovers& x : {t.binary_radix, t.decimal_radix}) {
      EXPECT_GT(x.fft, 0u) << t.key;
      EXPECT_GT(x.host, 0u) << t.key;
      EXPECT_GT(x.batched_fft, 0u) << t.key;
    }
  }
}

// Every params_<key>.inc under mul/cuda is in params_gpu.hpp's list (a file
// tune_gpu wrote and someone committed, but nobody listed, would be ignored).
TEST(ParamsGpu, EveryTableFileIsListed) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(BIGMUL_SOURCE_DIR) / "mul" / "cuda";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::set<std::string> files, listed;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (f.rfind("params_", 0) == 0 && e.path().extension() == ".inc") files.insert(f.substr(7, f.size() - 11));
  }
  for (const pg::device_table& t : pg::tables) listed.insert(t.key);
  EXPECT_EQ(files, listed);
  EXPECT_EQ(files.count("h100"), 1u);  // the H100's run, 2026-11-24
}

// Own table by name; otherwise the closest compute capability, then the
// closest bandwidth and SM count.
TEST(ParamsGpu, ChoosesItsOwnTableElseTheNearest) {
  const pg::device_table list[] = {
      {"a100", "NVIDIA A100-SXM4-80GB", 80, 108, 2039, {1, 2, 3}, {1, 2, 3}, 64},
      {"h100", "NVIDIA H100 80GB HBM3", 90, 132, 3352, {1, 2, 3}, {1, 2, 3}, 128},
      {"h200", "NVIDIA H200", 90, 132, 4800, {1, 2, 3}, {1, 2, 3}, 128},
      {"b200", "NVIDIA B200", 100, 148, 8000, {1, 2, 3}, {1, 2, 3}, 256},
  };
  const auto pick = [&](const char* name, int sm, int sms, double gbs) {
    return pg::choose_table(name, sm, sms, gbs, list, 4);
  };
  auto c = pick("NVIDIA H100 PCIe", 90, 114, 2000);  // same chip, other variant: the H100's own
  EXPECT_TRUE(c.exact);
  EXPECT_STREQ(c.table->key, "h100");
  c = pick("NVIDIA H200", 90, 132, 4800);
  EXPECT_TRUE(c.exact);
  EXPECT_STREQ(c.table->key, "h200");
  c = pick("NVIDIA GH200 480GB", 90, 132, 4000);  // between: 4000/3352 = 1.19 < 4800/4000 = 1.2
  EXPECT_FALSE(c.exact);
  EXPECT_STREQ(c.table->key, "h100");
  c = pick("NVIDIA GH200 144GB HBM3e", 90, 132, 4900);
  EXPECT_FALSE(c.exact);
  EXPECT_STREQ(c.table->key, "h200");
  c = pick("NVIDIA H20", 90, 78, 4000);  // fewer SMs count too: 4000/3352 with 132/78 against 4800/4000 with 132/78
  EXPECT_STREQ(c.table->key, "h100");
  c = pick("NVIDIA B300", 103, 148, 8000);
  EXPECT_FALSE(c.exact);
  EXPECT_STREQ(c.table->key, "b200");
  c = pick("NVIDIA L40S", 89, 142, 864);  // sm_89: the sm_90 tables are closer than the A100's
  EXPECT_EQ(c.table->sm, 90);
  EXPECT_STREQ(c.table->key, "h100");
  c = pick("NVIDIA A800", 80, 108, 2039);
  EXPECT_STREQ(c.table->key, "a100");
  // Only one table: it, not exact, whatever the device.
  c = pg::choose_table("NVIDIA B200", 100, 148, 8000, list + 1, 1);
  EXPECT_FALSE(c.exact);
  EXPECT_STREQ(c.table->key, "h100");
}

// The GPU check's backend-auto step multiplies two 10^7-digit numbers and must
// run on the GPU: 2 * ceil(10^7 / 19) decimal limbs at or past every table's
// host crossover (the tuner may write up to 2^21), and plannable.
TEST(ParamsGpu, TenMillionDigitsGoToTheGpuOnEveryTable) {
  const std::size_t n = (10000000 + 18) / 19;
  for (const pg::device_table& t : pg::tables) EXPECT_LE(t.decimal_radix.host, 2 * n) << t.key;
  EXPECT_LE(pg::least_host_crossover(true), 2 * n);
  bigmul::mul_options o;
  EXPECT_TRUE(bigmul::detail::automatic_prefers_gpu(o, n, n, 1, bigmul::radix::decimal, false));
}

// The smallest host crossover bounds every table's from below.
TEST(ParamsGpu, LeastHostCrossoverIsTheSmallest) {
  for (const pg::device_table& t : pg::tables) {
    EXPECT_LE(pg::least_host_crossover(false), t.binary_radix.host);
    EXPECT_LE(pg::least_host_crossover(true), t.decimal_radix.host);
  }
  bool hit_b = false, hit_d = false;
  for (const pg::device_table& t : pg::tables) {
    hit_b = hit_b || t.binary_radix.host == pg::least_host_crossover(false);
    hit_d = hit_d || t.decimal_radix.host == pg::least_host_crossover(true);
  }
  EXPECT_TRUE(hit_b && hit_d);
}

// The table in use: without a device the first; after the probe names a
// device, that device's choice, and the dispatcher's crossovers follow it.
// (Each test runs in its own process under ctest, so the selection here is
// this process's only one; on a GPU machine the probe has chosen already.)
TEST(ParamsGpu, ActiveTableFollowsTheDevice) {
  if (pg::active_device().empty()) {
    EXPECT_EQ(&pg::active(), &pg::tables[0]);
    EXPECT_NE(pg::describe_active().find("no usable GPU"), std::string::npos) << pg::describe_active();
    pg::select_for_device("NVIDIA H200", 90, 132, 4800);
  }
  const std::string device = pg::active_device();
  ASSERT_FALSE(device.empty());
  const pg::device_table& t = pg::active();
  const pg::table_choice c = pg::active_choice();
  EXPECT_EQ(c.table, &t);
  const std::string said = pg::describe_active();
  EXPECT_NE(said.find(device), std::string::npos) << said;
  EXPECT_NE(said.find(std::string("params_") + t.key + ".inc"), std::string::npos) << said;
  if (c.exact) {
    EXPECT_NE(said.find("tuned on"), std::string::npos) << said;
  } else {
    EXPECT_NE(said.find("no crossover table tuned on this device"), std::string::npos) << said;
    EXPECT_NE(said.find("the nearest"), std::string::npos) << said;
  }
  EXPECT_EQ(bigmul::detail::gpu_host_crossover(bigmul::radix::binary), t.binary_radix.host);
  EXPECT_EQ(bigmul::detail::gpu_host_crossover(bigmul::radix::decimal), t.decimal_radix.host);
  const auto& x = t.decimal_radix;
  using bigmul::algorithm;
  EXPECT_EQ(bigmul::detail::gpu_algorithm_for(algorithm::automatic, x.fft, x.fft - 1, bigmul::radix::decimal, false),
            algorithm::tiled);
  EXPECT_EQ(bigmul::detail::gpu_algorithm_for(algorithm::automatic, x.fft, x.fft, bigmul::radix::decimal, false),
            algorithm::fft_real);
  // A second device is not chosen: one table per process.
  pg::select_for_device("NVIDIA A100-SXM4-80GB", 80, 108, 2039);
  EXPECT_EQ(pg::active_device(), device);
}


// The product's two-pass rule (mul/gpu_plan_rule.hpp): off, the default limits
// at every size; on, the two-pass limits exactly where they plan fewer passes,
// and the pass count per size is 1 up to one tile, 2 up to 2^23 points, 3 beyond.
TEST(GpuPlanRule, TwoPassLimitsExactlyWhereAPassDrops) {
  namespace plan = bigmul::fft::cuda::plan;
  using bigmul::detail::gpu_fft_limits;
  for (const bool single : {false, true}) {
    const plan::limits def = single ? plan::default_limits<float>() : plan::default_limits<double>();
    const unsigned one_tile = single ? 13 : 12;
    for (const std::size_t G : {std::size_t{1}, std::size_t{3}}) {
      for (unsigned k = 1; k <= plan::max_log_n; ++k) {
        const std::size_t points = std::size_t{1} << k;
        const plan::limits off = gpu_fft_limits(single, points, G, false), on = gpu_fft_limits(single, points, G, true);
        EXPECT_EQ(off.log_two_pass_cols, 0u) << k;
        EXPECT_EQ(off.log_tile, def.log_tile);
        EXPECT_EQ(off.log_pref_cols, def.log_pref_cols);
        const unsigned before = plan::make_plan(points, G, off).npasses, after = plan::make_plan(points, G, on).npasses;
        const unsigned expect = k <= one_tile ? 1 : k <= 23 ? 2 : 3;
        EXPECT_EQ(after, expect) << "2^" << k << (single ? " FP32" : " FP64") << " G " << G;
        const bool drops = single ? k == 23 : (k == 22 || k == 23);
        EXPECT_EQ(before, drops ? 3u : expect) << "2^" << k;
        EXPECT_EQ(on.log_two_pass_cols != 0, drops) << "2^" << k << (single ? " FP32" : " FP64");
        EXPECT_EQ(on.log_tile, def.log_tile);
      }
    }
  }
}

TEST(GpuPlanRule, TwoPassSwitch) {
  using bigmul::detail::gpu_fft_two_pass;
  using bigmul::detail::set_gpu_fft_two_pass;
  const bool env = gpu_fft_two_pass();
  set_gpu_fft_two_pass(1);
  EXPECT_TRUE(gpu_fft_two_pass());
  set_gpu_fft_two_pass(0);
  EXPECT_FALSE(gpu_fft_two_pass());
  set_gpu_fft_two_pass(-1);
  EXPECT_EQ(gpu_fft_two_pass(), env);
}

}  // namespace
