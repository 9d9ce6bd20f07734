// SPDX-License-Identifier: LGPL-3.0-or-later
// Many products of the same size at once (crypto sizes): mul_batched computes
// G products of n x n limbs, operands back to back, results 2n limbs apart.
#include <bigmul/bigmul.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

int main() try {
  const std::size_t n = 32, G = 1000;  // 2048-bit operands
  std::vector<bigmul::limb_t> a(n * G), b(n * G), r(2 * n * G), one(2 * n);
  std::uint64_t s = 42;
  for (auto* v : {&a, &b})
    for (auto& x : *v) x = s = s * 6364136223846793005ull + 1442695040888963407ull;
  bigmul::mul_batched(r.data(), a.data(), b.data(), n, G);  // all threads; IFMA lanes where present
  std::size_t same = 0;
  for (std::size_t g = 0; g < G; ++g) {
    bigmul::mul(one.data(), a.data() + g * n, n, b.data() + g * n, n);
    same += std::equal(one.begin(), one.end(), r.begin() + static_cast<std::ptrdiff_t>(g * 2 * n));
  }
  std::printf("%zu of %zu batched 2048-bit products equal the single ones\n", same, G);
  return same == G ? 0 : 1;
} catch (const bigmul::error& e) {
  std::fprintf(stderr, "batched: %s\n", e.what());
  return 1;
}
