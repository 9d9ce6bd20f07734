// cuFFT adapter: cached plans and thin execution wrappers (see cufft_plans.cuh).
#include "fft/cuda/cufft_plans.cuh"

#include <cufft.h>

#include <map>
#include <mutex>
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

struct cache {
  std::mutex mu;
  std::map<key, cufftHandle> plans;
};
cache& the_cache() {
  static cache* c = new cache;  // never destroyed: plans may outlive static destructors' order
  return *c;
}

// With the cache locked: the plan for (type, n, batch) on the current device.
cudaError_t find_plan(cache& c, cufftType type, std::size_t n, std::size_t batch, cufftHandle& out) {
  const bool real = type == CUFFT_D2Z || type == CUFFT_Z2D || type == CUFFT_R2C || type == CUFFT_C2R;
  if (n < 1 || batch < 1 || (real && (n < 2 || n % 2 != 0))) {
    last_error_text = "cuFFT adapter: invalid length " + std::to_string(n) + " or batch " + std::to_string(batch);
    return cudaErrorInvalidValue;
  }
  int dev = 0;
  const cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess) {
    last_error_text = std::string("cuFFT adapter: cudaGetDevice: ") + cudaGetErrorString(e);
    return e;
  }
  const key k{dev, static_cast<int>(type), n, batch};
  const auto it = c.plans.find(k);
  if (it != c.plans.end()) {
    out = it->second;
    return cudaSuccess;
  }
  cufftHandle h = 0;
  cufftResult r = cufftCreate(&h);
  if (r != CUFFT_SUCCESS) return fail("cufftCreate", r, n, batch);
  long long len = static_cast<long long>(n);
  const long long bins = real ? len / 2 + 1 : len;
  const long long idist = (type == CUFFT_Z2D || type == CUFFT_C2R) ? bins : len;
  const long long odist = (type == CUFFT_D2Z || type == CUFFT_R2C) ? bins : len;
  long long inembed = idist, onembed = odist;
  std::size_t work = 0;
  r = cufftMakePlanMany64(h, 1, &len, &inembed, 1, idist, &onembed, 1, odist, type, static_cast<long long>(batch),
                          &work);
  if (r != CUFFT_SUCCESS) {
    cufftDestroy(h);
    return fail("plan creation", r, n, batch);
  }
  c.plans.emplace(k, h);
  out = h;
  return cudaSuccess;
}

template <class Exec>
cudaError_t run(cufftType type, std::size_t n, std::size_t batch, cudaStream_t s, const char* what, Exec&& exec) {
  cache& c = the_cache();
  std::lock_guard<std::mutex> lock(c.mu);
  cufftHandle h = 0;
  const cudaError_t e = find_plan(c, type, n, batch, h);
  if (e != cudaSuccess) return e;
  cufftResult r = cufftSetStream(h, s);
  if (r != CUFFT_SUCCESS) return fail("cufftSetStream", r, n, batch);
  r = exec(h);
  if (r != CUFFT_SUCCESS) return fail(what, r, n, batch);
  return cudaGetLastError();
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
                              cudaStream_t s) {
  return run(CUFFT_Z2Z, n, batch, s, "cufftExecZ2Z", [&](cufftHandle h) {
    return cufftExecZ2Z(h, reinterpret_cast<cufftDoubleComplex*>(d_in), reinterpret_cast<cufftDoubleComplex*>(d_out),
                        CUFFT_FORWARD);
  });
}
cudaError_t cufft_forward_c2c(cplx<float>* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s) {
  return run(CUFFT_C2C, n, batch, s, "cufftExecC2C", [&](cufftHandle h) {
    return cufftExecC2C(h, reinterpret_cast<cufftComplex*>(d_in), reinterpret_cast<cufftComplex*>(d_out),
                        CUFFT_FORWARD);
  });
}
cudaError_t cufft_inverse_c2c(cplx<double>* d_in, cplx<double>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s) {
  return run(CUFFT_Z2Z, n, batch, s, "cufftExecZ2Z", [&](cufftHandle h) {
    return cufftExecZ2Z(h, reinterpret_cast<cufftDoubleComplex*>(d_in), reinterpret_cast<cufftDoubleComplex*>(d_out),
                        CUFFT_INVERSE);
  });
}
cudaError_t cufft_inverse_c2c(cplx<float>* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s) {
  return run(CUFFT_C2C, n, batch, s, "cufftExecC2C", [&](cufftHandle h) {
    return cufftExecC2C(h, reinterpret_cast<cufftComplex*>(d_in), reinterpret_cast<cufftComplex*>(d_out),
                        CUFFT_INVERSE);
  });
}
cudaError_t cufft_forward_r2c(const double* d_in, cplx<double>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s) {
  return run(CUFFT_D2Z, n, batch, s, "cufftExecD2Z", [&](cufftHandle h) {
    return cufftExecD2Z(h, const_cast<double*>(d_in), reinterpret_cast<cufftDoubleComplex*>(d_out));
  });
}
cudaError_t cufft_forward_r2c(const float* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s) {
  return run(CUFFT_R2C, n, batch, s, "cufftExecR2C", [&](cufftHandle h) {
    return cufftExecR2C(h, const_cast<float*>(d_in), reinterpret_cast<cufftComplex*>(d_out));
  });
}
cudaError_t cufft_inverse_c2r(const cplx<double>* d_in, double* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s) {
  return run(CUFFT_Z2D, n, batch, s, "cufftExecZ2D", [&](cufftHandle h) {
    return cufftExecZ2D(h, reinterpret_cast<cufftDoubleComplex*>(const_cast<cplx<double>*>(d_in)), d_out);
  });
}
cudaError_t cufft_inverse_c2r(const cplx<float>* d_in, float* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s) {
  return run(CUFFT_C2R, n, batch, s, "cufftExecC2R", [&](cufftHandle h) {
    return cufftExecC2R(h, reinterpret_cast<cufftComplex*>(const_cast<cplx<float>*>(d_in)), d_out);
  });
}

cudaError_t cufft_prepare(cufft_kind kind, std::size_t n, std::size_t batch) {
  cache& c = the_cache();
  std::lock_guard<std::mutex> lock(c.mu);
  cufftHandle h = 0;
  switch (kind) {
    case cufft_kind::z2z: return find_plan(c, CUFFT_Z2Z, n, batch, h);
    case cufft_kind::c2c: return find_plan(c, CUFFT_C2C, n, batch, h);
    case cufft_kind::d2z_z2d: {
      const cudaError_t e = find_plan(c, CUFFT_D2Z, n, batch, h);
      return e != cudaSuccess ? e : find_plan(c, CUFFT_Z2D, n, batch, h);
    }
    case cufft_kind::r2c_c2r: {
      const cudaError_t e = find_plan(c, CUFFT_R2C, n, batch, h);
      return e != cudaSuccess ? e : find_plan(c, CUFFT_C2R, n, batch, h);
    }
  }
  return cudaErrorInvalidValue;
}

void cufft_release_plans() {
  cache& c = the_cache();
  std::lock_guard<std::mutex> lock(c.mu);
  int current = 0;
  const bool have_current = cudaGetDevice(&current) == cudaSuccess;
  for (auto& [k, h] : c.plans) {
    cudaSetDevice(std::get<0>(k));  // a plan belongs to the device it was made on
    cufftDestroy(h);
  }
  if (have_current) cudaSetDevice(current);
  c.plans.clear();
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
