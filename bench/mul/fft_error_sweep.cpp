// SPDX-License-Identifier: LGPL-3.0-or-later
// fft_error_sweep: measures the worst FFT round-off per transform length and
// coefficient size, and writes the exactness table mul/fft_exactness_table.inc
// that the FFT multiply reads. A size is accepted for a length when the
// largest max |x - round(x)| over the worst-case operands stays within half
// the rounding guard (0.125): the guard (0.25) is the second line of defence.
//
// Operands per (length, size): every balanced coefficient at -B/2 (the
// largest coherent magnitudes: the worst case for the FFT), random digits,
// and all-maximum limbs. Each operand fills half the transform.
//
//   fft_error_sweep [--out mul/fft_exactness_table.inc] [--max-log2 23] [--threads N] [--only ALGORITHM]
// --only re-measures one algorithm and keeps the other algorithms' rows of the
// existing --out file (their provenance line is then the older run's).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "harness.hpp"
#include "mul/coefficients.hpp"
#include "mul/fft_mul.hpp"

using namespace bigmul;
using namespace bigmul::detail;

namespace {

constexpr double accept = fft_roundoff_guard / 2;

// Limbs for `count` coefficients of format f filled by digit(i).
template <class F>
std::vector<limb_t> operand(coeff_format f, std::size_t limbs, F digit) {
  const std::size_t m = f.count(limbs);
  std::vector<std::uint32_t> d(m);
  for (std::size_t i = 0; i < m; ++i) d[i] = digit(i);
  std::vector<limb_t> out(limbs);
  join_digits(d.data(), m, f, out.data(), limbs, 0);
  if (out.back() == 0) out.back() = 1;
  return out;
}

double worst_roundoff(algorithm algo, radix rx, unsigned L, unsigned digits, unsigned threads, std::mt19937_64& g,
                      bool& representable) {
  const coeff_format f{rx, digits};
  const std::size_t n = std::size_t{1} << L;
  const std::size_t per_limb = rx == radix::binary ? 64 : 19;
  // Largest equal operands whose product coefficients fit the transform exactly.
  std::size_t limbs = ((n - 1) / 2 * digits) / per_limb;
  while (limbs && f.count(limbs) * 2 + 1 > n) --limbs;
  representable = limbs >= 1 && fft_transform_length(algo, 2 * f.count(limbs) + 1) == n;
  if (!representable) return 0;
  const std::uint32_t B = static_cast<std::uint32_t>(f.base());
  std::vector<std::vector<limb_t>> ops;
  ops.push_back(operand(f, limbs, [&](std::size_t i) { return i == 0 ? B / 2 : B / 2 - 1; }));  // all -B/2
  ops.push_back(operand(f, limbs, [&](std::size_t) { return static_cast<std::uint32_t>(g() % B); }));
  ops.push_back(std::vector<limb_t>(limbs, rx == radix::binary ? ~limb_t{0} : decimal_limb_base - 1));
  double worst = 0;
  std::vector<limb_t> r(2 * limbs);
  for (const auto& a : ops) {
    const std::vector<limb_t> b = a;  // distinct pointer: both forward transforms run
    worst = std::max(worst, fft_measure_roundoff(r.data(), a.data(), limbs, b.data(), limbs, rx, algo, digits, threads));
    if (!(worst <= 1.0)) return worst;
  }
  // The worst-case operand times a random one.
  worst = std::max(worst, fft_measure_roundoff(r.data(), ops[0].data(), limbs, ops[1].data(), limbs, rx, algo, digits,
                                               threads));
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path = "mul/fft_exactness_table.inc";
  unsigned max_log2 = 23, threads = 0;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--out") out_path = argv[i + 1];
    else if (a == "--max-log2") max_log2 = static_cast<unsigned>(std::stoul(argv[i + 1]));
    else if (a == "--threads") threads = static_cast<unsigned>(std::stoul(argv[i + 1]));
    else if (a == "--only") only = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: fft_error_sweep [--out PATH] [--max-log2 L] [--threads N] [--only ALGORITHM]\n");
      return 2;
    }
  }
  algorithm only_algo = algorithm::automatic;
  if (!only.empty() && !parse_algorithm(only, only_algo)) {
    std::fprintf(stderr, "fft_error_sweep: --only %s: not an algorithm name\n", only.c_str());
    return 2;
  }
  std::mt19937_64 g(2026);
  std::string rows;
  if (!only.empty()) {  // keep the other algorithms' rows
    std::ifstream old(out_path);
    const std::string mine = "    {algorithm::" + only + ",";
    for (std::string line; std::getline(old, line);)
      if (line.rfind("    {algorithm::", 0) == 0 && line.rfind(mine, 0) != 0) rows += line + "\n";
  }
  std::printf("# fft_error_sweep  %s  commit %s  %s  (accept max round-off <= %.3f)\n",
              bench::machine_description().c_str(), bench::git_commit().c_str(), bench::today().c_str(), accept);
  std::printf("%16s %8s %5s %6s %12s\n", "algorithm", "radix", "log2n", "digits", "max_roundoff");
  for (algorithm algo : {algorithm::fft_real, algorithm::fft_complex, algorithm::fft_complex_f32, algorithm::fft_real_f32}) {
    if (!only.empty() && algo != only_algo) continue;
    for (radix rx : {radix::binary, radix::decimal}) {
      const unsigned top = rx == radix::binary ? 24 : 7;
      const unsigned algo_max = algo == algorithm::fft_complex ? max_log2 - 1 : max_log2;
      std::vector<unsigned> safe(41, 0);
      unsigned d = top;
      unsigned measured_up_to = 0;
      for (unsigned L = 1; L <= algo_max && d > 0; ++L) {
        for (;;) {
          bool representable = false;
          const double err = worst_roundoff(algo, rx, L, d, threads, g, representable);
          if (!representable) break;  // no product of this size uses this length with d digits
          std::printf("%16s %8s %5u %6u %12.3e %s\n", algorithm_name(algo), rx == radix::binary ? "binary" : "decimal",
                      L, d, err, err <= accept ? "ok" : "rejected");
          std::fflush(stdout);
          if (err <= accept) break;
          if (--d == 0) break;
        }
        safe[L] = d;
        measured_up_to = L;
      }
      // A length nothing could probe (too short for one limb) inherits the
      // next measured value: shorter transforms only have less round-off.
      std::string digits_list;
      for (unsigned L = 0; L < 41; ++L) {
        const unsigned v = L <= measured_up_to ? safe[L] : 0;
        digits_list += std::to_string(L == 0 ? safe[1] : v) + (L + 1 < 41 ? ", " : "");
      }
      rows += "    {algorithm::" + std::string(algorithm_name(algo)) + ", radix::" +
              (rx == radix::binary ? "binary" : "decimal") + ", " + std::to_string(measured_up_to) + ", {" +
              digits_list + "}},\n";
    }
  }
  std::ofstream out(out_path);
  out << "// SPDX-License-Identifier: LGPL-3.0-or-later\n";
  out << "// Generated by bench/mul/fft_error_sweep on " << bench::machine_description() << ", " << bench::today()
      << ", commit " << bench::git_commit() << (only.empty() ? "" : " (--only " + only + "; other rows kept from the previous run)")
      << ".\n"
      << "// digits[L]: largest coefficient size whose worst max |x - round(x)| at transform length 2^L stayed\n"
      << "// <= " << accept << " (half the rounding guard) on all -B/2, random and all-maximum operands.\n"
      << "inline constexpr exactness_row fft_exactness_rows[] = {\n"
      << rows << "};\n";
  std::printf("# wrote %s\n", out_path.c_str());
  return 0;
}
