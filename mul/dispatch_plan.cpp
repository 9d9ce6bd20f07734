// SPDX-License-Identifier: LGPL-3.0-or-later
// What a product will need before it runs: the heap and table bytes of the
// algorithm bigmul::mul would choose, its preparation (NTT tables), and
// where bigmul beats GMP on this processor's engine.
#include <utility>

#include "bigmul/mul.hpp"
#include "mul/dispatch_choice.hpp"
#include "mul/dispatch_cuda.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_prepare.hpp"
#include "mul/params_cpu.hpp"

namespace bigmul {
namespace {
algorithm planned(std::size_t an, std::size_t bn, radix rx, const mul_options& options) {
  return options.algo == algorithm::automatic ? detail::choose_algorithm(an, bn, rx) : options.algo;
}
}  // namespace

std::size_t mul_heap_bytes(std::size_t an, std::size_t bn, radix rx, const mul_options& options) {
  if (an < bn) std::swap(an, bn);
  if (bn == 0) return 0;
  return planned(an, bn, rx, options) == algorithm::ntt
             ? detail::ntt_heap_bytes(detail::ntt_engine::best, an, bn, rx, options.threads)
             : 0;
}

std::size_t mul_table_bytes(std::size_t an, std::size_t bn, radix rx, const mul_options& options) {
  if (an < bn) std::swap(an, bn);
  if (bn == 0) return 0;
  return planned(an, bn, rx, options) == algorithm::ntt ? detail::ntt_table_bytes(detail::ntt_engine::best, an, bn, rx)
                                                        : 0;
}

void prepare_mul(std::size_t an, std::size_t bn, radix rx, const mul_options& options) {
  if (an < bn) std::swap(an, bn);
  // Not for a product the GPU will compute (its buffers are the device's).
  if (bn == 0 || options.where == backend::cuda || detail::use_cuda(options, an, bn, 1, rx, false)) return;
  if (planned(an, bn, rx, options) == algorithm::ntt)
    detail::ntt_prepare(detail::ntt_engine::best, an, bn, rx, options.threads);
}

std::size_t gmp_crossover_limbs() { return detail::params_cpu::gmp_crossover_for(detail::ntt_default_engine()); }

}  // namespace bigmul
