// Crossovers of the GPU dispatcher (sm_90: H100 / H200), in limbs. The table
// is written by bench/tune/tune_gpu on a GPU (mul/cuda/params_sm90.inc).
#pragma once

#include <cstddef>

namespace bigmul::detail::params_gpu {

struct crossovers {
  std::size_t fft;             // bn >= this: in-house fft_real on the device (below: tiled)
  std::size_t host;            // an + bn >= this: backend automatic sends the product to the GPU
                               // (the time includes both transfers)
  std::size_t batched_fft;     // batched products of n >= this limbs: batched fft_real (below: tiled)
};

#include "mul/cuda/params_sm90.inc"

}  // namespace bigmul::detail::params_gpu
