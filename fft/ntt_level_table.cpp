#include "fft/ntt_level_table.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "prim/parallel.hpp"

namespace bigmul::fft {

ntt52_level_table ntt52_build_levels(u64 p, u64 generator, std::size_t top, const ntt52_level_table* prefix,
                                     unsigned threads) {
  if (top == 0 || (top & (top - 1)) != 0) throw std::invalid_argument("ntt52_build_levels: top must be 2^k >= 1");
  ntt52_level_table T;
  T.p = p;
  T.top = top;
  const std::size_t size = ntt52_level_table::entries(top);
  T.w = prim::buffer<u64>(size);
  T.wq = prim::buffer<u64>(size);
  u64 *w = T.w.data(), *wq = T.wq.data();
  const double inv = 4503599627370496.0 / static_cast<double>(p);  // 2^52 / p
  std::size_t t = 1;
  if (prefix && prefix->top != 0 && prefix->p == p) {
    t = std::min(prefix->top, top);
    const std::size_t have = ntt52_level_table::entries(t);
    std::copy(prefix->w.data(), prefix->w.data() + have, w);
    std::copy(prefix->wq.data(), prefix->wq.data() + have, wq);
  } else {
    w[0] = 1;  // level 1: w_2^0, w_2^1 = -1
    w[1] = p - 1;
    wq[0] = shoup52_companion_estimated(1, p, inv);
    wq[1] = shoup52_companion_estimated(p - 1, p, inv);
  }
  for (; t < top; t *= 2) {
    const std::size_t lo = ntt52_level_table::offset(t), hi = ntt52_level_table::offset(2 * t);
    const u64 root = pow_mod(generator, (p - 1) / (4 * t), p);  // w_4t: level 2t holds its powers
    const u64 root_shoup = shoup_companion(root, p);
    // Level 2t, entries 2j (level t's j) and 2j + 1 (level t's j times the root), j <= t.
    prim::parallel_chunks(t + 1, std::size_t{1} << 12, t < (std::size_t{1} << 14) ? 1u : threads,
                          [&](std::size_t b, std::size_t e) {
                            for (std::size_t j = b; j < e; ++j) {
                              const u64 x = w[lo + j];
                              w[hi + 2 * j] = x;
                              wq[hi + 2 * j] = wq[lo + j];
                              if (j == t) break;  // level 2t ends at entry 2t
                              const u64 y = mul_shoup(x, root, root_shoup, p);
                              w[hi + 2 * j + 1] = y;
                              wq[hi + 2 * j + 1] = shoup52_companion_estimated(y, p, inv);
                            }
                          });
  }
  return T;
}

std::shared_ptr<const ntt52_level_table> ntt52_levels(unsigned prime, std::size_t top) {
  if (prime >= ntt52_prime_count) throw std::invalid_argument("ntt52_levels: prime index out of range");
  static std::mutex mutex[ntt52_prime_count];
  static std::shared_ptr<const ntt52_level_table> table[ntt52_prime_count];
  // Built under the prime's lock: a second thread asking for the same
  // levels waits for them instead of building them again.
  std::lock_guard<std::mutex> lock(mutex[prime]);
  auto& current = table[prime];
  if (current && current->top >= top) return current;
  std::size_t want = 1;
  while (want < top) want *= 2;
  current = std::make_shared<const ntt52_level_table>(
      ntt52_build_levels(ntt52_primes[prime].p, ntt52_primes[prime].generator, want, current.get()));
  return current;
}

}  // namespace bigmul::fft
