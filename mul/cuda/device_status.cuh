// SPDX-License-Identifier: LGPL-3.0-or-later
// The device API's failure record (internal to mul/): every failure of
// bigmul::cuda::mul / mul_batched leaves its text here for the calling thread's
// last_error_message(); shared by the dispatcher (mul_device.cu) and the tiled
// pipeline (tiled_pass.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace bigmul::cuda::status {

// Records `what` (with e's text) and returns e, or cudaErrorUnknown for
// cudaSuccess. Clears a non-sticky launch error (the kernels report with
// cudaPeekAtLastError) so the next call in this thread starts clean.
cudaError_t fail(cudaError_t e, const std::string& what);
// Empties the record (a call that succeeded).
void clear();
// The calling thread's record.
const char* message();

}  // namespace bigmul::cuda::status

// Returns from the enclosing function, recording the failed expression.
#define BIGMUL_TRY(expr)                                                 \
  do {                                                                   \
    const cudaError_t e_ = (expr);                                       \
    if (e_ != cudaSuccess) return status::fail(e_, std::string("bigmul::cuda: ") + #expr); \
  } while (0)
