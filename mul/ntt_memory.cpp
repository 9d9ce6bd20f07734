// SPDX-License-Identifier: LGPL-3.0-or-later
// An NTT product's residue arrays and its memory estimates: see
// mul/ntt_memory.hpp and mul/ntt_mul.hpp.
#include "mul/ntt_memory.hpp"

#include <algorithm>
#include <cstdint>

#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_scratch.hpp"

namespace bigmul::detail {
namespace {

// Below this many points a product takes one more array rather than pack
// prime 0's residues (ntt_plan_arrays): at most 512 KiB more.
constexpr std::size_t pack_min_points = std::size_t{1} << 16;

// A product whose limbs alone pass the longest transform (coefficients are at
// least as many as limbs): no layout fits, and the sizes stay clear of the
// overflow in an + bn and in limbs * 64 / bits.
bool beyond_ntt_reach(std::size_t an, std::size_t bn) {
  return an > fft::ntt_max_length || bn > fft::ntt_max_length || an + bn - 1 > fft::ntt_max_length;
}

}  // namespace

ntt_arrays ntt_plan_arrays(const ntt_layout& l, fft::u64 p0, std::size_t an, std::size_t bn, unsigned threads,
                           bool square) {
  ntt_arrays A;
  const std::size_t n = l.shape.n, count = l.ca + l.cb - 1, rn = an + bn;
  A.points = std::max(n, count);
  // A piece's shape is by task only while the whole product fits the
  // by-task length: at n = 2^16 its overhang reaches n / 4 (2:1 products of
  // 10^6 digits), and 2 x primes arrays of n + w points would pass 4x the
  // operands' bytes.
  A.by_task = threads > 1 && (l.shape.piece != 0 ? A.points : n) <= ntt_by_task_max_length;
  if (A.by_task) {
    // A square's piece takes a second array per prime too (the primes' pieces run side by side).
    A.arrays = square && l.shape.wrap == 0 ? l.primes : 2 * l.primes;
    return A;
  }
  A.arrays = l.primes;
  // A square needs b's array only for a folded piece (M words).
  A.last_b_in_result = (square ? std::max(l.shape.low_length, l.shape.piece) : A.points) <= rn;
  if (!A.last_b_in_result) {
    // Packing saves one array for two passes over prime 0's residues, a
    // visible cost at mid sizes: only for large arrays.
    A.pack_first =
        l.primes >= 2 && A.points > pack_min_points && ntt_packed_words(count, ntt_residue_width(p0)) <= rn;
    if (!A.pack_first) ++A.arrays;
  }
  return A;
}

std::size_t ntt_heap_bytes(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned threads) {
  const ntt_engine_iface& E = ntt_engine_of(e);
  if (beyond_ntt_reach(an, bn)) return SIZE_MAX;
  const ntt_layout l = ntt_choose_layout(E.id, an, bn, rx);
  if (l.shape.n == 0) return SIZE_MAX;
  const unsigned th = ntt_threads(l.shape.n, threads);
  const ntt_arrays A = ntt_plan_arrays(l, E.primes[0].p, an, bn, th, false);
  return A.arrays * ntt_scratch_stride(A.points) * sizeof(fft::u64);
}

std::size_t ntt_table_bytes(ntt_engine e, std::size_t an, std::size_t bn, radix rx) {
  const ntt_engine_iface& E = ntt_engine_of(e);
  if (beyond_ntt_reach(an, bn)) return SIZE_MAX;
  const ntt_layout l = ntt_choose_layout(E.id, an, bn, rx);
  const std::size_t n = l.shape.n;
  if (n == 0) return SIZE_MAX;
  // Every plan of length n = m or 3m (m a power of two) takes its prime's
  // table up to m / 2 (fft/ntt_ifma.cpp, fft/ntt.cpp, fft/ntt_avx2.cpp).
  const std::size_t m = n & (~n + 1);
  return l.primes * E.table_bytes(m / 2);
}

}  // namespace bigmul::detail
