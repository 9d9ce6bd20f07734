// SPDX-License-Identifier: LGPL-3.0-or-later
// Whether a product of bigmul::mul or bigmul::mul_batched goes to the GPU
// (internal).
#pragma once

#include <cstddef>

#include "bigmul/mul.hpp"

namespace bigmul::detail {

// Always for backend cuda (after its checks: an algorithm with a CUDA
// version, a usable GPU, else throws); for automatic when a GPU is usable,
// the product is past the measured crossover and the GPU can plan every pass
// it may need (else the CPU computes it: automatic never fails for a size
// the GPU cannot plan). G products of an x bn limbs (batched: from
// mul_batched, even when G = 1).
bool use_cuda(const mul_options& o, std::size_t an, std::size_t bn, std::size_t G, radix rx, bool batched);

}  // namespace bigmul::detail
