// SPDX-License-Identifier: LGPL-3.0-or-later
// Run-time instruction-set checks for the vector engines (fft/ntt_ifma,
// fft/ntt_avx2, mul/batched_ifma, mul/basecase_adx, src/arith/montgomery_ifma):
// read once, then a load. Each engine's code sits only in functions marked
// for its target (prim/ifma_target.hpp for AVX-512 IFMA), so nothing built for
// a newer processor runs unless its check passed.
#pragma once

namespace bigmul::prim {

bool cpu_has_avx512_ifma();  // AVX-512 F + IFMA (vpmadd52luq/huq), with the OS saving zmm state
bool cpu_has_avx2_fma();     // AVX2 + FMA3, with the OS saving ymm state
bool cpu_has_bmi2_adx();     // MULX (BMI2) + ADCX/ADOX (ADX)

// Who made the processor and which one it is, from CPUID leaves 0 and 1
// (display family and model as the vendors' manuals combine the base and
// extended fields [INTEL-SDM]); the key of the tuned CPU tables
// (mul/params_cpu.hpp). vendor is "" off x86-64.
struct cpu_identity {
  char vendor[13];  // "GenuineIntel", "AuthenticAMD", ... (NUL-terminated)
  unsigned family;
  unsigned model;
};
cpu_identity cpu_identify();

}  // namespace bigmul::prim
