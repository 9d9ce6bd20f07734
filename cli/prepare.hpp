// SPDX-License-Identifier: LGPL-3.0-or-later
// Getting the product ready while the operands are parsed or generated.
//
// Why: the first product of a process touches tens of MB of fresh memory for
// its transforms, and on a VM that hands freed memory back to its host a
// first touch can double a one-shot run's multiply against a warm one. The sizes
// are known once the text is read, so bigmul::prepare_mul runs on this
// thread (the one that multiplies: the scratch is per thread) while a second
// thread parses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "bigmul/mul.hpp"

namespace bigmul::cli {

// The limbs a literal (sign, 0x prefix and digits, as bigmul reads it) takes
// in radix `want` once parsed and, if its own radix differs, converted:
// exact for digits in that radix without leading zeros, at most one limb
// over otherwise (and less for leading zeros, which are rare).
std::size_t estimated_limbs(std::string_view literal, radix want);
// The same for `digits` decimal digits (--random).
std::size_t estimated_limbs_of_decimal(std::uint64_t digits, radix want);

// Whether preparing an an x bn product early pays: a second thread may run
// (threads > 1), the operands are large enough for the transform to matter,
// and the product fits in memory (a product that does not is refused by the
// exact check later, before any work, and must not be touched now).
bool worth_preparing(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held);

// Runs work() on a second thread while this thread runs
// bigmul::prepare_mul(an, bn, rx, mo) and then then() (when given); returns
// when both threads are done, with the seconds this thread took in
// *prepare_seconds. An exception from work() or then() is rethrown here.
// Preparing's own failures (out of memory) are dropped: it only moves work
// earlier, and the product meets and reports the same failure. Without a
// second thread (it cannot be created), work() runs alone, then then().
void run_while_preparing(std::size_t an, std::size_t bn, radix rx, const mul_options& mo,
                         const std::function<void()>& work, double* prepare_seconds,
                         const std::function<void()>& then = {});

}  // namespace bigmul::cli
