// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched Montgomery kernels: one group of TPI lanes per operation running
// mul/cuda/montgomery_group_hd.hpp's algorithm with warp shuffles.
#include "mul/cuda/batched_montgomery.cuh"

#include <cuda_runtime.h>

#include <vector>

#include "mul/cuda/montgomery_group_hd.hpp"

namespace bigmul::detail::cuda {
namespace {

namespace mg = mont_group;
constexpr int K = mg::limbs_per_thread;
constexpr int block_threads = 128;

// The device group policy: this lane's registers, shuffles within its
// TPI-lane segment of the warp. Device-only: it exists only inside the
// kernels below (the CPU model has its own policy, in the model test).
template <int TPI>
struct warp_group {
  static constexpr int tpi = TPI;
  mg::thread_state<K> regs;
  int lane;
  template <class F>
  __device__ void each(F f) {
    f(lane);
  }
  __device__ mg::thread_state<K>& st(int) { return regs; }
  __device__ limb_t peek(int, int src) const { return __shfl_sync(0xffffffffu, regs.send, src, TPI); }
  __device__ void sync() { __syncwarp(); }
};

// Per-item arrays, n_pad limbs each unless noted.
struct items {
  limb_t* m;
  limb_t* nm;
  limb_t* r2;
  limb_t* ninv;  // one limb each
  limb_t* scratch;
  std::size_t scratch_limbs;  // per item
};

template <int TPI>
__device__ warp_group<TPI> make_group(const items& it, std::size_t& gid) {
  constexpr std::size_t n_pad = static_cast<std::size_t>(TPI) * K;
  gid = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / TPI;
  warp_group<TPI> g;
  g.lane = static_cast<int>(threadIdx.x % TPI);
  mg::load_slices<K>(g, it.m + gid * n_pad, &mg::thread_state<K>::ms);
  mg::load_slices<K>(g, it.nm + gid * n_pad, &mg::thread_state<K>::ns);
  return g;
}

template <int TPI>
__global__ void mod_mul_kernel(limb_t* r, const limb_t* a, const limb_t* b, items it) {
  constexpr std::size_t n_pad = static_cast<std::size_t>(TPI) * K;
  std::size_t gid;
  auto g = make_group<TPI>(it, gid);
  mg::mod_mul<K>(g, a + gid * n_pad, b + gid * n_pad, it.r2 + gid * n_pad, it.ninv[gid],
                 it.scratch + gid * it.scratch_limbs, r + gid * n_pad);
}

template <int TPI>
__global__ void mod_pow_kernel(limb_t* r, const limb_t* x, const limb_t* e, std::size_t en, std::size_t exp_bits,
                               const limb_t* one, items it) {
  constexpr std::size_t n_pad = static_cast<std::size_t>(TPI) * K;
  std::size_t gid;
  auto g = make_group<TPI>(it, gid);
  mg::mod_pow<K>(g, x + gid * n_pad, e + gid * en, en, exp_bits, it.r2 + gid * n_pad, one, it.ninv[gid],
                 it.scratch + gid * it.scratch_limbs, r + gid * n_pad);
}

// Device buffers freed on every path.
struct device_buffers {
  std::vector<void*> p;
  ~device_buffers() {
    for (void* q : p) cudaFree(q);
  }
  cudaError_t alloc(limb_t** out, std::size_t limbs) {
    void* q = nullptr;
    const cudaError_t e = cudaMalloc(&q, limbs * sizeof(limb_t) + 8);
    if (e == cudaSuccess) p.push_back(q);
    *out = static_cast<limb_t*>(q);
    return e;
  }
};

#define BIGMUL_MG_TRY(expr)            \
  do {                                 \
    const cudaError_t e_ = (expr);     \
    if (e_ != cudaSuccess) return e_;  \
  } while (0)

// Pads G items of n limbs to Gp items of n_pad limbs (padding items: modulus 1).
struct padded {
  int tpi;
  std::size_t n_pad, Gp;
  std::vector<limb_t> m, nm, r2, ninv;
};
padded prepare(const limb_t* m, std::size_t n, std::size_t G) {
  padded p;
  p.tpi = mg::threads_for(n);
  p.n_pad = static_cast<std::size_t>(p.tpi) * K;
  const std::size_t per_block = block_threads / p.tpi;
  p.Gp = (G + per_block - 1) / per_block * per_block;
  p.m.assign(p.Gp * p.n_pad, 0);
  p.nm.assign(p.Gp * p.n_pad, 0);
  p.r2.assign(p.Gp * p.n_pad, 0);
  p.ninv.assign(p.Gp, 0);
  for (std::size_t g = 0; g < p.Gp; ++g) {
    limb_t* mg_ = p.m.data() + g * p.n_pad;
    if (g < G)
      for (std::size_t j = 0; j < n; ++j) mg_[j] = m[g * n + j];
    else
      mg_[0] = 1;
    std::size_t mn = p.n_pad;
    while (mn > 1 && mg_[mn - 1] == 0) --mn;
    mg::negate_modulus(p.nm.data() + g * p.n_pad, mg_, mn, p.n_pad);
    mg::r_squared(p.r2.data() + g * p.n_pad, mg_, mn, p.n_pad);
    p.ninv[g] = mg::neg_inverse(mg_[0]);
  }
  return p;
}

std::vector<limb_t> pad(const limb_t* x, std::size_t n, std::size_t G, const padded& p) {
  std::vector<limb_t> v(p.Gp * p.n_pad, 0);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t j = 0; j < n; ++j) v[g * p.n_pad + j] = x[g * n + j];
  return v;
}

cudaError_t upload(device_buffers& db, limb_t** d, const std::vector<limb_t>& h) {
  BIGMUL_MG_TRY(db.alloc(d, h.size()));
  return cudaMemcpy(*d, h.data(), h.size() * sizeof(limb_t), cudaMemcpyHostToDevice);
}

cudaError_t upload_items(device_buffers& db, items& it, const padded& p, std::size_t scratch_limbs) {
  BIGMUL_MG_TRY(upload(db, &it.m, p.m));
  BIGMUL_MG_TRY(upload(db, &it.nm, p.nm));
  BIGMUL_MG_TRY(upload(db, &it.r2, p.r2));
  BIGMUL_MG_TRY(upload(db, &it.ninv, p.ninv));
  it.scratch_limbs = scratch_limbs;
  return db.alloc(&it.scratch, p.Gp * scratch_limbs);
}

cudaError_t download(limb_t* r, const limb_t* d_r, std::size_t n, std::size_t G, const padded& p) {
  std::vector<limb_t> h(p.Gp * p.n_pad);
  BIGMUL_MG_TRY(cudaMemcpy(h.data(), d_r, h.size() * sizeof(limb_t), cudaMemcpyDeviceToHost));
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t j = 0; j < n; ++j) r[g * n + j] = h[g * p.n_pad + j];
  return cudaSuccess;
}

template <class Launch>
cudaError_t launch_for(int tpi, Launch&& f) {
  switch (tpi) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    case 32: f(std::integral_constant<int, 32>{}); break;
    default: return cudaErrorInvalidValue;
  }
  BIGMUL_MG_TRY(cudaGetLastError());
  return cudaDeviceSynchronize();
}

}  // namespace

cudaError_t mod_mul_batched_gpu(limb_t* r, const limb_t* a, const limb_t* b, const limb_t* m, std::size_t n,
                                std::size_t G) {
  if (n == 0 || n > mg::max_limbs || G == 0 || !r || !a || !b || !m) return cudaErrorInvalidValue;
  const padded p = prepare(m, n, G);
  device_buffers db;
  items it{};
  BIGMUL_MG_TRY(upload_items(db, it, p, p.n_pad));
  limb_t *d_a, *d_b, *d_r;
  BIGMUL_MG_TRY(upload(db, &d_a, pad(a, n, G, p)));
  BIGMUL_MG_TRY(upload(db, &d_b, pad(b, n, G, p)));
  BIGMUL_MG_TRY(db.alloc(&d_r, p.Gp * p.n_pad));
  const unsigned blocks = static_cast<unsigned>(p.Gp * p.tpi / block_threads);
  BIGMUL_MG_TRY(launch_for(p.tpi, [&](auto tpi) {
    mod_mul_kernel<decltype(tpi)::value><<<blocks, block_threads>>>(d_r, d_a, d_b, it);
  }));
  return download(r, d_r, n, G, p);
}

cudaError_t mod_pow_batched_gpu(limb_t* r, const limb_t* x, const limb_t* e, std::size_t en, std::size_t exp_bits,
                                const limb_t* m, std::size_t n, std::size_t G) {
  if (n == 0 || n > mg::max_limbs || G == 0 || en == 0 || !r || !x || !e || !m) return cudaErrorInvalidValue;
  const padded p = prepare(m, n, G);
  device_buffers db;
  items it{};
  BIGMUL_MG_TRY(upload_items(db, it, p, (mg::table_entries + 2) * p.n_pad));
  limb_t *d_x, *d_e, *d_r, *d_one;
  BIGMUL_MG_TRY(upload(db, &d_x, pad(x, n, G, p)));
  std::vector<limb_t> eh(p.Gp * en, 0), one(p.n_pad, 0);
  for (std::size_t i = 0; i < G * en; ++i) eh[i] = e[i];
  one[0] = 1;
  BIGMUL_MG_TRY(upload(db, &d_e, eh));
  BIGMUL_MG_TRY(upload(db, &d_one, one));
  BIGMUL_MG_TRY(db.alloc(&d_r, p.Gp * p.n_pad));
  const unsigned blocks = static_cast<unsigned>(p.Gp * p.tpi / block_threads);
  BIGMUL_MG_TRY(launch_for(p.tpi, [&](auto tpi) {
    mod_pow_kernel<decltype(tpi)::value><<<blocks, block_threads>>>(d_r, d_x, d_e, en, exp_bits, d_one, it);
  }));
  return download(r, d_r, n, G, p);
}

}  // namespace bigmul::detail::cuda
