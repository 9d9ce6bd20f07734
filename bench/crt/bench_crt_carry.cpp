// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_crt_carry: the carry phase of a three-prime NTT product alone
// (detail::ntt_crt_and_carry: Garner, Horner or the decimal split, and the
// carries into limbs), for the AVX2 engine's kernels ("avx2":
// fft::ntt_avx2_crt3_limbs for binary, ntt_avx2_decimal_digits for
// decimal) against the generic path the engine took before them
// ("generic": ntt_avx2_mixed_radix_digits, then Horner and the carry in
// scalar code), "avx2vsum" the same with the bit-offset sum's shifts in
// AVX2 (ntt_bit_carry3_limbs_avx2, the engine's choice; bits60 rows only),
// and the IFMA engine's where the processor has it ("ifma", and "ifmagen":
// its Garner digits with the generic Horner, bit sum and decimal division,
// the baseline for the IFMA engine's own choice of decimal3; compare the
// two rows' seconds). The
// residues are random in [0, 2p) (coefficients up to p0 p1 p2, the largest
// the carry takes); one thread, so the figures are per core.
//
// Rows crt/<kind>/<kernels>/<coefficients>, kind: limbs (whole 64-bit
// limbs), bits60 (60-bit coefficients, the bit-offset sum) or decimal; the
// row's time is one carry phase, ns_per_coefficient beside it, and
// ratio_vs_generic.
//   bench_crt_carry [--count 65536,1048576,8388608] [--json PATH]
//                   [--repetitions N] [--min-time S] [--filter REGEX]
// For instruction counts (no timing): valgrind --tool=callgrind
//   --toggle-collect='*ntt_crt_and_carry*' bench_crt_carry --count 65536
//   --repetitions 1 --min-time 0 --filter 'limbs/generic' (one row a run).
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_decimal_digits.hpp"
#include "fft/ntt_ifma.hpp"
#include "harness.hpp"
#include "mul/ntt_crt_carry.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

struct kernels_row {
  const char* name;
  detail::ntt_crt_kernels k;
  bool (*available)();
};

struct kind_row {
  const char* name;
  unsigned bits;
  radix rx;
};

std::vector<double> list_of(const std::string& text) {
  std::vector<double> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) out.push_back(std::strtod(item.c_str(), nullptr));
  return out;
}

// Limbs the product of `count` coefficients occupies, with room for the
// last coefficient's three limbs (decimal: three base-10^19 digits).
std::size_t limbs_for(std::size_t count, unsigned bits) { return (count * bits + 63) / 64 + 4; }

}  // namespace

int main(int argc, char** argv) {
  harness h("bench_crt_carry", argc, argv, "crt_carry_cpu.json");
  const auto counts = list_of(h.text("--count", "65536,1048576,8388608"));
  const kernels_row engines[] = {
      {"generic",
       {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt_avx2_mixed_radix_digits, nullptr, false},
       fft::ntt_avx2_supported},
      {"avx2",
       {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt_avx2_mixed_radix_digits, fft::ntt_avx2_crt3_limbs, true,
        fft::ntt_avx2_decimal_digits},
       fft::ntt_avx2_supported},
      {"avx2vsum",
       {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt_avx2_mixed_radix_digits, fft::ntt_avx2_crt3_limbs, true,
        fft::ntt_avx2_decimal_digits, detail::ntt_bit_carry3_limbs_avx2},
       fft::ntt_avx2_supported},
      {"ifma",
       {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt52_mixed_radix_digits, fft::ntt52_crt3_limbs, true,
        fft::ntt52_decimal_digits},
       fft::ntt52_supported},
      {"ifmagen",
       {fft::ntt52_primes, fft::ntt52_prime_count, fft::ntt52_mixed_radix_digits, nullptr, false},
       fft::ntt52_supported},
  };
  const kind_row kinds[] = {{"limbs", 64, radix::binary}, {"bits60", 60, radix::binary}, {"decimal", 64, radix::decimal}};
  std::printf("# bigmul bench_crt_carry  %s  commit %s  %s\n", machine_description().c_str(), git_commit().c_str(),
              today().c_str());
  std::printf("%-8s %-8s %10s %12s %8s %9s\n", "kind", "kernels", "coeffs", "seconds", "ns/coef", "vs_generic");
  h.context("ratio", "real_time / the generic kernels' real_time for the same kind and count (same run)");
  std::mt19937_64 g(36);
  for (const double cd : counts) {
    const auto count = static_cast<std::size_t>(cd);
    std::vector<fft::u64> res[3];
    for (unsigned k = 0; k < 3; ++k) {
      const fft::u64 p = fft::ntt52_primes[k].p;
      res[k].resize(count);
      for (auto& x : res[k]) x = g() % (2 * p);
    }
    fft::u64* const rp[3] = {res[0].data(), res[1].data(), res[2].data()};
    for (const kind_row& kind : kinds) {
      const std::size_t rn = limbs_for(count, kind.bits);
      std::vector<limb_t> r(rn), first;
      double generic = 0;
      for (const kernels_row& e : engines) {
        if (!e.available()) continue;
        if (e.k.bit_sum3 && kind.bits == 64) continue;  // the bit-offset sum only
        const std::string name =
            std::string("crt/") + kind.name + "/" + e.name + "/" + std::to_string(static_cast<long long>(count));
        if (!h.selected(name)) continue;
        mul_stats st;
        const auto run = [&] {
          detail::ntt_crt_and_carry(e.k, 3, rp, r.data(), count, rn, kind.bits, kind.rx, 1, st, false);
        };
        run();
        if (first.empty()) first = r;
        if (r != first) {
          std::fprintf(stderr, "bench_crt_carry: %s: the limbs differ from the first kernels'\n", name.c_str());
          return 1;
        }
        const measurement m = h.time(run);
        if (e.name == std::string("generic")) generic = m.real_s;
        const double ns = 1e9 * m.real_s / static_cast<double>(count);
        std::printf("%-8s %-8s %10zu %12.4g %8.3f %9.3f\n", kind.name, e.name, count, m.real_s, ns,
                    generic > 0 ? m.real_s / generic : 0.0);
        std::fflush(stdout);
        row& rw = h.add(name, m)
                      .label("kind", kind.name)
                      .label("kernels", e.name)
                      .counter("coefficients", static_cast<double>(count))
                      .counter("ns_per_coefficient", ns);
        if (generic > 0) rw.baseline("generic", generic);
      }
    }
  }
  return h.write() ? 0 : 1;
}
