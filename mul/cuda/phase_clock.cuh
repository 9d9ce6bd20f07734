// SPDX-License-Identifier: LGPL-3.0-or-later
// Phase timing of the GPU pipelines with CUDA events, recorded only when a
// caller asked for statistics (events cost a little); destroyed on every path.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace bigmul::detail::cuda {

class phase_clock {
 public:
  phase_clock(bool on, cudaStream_t s) : on_(on), s_(s) {}
  ~phase_clock() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  void mark() {
    if (!on_) return;
    cudaEvent_t e;
    if (cudaEventCreate(&e) != cudaSuccess) return;
    cudaEventRecord(e, s_);
    events_.push_back(e);
  }
  // Seconds between mark i and i+1 (after the stream is synchronized).
  double seconds(std::size_t i) const {
    if (!on_ || i + 1 >= events_.size()) return 0;
    float ms = 0;
    cudaEventElapsedTime(&ms, events_[i], events_[i + 1]);
    return ms / 1000.0;
  }

 private:
  bool on_;
  cudaStream_t s_;
  std::vector<cudaEvent_t> events_;
};

}  // namespace bigmul::detail::cuda
