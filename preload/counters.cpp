// SPDX-License-Identifier: LGPL-3.0-or-later
#include "preload/counters.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>

namespace bigmul::preload {
namespace {

constexpr unsigned buckets = 12;  // decimal digits of the deciding size: 10^0 .. 10^11+

struct counter {
  std::atomic<std::uint64_t> taken{0}, passed{0}, fell_back{0}, limbs{0}, largest{0};
  std::atomic<std::uint64_t> by_digits[buckets] = {};
};

counter g_counters[static_cast<unsigned>(entry::count)];
const char* const names[] = {"mpn_mul", "mpn_mul_n", "mpn_sqr", "mpn_get_str", "mpn_set_str"};

counter& of(entry e) { return g_counters[static_cast<unsigned>(e)]; }

// floor(log10(decimal digits)) of a number of `limbs` 64-bit limbs (19.27 digits a limb).
unsigned digit_bucket(std::size_t limbs) {
  double digits = static_cast<double>(limbs) * 19.265919722494796;
  unsigned b = 0;
  while (digits >= 10 && b + 1 < buckets) digits /= 10, ++b;
  return b;
}

}  // namespace

void count_taken(entry e, std::size_t limbs) {
  counter& c = of(e);
  c.taken.fetch_add(1, std::memory_order_relaxed);
  c.limbs.fetch_add(limbs, std::memory_order_relaxed);
  c.by_digits[digit_bucket(limbs)].fetch_add(1, std::memory_order_relaxed);
  std::uint64_t seen = c.largest.load(std::memory_order_relaxed);
  while (limbs > seen && !c.largest.compare_exchange_weak(seen, limbs, std::memory_order_relaxed)) {
  }
}

void count_passed(entry e) { of(e).passed.fetch_add(1, std::memory_order_relaxed); }
void count_fell_back(entry e) { of(e).fell_back.fetch_add(1, std::memory_order_relaxed); }

void print_counters() {
  for (unsigned i = 0; i < static_cast<unsigned>(entry::count); ++i) {
    const counter& c = g_counters[i];
    const auto taken = c.taken.load(), passed = c.passed.load(), fell = c.fell_back.load();
    std::fprintf(stderr, "libbigmul_gmp: %s: %llu taken by bigmul, %llu passed to GMP, %llu fell back to GMP",
                 names[i], static_cast<unsigned long long>(taken), static_cast<unsigned long long>(passed),
                 static_cast<unsigned long long>(fell));
    if (taken) {
      std::fprintf(stderr, "; taken sizes: largest %llu limbs, total %llu limbs; by digits:",
                   static_cast<unsigned long long>(c.largest.load()), static_cast<unsigned long long>(c.limbs.load()));
      for (unsigned b = 0; b < buckets; ++b)
        if (const auto n = c.by_digits[b].load()) std::fprintf(stderr, " 10^%u: %llu", b, static_cast<unsigned long long>(n));
    }
    std::fputc('\n', stderr);
  }
}

}  // namespace bigmul::preload
