// SPDX-License-Identifier: LGPL-3.0-or-later
// The device API's failure record (see device_status.cuh).
#include "mul/cuda/device_status.cuh"

#include <cuda_runtime.h>

namespace bigmul::cuda::status {
namespace {

thread_local std::string last_message;

}  // namespace

cudaError_t fail(cudaError_t e, const std::string& what) {
  cudaGetLastError();
  last_message = what + (e == cudaSuccess ? "" : std::string(" (") + cudaGetErrorString(e) + ")");
  return e == cudaSuccess ? cudaErrorUnknown : e;
}

void clear() { last_message.clear(); }

const char* message() { return last_message.c_str(); }

}  // namespace bigmul::cuda::status
