// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/random_operand.hpp"

#include <unistd.h>

#include <chrono>
#include <vector>

#include "bigmul/error.hpp"
#include "prim/parallel.hpp"

namespace bigmul::cli {
namespace {

constexpr std::size_t limb_grain = std::size_t{1} << 15;

// SplitMix64's finalizer: a bijective mix, good enough to turn counters into
// independent-looking 64-bit words.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in [0, bound) for draw number `index` of a stream: rejection
// sampling over a counter-based sequence (no modulo bias).
std::uint64_t uniform_below(std::uint64_t bound, std::uint64_t key, std::uint64_t index) {
  // Accept words below the largest multiple of bound that fits in 2^64.
  const std::uint64_t limit = bound * (~std::uint64_t{0} / bound);
  for (std::uint64_t attempt = 0;; ++attempt) {
    const std::uint64_t word = mix(key ^ mix(index * 0x9e3779b97f4a7c15ull + attempt));
    if (word < limit) return word % bound;
  }
}

}  // namespace

integer random_decimal(std::uint64_t digits, std::uint64_t seed, std::uint64_t stream, unsigned threads) {
  if (digits == 0) throw error(error::kind::invalid_argument, "random_decimal: needs at least one digit");
  const std::uint64_t key = mix(seed ^ mix(stream + 0x6a09e667f3bcc909ull));
  const std::size_t n = static_cast<std::size_t>((digits + decimal_limb_digits - 1) / decimal_limb_digits);
  std::vector<limb_t> limbs(n);
  prim::parallel_chunks(n - 1, limb_grain, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) limbs[i] = uniform_below(decimal_limb_base, key, i);
  });
  // The top limb has the remaining 1..19 digits, its first one nonzero.
  const unsigned top_digits = static_cast<unsigned>(digits - (n - 1) * decimal_limb_digits);
  std::uint64_t low = 1;
  for (unsigned k = 1; k < top_digits; ++k) low *= 10;
  const std::uint64_t high = top_digits == decimal_limb_digits ? decimal_limb_base : low * 10;
  limbs[n - 1] = low + uniform_below(high - low, key, n - 1);
  return integer(limbs, false, radix::decimal);
}

std::uint64_t seed_from_clock() {
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  return mix(static_cast<std::uint64_t>(now) ^ (static_cast<std::uint64_t>(::getpid()) << 40));
}

}  // namespace bigmul::cli
