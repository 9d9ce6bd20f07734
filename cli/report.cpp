// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/report.hpp"

#include <unistd.h>

#include <cstdio>

#include "cli/output.hpp"
#include "mul/params_cpu.hpp"

namespace bigmul::cli {

void say(const std::string& line) {
  std::string text = line;
  text += '\n';
  static_cast<void>(write_fd(STDERR_FILENO, text));
}

namespace {

void say_algorithm(const mul_stats& st, bool multiplied, unsigned threads) {
  char line[224];
  if (multiplied) {
    std::snprintf(line, sizeof line,
                  "bigmul: algorithm %s%s%s on the %s, transform length %zu, coefficient digits %u, max round-off %.6g, "
                  "retries %u, modular check %s, threads %u",
                  algorithm_name(st.used), st.ntt_engine ? " engine " : "", st.ntt_engine ? st.ntt_engine : "",
                  st.backend_used == backend::cuda ? "GPU" : "CPU", st.transform_length, st.coefficient_digits, st.max_roundoff,
                  st.retries, st.modular_check ? "passed" : "off", threads);
  } else {
    std::snprintf(line, sizeof line, "bigmul: algorithm none (an operand is zero), threads %u", threads);
  }
  say(line);
}

}  // namespace

void print_timing(const phase_times& t, const mul_stats& st, bool multiplied, bool random, bool verified,
                  unsigned threads, double total) {
  const auto row = [&](const char* name, double s) {
    char line[224];
    std::snprintf(line, sizeof line, "bigmul: time %-18s %12.6f s", name, s);
    say(line);
  };
  if (random) {
    row("generate", t.generate);
  } else {
    row("read", t.read);
    row("parse", t.parse);
  }
  if (t.prepare >= 0) row("  prepare (beside)", t.prepare);
  row("multiply", t.multiply);
  if (multiplied) {
    // The FFT phases when a transform ran; otherwise only what was measured.
    const bool fft = st.transform_length > 0;
    const struct {
      const char* name;
      double seconds;
    } phases[] = {{"  split", st.t_split},         {"  forward", st.t_forward}, {"  pointwise", st.t_pointwise},
                  {"  inverse", st.t_inverse},     {"  round", st.t_round},     {"  carry", st.t_carry},
                  {"  modular check", st.t_check}};
    for (const auto& p : phases)
      if (fft || p.seconds > 0) row(p.name, p.seconds);
    if (st.backend_used == backend::cuda) row("  GPU transfers", st.t_transfer);
  }
  if (verified) row("verify", t.verify);
  row("convert", t.convert);
  row("write", t.write);
  row("total", total);
  say_algorithm(st, multiplied, threads);
  say("bigmul: cpu table " + detail::params_cpu::tuned_table_description());  // docs/tuning.md
}

}  // namespace bigmul::cli
