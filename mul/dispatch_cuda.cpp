// SPDX-License-Identifier: LGPL-3.0-or-later
// The CUDA routing of the entry points: whether a GPU is usable, whether a
// product goes to it (mul/dispatch_cuda.hpp).
#include "mul/dispatch_cuda.hpp"

#include <string>

#include "bigmul/error.hpp"
#include "mul/algorithm_table.hpp"
#include "mul/gpu_plan_rule.hpp"
#include "mul/mul_cuda.hpp"

namespace bigmul {

bool cuda_usable(std::string* why) {
#if defined(BIGMUL_HAVE_CUDA)
  std::string w;
  const bool ok = detail::cuda_probe(w);
  if (why) *why = w;
  return ok;
#else
  if (why) *why = "this build of bigmul has no CUDA backend (it was configured without nvcc or with BIGMUL_CUDA=OFF)";
  return false;
#endif
}

bool detail::use_cuda(const mul_options& o, std::size_t an, std::size_t bn, std::size_t G, radix rx, bool batched) {
  if (o.where == backend::cuda) {
    if (!has_cuda_version(o.algo))
      throw error(error::kind::invalid_argument,
                  std::string("bigmul::mul: algorithm ") + algorithm_name(o.algo) + " has no CUDA version");
    std::string why;
    if (!cuda_usable(&why)) throw error(error::kind::resource, "bigmul::mul: backend cuda: " + why);
    return true;
  }
#if defined(BIGMUL_HAVE_CUDA)
  if (o.where == backend::automatic && automatic_prefers_gpu(o, an, bn, G, rx, batched)) return cuda_usable();
#else
  (void)an;
  (void)bn;
  (void)G;
  (void)rx;
  (void)batched;
#endif
  return false;
}

}  // namespace bigmul
