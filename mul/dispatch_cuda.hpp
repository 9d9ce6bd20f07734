// SPDX-License-Identifier: LGPL-3.0-or-later
// Whether a product of bigmul::mul or bigmul::mul_batched goes to the GPU
// (internal).
#pragma once

#include <cstddef>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"

namespace bigmul::detail {

// Always for backend cuda (after its checks: an algorithm with a CUDA
// version, a usable GPU, else throws); for automatic when a GPU is usable,
// the product is past the measured crossover and the GPU can plan every pass
// it may need (else the CPU computes it: automatic never fails for a size
// the GPU cannot plan). G products of an x bn limbs (batched: from
// mul_batched, even when G = 1).
bool use_cuda(const mul_options& o, std::size_t an, std::size_t bn, std::size_t G, radix rx, bool batched);

// gpu() (a product use_cuda sent to the GPU); false when the CPU is to
// compute it after all: automatic, and the GPU lacked the memory (st
// cleared). Backend cuda reports every failure.
template <class Gpu>
bool run_on_gpu(const mul_options& o, mul_stats& st, Gpu&& gpu) {
  try {
    gpu();
    return true;
  } catch (const error& e) {
    if (o.where == backend::cuda || e.code() != error::kind::resource) throw;
    st = mul_stats{};
    return false;
  }
}

}  // namespace bigmul::detail
