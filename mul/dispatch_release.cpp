// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::release_scratch: the NTT's and the GPU's caches, then every cache
// the layers above registered (mul/release_hooks.hpp).
#include <algorithm>
#include <mutex>
#include <vector>

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"
#include "mul/mul_cuda.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/release_hooks.hpp"

namespace bigmul {
namespace {
std::mutex release_hooks_mutex;
std::vector<void (*)()>& release_hooks() {
  static std::vector<void (*)()> hooks;
  return hooks;
}
}  // namespace

void detail::add_release_hook(void (*hook)()) {
  std::lock_guard<std::mutex> lock(release_hooks_mutex);
  auto& hooks = release_hooks();
  if (std::find(hooks.begin(), hooks.end(), hook) == hooks.end()) hooks.push_back(hook);
}

void release_scratch() {
  detail::ntt_release_scratch();
#if defined(BIGMUL_HAVE_CUDA)
  detail::cuda_release_plans();  // the GPU FFT plans and their twiddle tables
#endif
  std::vector<void (*)()> hooks;
  {
    std::lock_guard<std::mutex> lock(release_hooks_mutex);
    hooks = release_hooks();
  }
  for (auto hook : hooks) hook();  // the layers above: src/arith's conversion caches
}

}  // namespace bigmul
