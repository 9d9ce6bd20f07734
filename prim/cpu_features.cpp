// SPDX-License-Identifier: LGPL-3.0-or-later
#include "prim/cpu_features.hpp"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define BIGMUL_X86_64_CPUID 1
#endif

namespace bigmul::prim {

// The vector checks go through __builtin_cpu_supports, which also asks the
// OS (xgetbv) whether it saves the wider registers. BMI2/ADX need no OS
// support and clang 14 knows no "adx" there: CPUID leaf 7 directly.

bool cpu_has_avx512_ifma() {
#if defined(BIGMUL_X86_64_CPUID)
  static const bool ok = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
  }();
  return ok;
#else
  return false;
#endif
}

bool cpu_has_avx2_fma() {
#if defined(BIGMUL_X86_64_CPUID)
  static const bool ok = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return ok;
#else
  return false;
#endif
}

bool cpu_has_bmi2_adx() {
#if defined(BIGMUL_X86_64_CPUID)
  static const bool ok = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    return ((ebx >> 8) & 1u) != 0 && ((ebx >> 19) & 1u) != 0;  // EBX bit 8 BMI2, bit 19 ADX
  }();
  return ok;
#else
  return false;
#endif
}

cpu_identity cpu_identify() {
  cpu_identity id{};
#if defined(BIGMUL_X86_64_CPUID)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return id;
  std::memcpy(id.vendor, &ebx, 4);  // the vendor string is EBX, EDX, ECX [INTEL-SDM]
  std::memcpy(id.vendor + 4, &edx, 4);
  std::memcpy(id.vendor + 8, &ecx, 4);
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return id;
  const unsigned base_family = (eax >> 8) & 0xF, base_model = (eax >> 4) & 0xF;
  id.family = base_family == 0xF ? base_family + ((eax >> 20) & 0xFF) : base_family;
  id.model = base_family == 0x6 || base_family == 0xF ? (((eax >> 16) & 0xF) << 4) + base_model : base_model;
#endif
  return id;
}

}  // namespace bigmul::prim
