// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_mul_gpu: the GPU multiplication measured the way [DIEGUEZ18 ch. 7] does,
// with every baseline in the same run.
//   1. MData/s (million result digits per second; result = 2N digits per
//      product) for N = 2^12 .. 2^23 decimal digits per operand, single (G = 1)
//      and batched (G = 2^24 / (2N)), operands already on the device, for
//      tiled, complex and real, in-house and cuFFT, FP64 and FP32 (FP32 only
//      where the exactness table offers it). Ratio in-house / cuFFT.
//   2. [DIEGUEZ18 Table 7.2]: relative L2 round-off before rounding and max
//      |x - round(x)| for each FFT variant and size; the largest N where FP32
//      is still exact.
//   3. GPU against GMP mpz_mul on the host: device-resident and including both
//      transfers (host API).
//   4. Fraction of the memory-bandwidth floor: floor bytes = operand and
//      product limbs + 6 spectra (two forward writes, the pointwise pass
//      reading two and writing one, the inverse reading one), at the device's
//      peak DRAM bandwidth; fraction = floor time / measured time.
//   4b. Per phase of the FFT rows (one timed product: CUDA events around split,
//      forward, pointwise, inverse, carry, join; fixed = the call's host wall
//      time less those, i.e. launches, memsets, the copy of the pass's report
//      and its synchronisation): seconds, the bytes its kernels
//      move (mul/gpu_byte_model.hpp), achieved GB/s, and the fraction of the
//      phase's own floor (floor bytes at peak / its time).
//   5. Batched 1024-, 2048-, 4096- and 8192-bit products per second against GMP on
//      all host cores.
//
//
//   bench_mul_gpu [--json FILE] [--max-log2 L=23] [--quick] [--repetitions N] [--min-time S] [--filter REGEX]
// The harness's schema (bench/common/harness.hpp); context adds the GPU, the
// floor model and where FP32 is exact (fp32_exact_up_to_<algorithm>). Rows:
//   mul/<variant>/digits=N/G=G                device-resident products; counters
//       digits, G, mdata_per_s, transform_length, coefficient_digits,
//       max_roundoff, l2_roundoff, floor_fraction; ratio_vs_gmp (GMP's time for
//       the G products on one core) and, in-house FFT rows, ratio_vs_cufft (its
//       cuFFT twin, same run); FFT rows also, for P in split forward pointwise
//       inverse carry join: t_P_s, bytes_P, floor_bytes_P, gbs_P,
//       floor_fraction_P; and t_fixed_s, bytes_model_total, floor_bytes_total,
//       passes (the in-house FFT's passes per transform)
//   mul/<variant>/digits=N/G=G/two_pass       in-house FFT rows again with the plan
//       rule's two-pass limits (mul/gpu_plan_rule.hpp), only where they drop a
//       pass; the same counters and ratio_vs_default_limits (the row above)
//   mul/<variant>/digits=N/G=1/with_transfers the host API, both copies; ratio_vs_gmp
//   batched_<bits>/gmp_all_cores, batched_<bits>/<variant>, batched_<bits>/auto_with_transfers:
//       G products of <bits>-bit operands (1024 ... 8192; G * limbs = 2^21, /8 under
//       --quick); counter products_per_s; ratio_vs_gmp_all_cores
// Ratios are ours / theirs (below 1: we are faster). A variant that fails is
// printed and the program exits 1 (after writing what it measured). Without a
// GPU: a message, exit 0 (1 under BIGMUL_REQUIRE_GPU=1), nothing written.
#include <cuda_runtime.h>
#include <gmp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "gpu.cuh"
#include "harness.hpp"
#include "bigmul/device.hpp"
#include "bigmul/mul.hpp"
#include "mul/coefficients.hpp"
#include "mul/cuda/fft_mul_device.cuh"
#include "mul/fft_mul.hpp"
#include "mul/gpu_byte_model.hpp"
#include "mul/gpu_plan_rule.hpp"

using namespace bigmul;

namespace {

struct variant {
  algorithm algo;
  fft_engine engine;
  const char* name;
  bool tile_pair = false;  // tiled: the paper's tile-pair kernel with atomics
};

const variant variants[] = {
    {algorithm::tiled, fft_engine::in_house, "tiled"},
    {algorithm::tiled, fft_engine::in_house, "tiled_tile_pair", true},
    {algorithm::fft_real, fft_engine::in_house, "real_f64_inhouse"},
    {algorithm::fft_real, fft_engine::cufft, "real_f64_cufft"},
    {algorithm::fft_complex, fft_engine::in_house, "complex_f64_inhouse"},
    {algorithm::fft_complex, fft_engine::cufft, "complex_f64_cufft"},
    {algorithm::fft_real_f32, fft_engine::in_house, "real_f32_inhouse"},
    {algorithm::fft_real_f32, fft_engine::cufft, "real_f32_cufft"},
    {algorithm::fft_complex_f32, fft_engine::in_house, "complex_f32_inhouse"},
    {algorithm::fft_complex_f32, fft_engine::cufft, "complex_f32_cufft"},
};

// The phases of one timed FFT product: seconds, model bytes and floor bytes.
struct phase_row {
  const char* name;
  double t, bytes, floor;
};

struct phase_table {
  bool valid = false;
  std::vector<phase_row> rows;  // split .. join
  double fixed = 0;             // host wall time of the call less the phases
  unsigned passes = 0;          // in-house FFT: passes per transform (cuFFT: 1)
};

// From the stats run's last timed pass (FFT rows only; tiled has none).
phase_table phases_of(const mul_stats& st) {
  phase_table p;
  const detail::cuda::timed_pass& tp = detail::cuda::last_timed_pass();
  if (!st.transform_length || !tp.valid || !tp.out.accepted) return p;
  const detail::gpu_phase_bytes b = detail::gpu_pass_bytes(tp.shape), f = detail::gpu_pass_floor(tp.shape);
  const detail::cuda::fft_outcome& o = tp.out;
  p.rows = {{"split", o.t_split, b.split, f.split},         {"forward", o.t_forward, b.forward, f.forward},
            {"pointwise", o.t_pointwise, b.pointwise, f.pointwise}, {"inverse", o.t_inverse, b.inverse, f.inverse},
            {"carry", o.t_carry, b.carry, f.carry},         {"join", o.t_join, b.join, f.join}};
  // The stats sum the phases over retries; fixed is what the call spent besides them.
  p.fixed = st.t_total - (st.t_split + st.t_forward + st.t_pointwise + st.t_inverse + st.t_carry);
  p.passes = tp.shape.passes;
  p.valid = true;
  return p;
}

// Device-resident runs (CUDA events) into *m; stats of one more run in *st,
// its phases in *ph.
// False on failure (message printed; main then exits 1).
bool time_device(const variant& v, limb_t* d_r, const limb_t* d_a, const limb_t* d_b, std::size_t n, std::size_t G,
                 radix rx, void*& temp, std::size_t& temp_cap, mul_stats* st, const bench::gpu_timing& timing,
                 bench::measurement* m, phase_table* ph = nullptr) {
  cuda::device_options o;
  o.algo = v.algo;
  o.engine = v.engine;
  o.tile_pair_atomic = v.tile_pair;
  std::size_t bytes = 0;
  const auto call = [&](void* t, std::size_t& b) {
    return G == 1 ? cuda::mul(t, b, d_r, d_a, n, d_b, n, rx, o) : cuda::mul_batched(t, b, d_r, d_a, d_b, n, G, rx, o);
  };
  if (call(nullptr, bytes) != cudaSuccess) {
    std::printf("  %s: size query: %s\n", v.name, cuda::last_error_message());
    return false;
  }
  if (bytes > temp_cap) {
    cudaFree(temp);
    temp = nullptr;
    if (cudaMalloc(&temp, bytes) != cudaSuccess) {
      std::printf("  %s: cannot allocate %zu bytes of temp\n", v.name, bytes);
      temp_cap = 0;
      return false;
    }
    temp_cap = bytes;
  }
  bytes = temp_cap;
  // gpu_measure warms up (plans, caches) with one untimed call.
  cudaError_t e = bench::gpu_measure(*m, [&] { return call(temp, bytes); }, timing);
  if (e == cudaSuccess && st) {
    o.stats = st;
    e = call(temp, bytes);
    if (e == cudaSuccess && ph) *ph = phases_of(*st);
  }
  if (e != cudaSuccess) {
    std::printf("  %s: %s (%s)\n", v.name, cudaGetErrorString(e), cuda::last_error_message());
    return false;
  }
  return true;
}

bench::measurement gmp_time(const bench::harness& h, std::size_t digits, std::mt19937_64& g) {
  // The same values in binary: N decimal digits ~ N log2(10) bits.
  const std::size_t limbs = static_cast<std::size_t>(std::ceil(digits * 3.3219280948873623 / 64));
  const auto a = bench::random_limbs(limbs, radix::binary, g), b = bench::random_limbs(limbs, radix::binary, g);
  std::vector<mp_limb_t> r(2 * limbs);
  return h.time(
      [&] {
        mpn_mul(r.data(), reinterpret_cast<const mp_limb_t*>(a.data()), static_cast<mp_size_t>(limbs),
                reinterpret_cast<const mp_limb_t*>(b.data()), static_cast<mp_size_t>(limbs));
      },
      bench::timing{0.2, 1, 20});
}

std::string fixed(double x, int prec = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, x);
  return buf;
}
std::string sci(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3e", x);
  return buf;
}

// One table line of a row's phases: per phase ms / achieved GB/s / % of the
// phase's floor at peak ("-" where the floor is 0: the carry), then fixed ms.
void print_phases(const char* name, std::size_t N, std::size_t G, const phase_table& p, double peak_gbs) {
  std::printf("%-22s %9zu %6zu", name, N, G);
  for (const phase_row& r : p.rows) {
    char cell[64];
    const double gbs = r.t > 0 ? r.bytes / r.t / 1e9 : 0;
    const double fl = r.t > 0 && peak_gbs > 0 ? r.floor / (peak_gbs * 1e9) / r.t : 0;
    if (r.floor > 0) std::snprintf(cell, sizeof cell, "%.4f/%.0f/%.0f%%", r.t * 1e3, gbs, 100 * fl);
    else std::snprintf(cell, sizeof cell, "%.4f/%.0f/-", r.t * 1e3, gbs);
    std::printf(" %19s", cell);
  }
  std::printf(" %9.4f\n", p.fixed * 1e3);
}

void add_phase_counters(bench::row& r, const phase_table& p, double peak_gbs) {
  double bytes = 0, floor = 0;
  for (const phase_row& q : p.rows) {
    const std::string k = q.name;
    r.counter("t_" + k + "_s", q.t).counter("bytes_" + k, q.bytes).counter("floor_bytes_" + k, q.floor);
    r.counter("gbs_" + k, q.t > 0 ? q.bytes / q.t / 1e9 : 0);
    r.counter("floor_fraction_" + k, q.t > 0 && peak_gbs > 0 ? q.floor / (peak_gbs * 1e9) / q.t : 0);
    bytes += q.bytes;
    floor += q.floor;
  }
  r.counter("t_fixed_s", p.fixed).counter("bytes_model_total", bytes).counter("floor_bytes_total", floor);
  r.counter("passes", double(p.passes));
}

// Whether the plan rule's two-pass limits plan fewer passes for this row's
// transform (in-house FFT only): its /two_pass twin is worth timing.
bool two_pass_differs(const variant& v, const mul_stats& st, std::size_t G) {
  if (v.engine != fft_engine::in_house || v.algo == algorithm::tiled || !st.transform_length) return false;
  const bool real = v.algo == algorithm::fft_real || v.algo == algorithm::fft_real_f32;
  const bool f32 = v.algo == algorithm::fft_real_f32 || v.algo == algorithm::fft_complex_f32;
  const std::size_t points = real ? st.transform_length / 2 : st.transform_length;
  return detail::gpu_fft_limits(f32, points, G, true).log_two_pass_cols != 0;
}

}  // namespace

int main(int argc, char** argv) {
  bench::harness h("bench_mul_gpu", argc, argv, "bench_mul_gpu.json");
  const bool quick = h.flag("--quick");
  for (std::size_t i = 0; i < h.args().size(); ++i) {
    if (h.args()[i] == "--quick") continue;
    if (h.args()[i] == "--max-log2" && i + 1 < h.args().size()) {
      ++i;
      continue;
    }
    std::fprintf(stderr, "bench_mul_gpu: unknown argument %s\nusage: bench_mul_gpu [--json FILE] [--max-log2 L=23] "
                         "[--quick] [--repetitions N] [--min-time S] [--filter REGEX]\n", h.args()[i].c_str());
    return 2;
  }
  const unsigned max_log2 = static_cast<unsigned>(h.number("--max-log2", 23));
  if (max_log2 < 12 || max_log2 > 26) {
    std::fprintf(stderr, "bench_mul_gpu: --max-log2 must be 12 .. 26\n");
    return 2;
  }
  std::string why;
  if (!cuda_usable(&why)) return bench::no_gpu_exit("bench_mul_gpu", why);
  const cudaDeviceProp prop = bench::add_gpu_context(h);
  const double peak_gbs = bench::gpu_peak_gbyte_s(0);
  h.context("floor_model", "limb bytes in+out + 6 spectra at peak DRAM bandwidth");
  h.context("max_log2", static_cast<double>(max_log2));
  // The limits the plain rows ran with (BIGMUL_GPU_FFT_TWO_PASS=1: the two-pass ones there too).
  h.context("gpu_fft_two_pass", detail::gpu_fft_two_pass() ? "on" : "off");
  const unsigned host_threads = std::max(1u, std::thread::hardware_concurrency());
  std::printf("# bench_mul_gpu  device %s (peak %.0f GB/s)  host %s  commit %s  %s\n", prop.name, peak_gbs,
              bench::machine_description().c_str(), bench::git_commit().c_str(), bench::today().c_str());

  std::mt19937_64 g(2026);
  const radix rx = radix::decimal;
  void* temp = nullptr;
  std::size_t temp_cap = 0;
  const int reps = quick ? 3 : 7;
  const bench::gpu_timing timing = bench::gpu_timing_for(h, bench::gpu_timing{bench::timing{0, reps, reps}, 1});
  int failures = 0;  // variants that failed: printed, then exit status 1
  const auto mul_name = [](const variant& v, std::size_t N, std::size_t G) {
    return std::string("mul/") + v.name + "/digits=" + std::to_string(N) + "/G=" + std::to_string(G);
  };

  std::printf("\n%-22s %9s %6s %11s %9s %9s %10s %10s %8s %8s %9s\n", "variant", "N", "G", "time_ms", "MData/s",
              "/cufft", "max_round", "l2_round", "floor%", "/GMP", "/GMP+io");
  for (unsigned L = 12; L <= max_log2; ++L) {
    const std::size_t N = std::size_t{1} << L;  // decimal digits per operand
    const std::size_t n = (N + 18) / 19;        // limbs per operand
    bool any = false;                           // a row of this size selected
    for (const variant& v : variants)
      any |= h.selected(mul_name(v, N, 1)) || h.selected(mul_name(v, N, 1) + "/with_transfers") ||
             h.selected(mul_name(v, N, std::max<std::size_t>(1, (std::size_t{1} << 24) / (2 * N))));
    if (!any) continue;
    const bench::measurement gmp = gmp_time(h, N, g);  // one product, one core
    for (const bool batched : {false, true}) {
      const std::size_t G = batched ? std::max<std::size_t>(1, (std::size_t{1} << 24) / (2 * N)) : 1;
      if (batched && G == 1) continue;  // same as single
      std::vector<limb_t> a, b;
      for (std::size_t k = 0; k < G; ++k) {
        const auto x = bench::random_decimal_digits(N, g), y = bench::random_decimal_digits(N, g);
        a.insert(a.end(), x.begin(), x.end());
        b.insert(b.end(), y.begin(), y.end());
      }
      limb_t *d_a, *d_b, *d_r;
      if (cudaMalloc(&d_a, a.size() * 8) != cudaSuccess || cudaMalloc(&d_b, b.size() * 8) != cudaSuccess ||
          cudaMalloc(&d_r, 2 * a.size() * 8) != cudaSuccess) {
        std::printf("out of device memory at N=%zu G=%zu\n", N, G);
        return 1;
      }
      if (cudaMemcpy(d_a, a.data(), a.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess ||
          cudaMemcpy(d_b, b.data(), b.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess) {
        std::printf("cannot copy the operands to the device at N=%zu G=%zu\n", N, G);
        return 1;
      }
      // Every variant of this (N, G) is timed first; the in-house / cuFFT
      // ratios need both twins' times, so rows are added afterwards.
      struct timed {
        const variant* v;
        bench::measurement m, with_io;
        mul_stats st;
        phase_table ph;
      };
      std::vector<timed> done;
      double cufft_time[2][2] = {{0, 0}, {0, 0}};  // [real][f32]
      for (const variant& v : variants) {
        if (v.algo == algorithm::tiled && n > 4096) continue;  // quadratic
        if (v.algo != algorithm::tiled && detail::fft_pick_digits(v.algo, rx, n, n) == 0) continue;  // not exact
        timed d{&v, {}, {}, {}, {}};
        if (!time_device(v, d_r, d_a, d_b, n, G, rx, temp, temp_cap, &d.st, timing, &d.m, &d.ph)) {
          ++failures;
          continue;
        }
        const bool real = v.algo == algorithm::fft_real || v.algo == algorithm::fft_real_f32;
        const bool f32 = v.algo == algorithm::fft_real_f32 || v.algo == algorithm::fft_complex_f32;
        if (v.engine == fft_engine::cufft) cufft_time[real][f32] = d.m.real_s;
        // With transfers: the host API (copies in and out), single products only.
        if (!batched && !v.tile_pair && h.selected(mul_name(v, N, 1) + "/with_transfers")) {
          mul_options o;
          o.algo = v.algo;
          o.engine = v.engine;
          o.where = backend::cuda;
          std::vector<limb_t> r(2 * n);
          try {
            d.with_io = h.time([&] { mul(r.data(), a.data(), n, b.data(), n, rx, o); }, bench::timing{0.2, 2, 20});
          } catch (const std::exception& ex) {
            std::printf("  %s with transfers: %s\n", v.name, ex.what());
            ++failures;
          }
        }
        done.push_back(d);
      }
      for (const timed& d : done) {
        const variant& v = *d.v;
        const double t = d.m.real_s, with_io = d.with_io.real_s;
        const mul_stats& st = d.st;
        const bool real = v.algo == algorithm::fft_real || v.algo == algorithm::fft_real_f32;
        const bool f32 = v.algo == algorithm::fft_real_f32 || v.algo == algorithm::fft_complex_f32;
        const double cufft_twin = v.engine == fft_engine::in_house && v.algo != algorithm::tiled
                                      ? cufft_time[real][f32] : 0;
        const double mdata = 2.0 * N * G / t / 1e6;
        // Floor: limbs in and out, 6 spectra.
        double floor_frac = 0;
        if (st.transform_length && peak_gbs > 0) {
          const double spectrum = (real ? st.transform_length / 2.0 : st.transform_length) * (f32 ? 8.0 : 16.0);
          const double bytes = G * (4.0 * n * 8 + 6 * spectrum);
          floor_frac = bytes / (peak_gbs * 1e9) / t;
        }
        const double gmp_s = gmp.real_s * G;
        std::printf("%-22s %9zu %6zu %11.4f %9.1f %9s %10s %10s %8s %8.3f %9s\n", v.name, N, G, t * 1e3, mdata,
                    cufft_twin > 0 ? fixed(t / cufft_twin, 2).c_str() : "-",
                    st.transform_length ? sci(st.max_roundoff).c_str() : "-",
                    st.transform_length ? sci(st.l2_roundoff).c_str() : "-",
                    floor_frac > 0 ? fixed(100 * floor_frac, 1).c_str() : "-", t / gmp_s,
                    with_io > 0 ? fixed(with_io / gmp.real_s, 3).c_str() : "-");
        std::fflush(stdout);
        if (h.selected(mul_name(v, N, G))) {
          bench::row& r = h.add(mul_name(v, N, G), d.m);
          r.label("variant", v.name).label("algorithm", algorithm_name(v.algo));
          r.counter("digits", double(N)).counter("G", double(G)).counter("mdata_per_s", mdata);
          r.counter("transform_length", double(st.transform_length));
          r.counter("coefficient_digits", double(st.coefficient_digits));
          r.counter("max_roundoff", st.max_roundoff).counter("l2_roundoff", st.l2_roundoff);
          r.counter("floor_fraction", floor_frac);
          if (d.ph.valid) add_phase_counters(r, d.ph, peak_gbs);
          r.baseline("gmp", gmp_s);
          if (cufft_twin > 0) r.baseline("cufft", cufft_twin);
        }
        if (with_io > 0) {
          bench::row& r = h.add(mul_name(v, N, 1) + "/with_transfers", d.with_io);
          r.label("variant", v.name).label("algorithm", algorithm_name(v.algo));
          r.counter("digits", double(N)).counter("G", 1).baseline("gmp", gmp.real_s);
        }
      }
      bool header = false;
      for (const timed& d : done) {
        if (!d.ph.valid) continue;
        if (!header) {
          std::printf("%-22s %9s %6s %19s %19s %19s %19s %19s %19s %9s\n", "  phases: ms/GB/s/floor%", "N", "G", "split",
                      "forward", "pointwise", "inverse", "carry", "join", "fixed_ms");
          header = true;
        }
        print_phases(d.v->name, N, G, d.ph, peak_gbs);
      }
      // The two-pass limits where they drop a pass, against the default limits' row.
      for (const timed& d : done) {
        const variant& v = *d.v;
        const std::string name = mul_name(v, N, G) + "/two_pass";
        if (!two_pass_differs(v, d.st, G) || !h.selected(name)) continue;
        timed t{&v, {}, {}, {}, {}};
        detail::set_gpu_fft_two_pass(1);
        const bool ok = time_device(v, d_r, d_a, d_b, n, G, rx, temp, temp_cap, &t.st, timing, &t.m, &t.ph);
        detail::set_gpu_fft_two_pass(-1);
        if (!ok) {
          ++failures;
          continue;
        }
        std::printf("%-22s %9zu %6zu %11.4f  two-pass limits: %u passes (default %u), time / default %.3f\n", v.name,
                    N, G, t.m.real_s * 1e3, t.ph.passes, d.ph.passes, t.m.real_s / d.m.real_s);
        bench::row& r = h.add(name, t.m);
        r.label("variant", v.name).label("algorithm", algorithm_name(v.algo)).label("limits", "two_pass");
        r.counter("digits", double(N)).counter("G", double(G));
        r.counter("transform_length", double(t.st.transform_length));
        r.counter("coefficient_digits", double(t.st.coefficient_digits));
        r.counter("max_roundoff", t.st.max_roundoff).counter("l2_roundoff", t.st.l2_roundoff);
        if (t.ph.valid) add_phase_counters(r, t.ph, peak_gbs);
        r.baseline("default_limits", d.m.real_s);
      }
      cudaFree(d_a);
      cudaFree(d_b);
      cudaFree(d_r);
    }
  }

  // Largest N where FP32 is still offered (exact by the table) per variant.
  std::printf("\n# largest N (decimal digits per operand) where FP32 is exact by the table:\n");
  for (algorithm algo : {algorithm::fft_complex_f32, algorithm::fft_real_f32}) {
    std::size_t best = 0;
    for (std::size_t N = 16; N <= (std::size_t{1} << 24); N *= 2)
      if (detail::fft_pick_digits(algo, rx, (N + 18) / 19, (N + 18) / 19)) best = N;
    std::printf("#   %s: N = %zu\n", algorithm_name(algo), best);
    h.context(std::string("fp32_exact_up_to_") + algorithm_name(algo), static_cast<double>(best));
  }

  // Batched crypto-size products per second: GPU vs GMP on all host cores,
  // 1024 to 8192 bits ([DIEGUEZ18 ch. 7] batches; issue 15's sizes).
  for (const std::size_t bits : {1024u, 2048u, 4096u, 8192u}) {
    const std::string group = "batched_" + std::to_string(bits) + "/";
    bool any_batched = false;
    for (const char* who : {"gmp_all_cores", variants[0].name, variants[1].name, variants[2].name, variants[3].name,
                            "auto_with_transfers"})
      any_batched |= h.selected(group + who);
    if (!any_batched) continue;
    const std::size_t n = bits / 64, G = (quick ? std::size_t{1} << 18 : std::size_t{1} << 21) / n;
    std::vector<limb_t> a, b;
    for (std::size_t k = 0; k < G; ++k) {
      const auto x = bench::random_limbs(n, radix::binary, g), y = bench::random_limbs(n, radix::binary, g);
      a.insert(a.end(), x.begin(), x.end());
      b.insert(b.end(), y.begin(), y.end());
    }
    limb_t *d_a = nullptr, *d_b = nullptr, *d_r = nullptr;
    if (cudaMalloc(&d_a, a.size() * 8) != cudaSuccess || cudaMalloc(&d_b, b.size() * 8) != cudaSuccess ||
        cudaMalloc(&d_r, 2 * a.size() * 8) != cudaSuccess ||
        cudaMemcpy(d_a, a.data(), a.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(d_b, b.data(), b.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess) {
      std::printf("cannot place the batched %zu-bit operands on the device\n", bits);
      return 1;
    }
    std::vector<mp_limb_t> r(2 * n * G);
    const bench::measurement m_gmp = h.time(
        [&] {
          std::vector<std::thread> pool;
          for (unsigned w = 0; w < host_threads; ++w)
            pool.emplace_back([&, w] {
              for (std::size_t k = w; k < G; k += host_threads)
                mpn_mul_n(r.data() + 2 * n * k, reinterpret_cast<const mp_limb_t*>(a.data() + n * k),
                          reinterpret_cast<const mp_limb_t*>(b.data() + n * k), static_cast<mp_size_t>(n));
            });
          for (auto& t : pool) t.join();
        },
        bench::timing{0.3, 3, 50});
    const double t_gmp = m_gmp.real_s;
    std::printf("\n# batched %zu-bit products, G = %zu\n", bits, G);
    std::printf("%-22s %14s %10s\n", "variant", "products/s", "time/GMP");
    std::printf("%-22s %14.3e %10s\n", ("gmp_" + std::to_string(host_threads) + "_threads").c_str(), G / t_gmp, "1.00");
    const auto add = [&](const std::string& who, const bench::measurement& m, bool vs_gmp) {
      if (!h.selected(group + who)) return;
      bench::row& w = h.add(group + who, m);
      w.counter("bits", double(bits)).counter("G", double(G)).counter("products_per_s", G / m.real_s);
      if (vs_gmp) w.baseline("gmp_all_cores", t_gmp);
      else w.counter("threads", host_threads);
    };
    add("gmp_all_cores", m_gmp, false);
    for (const variant& v : {variants[0], variants[1], variants[2], variants[3]}) {
      bench::measurement m;
      if (!time_device(v, d_r, d_a, d_b, n, G, radix::binary, temp, temp_cap, nullptr, timing, &m)) {
        ++failures;
        continue;
      }
      std::printf("%-22s %14.3e %10.3f\n", v.name, G / m.real_s, m.real_s / t_gmp);
      add(v.name, m, true);
    }
    // Including transfers (host API).
    mul_options o;
    o.where = backend::cuda;
    std::vector<limb_t> rr(2 * n * G);
    try {
      const bench::measurement m_io =
          h.time([&] { mul_batched(rr.data(), a.data(), b.data(), n, G, radix::binary, o); }, bench::timing{0.3, 3, 50});
      std::printf("%-22s %14.3e %10.3f\n", "auto_with_transfers", G / m_io.real_s, m_io.real_s / t_gmp);
      add("auto_with_transfers", m_io, true);
    } catch (const std::exception& ex) {
      std::printf("  auto_with_transfers: %s\n", ex.what());
      ++failures;
    }
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_r);
  }
  cudaFree(temp);
  const bool wrote = h.write();
  if (failures) {
    std::printf("bench_mul_gpu: %d variant(s) failed (see above)\n", failures);
    return 1;
  }
  return wrote ? 0 : 1;
}
