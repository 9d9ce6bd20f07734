// SPDX-License-Identifier: LGPL-3.0-or-later
// The harness for programs written with Google Benchmark (bench_fft,
// bench_ntt, bench_prim_cpu): the shared options become Google Benchmark's
// (--json FILE -> --benchmark_out=FILE in JSON, --repetitions N ->
// --benchmark_repetitions, --min-time S -> --benchmark_min_time, --filter
// REGEX -> --benchmark_filter) and the harness's context entries that Google
// Benchmark does not write itself join its "context" block, so the file has
// the schema of every other bench program. --benchmark_* options pass through.
#pragma once

namespace bigmul::bench {

int google_benchmark_main(const char* program, int argc, char** argv);

}  // namespace bigmul::bench

#define BIGMUL_BENCHMARK_MAIN(program) \
  int main(int argc, char** argv) { return bigmul::bench::google_benchmark_main(program, argc, argv); }
