// SPDX-License-Identifier: LGPL-3.0-or-later
// Random N-digit decimal operands for --random, built directly as decimal
// limbs (no string, no conversion).
#pragma once

#include <cstdint>

#include "bigmul/integer.hpp"

namespace bigmul::cli {

// A uniformly random positive integer with exactly `digits` decimal digits, in
// decimal radix. Limb i depends only on (seed, stream, i), so the value is the
// same for every thread count.
integer random_decimal(std::uint64_t digits, std::uint64_t seed, std::uint64_t stream, unsigned threads);

// A seed from the clock and the process id, for runs without --seed.
std::uint64_t seed_from_clock();

}  // namespace bigmul::cli
