// SPDX-License-Identifier: LGPL-3.0-or-later
#include "gbench_main.hpp"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "harness.hpp"

namespace bigmul::bench {

int google_benchmark_main(const char* program, int argc, char** argv) {
  const harness h(program, argc, argv, "");
  std::vector<std::string> args = {argv[0]};
  if (!h.json_path().empty()) {
    args.push_back("--benchmark_out=" + h.json_path());
    args.push_back("--benchmark_out_format=json");
  }
  if (h.repetitions()) args.push_back("--benchmark_repetitions=" + std::to_string(*h.repetitions()));
  if (h.min_time()) args.push_back("--benchmark_min_time=" + std::to_string(*h.min_time()));
  for (const auto& a : h.args()) args.push_back(a);
  // --filter was taken by the harness; hand its text on.
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--filter") args.push_back(std::string("--benchmark_filter=") + argv[i + 1]);
  // Google Benchmark writes host_name, num_cpus, date, ... itself; ours go in
  // as custom context (strings: it quotes them).
  for (const auto& [k, v] : h.common_context()) {
    if (k == "host_name" || k == "num_cpus" || k == "date") continue;
    std::string text = v;
    if (text.size() >= 2 && text.front() == '"') text = text.substr(1, text.size() - 2);
    benchmark::AddCustomContext(k, text);
  }
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  int cargc = static_cast<int>(cargv.size());
  cargv.push_back(nullptr);
  benchmark::Initialize(&cargc, cargv.data());
  if (benchmark::ReportUnrecognizedArguments(cargc, cargv.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace bigmul::bench
