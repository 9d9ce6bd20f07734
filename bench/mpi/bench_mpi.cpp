// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_mpi: the distributed product's time, its phases, every all-to-all's
// bytes and seconds, and memory per rank, for one rank count (the launcher's)
// and a list of sizes; with --single (one rank), the single-process product
// (bigmul::mul, same threads) of the same operands instead, in its own
// process so that its peak memory is its own. Rows go to stdout
// as one JSON object per size (run_mpi_bench.sh gathers them). Run under
// mpiexec; more ranks than cores only shows the method's overheads.
//   mpiexec -n P bench_mpi --digits 10000000,100000000 [--threads T] [--reps R] [--single]
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bigmul/mpi.hpp"
#include "bigmul/mul.hpp"

namespace {

using bigmul::limb_t;
using clock_type = std::chrono::steady_clock;

int rank_of() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size_of() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// This rank's block of a random `digits`-digit decimal operand (splitmix64 of
// the limb index: every rank count draws the same number).
std::vector<limb_t> block(std::size_t digits, std::uint64_t salt, std::size_t& global) {
  global = (digits + 18) / 19;
  const auto blk = bigmul::mpi::block_of(global, size_of(), rank_of());
  std::vector<limb_t> x(blk.size());
  for (std::size_t i = blk.begin; i < blk.end; ++i) {
    std::uint64_t z = salt * 0x9e3779b97f4a7c15ull + i;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    x[i - blk.begin] = (z ^ (z >> 31)) % bigmul::decimal_limb_base;
  }
  if (blk.end == global && !x.empty() && x.back() == 0) x.back() = 1;
  return x;
}

double max_over_ranks(double x) {
  double m = 0;
  MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}
unsigned long long max_over_ranks(unsigned long long x) {
  unsigned long long m = 0;
  MPI_Allreduce(&x, &m, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return m;
}
unsigned long long sum_over_ranks(unsigned long long x) {
  unsigned long long m = 0;
  MPI_Allreduce(&x, &m, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return m;
}
unsigned long long peak_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<unsigned long long>(u.ru_maxrss) * 1024;
}

// The single-process product (bigmul::mul, the same operands and threads)
// alone in this process (one rank): its median seconds and its peak
// resident memory, operands and product included as the ranks' are. With
// the modular check, as the distributed product (mpi::options' default)
// and both commands by default: the same work on both sides.
void run_single(std::size_t digits, unsigned threads, int reps) {
  std::size_t an = 0, bn = 0;
  const auto a = block(digits, 1, an), b = block(digits, 2, bn);
  std::vector<limb_t> r(an + bn);
  bigmul::mul_options mo;
  mo.threads = threads;
  mo.modular_check = true;
  std::vector<double> st;
  for (int k = 0; k <= reps; ++k) {  // k = 0: the cold run, not counted
    const auto t0 = clock_type::now();
    bigmul::mul(r.data(), a.data(), an, b.data(), bn, bigmul::radix::decimal, mo);
    if (k) st.push_back(std::chrono::duration<double>(clock_type::now() - t0).count());
  }
  std::sort(st.begin(), st.end());
  std::printf("{\"digits\": %zu, \"single\": true, \"threads\": %u, \"reps\": %d, \"single_process_seconds\": %.6f, "
              "\"single_peak_rss\": %llu}\n",
              digits, threads, reps, st[st.size() / 2], peak_rss_bytes());
  std::fflush(stdout);
}

void run_size(std::size_t digits, unsigned threads, int reps) {
  std::size_t an = 0, bn = 0;
  const auto a = block(digits, 1, an), b = block(digits, 2, bn);
  bigmul::mpi::options opt;
  opt.rx = bigmul::radix::decimal;
  opt.threads = threads;
  std::vector<double> times;
  bigmul::mpi::stats best;
  // The product's block in memory kept between products, as run_single's r.
  std::vector<limb_t> p(bigmul::mpi::product_block(an + bn, size_of(), rank_of()).size());
  for (int k = 0; k <= reps; ++k) {  // k = 0: the cold run (plans, first touch), not counted
    bigmul::mpi::stats st;
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = clock_type::now();
    bigmul::mpi::mul(MPI_COMM_WORLD, a.data(), a.size(), b.data(), b.size(), p.data(), p.size(), opt, &st);
    const double s = max_over_ranks(std::chrono::duration<double>(clock_type::now() - t0).count());
    if (k == 0) continue;
    if (times.empty() || s < *std::min_element(times.begin(), times.end())) best = st;
    times.push_back(s);
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  const unsigned long long rss = max_over_ranks(peak_rss_bytes());
  // Phases and exchanges of the fastest run: the slowest rank's seconds, all ranks' bytes.
  std::string phases, exchanges;
  for (const auto& p : best.phases)
    phases += (phases.empty() ? "" : ", ") + std::string("\"") + p.first + "\": " + std::to_string(max_over_ranks(p.second));
  for (const auto& x : best.exchanges) {
    const unsigned long long bytes = sum_over_ranks(x.bytes_sent);
    const double s = max_over_ranks(x.seconds);
    exchanges += (exchanges.empty() ? "" : ", ") + std::string("{\"what\": \"") + x.what +
                 "\", \"bytes\": " + std::to_string(bytes) + ", \"seconds\": " + std::to_string(s) + "}";
  }
  const unsigned long long planned = max_over_ranks(static_cast<unsigned long long>(best.planned_bytes));
  if (rank_of() != 0) return;
  std::printf("{\"digits\": %zu, \"ranks\": %d, \"threads\": %u, \"primes\": %u, \"reps\": %d, \"seconds_median\": %.6f, "
              "\"seconds_min\": %.6f, \"planned_bytes_max_rank\": %llu, "
              "\"peak_rss_max_rank\": %llu, \"phases\": {%s}, \"exchanges\": [%s]}\n",
              digits, size_of(), threads, best.primes, reps, median, times.front(), planned, rss, phases.c_str(),
              exchanges.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::vector<std::size_t> sizes;
  unsigned threads = 1;
  int reps = 3;
  bool single = false;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--digits" && k + 1 < argc) {
      for (char* s = argv[++k]; *s;) {
        sizes.push_back(std::strtoull(s, &s, 10));
        if (*s == ',') ++s;
      }
    } else if (arg == "--threads" && k + 1 < argc) {
      threads = static_cast<unsigned>(std::atoi(argv[++k]));
    } else if (arg == "--reps" && k + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++k]));
    } else if (arg == "--single") {
      single = true;
    } else {
      if (rank_of() == 0) std::fprintf(stderr, "bench_mpi: unknown argument '%s'\n", arg.c_str());
      MPI_Finalize();
      return 2;
    }
  }
  if (sizes.empty()) sizes = {10000000, 30000000, 100000000};
  if (single && size_of() != 1) {
    if (rank_of() == 0) std::fprintf(stderr, "bench_mpi: --single runs on one rank\n");
    MPI_Finalize();
    return 2;
  }
  for (std::size_t d : sizes) single ? run_single(d, threads, reps) : run_size(d, threads, reps);
  MPI_Finalize();
  return 0;
}
