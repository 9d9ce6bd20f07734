// bench_digits: parsing and printing digit text in the number's own radix
// (src/digits), one thread and all threads, in GB/s of text; the old
// digit-at-a-time loop and GMP's mpn_set_str / mpn_get_str (power-of-two
// base for hex, which GMP does in linear time) in the same run.
//   bench_digits [--chars 1e7]
#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "src/digits/digits.hpp"

using namespace bigmul;

namespace {

// The per-character loop src/integer.cpp used before src/digits.
void parse_per_char(const std::string& s, unsigned base, limb_t* out) {
  const std::size_t k = digits::per_limb(base), n = s.size();
  for (std::size_t l = 0; l * k < n; ++l) {
    const std::size_t hi = n - k * l, lo = hi >= k ? hi - k : 0;
    limb_t v = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      int d = c >= '0' && c <= '9' ? c - '0' : -1;
      if (base == 16 && d < 0) d = (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
      if (d < 0) std::abort();
      v = v * base + static_cast<limb_t>(d);
    }
    out[l] = v;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t chars = 10000000;
  if (argc == 3 && std::strcmp(argv[1], "--chars") == 0) chars = static_cast<std::size_t>(std::atof(argv[2]));
  std::printf("# bench_digits  %s  commit %s  %s  %zu characters\n", bench::machine_description().c_str(),
              bench::git_commit().c_str(), bench::today().c_str(), chars);
  std::printf("%-8s %-22s %10s %10s\n", "base", "operation", "ms", "GB/s");
  std::mt19937_64 g(5);
  for (unsigned base : {16u, 10u}) {
    std::string s(chars, '0');
    for (auto& c : s) c = "0123456789abcdef"[g() % base];
    s[0] = '1';
    std::vector<limb_t> limbs(digits::limbs_for(chars, base));
    std::string out(chars, ' ');
    const auto row = [&](const char* what, double t) {
      std::printf("%-8u %-22s %10.3f %10.2f\n", base, what, t * 1e3, static_cast<double>(chars) / t / 1e9);
    };
    row("parse, 1 thread", bench::time_median([&] { digits::parse(s, base, limbs.data(), 1); }, 0.3, 5));
    row("parse, all threads", bench::time_median([&] { digits::parse(s, base, limbs.data(), 0); }, 0.3, 5));
    row("parse per char (old)", bench::time_median([&] { parse_per_char(s, base, limbs.data()); }, 0.3, 3));
    row("print, 1 thread", bench::time_median([&] { digits::print(limbs.data(), limbs.size(), base, out.data(), 1); }, 0.3, 5));
    row("print, all threads", bench::time_median([&] { digits::print(limbs.data(), limbs.size(), base, out.data(), 0); }, 0.3, 5));
    if (out != s) {
      std::fprintf(stderr, "bench_digits: print(parse(text)) != text in base %u\n", base);
      return 1;
    }
    if (base == 16) {
      // GMP: digit values (not characters) in, as mpn_set_str takes them.
      std::vector<unsigned char> vals(chars);
      for (std::size_t i = 0; i < chars; ++i) vals[i] = static_cast<unsigned char>(s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10);
      std::vector<mp_limb_t> rp(chars / 16 + 2);
      row("GMP mpn_set_str", bench::time_median([&] { mpn_set_str(rp.data(), vals.data(), chars, 16); }, 0.3, 3));
      const mp_size_t rn = mpn_set_str(rp.data(), vals.data(), chars, 16);
      std::vector<unsigned char> back(chars + 1);
      row("GMP mpn_get_str", bench::time_median([&] { mpn_get_str(back.data(), 16, rp.data(), rn); }, 0.3, 3));
    }
  }
  return 0;
}
