// SPDX-License-Identifier: LGPL-3.0-or-later
// cuFFT adapter: cached plans and thin execution wrappers (see cufft_plans.cuh).
#include "fft/cuda/cufft_plans.cuh"

#include "fft/cuda/cufft_library.hpp"
#include "fft/cuda/plan_cache.hpp"

#include <cufft.h>  // types and enums; the functions come from cufft_library()

#include <string>
#include <tuple>

namespace bigmul::fft::cuda {
namespace {

thread_local std::string last_error_text;

const char* result_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cufftResult (other)";
  }
}

cudaError_t fail(const char* what, cufftResult r, std::size_t n, std::size_t batch) {
  last_error_text = std::string("cuFFT ") + what + " (n = " + std::to_string(n) + ", batch = " +
                    std::to_string(batch) + "): " + result_name(r);
  switch (r) {
    case CUFFT_ALLOC_FAILED: return cudaErrorMemoryAllocation;
    case CUFFT_INVALID_VALUE:
    case CUFFT_INVALID_SIZE:
    case CUFFT_INVALID_TYPE: return cudaErrorInvalidValue;
    case CUFFT_INVALID_DEVICE: return cudaErrorInvalidDevice;
    case CUFFT_NOT_SUPPORTED:
    case CUFFT_NOT_IMPLEMENTED: return cudaErrorNotSupported;
    default: return cudaErrorUnknown;
  }
}

using key = std::tuple<int, int, std::size_t, std::size_t>;  // device, cufftType, n, batch
using plan_cache = exec_plan_cache<key, cufftHandle, cudaError_t>;

plan_cache& the_cache() {
  static plan_cache* c = new plan_cache(cudaSuccess, cudaErrorInvalidValue);  // never destroyed: plans may
  return *c;                                                                 // outlive static destructors
}

bool is_real_type(cufftType type) {
  return type == CUFFT_D2Z || type == CUFFT_Z2D || type == CUFFT_R2C || type == CUFFT_C2R;
}

// cuFFT's functions, loaded on the first call of any adapter entry (before
// any CUDA call, so a machine without libcufft gets the loader's reason).
// nullptr: cufft_last_error() says why.
const cufft_api* library() {
  std::string why;
  const cufft_api* f = cufft_library(&why);
  if (!f) last_error_text = why;
  return f;
}

// The key for (type, n, batch) on the current device.
cudaError_t key_for(cufftType type, std::size_t n, std::size_t batch, key& k) {
  if (n < 1 || batch < 1 || (is_real_type(type) && (n < 2 || n % 2 != 0))) {
    last_error_text = "cuFFT adapter: invalid length " + std::to_string(n) + " or batch " + std::to_string(batch);
    return cudaErrorInvalidValue;
  }
  int dev = 0;
  const cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess) {
    last_error_text = std::string("cuFFT adapter: cudaGetDevice: ") + cudaGetErrorString(e);
    return e;
  }
  k = key{dev, static_cast<int>(type), n, batch};
  return cudaSuccess;
}

// Creates the plan without a work area of its own (automatic allocation off):
// every execution brings one (see plan_cache.hpp).
auto maker(const cufft_api& f, cufftType type, std::size_t n, std::size_t batch) {
  return [=, &f](plan_cache::plan& p) -> cudaError_t {
    cufftHandle h = 0;
    cufftResult r = f.create(&h);
    if (r != CUFFT_SUCCESS) return fail("cufftCreate", r, n, batch);
    r = f.set_auto_allocation(h, 0);
    if (r != CUFFT_SUCCESS) {
      f.destroy(h);
      return fail("cufftSetAutoAllocation", r, n, batch);
    }
    const bool real = is_real_type(type);
    long long len = static_cast<long long>(n);
    const long long bins = real ? len / 2 + 1 : len;
    const long long idist = (type == CUFFT_Z2D || type == CUFFT_C2R) ? bins : len;
    const long long odist = (type == CUFFT_D2Z || type == CUFFT_R2C) ? bins : len;
    long long inembed = idist, onembed = odist;
    std::size_t work = 0;
    r = f.make_plan_many64(h, 1, &len, &inembed, 1, idist, &onembed, 1, odist, type,
                           static_cast<long long>(batch), &work);
    if (r != CUFFT_SUCCESS) {
      f.destroy(h);
      return fail("plan creation", r, n, batch);
    }
    p.handle = h;
    p.work_bytes = work;
    return cudaSuccess;
  };
}

cudaError_t plan_work_bytes(cufftType type, std::size_t n, std::size_t batch, std::size_t& bytes) {
  const cufft_api* f = library();
  if (!f) return cudaErrorSharedObjectInitFailed;
  key k;
  const cudaError_t e = key_for(type, n, batch, k);
  if (e != cudaSuccess) return e;
  return the_cache().work_bytes(k, maker(*f, type, n, batch), bytes);
}

// One execution: the caller's work area (d_work, work_bytes), or, without
// one, a stream-ordered allocation of this call's own, freed after the
// transform on the same stream.
template <class Exec>
cudaError_t run(cufftType type, std::size_t n, std::size_t batch, cudaStream_t s, void* d_work,
                std::size_t work_bytes, const char* what, Exec&& exec) {
  last_error_text.clear();
  const cufft_api* f = library();
  if (!f) return cudaErrorSharedObjectInitFailed;
  key k;
  cudaError_t e = key_for(type, n, batch, k);
  if (e != cudaSuccess) return e;
  void* own = nullptr;
  if (!d_work) {
    e = the_cache().work_bytes(k, maker(*f, type, n, batch), work_bytes);
    if (e != cudaSuccess) return e;
    if (work_bytes > 0) {
      e = cudaMallocAsync(&own, work_bytes, s);
      if (e != cudaSuccess) {
        last_error_text = std::string("cuFFT adapter: work area of ") + std::to_string(work_bytes) +
                          " bytes: " + cudaGetErrorString(e);
        return e;
      }
      d_work = own;
    }
  }
  e = the_cache().execute(k, maker(*f, type, n, batch), d_work, work_bytes, [&](cufftHandle h, void* work) {
    cufftResult r = f->set_stream(h, s);
    if (r != CUFFT_SUCCESS) return fail("cufftSetStream", r, n, batch);
    r = f->set_work_area(h, work);
    if (r != CUFFT_SUCCESS) return fail("cufftSetWorkArea", r, n, batch);
    r = exec(*f, h);
    if (r != CUFFT_SUCCESS) return fail(what, r, n, batch);
    return cudaGetLastError();
  });
  if (e == cudaErrorInvalidValue && last_error_text.empty())
    last_error_text = "cuFFT adapter: work area of " + std::to_string(work_bytes) + " bytes is too small";
  if (own) {
    const cudaError_t f = cudaFreeAsync(own, s);
    if (e == cudaSuccess) e = f;
  }
  return e;
}

template <class C>
__global__ void pointwise_kernel(C* dst, const C* src, std::size_t count, decltype(C{}.x) scale) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = plan::c_scale(plan::c_mul(dst[i], src[i]), scale);
}

template <class C>
cudaError_t pointwise(C* dst, const C* src, std::size_t count, decltype(C{}.x) scale, cudaStream_t s) {
  if (count == 0) return cudaSuccess;
  std::size_t blocks = (count + 255) / 256;
  if (blocks > 65536 * 8) blocks = 65536 * 8;
  pointwise_kernel<C><<<static_cast<unsigned>(blocks), 256, 0, s>>>(dst, src, count, scale);
  return cudaGetLastError();
}

}  // namespace

cudaError_t cufft_forward_c2c(cplx<double>* d_in, cplx<double>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work, std::size_t work_bytes) {
  return run(CUFFT_Z2Z, n, batch, s, d_work, work_bytes, "cufftExecZ2Z", [&](const cufft_api& f, cufftHandle h) {
    return f.exec_z2z(h, reinterpret_cast<cufftDoubleComplex*>(d_in), reinterpret_cast<cufftDoubleComplex*>(d_out),
                      CUFFT_FORWARD);
  });
}
cudaError_t cufft_forward_c2c(cplx<float>* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work, std::size_t work_bytes) {
  return run(CUFFT_C2C, n, batch, s, d_work, work_bytes, "cufftExecC2C", [&](const cufft_api& f, cufftHandle h) {
    return f.exec_c2c(h, reinterpret_cast<cufftComplex*>(d_in), reinterpret_cast<cufftComplex*>(d_out),
                      CUFFT_FORWARD);
  });
}
cudaError_t cufft_inverse_c2c(cplx<double>* d_in, cplx<double>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work, std::size_t work_bytes) {
  return run(CUFFT_Z2Z, n, batch, s, d_work, work_bytes, "cufftExecZ2Z", [&](const cufft_api& f, cufftHandle h) {
    return f.exec_z2z(h, reinterpret_cast<cufftDoubleComplex*>(d_in), reinterpret_cast<cufftDoubleComplex*>(d_out),
                      CUFFT_INVERSE);
  });
}
cudaError_t cufft_inverse_c2c(cplx<float>* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work, std::size_t work_bytes) {
  return run(CUFFT_C2C, n, batch, s, d_work, work_bytes, "cufftExecC2C", [&](const cufft_api& f, cufftHandle h) {
    return f.exec_c2c(h, reinterpret_cast<cufftComplex*>(d_in), reinterpret_cast<cufftComplex*>(d_out),
                      CUFFT_INVERSE);
  });
}
cudaError_t cufft_forward_r2c(const double* d_in, cplx<double>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work, std::size_t work_bytes) {
  return run(CUFFT_D2Z, n, batch, s, d_work, work_bytes, "cufftExecD2Z", [&](const cufft_api& f, cufftHandle h) {
    return f.exec_d2z(h, const_cast<double*>(d_in), reinterpret_cast<cufftDoubleComplex*>(d_out));
  });
}
cudaError_t cufft_forward_r2c(const float* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work, std::size_t work_bytes) {
  return run(CUFFT_R2C, n, batch, s, d_work, work_bytes, "cufftExecR2C", [&](const cufft_api& f, cufftHandle h) {
    return f.exec_r2c(h, const_cast<float*>(d_in), reinterpret_cast<cufftComplex*>(d_out));
  });
}
cudaError_t cufft_inverse_c2r(const cplx<double>* d_in, double* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work, std::size_t work_bytes) {
  return run(CUFFT_Z2D, n, batch, s, d_work, work_bytes, "cufftExecZ2D", [&](const cufft_api& f, cufftHandle h) {
    return f.exec_z2d(h, reinterpret_cast<cufftDoubleComplex*>(const_cast<cplx<double>*>(d_in)), d_out);
  });
}
cudaError_t cufft_inverse_c2r(const cplx<float>* d_in, float* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work, std::size_t work_bytes) {
  return run(CUFFT_C2R, n, batch, s, d_work, work_bytes, "cufftExecC2R", [&](const cufft_api& f, cufftHandle h) {
    return f.exec_c2r(h, reinterpret_cast<cufftComplex*>(const_cast<cplx<float>*>(d_in)), d_out);
  });
}

cudaError_t cufft_work_bytes(cufft_kind kind, std::size_t n, std::size_t batch, std::size_t& bytes) {
  bytes = 0;
  std::size_t b1 = 0, b2 = 0;
  cudaError_t e = cudaErrorInvalidValue;
  switch (kind) {
    case cufft_kind::z2z: e = plan_work_bytes(CUFFT_Z2Z, n, batch, b1); break;
    case cufft_kind::c2c: e = plan_work_bytes(CUFFT_C2C, n, batch, b1); break;
    case cufft_kind::d2z_z2d:
      e = plan_work_bytes(CUFFT_D2Z, n, batch, b1);
      if (e == cudaSuccess) e = plan_work_bytes(CUFFT_Z2D, n, batch, b2);
      break;
    case cufft_kind::r2c_c2r:
      e = plan_work_bytes(CUFFT_R2C, n, batch, b1);
      if (e == cudaSuccess) e = plan_work_bytes(CUFFT_C2R, n, batch, b2);
      break;
  }
  if (e == cudaSuccess) bytes = b1 > b2 ? b1 : b2;
  return e;
}

cudaError_t cufft_prepare(cufft_kind kind, std::size_t n, std::size_t batch) {
  std::size_t bytes = 0;
  return cufft_work_bytes(kind, n, batch, bytes);
}

void cufft_release_plans() {
  if (the_cache().size() == 0) return;  // no CUDA call when nothing was planned (CPU-only machines)
  int current = 0;
  const bool have_current = cudaGetDevice(&current) == cudaSuccess;
  const cufft_api* f = cufft_library();  // loaded, since plans exist
  if (!f) return;
  the_cache().clear([f](const key& k, cufftHandle h) {
    cudaSetDevice(std::get<0>(k));  // a plan belongs to the device it was made on
    f->destroy(h);
  });
  if (have_current) cudaSetDevice(current);
}

const char* cufft_last_error() { return last_error_text.c_str(); }

cudaError_t cufft_pointwise_multiply_c2c(cplx<double>* d_dst, const cplx<double>* d_src, std::size_t n,
                                         std::size_t batch, double scale, cudaStream_t s) {
  return pointwise(d_dst, d_src, n * batch, scale, s);
}
cudaError_t cufft_pointwise_multiply_c2c(cplx<float>* d_dst, const cplx<float>* d_src, std::size_t n,
                                         std::size_t batch, float scale, cudaStream_t s) {
  return pointwise(d_dst, d_src, n * batch, scale, s);
}
cudaError_t cufft_pointwise_multiply_r2c(cplx<double>* d_dst, const cplx<double>* d_src, std::size_t n,
                                         std::size_t batch, double scale, cudaStream_t s) {
  return pointwise(d_dst, d_src, (n / 2 + 1) * batch, scale, s);
}
cudaError_t cufft_pointwise_multiply_r2c(cplx<float>* d_dst, const cplx<float>* d_src, std::size_t n,
                                         std::size_t batch, float scale, cudaStream_t s) {
  return pointwise(d_dst, d_src, (n / 2 + 1) * batch, scale, s);
}

}  // namespace bigmul::fft::cuda
