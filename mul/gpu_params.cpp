// SPDX-License-Identifier: LGPL-3.0-or-later
// The GPU table in use (mul/cuda/params_gpu.hpp): chosen once per process,
// for the device the CUDA probe finds. Plain C++: CPU builds keep tables[0].
#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>

#include "mul/cuda/params_gpu.hpp"
#include "mul/mul_cuda.hpp"

namespace bigmul::detail::params_gpu {
namespace {

struct selection {
  table_choice choice{&tables[0], false};
  std::string name;    // the device's name (cudaDeviceProp::name); empty: none
  std::string device;  // the name with its compute capability, SMs, bandwidth
};

// Written once (select_for_device, inside the probe's call_once), then read.
selection chosen;
std::atomic<bool> selected{false};

const selection& current() {
  if (!selected.load(std::memory_order_acquire)) {
#if defined(BIGMUL_HAVE_CUDA)
    // The probe (once per process) selects the device's table when it finds
    // a usable device; without one tables[0] stays.
    std::string why;
    static_cast<void>(cuda_probe(why));
#endif
    if (!selected.load(std::memory_order_acquire)) {
      static const selection none{};
      return none;
    }
  }
  return chosen;
}

}  // namespace

void select_for_device(std::string_view name, int sm, int sms, double dram_gbs) {
  static std::once_flag once;
  std::call_once(once, [&] {
    chosen.choice = choose_table(name, sm, sms, dram_gbs);
    char props[96];
    std::snprintf(props, sizeof props, " (sm_%d, %d SMs, %.0f GB/s)", sm, sms, dram_gbs);
    chosen.name = std::string(name);
    chosen.device = chosen.name + props;
    selected.store(true, std::memory_order_release);
  });
}

const device_table& active() { return *current().choice.table; }

table_choice active_choice() { return current().choice; }

std::string active_device() { return current().device; }

std::string describe_active() {
  const selection& s = current();
  const device_table& t = *s.choice.table;
  const std::string file = std::string("mul/cuda/params_") + t.key + ".inc";
  if (s.device.empty()) return std::string("GPU crossovers: no usable GPU; ") + t.device + "'s table (" + file + ")";
  if (s.choice.exact) return "GPU " + s.device + ": crossovers tuned on " + t.device + " (" + file + ")";
  return "GPU " + s.device + ": no crossover table tuned on this device (params_" + device_key(s.name) +
         ".inc); the nearest, " + t.device + "'s (" + file + ")";
}

}  // namespace bigmul::detail::params_gpu
