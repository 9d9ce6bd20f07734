// SPDX-License-Identifier: LGPL-3.0-or-later
// The CPU side of bigmul::mul after its checks: the algorithm asked for or
// chosen, run; and the modular check of a finished product (internal).
#pragma once

#include <cstddef>

#include "bigmul/mul.hpp"

namespace bigmul::detail {

// r = a * b (an >= bn >= 1, arguments checked) with options.algo, or the
// automatic choice (a binary square's own); records the algorithm in st.used
// and the phases the algorithm times.
void mul_on_cpu(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                const mul_options& options, mul_stats& st);

// Whether r (an + bn limbs) = a * b modulo 2^61 - 1 (mul/modcheck.hpp).
bool product_agrees_mod_p(const limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                          unsigned threads);

}  // namespace bigmul::detail
