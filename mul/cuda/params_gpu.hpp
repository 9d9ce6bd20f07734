// SPDX-License-Identifier: LGPL-3.0-or-later
// Crossovers of the GPU dispatcher, in limbs: one table per GPU they were
// tuned on (bench/tune/tune_gpu writes mul/cuda/params_<device>.inc on the GPU
// it runs on; the H100 and the H200 are both sm_90 but differ 1.4x in memory
// bandwidth). At run time the device's own table is used, else the nearest
// one (choose_table); plain C++, so CPU builds and tests read the same tables.
#pragma once

#include <cctype>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>

namespace bigmul::detail::params_gpu {

struct crossovers {
  std::size_t fft;             // bn >= this: in-house fft_real on the device (below: tiled)
  std::size_t host;            // an + bn >= this: backend automatic sends the product to the GPU
                               // (the time includes both transfers)
  std::size_t batched_fft;     // batched products of n >= this limbs: batched fft_real (below: tiled)
};

// One tuned GPU: what identifies it (cudaDeviceProp) and its crossovers.
struct device_table {
  const char* key;     // device_key(device): the file is mul/cuda/params_<key>.inc
  const char* device;  // cudaDeviceProp::name of the GPU it was tuned on
  int sm;              // compute capability, major * 10 + minor
  int sms;             // multiprocessors
  double dram_gbs;     // peak DRAM bandwidth, GB/s (memory clock x bus width x 2)
  crossovers binary_radix;
  crossovers decimal_radix;
  unsigned tiled_tile;
};

// Every tuned table; a new device's file needs its line here (ctest
// test_params_gpu fails while a params_*.inc is missing from this list).
inline constexpr device_table tables[] = {
#include "mul/cuda/params_h100.inc"
#if __has_include("mul/cuda/params_h200.inc")
#include "mul/cuda/params_h200.inc"
#endif
};
inline constexpr std::size_t table_count = sizeof tables / sizeof tables[0];

// The file-name key of a device name: the first word past the vendor and
// family words that holds a digit, with any words before it, lower-case and
// alphanumeric ("NVIDIA H100 80GB HBM3" -> "h100", "NVIDIA H200" -> "h200",
// "NVIDIA GH200 480GB" -> "gh200", "NVIDIA GeForce RTX 4090" -> "rtx4090").
// "gpu" when nothing is left.
inline std::string device_key(std::string_view name) {
  std::string key, word;
  std::size_t i = 0;
  while (i < name.size()) {
    while (i < name.size() && name[i] == ' ') ++i;
    word.clear();
    bool digit = false;
    for (; i < name.size() && name[i] != ' '; ++i) {
      const unsigned char c = static_cast<unsigned char>(name[i]);
      if (std::isalnum(c)) word += static_cast<char>(std::tolower(c));
      digit = digit || std::isdigit(c);
    }
    if (word.empty() || word == "nvidia" || word == "tesla" || word == "geforce" || word == "quadro") continue;
    key += word;
    if (digit) break;
  }
  return key.empty() ? "gpu" : key;
}

// What the dispatcher uses on a device: its own table (exact) or the nearest.
struct table_choice {
  const device_table* table;
  bool exact;
};

// The device's own table (same key), else the nearest: the closest compute
// capability first, then the closest DRAM bandwidth and multiprocessor count
// (ratios, so 2x faster and 2x slower are equally far); ties go to the first.
// (from[0 .. count), count >= 1: the tests pass their own lists.)
inline table_choice choose_table(std::string_view name, int sm, int sms, double dram_gbs, const device_table* from,
                                 std::size_t count) {
  const std::string key = device_key(name);
  for (std::size_t i = 0; i < count; ++i)
    if (key == from[i].key) return {&from[i], true};
  const auto ratio = [](double a, double b) { return a > 0 && b > 0 ? std::fabs(std::log(a / b)) : 1.0; };
  const device_table* best = &from[0];
  int best_sm = 1 << 30;
  double best_dist = 1e300;
  for (std::size_t i = 0; i < count; ++i) {
    const device_table& t = from[i];
    const int d_sm = sm > t.sm ? sm - t.sm : t.sm - sm;
    const double dist = ratio(dram_gbs, t.dram_gbs) + ratio(sms, t.sms);
    if (d_sm < best_sm || (d_sm == best_sm && dist < best_dist)) {
      best = &t;
      best_sm = d_sm;
      best_dist = dist;
    }
  }
  return {best, false};
}
inline table_choice choose_table(std::string_view name, int sm, int sms, double dram_gbs) {
  return choose_table(name, sm, sms, dram_gbs, tables, table_count);
}

// The smallest host crossover of any table: below it no table sends a product
// to the GPU, so backend automatic need not ask which device is there.
inline constexpr std::size_t least_host_crossover(bool decimal) {
  std::size_t m = ~std::size_t{0};
  for (const device_table& t : tables) {
    const std::size_t h = decimal ? t.decimal_radix.host : t.binary_radix.host;
    if (h < m) m = h;
  }
  return m;
}

// The table in use (mul/gpu_plan_rule.cpp): chosen once, for the device the
// CUDA probe found (CUDA builds ask the probe on first use); tables[0] when
// there is none (CPU builds, no usable GPU).
const device_table& active();
// Whether active() is the device's own table, and which device it is for
// (empty: none).
table_choice active_choice();
std::string active_device();
// Called by the probe (mul/cuda/mul_host.cu) for the usable device it found.
void select_for_device(std::string_view name, int sm, int sms, double dram_gbs);
// One line for bigmul -v: the device and the table in use, and whether it
// was tuned on this device or is the nearest one.
std::string describe_active();

}  // namespace bigmul::detail::params_gpu
