// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/startup.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "cli/failure.hpp"
#include "cli/output.hpp"
#include "cli/report.hpp"
#include "mul/cuda/params_gpu.hpp"
#include "mul/params_cpu.hpp"
#include "prim/parallel.hpp"

namespace bigmul::cli {
namespace {

// The environment's settings, checked before any work like the options: an
// invalid value is a usage error naming its variable (the library throws
// invalid_argument for BIGMUL_THREADS and BIGMUL_CPU_TABLE; BIGMUL_NTT_ENGINE is read when a
// product needs an engine and mapped the same way there).
void check_environment() {
  static_cast<void>(fault_corrupt_product());
  try {
    static_cast<void>(prim::default_threads());
    detail::params_cpu::check_table_environment();  // BIGMUL_CPU_TABLE names a tuned table
  } catch (const error& e) {
    if (e.code() == error::kind::invalid_argument) throw failure(exit_usage, std::string("bigmul: ") + e.what());
    throw;
  }
}

void say_backend(const options& o, bool gpu, const std::string& gpu_why, unsigned threads) {
  const std::string th = ", " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
  if (o.backend_choice == backend::cpu) say("bigmul: backend cpu" + th);
  else if (o.backend_choice == backend::cuda) say("bigmul: backend cuda" + th);
  else if (gpu) say("bigmul: backend auto: the GPU for large products, else the CPU" + th);
  else say("bigmul: backend cpu (auto, falling back: " + gpu_why + ")" + th);
  // The device and its crossover table: its own, or the nearest tuned one.
  if (gpu) say("bigmul: " + detail::params_gpu::describe_active());
}

}  // namespace

bool fault_corrupt_product() {
  const char* e = std::getenv("BIGMUL_CLI_FAULT");
  if (!e || !*e) return false;
  if (std::strcmp(e, "corrupt-product") == 0) return true;
  throw failure(exit_usage, "bigmul: BIGMUL_CLI_FAULT=" + std::string(e) + " is not a fault (corrupt-product)");
}

unsigned start_run(const options& o) {
  // --backend cuda without a usable GPU fails before any work (exit 1: a
  // missing resource, not a usage error). Probed only when asked for or
  // reported: probing loads the CUDA driver, milliseconds that a small product
  // on the CPU does not need (backend auto probes when a product is large).
  std::string gpu_why;
  const bool gpu = (o.backend_choice == backend::cuda || (o.verbose && o.backend_choice == backend::automatic)) &&
                   cuda_usable(&gpu_why);
  if (o.backend_choice == backend::cuda && !gpu) throw failure(exit_io, "bigmul: --backend cuda: " + gpu_why);
  check_environment();
  // Parsing and printing use the library's default thread count: make --threads apply there too.
  if (o.threads) prim::set_default_threads(o.threads);
  // -o's target is checked before any work (a directory or a dangling link
  // fails now, not after a long product); atomic_file checks it again.
  if (o.output) static_cast<void>(resolve_output(*o.output, o.force));
  const unsigned threads = prim::resolve_threads(o.threads);
  if (o.verbose) say_backend(o, gpu, gpu_why, threads);
  return threads;
}

}  // namespace bigmul::cli
