// SPDX-License-Identifier: LGPL-3.0-or-later
#include "carry/carry.hpp"

#include "carry/carry_sequential.hpp"
#include "carry/carry_two_phase.hpp"

namespace bigmul::carry {

#define BIGMUL_CARRY_INSTANTIATE(T)                                                                    \
  template bool carry_normalize_sequential<T>(const T*, std::size_t, digit_base, std::uint32_t*,      \
                                              std::size_t);                                           \
  template bool carry_normalize_two_phase<T>(const T*, std::size_t, digit_base, std::uint32_t*,       \
                                             std::size_t, unsigned, std::uint64_t);
BIGMUL_CARRY_INSTANTIATE(std::int64_t)
BIGMUL_CARRY_INSTANTIATE(unsigned __int128)
#undef BIGMUL_CARRY_INSTANTIATE

}  // namespace bigmul::carry
