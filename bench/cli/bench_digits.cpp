// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_digits: parsing and printing digit text in the number's own radix
// (src/digits), one thread and all threads, in GB/s of text; the old
// digit-at-a-time loop and GMP's mpn_set_str / mpn_get_str (power-of-two
// base for hex, which GMP does in linear time) in the same run.
// Rows <base>/<operation>; ratio_vs_per_char against the old loop, and
// ratio_vs_gmp (hex) against mpn_set_str / mpn_get_str.
//   bench_digits [--chars 1e7] [--json bench_digits.json] [--repetitions N]
//                [--min-time S] [--filter REGEX]
#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "harness.hpp"
#include "prim/parallel.hpp"
#include "src/digits/digits.hpp"

using namespace bigmul;

namespace {

unsigned prim_threads() { return prim::default_threads(); }

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
  bench::harness h("bench_digits", argc, argv, "bench_digits.json");
  const auto chars = static_cast<std::size_t>(h.number("--chars", 1e7));
  for (std::size_t i = 0; i < h.args().size(); ++i)
    if (h.args()[i] != "--chars" || i + 1 == h.args().size()) {
      std::fprintf(stderr, "usage: bench_digits [--chars N] [--json F] [--repetitions N] [--min-time S] [--filter R]\n");
      return 2;
    } else {
      ++i;
    }
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
    struct result {
      std::string what;
      bench::measurement m;
      unsigned threads;
    };
    std::vector<result> results;
    const auto row = [&](const char* what, unsigned threads, int min_runs, auto&& f) {
      const std::string name = std::to_string(base) + "/" + what;
      if (!h.selected(name)) return;
      const bench::measurement m = h.time(f, {0.3, min_runs, 1000});
      std::printf("%-8u %-22s %10.3f %10.2f\n", base, what, m.real_s * 1e3, static_cast<double>(chars) / m.real_s / 1e9);
      results.push_back({what, m, threads});
    };
    const unsigned all = prim_threads();
    row("parse, 1 thread", 1, 5, [&] { digits::parse(s, base, limbs.data(), 1); });
    row("parse, all threads", all, 5, [&] { digits::parse(s, base, limbs.data(), 0); });
    row("parse per char (old)", 1, 3, [&] { parse_per_char(s, base, limbs.data()); });
    row("print, 1 thread", 1, 5, [&] { digits::print(limbs.data(), limbs.size(), base, out.data(), 1); });
    row("print, all threads", all, 5, [&] { digits::print(limbs.data(), limbs.size(), base, out.data(), 0); });
    // print(parse(text)) == text, when both ran in full.
    if (h.selected(std::to_string(base) + "/parse, 1 thread") && h.selected(std::to_string(base) + "/print, 1 thread")) {
      digits::parse(s, base, limbs.data(), 1);
      digits::print(limbs.data(), limbs.size(), base, out.data(), 1);
      if (out != s) {
        std::fprintf(stderr, "bench_digits: print(parse(text)) != text in base %u\n", base);
        return 1;
      }
    }
    if (base == 16) {
      // GMP: digit values (not characters) in, as mpn_set_str takes them.
      std::vector<unsigned char> vals(chars);
      for (std::size_t i = 0; i < chars; ++i) vals[i] = static_cast<unsigned char>(s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10);
      std::vector<mp_limb_t> rp(chars / 16 + 2);
      row("GMP mpn_set_str", 1, 3, [&] { mpn_set_str(rp.data(), vals.data(), chars, 16); });
      const mp_size_t rn = mpn_set_str(rp.data(), vals.data(), chars, 16);
      std::vector<unsigned char> back(chars + 1);
      row("GMP mpn_get_str", 1, 3, [&] { mpn_get_str(back.data(), 16, rp.data(), rn); });
    }
    const auto find = [&](const std::string& what) -> const bench::measurement* {
      for (const auto& r : results)
        if (r.what == what) return &r.m;
      return nullptr;
    };
    for (const auto& r : results) {
      auto& w = h.add(std::to_string(base) + "/" + r.what, r.m);
      w.counter("base", base).counter("chars", static_cast<double>(chars)).counter("threads", r.threads);
      w.counter("gb_per_s", static_cast<double>(chars) / r.m.real_s / 1e9);
      const bool parse = r.what.rfind("parse", 0) == 0, print = r.what.rfind("print", 0) == 0;
      if (const auto* old = find("parse per char (old)"); parse && r.what != "parse per char (old)" && old)
        w.baseline("per_char", old->real_s);
      if (const auto* gmp = find(parse ? "GMP mpn_set_str" : "GMP mpn_get_str"); (parse || print) && gmp)
        w.baseline("gmp", gmp->real_s);
    }
  }
  return h.write() ? 0 : 1;
}
