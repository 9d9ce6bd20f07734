// SPDX-License-Identifier: LGPL-3.0-or-later
// GPU FFT multiplication pass (see fft_mul_device.cuh): memory layout, the
// in-house engine's transforms, the guard, carry and join. The cuFFT engine's
// transforms: fft_mul_cufft.cu.
#include "mul/cuda/fft_mul_device.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <vector>

#include "carry/cuda/carry_device.cuh"
#include "carry/cuda/carry_fused.cuh"
#include "fft/cuda/cufft_plans.cuh"
#include "fft/cuda/device_fft.cuh"
#include "fft/cuda/plan_cache.hpp"
#include "mul/cuda/carry_join_fused.cuh"
#include "mul/cuda/coefficients_device.cuh"
#include "mul/cuda/fft_mul_cufft.cuh"
#include "mul/cuda/fft_pass_functors.cuh"
#include "mul/cuda/fft_tail_transforms.cuh"
#include "mul/cuda/pass_graph_key.hpp"
#include "mul/cuda/phase_clock.cuh"
#include "mul/cuda/split_fused.cuh"
#include "mul/cuda/split_fused_hd.hpp"
#include "mul/coefficients_impl.hpp"
#include "mul/fft_mul.hpp"
#include "mul/gpu_memory_model.hpp"
#include "mul/gpu_plan_rule.hpp"
#include "mul/mul_cuda.hpp"
#include "mul/fft_round.hpp"
#include "mul/fft_wrap.hpp"
#include "prim/cuda/common.cuh"

namespace bigmul::detail::cuda {

using prim::cuda::temp_carver;

namespace {

// Coefficients per operand (with the balanced top carry) and per product;
// n + wrap >= nc (mul/fft_wrap.hpp).
struct job_sizes {
  std::size_t ca, cb, nc, n, wrap, m;
  std::size_t spectrum;  // complex elements per product in the transform buffers
};

job_sizes sizes_of(const fft_job& j) {
  job_sizes s{};
  s.ca = j.f.count(j.an) + 1;
  s.cb = j.f.count(j.bn) + 1;
  s.nc = s.ca + s.cb - 1;
  const fft_pass_shape shape = fft_pass_shape_of(j.algo, j.f, j.an, j.bn);
  s.n = shape.length;
  s.wrap = shape.wrap;
  s.m = j.f.count(j.an + j.bn);
  s.spectrum = is_real_layout(j.algo) ? (j.engine == fft_engine::cufft ? s.n / 2 + 1 : s.n / 2) : s.n;
  return s;
}

// --- the in-house engine's spectrum load / store -----------------------------
// (The digits load and the rounding store, shared with the cuFFT engine:
// fft_pass_functors.cuh.)

template <class Real>
struct spectrum_load {
  const dfft::cplx<Real>* p;
  std::size_t len;
  __device__ dfft::cplx<Real> operator()(std::size_t b, std::size_t idx) const { return p[b * len + idx]; }
};

template <class Real>
struct spectrum_store {
  dfft::cplx<Real>* p;
  std::size_t len;
  struct state {};
  __device__ state begin() const { return {}; }
  __device__ void operator()(state&, std::size_t b, std::size_t idx, dfft::cplx<Real> v) const { p[b * len + idx] = v; }
  __device__ void end(state&) const {}
};

// --- plan cache for the in-house engine ---------------------------------------
// Bounded (each plan holds twiddle tables in device memory): the few most
// recently used (device, n, G, two-pass limits) per plan type; release_device_plans()
// empties it.
constexpr std::size_t plan_cache_entries = 4;
using plan_key = std::tuple<int, std::size_t, std::size_t, bool>;  // device, n, G, two-pass limits

template <class Plan>
dfft::lru_cache<plan_key, Plan>& plan_cache() {
  static auto* c = new dfft::lru_cache<plan_key, Plan>(plan_cache_entries);  // never destroyed: plans free
  return *c;                                                               // device memory, not at exit
}

// The in-house plan's limits for job j's transform of n points (the plan rule's).
template <class Real>
dfft::plan::limits limits_of(const fft_job& j, std::size_t n) {
  const std::size_t points = is_real_layout(j.algo) ? n / 2 : n;
  return gpu_fft_limits(sizeof(Real) == 4, points, j.G, j.two_pass);
}

template <class Plan>
std::shared_ptr<const Plan> cached_plan(std::size_t n, std::size_t G, const dfft::plan::limits& lim, bool two_pass) {
  int dev = 0;
  cudaGetDevice(&dev);
  return plan_cache<Plan>().get(plan_key{dev, n, G, two_pass},
                                [&] { return std::make_shared<const Plan>(n, G, lim); });  // throws bigmul::error
}

template <class Real, bool Real_layout>
using plan_type = std::conditional_t<Real_layout, dfft::device_real_fft<Real>, dfft::device_complex_fft<Real>>;

// The wrapped coefficients of every product (mul/fft_wrap.hpp): thread t of
// G * wrap, the CPU pass's function, the tests' replay of this mapping.
__global__ void unwrap_kernel(std::int64_t* c, std::size_t nc, std::size_t n, std::size_t wrap, std::size_t total,
                              const std::int32_t* da, std::size_t ca, const std::int32_t* db, std::size_t cb) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < total) fft_unwrap_batched(t, wrap, c, nc, n, da, ca, db, cb);
}

// What the host reads of a pass, in one copy after its one synchronisation:
// the round-off statistics and the device's verdict.
struct pass_report {
  roundoff_sink sink;
  int accept;  // max round-off within the guard and every product's carry fits
};

// The verdict (one block): the host's guard comparison on the same bits, and
// every product's carry flag; the join reads it and writes nothing when 0.
__global__ void verdict_kernel(pass_report* r, const int* ok, std::size_t G, double guard) {
  int mine = 1;
  for (std::size_t g = threadIdx.x; g < G; g += blockDim.x) mine &= ok[g] != 0;
  const int all = __syncthreads_and(mine);
  if (threadIdx.x == 0) {
    const double e = __longlong_as_double(static_cast<long long>(r->sink.max_bits));
    r->accept = (e <= guard) && all;
  }
}

#define BIGMUL_TRY(expr)                \
  do {                                  \
    const cudaError_t e_ = (expr);      \
    if (e_ != cudaSuccess) return e_;   \
  } while (0)

struct carved {
  std::int32_t *da = nullptr, *db = nullptr;
  void *A = nullptr, *B = nullptr;     // spectra (complex elements of Real)
  void *Ra = nullptr, *Rb = nullptr;   // cuFFT real engine: real inputs / outputs
  void* work = nullptr;                // in-house workspace
  void* cufft_work = nullptr;          // cuFFT work area: this pass's own (plans own none)
  std::size_t cufft_work_bytes = 0;
  std::int64_t* c = nullptr;
  std::uint32_t* digits = nullptr;
  void* split_temp = nullptr;
  void* carry_temp = nullptr;
  pass_report* report = nullptr;
  roundoff_sink* sink = nullptr;  // &report->sink
  int* ok = nullptr;
  std::size_t split_bytes = 0, carry_bytes = 0;
};

// In-house workspace (complex elements) from the plan's shape alone, without
// building the plan (no twiddle tables for a size query). false: the in-house
// FFT cannot plan this length.
template <class Real>
bool workspace_of(const fft_job& j, const job_sizes& s, std::size_t& elements) {
  elements = 0;
  if (j.engine != fft_engine::in_house) return true;
  if (!in_house_fft_plannable(j.algo, s.n)) return false;
  const std::size_t points = is_real_layout(j.algo) ? s.n / 2 : s.n;
  const dfft::plan::fft_plan p = dfft::plan::make_plan(points, j.G, limits_of<Real>(j, s.n));
  elements = p.npasses > 1 ? points * j.G : 0;  // device_complex_fft::workspace_elements()
  return true;
}

// The job's balanced split of one operand: one pass, or fold/scan/emit.
cudaError_t split_operand(const fft_job& j, void* d_temp, std::size_t& bytes, const limb_t* d_x, std::size_t n,
                          std::int32_t* d_out, cudaStream_t st) {
  return j.fused_split ? split_balanced_fused_device_batched(d_temp, bytes, d_x, n, j.G, j.f, d_out, st)
                       : split_balanced_device_batched(d_temp, bytes, d_x, n, j.G, j.f, d_out, st);
}

// The bound on the rounded products' coefficients the carry plans for.
template <class Real>
std::uint64_t carry_max_abs() {
  return static_cast<std::uint64_t>(fft_rounding<Real>::precise_limit);
}

// The job's carry of the rounded products: one pass, or spread/fold/scan/emit.
template <class Real>
cudaError_t carry_pass(const fft_job& j, const job_sizes& s, void* d_temp, std::size_t& bytes, const std::int64_t* c,
                       std::uint32_t* digits, int* ok, cudaStream_t st) {
  const carry::digit_base b{j.f.rx == radix::decimal, j.f.digits};
  const std::uint64_t max_abs = carry_max_abs<Real>();
  return j.fused_carry
             ? carry::cuda::carry_normalize_fused_device_batched<std::int64_t>(d_temp, bytes, c, s.nc, j.G, b, digits,
                                                                               s.m, ok, st, max_abs)
             : carry::cuda::carry_normalize_device_batched<std::int64_t>(d_temp, bytes, c, s.nc, j.G, b, digits, s.m,
                                                                         ok, st, max_abs);
}

// Whether the pass carries and joins in one kernel (fft_job::fused_join): a
// one-round carry plan, and d_r apart from both operands (a pass the fit
// check rejects may have written d_r before its retry reads them again).
bool overlaps(const limb_t* x, std::size_t xn, const limb_t* y, std::size_t yn) {
  const auto a = reinterpret_cast<std::uintptr_t>(x), b = reinterpret_cast<std::uintptr_t>(y);
  return a < b + yn * sizeof(limb_t) && b < a + xn * sizeof(limb_t);
}
template <class Real>
bool join_in_carry(const fft_job& j, const job_sizes& s, const limb_t* d_r, const limb_t* d_a, const limb_t* d_b) {
  if (!j.fused_carry || !j.fused_join || !carry_join_fusable(j.f, s.nc, s.m, carry_max_abs<Real>())) return false;
  const std::size_t rn = j.G * (j.an + j.bn);
  return !overlaps(d_r, rn, d_a, j.G * j.an) && !overlaps(d_r, rn, d_b, j.G * j.bn);
}

// What of the pass's shape its memory depends on (mul/gpu_memory_model.hpp).
gpu_pass_shape memory_shape(const fft_job& j, const job_sizes& s) {
  gpu_pass_shape p;
  p.G = j.G;
  p.ca = s.ca;
  p.cb = s.cb;
  p.nc = s.nc;
  p.m = s.m;
  p.n = s.n;
  p.spectrum = s.spectrum;
  p.real_bytes = is_single_precision(j.algo) ? 4 : 8;
  p.real_layout = is_real_layout(j.algo);
  p.cufft = j.engine == fft_engine::cufft;
  p.square = j.square;
  return p;
}

// The pass's buffers and their layout (mul/gpu_memory_model.hpp): the
// sub-algorithms' temp sized by their own first call.
template <class Real>
cudaError_t plan_memory(const fft_job& j, const job_sizes& s, gpu_pass_layout& l, std::size_t& split_bytes,
                        std::size_t& carry_bytes) {
  std::size_t work_elements = 0, cufft_work_bytes = 0;
  if (!workspace_of<Real>(j, s, work_elements)) return cudaErrorInvalidValue;
  if (j.engine == fft_engine::cufft)
    BIGMUL_TRY(cufft_pass_work_bytes<Real>(is_real_layout(j.algo), s.n, j.G, cufft_work_bytes));
  std::size_t split_a = 0, split_b = 0;
  BIGMUL_TRY(split_operand(j, nullptr, split_a, nullptr, j.an, nullptr, 0));
  if (!j.square) BIGMUL_TRY(split_operand(j, nullptr, split_b, nullptr, j.bn, nullptr, 0));
  split_bytes = std::max(split_a, split_b);
  carry_bytes = 0;
  BIGMUL_TRY(carry_pass<Real>(j, s, nullptr, carry_bytes, nullptr, nullptr, nullptr, 0));
  if (j.fused_carry && j.fused_join) {  // the pass decides per call (join_in_carry); room for either
    std::size_t join_bytes = 0;
    if (carry_join_fusable(j.f, s.nc, s.m, carry_max_abs<Real>()))
      BIGMUL_TRY(carry_join_fused_device_batched(nullptr, join_bytes, nullptr, s.nc, j.G, j.f, s.m, nullptr,
                                                 j.an + j.bn, nullptr, nullptr, nullptr, 0, 0, carry_max_abs<Real>()));
    carry_bytes = std::max(carry_bytes, join_bytes);
  }
  const gpu_pass_buffers b = gpu_pass_buffers_of(memory_shape(j, s), sizeof(pass_report), work_elements,
                                                 cufft_work_bytes, split_bytes, carry_bytes);
  l = gpu_pass_layout_of(b);
  return cudaSuccess;
}

// The pass's memory carved by its layout; base nullptr measures it (bytes).
template <class Real>
cudaError_t carve(void* base, const fft_job& j, const job_sizes& s, carved& m, std::size_t& bytes) {
  gpu_pass_layout l;
  BIGMUL_TRY(plan_memory<Real>(j, s, l, m.split_bytes, m.carry_bytes));
  bytes = l.bytes;
  if (!base) return cudaSuccess;
  char* const p = static_cast<char*>(base);
  const gpu_pass_buffers& at = l.at;
  m.da = reinterpret_cast<std::int32_t*>(p + at.digits_a);
  m.db = j.square ? m.da : reinterpret_cast<std::int32_t*>(p + at.digits_b);
  m.c = reinterpret_cast<std::int64_t*>(p + at.coeffs);
  m.report = reinterpret_cast<pass_report*>(p + at.report);
  m.sink = &m.report->sink;
  m.ok = reinterpret_cast<int*>(p + at.ok);
  m.split_temp = p + at.split_temp;
  m.A = p + at.spectrum_a;
  m.B = j.square ? nullptr : p + at.spectrum_b;
  const bool cufft_real = j.engine == fft_engine::cufft && is_real_layout(j.algo);
  m.Ra = cufft_real ? p + at.real_a : nullptr;
  m.Rb = cufft_real && !j.square ? p + at.real_b : nullptr;
  m.work = p + at.work;
  m.cufft_work = p + at.cufft_work;
  m.cufft_work_bytes = l.size.cufft_work;
  m.carry_temp = p + at.carry_temp;
  m.digits = reinterpret_cast<std::uint32_t*>(p + at.product_digits);
  return cudaSuccess;
}

std::atomic<std::size_t> tail_enqueued{0};  // passes enqueued with the product tail

// The in-house engine's forward transforms, pointwise kernel and inverse transform
// (without fft_job::fused_tail, or where the plan cannot take the tail).
template <class Real, bool Packed, class Plan, class Load, class Store>
cudaError_t plain_transforms(const Plan& plan, bool square, const job_sizes& s, const Load& load_a,
                             const Load& load_b, const Store& rounder, dfft::cplx<Real>* A, dfft::cplx<Real>* B,
                             dfft::cplx<Real>* work, phase_clock& clock, cudaStream_t st) {
  const spectrum_store<Real> to_a{A, s.spectrum}, to_b{B, s.spectrum};
  BIGMUL_TRY(plan.forward(load_a, to_a, work, st));
  if (!square) BIGMUL_TRY(plan.forward(load_b, to_b, work, st));
  clock.mark();
  if constexpr (Packed) {
    if (square) BIGMUL_TRY(dfft::real_pointwise_square<Real>(plan, A, Real(1) / Real(s.n), st));
    else BIGMUL_TRY(dfft::real_pointwise_multiply<Real>(plan, A, B, Real(1) / Real(s.n), st));
  } else {
    if (square) BIGMUL_TRY(dfft::complex_pointwise_square<Real>(plan, A, Real(1) / Real(s.n), st));
    else BIGMUL_TRY(dfft::complex_pointwise_multiply<Real>(plan, A, B, Real(1) / Real(s.n), st));
  }
  clock.mark();
  BIGMUL_TRY(plan.inverse(spectrum_load<Real>{A, s.spectrum}, rounder, work, st));
  clock.mark();
  return cudaSuccess;
}

// Every copy, kernel and transform of a pass, asynchronous on st (capturable
// into a CUDA graph once the plans exist); the report lands in *host_report.
template <class Real, bool Packed>
cudaError_t enqueue_pass(void* d_temp, const fft_job& j, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                         cudaStream_t st, phase_clock& clock, pass_report* host_report,
                         std::shared_ptr<const void>* hold_plan = nullptr) {
  using C = dfft::cplx<Real>;
  const job_sizes s = sizes_of(j);
  carved m;
  std::size_t bytes = 0;
  BIGMUL_TRY(carve<Real>(d_temp, j, s, m, bytes));
  const std::size_t G = j.G;

  clock.mark();
  BIGMUL_TRY(cudaMemsetAsync(m.report, 0, sizeof(pass_report), st));
  BIGMUL_TRY(split_operand(j, m.split_temp, m.split_bytes, d_a, j.an, m.da, st));
  if (!j.square) BIGMUL_TRY(split_operand(j, m.split_temp, m.split_bytes, d_b, j.bn, m.db, st));
  clock.mark();

  C* A = static_cast<C*>(m.A);
  C* B = j.square ? A : static_cast<C*>(m.B);
  const digits_load<Real, Packed> load_a{m.da, s.ca}, load_b{m.db, s.cb};
  const round_store<Real, Packed> rounder{m.c, s.nc, Real(1), m.sink};

  if (j.engine == fft_engine::in_house) {
    const dfft::plan::limits lim = limits_of<Real>(j, s.n);  // a plan the rule leaves alone is shared
    const auto plan = cached_plan<plan_type<Real, Packed>>(s.n, G, lim, lim.log_two_pass_cols != 0);
    if (hold_plan) *hold_plan = plan;  // a captured graph uses the plan's tables after the cache drops it
    C* work = static_cast<C*>(m.work);
    if (j.fused_tail && tail_fits<Real, Packed>(*plan)) {
      BIGMUL_TRY((tail_transforms<Real, Packed>(*plan, j.square, s.n, load_a, load_b, rounder, A, B, clock, st)));
      tail_enqueued.fetch_add(1, std::memory_order_relaxed);
    } else {
      BIGMUL_TRY((plain_transforms<Real, Packed>(*plan, j.square, s, load_a, load_b, rounder, A, B, work, clock, st)));
    }
  } else {  // cuFFT: R2C / C2R (packed) or C2C, fft_mul_cufft.cu
    const cudaError_t e = cufft_transforms<Real, Packed>(j.square, s.n, G, load_a, load_b, rounder, A, B, m.Ra,
                                                         m.Rb, m.cufft_work, m.cufft_work_bytes, clock, st);
    if (e != cudaSuccess) return e;
  }

  // Carry and join without reading the guard first: the verdict kernel decides
  // on the device and a rejected pass leaves d_r untouched (the join writes
  // nothing; what its unwrap and carry computed is never read); the host
  // synchronises once, for the report.
  if (s.wrap) {
    const std::size_t total = G * s.wrap;
    constexpr unsigned threads = 128;
    unwrap_kernel<<<static_cast<unsigned>((total + threads - 1) / threads), threads, 0, st>>>(
        m.c, s.nc, s.n, s.wrap, total, m.da, s.ca, m.db, s.cb);
    BIGMUL_TRY(cudaGetLastError());
  }
  if (join_in_carry<Real>(j, s, d_r, d_a, d_b)) {
    // Carry and join in one kernel: past the guard (read on the device) it
    // writes nothing and the verdict stays the report's 0; within it the last
    // product to finish writes the verdict. The join phase is empty.
    BIGMUL_TRY(carry_join_fused_device_batched(m.carry_temp, m.carry_bytes, m.c, s.nc, G, j.f, s.m, d_r, j.an + j.bn,
                                               m.ok, &m.report->accept, &m.report->sink.max_bits, fft_roundoff_guard,
                                               st, carry_max_abs<Real>()));
    clock.mark();
    clock.mark();
  } else {
    BIGMUL_TRY(carry_pass<Real>(j, s, m.carry_temp, m.carry_bytes, m.c, m.digits, m.ok, st));
    verdict_kernel<<<1, 256, 0, st>>>(m.report, m.ok, G, fft_roundoff_guard);
    BIGMUL_TRY(cudaGetLastError());
    clock.mark();
    BIGMUL_TRY(join_digits_device_batched_if(&m.report->accept, m.digits, s.m, G, j.f, d_r, j.an + j.bn, st));
    clock.mark();
  }
  BIGMUL_TRY(cudaMemcpyAsync(host_report, m.report, sizeof(pass_report), cudaMemcpyDeviceToHost, st));
  return cudaSuccess;
}

// The outcome from a pass's report (the stream synchronized).
void finish_pass(const pass_report& report, const phase_clock& clock, fft_outcome& out) {
  double max_err;
  static_assert(sizeof max_err == sizeof report.sink.max_bits);
  std::memcpy(&max_err, &report.sink.max_bits, sizeof max_err);
  out.max_roundoff = max_err;
  const roundoff_sink& sink = report.sink;
  out.l2_roundoff = sink.val2 > 0 ? std::sqrt(sink.err2 / sink.val2) : std::sqrt(sink.err2);
  out.t_split = clock.seconds(0);
  out.t_forward = clock.seconds(1);
  out.t_pointwise = clock.seconds(2);
  out.t_inverse = clock.seconds(3);
  out.t_carry = clock.seconds(4);
  out.t_join = clock.seconds(5);
  if (!(max_err <= fft_roundoff_guard)) return;  // rejected: d_r untouched
  // A value that does not fit cannot come from a pass within the guard; treat
  // it as a failed pass all the same (never written).
  if (!report.accept) {
    out.max_roundoff = std::max(out.max_roundoff, 1.0);
    return;
  }
  out.accepted = true;
}

template <class Real, bool Packed>
cudaError_t run_plain(void* d_temp, const fft_job& j, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                      cudaStream_t st, bool timed, fft_outcome& out) {
  out = fft_outcome{};
  out.transform_length = sizes_of(j).n;
  phase_clock clock(timed, st);
  pass_report report{};
  BIGMUL_TRY((enqueue_pass<Real, Packed>(d_temp, j, d_r, d_a, d_b, st, clock, &report)));
  BIGMUL_TRY(cudaStreamSynchronize(st));
  finish_pass(report, clock, out);
  return cudaSuccess;
}

// A pass captured into a CUDA graph (mul/cuda/pass_graph_key.hpp): its
// executable graph and the pinned host report the graph copies into.
struct pass_graph {
  cudaGraphExec_t exec = nullptr;
  pass_report* report = nullptr;
  std::shared_ptr<const void> plan;  // the in-house plan whose tables the graph reads
  pass_graph() = default;
  pass_graph(const pass_graph&) = delete;
  pass_graph& operator=(const pass_graph&) = delete;
  ~pass_graph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (report) cudaFreeHost(report);
  }
};

pass_graph_key graph_key_of(const fft_job& j, int dev, cudaStream_t st, const void* temp, const void* r,
                            const void* a, const void* b) {
  pass_graph_key k;
  k.device = dev;
  k.stream = st;
  k.temp = temp;
  k.r = r;
  k.a = a;
  k.b = b;
  k.algo = static_cast<int>(j.algo);
  k.engine = static_cast<int>(j.engine);
  k.rx = static_cast<int>(j.f.rx);
  k.digits = j.f.digits;
  k.an = j.an;
  k.bn = j.bn;
  k.G = j.G;
  k.square = j.square;
  k.fused_split = j.fused_split;
  k.fused_carry = j.fused_carry;
  k.fused_join = j.fused_join;
  k.fused_tail = j.fused_tail;
  k.two_pass = j.two_pass;
  return k;
}

std::atomic<std::size_t> graph_launches{0};

dfft::lru_cache<pass_graph_key, pass_graph>& pass_graphs() {
  static dfft::lru_cache<pass_graph_key, pass_graph> cache(16);
  return cache;
}

// Captures the pass on st; an empty pass_graph (no exec) when capture fails.
template <class Real, bool Packed>
std::shared_ptr<const pass_graph> capture_pass(void* d_temp, const fft_job& j, limb_t* d_r, const limb_t* d_a,
                                               const limb_t* d_b, cudaStream_t st) {
  auto g = std::make_shared<pass_graph>();
  if (cudaHostAlloc(reinterpret_cast<void**>(&g->report), sizeof(pass_report), cudaHostAllocDefault) !=
      cudaSuccess) {
    g->report = nullptr;
    cudaGetLastError();
    return g;
  }
  if (cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    cudaGetLastError();
    return g;
  }
  phase_clock off(false, st);
  const cudaError_t e = enqueue_pass<Real, Packed>(d_temp, j, d_r, d_a, d_b, st, off, g->report, &g->plan);
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(st, &graph);
  if (e == cudaSuccess && end == cudaSuccess && graph && cudaGraphInstantiate(&g->exec, graph, 0) != cudaSuccess)
    g->exec = nullptr;
  if (graph) cudaGraphDestroy(graph);
  cudaGetLastError();  // a failed capture leaves its error behind; the pass runs plain then
  return g;
}

// The pass as one graph launch: the first pass of a shape runs plain (it
// builds the plans capture cannot) and is captured for the next ones; the
// legacy default stream cannot be captured and runs plain.
template <class Real, bool Packed>
cudaError_t run_graph(void* d_temp, const fft_job& j, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                      cudaStream_t st, fft_outcome& out) {
  if (st == nullptr) return run_plain<Real, Packed>(d_temp, j, d_r, d_a, d_b, st, false, out);
  int dev = 0;
  cudaGetDevice(&dev);
  const pass_graph_key k = graph_key_of(j, dev, st, d_temp, d_r, d_a, d_b);
  bool first = false;
  cudaError_t e = cudaSuccess;
  const std::shared_ptr<const pass_graph> g = pass_graphs().get(k, [&]() -> std::shared_ptr<const pass_graph> {
    first = true;
    e = run_plain<Real, Packed>(d_temp, j, d_r, d_a, d_b, st, false, out);
    if (e != cudaSuccess) return std::make_shared<const pass_graph>();  // this shape runs plain from now on
    return capture_pass<Real, Packed>(d_temp, j, d_r, d_a, d_b, st);
  });
  if (first) return e;
  if (!g->exec) return run_plain<Real, Packed>(d_temp, j, d_r, d_a, d_b, st, false, out);
  out = fft_outcome{};
  out.transform_length = sizes_of(j).n;
  BIGMUL_TRY(cudaGraphLaunch(g->exec, st));
  graph_launches.fetch_add(1, std::memory_order_relaxed);
  BIGMUL_TRY(cudaStreamSynchronize(st));
  const phase_clock off(false, st);
  finish_pass(*g->report, off, out);
  return cudaSuccess;
}

template <class Real, bool Packed>
cudaError_t run_pass(void* d_temp, const fft_job& j, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                     cudaStream_t st, bool timed, fft_outcome& out) {
  if (j.graph && !timed) return run_graph<Real, Packed>(d_temp, j, d_r, d_a, d_b, st, out);
  return run_plain<Real, Packed>(d_temp, j, d_r, d_a, d_b, st, timed, out);
}

}  // namespace

std::size_t fft_length(const fft_job& j) { return fft_pass_length(j.algo, j.f, j.an, j.bn); }

std::size_t pass_graph_launches() { return graph_launches.load(std::memory_order_relaxed); }

std::size_t pass_tail_enqueued() { return tail_enqueued.load(std::memory_order_relaxed); }

}  // namespace bigmul::detail::cuda

namespace bigmul::detail {

// Declared in mul/mul_cuda.hpp. Plans in use by another thread live until that
// thread is done with them (shared_ptr).
void cuda_release_plans() {
  namespace dfft = bigmul::fft::cuda;
  using namespace bigmul::detail::cuda;
  plan_cache<dfft::device_real_fft<double>>().clear();
  plan_cache<dfft::device_complex_fft<double>>().clear();
  plan_cache<dfft::device_real_fft<float>>().clear();
  plan_cache<dfft::device_complex_fft<float>>().clear();
  pass_graphs().clear();  // captured passes name the plans' memory and cuFFT handles
  dfft::cufft_release_plans();
}

}  // namespace bigmul::detail

namespace bigmul::detail::cuda {

bool fft_pass_layout(const fft_job& j, gpu_pass_layout& l) {
  const job_sizes s = sizes_of(j);
  std::size_t split = 0, carry = 0;
  const cudaError_t e = is_single_precision(j.algo) ? plan_memory<float>(j, s, l, split, carry)
                                                    : plan_memory<double>(j, s, l, split, carry);
  return e == cudaSuccess;
}

std::size_t fft_pass_bytes(const fft_job& j) {
  gpu_pass_layout l;
  return fft_pass_layout(j, l) ? l.bytes : 0;
}

namespace {

thread_local timed_pass last_pass;

cudaError_t dispatch_pass(void* d_temp, const fft_job& j, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                          cudaStream_t stream, bool timed, fft_outcome& out) {
  switch (j.algo) {
    case algorithm::fft_real: return run_pass<double, true>(d_temp, j, d_r, d_a, d_b, stream, timed, out);
    case algorithm::fft_complex: return run_pass<double, false>(d_temp, j, d_r, d_a, d_b, stream, timed, out);
    case algorithm::fft_real_f32: return run_pass<float, true>(d_temp, j, d_r, d_a, d_b, stream, timed, out);
    case algorithm::fft_complex_f32: return run_pass<float, false>(d_temp, j, d_r, d_a, d_b, stream, timed, out);
    default: return cudaErrorInvalidValue;
  }
}

// Look-ahead pairs of one operand's balanced split (balanced_run's count).
std::size_t split_pairs(std::size_t limbs, const coeff_format& f) {
  const std::size_t pd = period_digits(f);
  const std::size_t periods = (f.count(limbs) + pd - 1) / pd;
  return periods ? periods + 1 : 0;
}

}  // namespace

gpu_pass_shape pass_shape_of(const fft_job& j) {
  const job_sizes s = sizes_of(j);
  gpu_pass_shape p;
  p.G = j.G;
  p.an = j.an;
  p.bn = j.bn;
  p.rn = j.an + j.bn;
  p.ca = s.ca;
  p.cb = s.cb;
  p.pairs_a = split_pairs(j.an, j.f);
  p.pairs_b = split_pairs(j.bn, j.f);
  p.real_layout = is_real_layout(j.algo);
  p.n = s.n;
  p.points = p.real_layout ? s.n / 2 : s.n;
  p.spectrum = s.spectrum;
  p.real_bytes = is_single_precision(j.algo) ? 4 : 8;
  p.cufft = j.engine == fft_engine::cufft;
  p.passes = 1;
  if (!p.cufft) {
    const dfft::plan::fft_plan plan =
        dfft::plan::make_plan(p.points, j.G, gpu_fft_limits(p.real_bytes == 4, p.points, j.G, j.two_pass));
    p.passes = plan.npasses;
    p.fused_tail = j.fused_tail && dfft::plan::tail_supported(plan, p.real_layout);  // as tail_fits
  }
  p.square = j.square;
  p.nc = s.nc;
  p.wrap = s.wrap;
  p.m = s.m;
  carry::cuda::carry_plan cp;
  const double limit = is_single_precision(j.algo) ? double(fft_rounding<float>::precise_limit)
                                                   : double(fft_rounding<double>::precise_limit);
  if (carry::cuda::make_carry_plan<std::int64_t>(carry::digit_base{j.f.rx == radix::decimal, j.f.digits}, s.nc, s.m,
                                                 static_cast<std::uint64_t>(limit), cp)) {
    p.spread_rounds = cp.rounds;
    for (unsigned r = 0; r < cp.rounds && r < gpu_pass_shape::max_spread_rounds; ++r) {
      p.spread_in[r] = cp.n_in[r];
      p.spread_out[r] = cp.n_out[r];
    }
    p.ns = cp.ns;
    p.carry_pairs = (cp.M + carry::cuda::carry_block_positions - 1) / carry::cuda::carry_block_positions + 1;
    p.fused_carry = j.fused_carry && cp.rounds == 1;
    p.fused_join = j.fused_join && p.fused_carry;  // (not when d_r overlaps an operand: the shape has no pointers)
  }
  p.fused_split = j.fused_split;
  p.split_tiles_a = p.pairs_a ? (p.pairs_a - 1 + split_hd::threads - 1) / split_hd::threads : 0;
  p.split_tiles_b = p.pairs_b ? (p.pairs_b - 1 + split_hd::threads - 1) / split_hd::threads : 0;
  return p;
}

const timed_pass& last_timed_pass() { return last_pass; }

cudaError_t fft_pass_device(void* d_temp, const fft_job& j, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                            cudaStream_t stream, bool timed, fft_outcome& out) {
  const cudaError_t e = dispatch_pass(d_temp, j, d_r, d_a, d_b, stream, timed, out);
  if (timed) last_pass = timed_pass{pass_shape_of(j), out, e == cudaSuccess};
  return e;
}

}  // namespace bigmul::detail::cuda
