// SPDX-License-Identifier: LGPL-3.0-or-later
// cuFFT, loaded on first use (dlopen) instead of at process start-up.
// Why: most runs of a CUDA build never use the cuFFT engine, yet a linked
// libcufft (~280 MB of mappings) cost every `bigmul 3 4` several milliseconds
// to load, and under `ulimit -v` the loader could not map it at all, so the
// program died with exit 127 before main(). Now only the cuFFT adapter
// (fft/cuda/cufft_plans.cu) opens it, once, and a failure is an error that
// names the library and dlerror()'s reason.
//
// Which file: $BIGMUL_CUFFT_LIBRARY alone when set (a name or a path); else
// the SONAME of the toolkit's libcufft found at configure time (the normal
// search: LD_LIBRARY_PATH, ld.so.cache, ...), then that toolkit's library
// directory + SONAME, /usr/local/cuda/lib64 + SONAME and /usr/local/cuda/lib +
// SONAME, each only if that file exists on this machine, then the plain names
// libcufft.so.12, libcufft.so.11, libcufft.so. The functions used have kept
// their C signatures across these majors.
//
// cufft.h is still included, for the types and enums only.
#pragma once

#include <cufft.h>

#include <string>
#include <vector>

namespace bigmul::fft::cuda {

// The cuFFT functions the adapter calls; decltype keeps the pointers' types
// equal to cufft.h's declarations.
struct cufft_api {
  decltype(&::cufftCreate) create = nullptr;
  decltype(&::cufftDestroy) destroy = nullptr;
  decltype(&::cufftSetAutoAllocation) set_auto_allocation = nullptr;
  decltype(&::cufftMakePlanMany64) make_plan_many64 = nullptr;
  decltype(&::cufftSetStream) set_stream = nullptr;
  decltype(&::cufftSetWorkArea) set_work_area = nullptr;
  decltype(&::cufftExecC2C) exec_c2c = nullptr;
  decltype(&::cufftExecZ2Z) exec_z2z = nullptr;
  decltype(&::cufftExecR2C) exec_r2c = nullptr;
  decltype(&::cufftExecD2Z) exec_d2z = nullptr;
  decltype(&::cufftExecC2R) exec_c2r = nullptr;
  decltype(&::cufftExecZ2D) exec_z2d = nullptr;
  void* handle = nullptr;  // dlopen's handle; never closed (plans may live until exit)
  std::string loaded;      // the candidate that loaded
};

// The names to try, in order (see above); reads BIGMUL_CUFFT_LIBRARY.
std::vector<std::string> cufft_candidates();

// Opens the first candidate that loads and has every function of cufft_api.
// Returns "" and fills api; otherwise leaves api as it was and returns why,
// naming each candidate with dlerror()'s text. No caching, nothing thrown:
// cufft_library() is the process's once-resolved table; this is its worker,
// testable on its own.
std::string cufft_resolve(const std::vector<std::string>& candidates, cufft_api& api);

// The process's table, resolved once (std::call_once; safe from any thread).
// nullptr when cuFFT cannot be loaded; then *why (if given) says why.
const cufft_api* cufft_library(std::string* why = nullptr);

// Same, for callers that throw: bigmul::error of kind::resource when cuFFT
// cannot be loaded. Resource, like "no usable CUDA device": the machine lacks
// something this product needs, not a bug (internal) and not a bad operand or
// option (domain, invalid_argument); and backend::automatic falls back to the
// CPU on resource errors, which is right when a GPU machine lacks cuFFT.
const cufft_api& require_cufft();

}  // namespace bigmul::fft::cuda
