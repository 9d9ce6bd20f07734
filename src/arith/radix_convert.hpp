// SPDX-License-Identifier: LGPL-3.0-or-later
// The radix converter with an explicit schoolbook threshold, for the tuner
// (bench/tune/tune_cpu) and the tests that straddle it (internal). The public
// binary_to_decimal / decimal_to_binary use the tuned thresholds of
// mul/params_cpu.inc.
#pragma once

#include <cstddef>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// Decimal limbs binary_to_decimal works on for a[0..n) (a bound: the result
// may have fewer after trimming). Its recursion splits this count.
std::size_t decimal_limbs_bound(const limb_t* a, std::size_t n);

// Schoolbook when the decimal length (binary_to_decimal: decimal_limbs_bound;
// decimal_to_binary: the input's limbs) is <= basecase_limbs, else one split
// in two and recursion.
std::vector<limb_t> binary_to_decimal(const limb_t* a, std::size_t n, std::size_t basecase_limbs);
std::vector<limb_t> decimal_to_binary(const limb_t* a, std::size_t n, std::size_t basecase_limbs);

// Builds the table of powers (decimal_powers.hpp) that converting an
// operand of about n limbs from radix `from` will read, for a caller with a
// thread to spare before the operand exists (the command line, while it
// parses): the conversion then finds it cached. For binary -> decimal n is
// the operand's binary limbs, for decimal -> binary its decimal limbs; the
// tuned thresholds of the public converters apply.
void prepare_conversion(std::size_t n, radix from);

}  // namespace bigmul::detail
