// SPDX-License-Identifier: LGPL-3.0-or-later
#include "fft/ntt_level_table.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "fft/ntt_avx2_arith.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

// The fine spans of the big levels (2 cap .. top points, ntt52_level_table's
// geometry, shared by the 64-bit table) past the first `have` entries:
// put(index, x) for x = w_2s^j (w_2s^-j when `inverse`), j = 0 .. fine(s),
// a running product.
template <class Put>
void for_fine_powers(u64 p, u64 generator, std::size_t top, std::size_t have, bool inverse, Put put) {
  using T52 = ntt52_level_table;
  for (std::size_t s = 2 * T52::cap; s <= top; s *= 2) {
    const std::size_t at = T52::fine_offset(s);
    if (at < have) continue;
    const u64 w = pow_mod(generator, (p - 1) / (2 * s), p);  // w_2s
    const u64 root = inverse ? inv_mod(w, p) : w;
    const u64 root_shoup = shoup_companion(root, p);
    u64 x = 1;
    for (std::size_t j = 0; j <= T52::fine(s); ++j, x = mul_shoup(x, root, root_shoup, p)) put(at + j, x);
  }
}

}  // namespace

ntt52_level_table ntt52_build_levels(u64 p, u64 generator, std::size_t top, const ntt52_level_table* prefix,
                                     unsigned threads) {
  if (top == 0 || (top & (top - 1)) != 0) throw std::invalid_argument("ntt52_build_levels: top must be 2^k >= 1");
  using T52 = ntt52_level_table;
  T52 T;
  T.p = p;
  T.top = top;
  const std::size_t full = std::min(top, T52::cap);
  const std::size_t size = T52::entries(top);
  T.w = prim::buffer<u64>(size);
  T.wq = prim::buffer<u64>(size);
  u64 *w = T.w.data(), *wq = T.wq.data();
  const double inv = 4503599627370496.0 / static_cast<double>(p);  // 2^52 / p
  const bool use_prefix = prefix && prefix->top != 0 && prefix->p == p;
  std::size_t t = 1;
  if (use_prefix) {
    t = std::min(prefix->top, full);
    const std::size_t have = T52::entries(t);
    std::copy(prefix->w.data(), prefix->w.data() + have, w);
    std::copy(prefix->wq.data(), prefix->wq.data() + have, wq);
  } else {
    w[0] = 1;  // level 1: w_2^0, w_2^1 = -1
    w[1] = p - 1;
    wq[0] = shoup52_companion_estimated(1, p, inv);
    wq[1] = shoup52_companion_estimated(p - 1, p, inv);
  }
  for (; t < full; t *= 2) {
    const std::size_t lo = T52::offset(t), hi = T52::offset(2 * t);
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
  // Big levels: the first fine(t) + 1 powers of w_2t, a running product
  // (a few thousand entries in all; a prefix's are copied).
  const std::size_t fine_size = T52::fine_entries(top);
  T.fw = prim::buffer<u64>(fine_size);
  T.fwq = prim::buffer<u64>(fine_size);
  std::size_t fine_have = 0;
  if (use_prefix) {
    fine_have = T52::fine_entries(std::min(prefix->top, top));
    std::copy(prefix->fw.data(), prefix->fw.data() + fine_have, T.fw.data());
    std::copy(prefix->fwq.data(), prefix->fwq.data() + fine_have, T.fwq.data());
  }
  for_fine_powers(p, generator, top, fine_have, false, [&](std::size_t i, u64 x) {
    T.fw[i] = x;
    T.fwq[i] = shoup52_companion_estimated(x, p, inv);
  });
  // The inverse's: each full level reversed, each fine span's powers of w_2s^-1.
  T.iw = prim::buffer<u64>(size);
  T.iwq = prim::buffer<u64>(size);
  for (std::size_t s = 1; s <= full; s *= 2) {
    const std::size_t at = T52::offset(s);
    for (std::size_t j = 0; j <= s; ++j) {
      T.iw[at + j] = w[at + s - j];
      T.iwq[at + j] = wq[at + s - j];
    }
  }
  T.fiw = prim::buffer<u64>(fine_size);
  T.fiwq = prim::buffer<u64>(fine_size);
  for_fine_powers(p, generator, top, 0, true, [&](std::size_t i, u64 x) {
    T.fiw[i] = x;
    T.fiwq[i] = shoup52_companion_estimated(x, p, inv);
  });
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

namespace {

// Tasks only where a level is large enough to repay starting threads.
unsigned level_threads(std::size_t entries, unsigned threads) {
  return entries < (std::size_t{1} << 14) ? 1u : threads;
}

std::size_t pow2_at_least(std::size_t x) {
  std::size_t r = 1;
  while (r < x) r *= 2;
  return r;
}

}  // namespace

ntt64_level_table ntt64_build_levels(u64 p, u64 generator, std::size_t top, const ntt64_level_table* prefix,
                                     unsigned threads) {
  if (top == 0 || (top & (top - 1)) != 0) throw std::invalid_argument("ntt64_build_levels: top must be 2^k >= 1");
  using T52 = ntt52_level_table;
  ntt64_level_table T;
  T.p = p;
  T.top = top;
  const std::size_t full = std::min(top, T52::cap);
  T.tw = prim::buffer<ntt_twiddle>(T52::entries(top));
  ntt_twiddle* tw = T.tw.data();
  const bool use_prefix = prefix && prefix->top != 0 && prefix->p == p;
  std::size_t t = 1;
  if (use_prefix) {
    t = std::min(prefix->top, full);
    std::copy(prefix->tw.data(), prefix->tw.data() + T52::entries(t), tw);
  } else {
    tw[0] = {1, shoup_companion(1, p)};  // level 1: w_2^0, w_2^1 = -1
    tw[1] = {p - 1, shoup_companion(p - 1, p)};
  }
  for (; t < full; t *= 2) {
    const std::size_t lo = T52::offset(t), hi = T52::offset(2 * t);
    const u64 root = pow_mod(generator, (p - 1) / (4 * t), p);  // w_4t
    const u64 root_shoup = shoup_companion(root, p);
    prim::parallel_chunks(t + 1, std::size_t{1} << 12, level_threads(t, threads), [&](std::size_t b, std::size_t e) {
      for (std::size_t j = b; j < e; ++j) {
        tw[hi + 2 * j] = tw[lo + j];
        if (j == t) break;
        const u64 y = mul_shoup(tw[lo + j].w, root, root_shoup, p);
        tw[hi + 2 * j + 1] = {y, shoup_companion(y, p)};
      }
    });
  }
  T.fine = prim::buffer<ntt_twiddle>(T52::fine_entries(top));
  std::size_t fine_have = 0;
  if (use_prefix) {
    fine_have = T52::fine_entries(std::min(prefix->top, top));
    std::copy(prefix->fine.data(), prefix->fine.data() + fine_have, T.fine.data());
  }
  for_fine_powers(p, generator, top, fine_have, false,
                  [&](std::size_t i, u64 x) { T.fine[i] = {x, shoup_companion(x, p)}; });
  return T;
}

std::shared_ptr<const ntt64_level_table> ntt64_levels(unsigned prime, std::size_t top) {
  if (prime >= ntt_prime_count) throw std::invalid_argument("ntt64_levels: prime index out of range");
  static std::mutex mutex[ntt_prime_count];
  static std::shared_ptr<const ntt64_level_table> table[ntt_prime_count];
  const std::size_t want = pow2_at_least(top);
  std::lock_guard<std::mutex> lock(mutex[prime]);
  auto& current = table[prime];
  if (current && current->top >= want) return current;
  current = std::make_shared<const ntt64_level_table>(
      ntt64_build_levels(ntt_primes[prime].p, ntt_primes[prime].generator, want, current.get()));
  return current;
}

// Grows one pair of halves (forward w, inverse iw, with their quotients)
// from `from` to `to` entries (powers of two): entry h + k = entry k times
// the root of order 4 h unit (unit = 1: the fine entries, cap: the coarse).
static void avx2_grow(double* fw, double* fw_p, double* iw, double* iw_p, std::size_t from, std::size_t to,
                      std::size_t unit, u64 p, u64 generator, unsigned threads) {
  const double pd = static_cast<double>(p);
  // The residue in [0, p) of a signed table entry (an exact integer).
  const auto residue = [p](double x) { return x < 0 ? p - static_cast<u64>(-x) : static_cast<u64>(x); };
  for (std::size_t h = from; h < to; h *= 2) {
    const u64 root = pow_mod(generator, (p - 1) / (4 * h * unit), p);
    const u64 root_inv = inv_mod(root, p);
    const u64 root_shoup = shoup_companion(root, p), root_inv_shoup = shoup_companion(root_inv, p);
    prim::parallel_chunks(h, std::size_t{1} << 12, level_threads(h, threads), [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k < e; ++k) {
        const double f = avx2::signed_rep(mul_shoup(residue(fw[k]), root, root_shoup, p), p);
        const double i = avx2::signed_rep(mul_shoup(residue(iw[k]), root_inv, root_inv_shoup, p), p);
        fw[h + k] = f;
        fw_p[h + k] = f / pd;
        iw[h + k] = i;
        iw_p[h + k] = i / pd;
      }
    });
  }
}

ntt_avx2_twiddle_table ntt_avx2_build_twiddles(u64 p, u64 generator, std::size_t half,
                                               const ntt_avx2_twiddle_table* prefix, unsigned threads) {
  if (half == 0 || (half & (half - 1)) != 0) throw std::invalid_argument("ntt_avx2_build_twiddles: half must be 2^k >= 1");
  using T_ = ntt_avx2_twiddle_table;
  ntt_avx2_twiddle_table T;
  T.p = p;
  T.half = half;
  const double pd = static_cast<double>(p);
  const bool reuse = prefix && prefix->half != 0 && prefix->p == p;
  // Fine entries (k < cap), then coarse ones (w[kh cap]), each from the
  // prefix's where it has them, else from entry 0 = 1.
  for (int part = 0; part < 2; ++part) {
    const std::size_t count = part == 0 ? T_::fine_entries(half) : T_::coarse_entries(half);
    if (count == 0) continue;
    prim::buffer<double>&fw = part == 0 ? T.fw : T.cw, &fw_p = part == 0 ? T.fw_p : T.cw_p,
    &iw = part == 0 ? T.iw : T.ciw, &iw_p = part == 0 ? T.iw_p : T.ciw_p;
    fw = prim::buffer<double>(count);
    fw_p = prim::buffer<double>(count);
    iw = prim::buffer<double>(count);
    iw_p = prim::buffer<double>(count);
    std::size_t h = 1;
    const std::size_t had = !reuse ? 0 : part == 0 ? T_::fine_entries(prefix->half) : T_::coarse_entries(prefix->half);
    if (had != 0) {
      h = std::min(had, count);
      const T_& P = *prefix;
      std::copy((part == 0 ? P.fw : P.cw).data(), (part == 0 ? P.fw : P.cw).data() + h, fw.data());
      std::copy((part == 0 ? P.fw_p : P.cw_p).data(), (part == 0 ? P.fw_p : P.cw_p).data() + h, fw_p.data());
      std::copy((part == 0 ? P.iw : P.ciw).data(), (part == 0 ? P.iw : P.ciw).data() + h, iw.data());
      std::copy((part == 0 ? P.iw_p : P.ciw_p).data(), (part == 0 ? P.iw_p : P.ciw_p).data() + h, iw_p.data());
    } else {
      fw[0] = iw[0] = 1;  // w_2^0
      fw_p[0] = iw_p[0] = 1 / pd;
    }
    avx2_grow(fw.data(), fw_p.data(), iw.data(), iw_p.data(), h, count, part == 0 ? 1 : T_::cap, p, generator,
              threads);
  }
  return T;
}

std::shared_ptr<const ntt_avx2_twiddle_table> ntt_avx2_twiddles(unsigned prime, std::size_t half) {
  if (prime >= ntt52_prime_count) throw std::invalid_argument("ntt_avx2_twiddles: prime index out of range");
  static std::mutex mutex[ntt52_prime_count];
  static std::shared_ptr<const ntt_avx2_twiddle_table> table[ntt52_prime_count];
  const std::size_t want = pow2_at_least(half);
  std::lock_guard<std::mutex> lock(mutex[prime]);
  auto& current = table[prime];
  if (current && current->half >= want) return current;
  current = std::make_shared<const ntt_avx2_twiddle_table>(
      ntt_avx2_build_twiddles(ntt52_primes[prime].p, ntt52_primes[prime].generator, want, current.get()));
  return current;
}

}  // namespace bigmul::fft
