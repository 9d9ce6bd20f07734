// SPDX-License-Identifier: LGPL-3.0-or-later
#include "mul/modcheck.hpp"

#include <vector>

#include "prim/parallel.hpp"

namespace bigmul::detail {
namespace {

// Sum a[i] base^i over i < n, mod p. One Horner chain is latency bound (a
// multiply and the fold each limb, a visible part of a one-shot CLI product
// checking a, b and the product); four chains over
// the limbs i = 4k + j, each in base^4, overlap, then combine as
// sum_j base^j h_j, and the top n mod 4 limbs go on above them.
std::uint64_t horner(const limb_t* a, std::size_t n, std::uint64_t base) {
  const std::size_t q = n / 4;
  const std::uint64_t base4 = mod_p_pow(base, 4);
  std::uint64_t h0 = 0, h1 = 0, h2 = 0, h3 = 0;
  for (std::size_t k = q; k-- > 0;) {
    const limb_t* x = a + 4 * k;
    h0 = mod_p_reduce(static_cast<unsigned __int128>(h0) * base4 + x[0]);
    h1 = mod_p_reduce(static_cast<unsigned __int128>(h1) * base4 + x[1]);
    h2 = mod_p_reduce(static_cast<unsigned __int128>(h2) * base4 + x[2]);
    h3 = mod_p_reduce(static_cast<unsigned __int128>(h3) * base4 + x[3]);
  }
  std::uint64_t h = h3;
  for (const std::uint64_t l : {h2, h1, h0}) h = mod_p_reduce(static_cast<unsigned __int128>(h) * base + l);
  std::uint64_t top = 0;
  for (std::size_t i = n; i-- > 4 * q;) top = mod_p_reduce(static_cast<unsigned __int128>(top) * base + a[i]);
  return top == 0 ? h : mod_p_add(mod_p_mul(top, mod_p_pow(base, 4 * q)), h);
}

}  // namespace

std::uint64_t residue_mod_p(const limb_t* a, std::size_t n, radix rx, unsigned threads) {
  const std::uint64_t base = limb_base_mod_p(rx);
  // Horner per chunk, chunks combined with base^(chunk length).
  const std::size_t chunks = prim::chunk_count(n, 1 << 16, threads);
  if (chunks <= 1) return horner(a, n, base);
  std::vector<std::uint64_t> part(chunks);
  prim::parallel_for(chunks, threads, [&](std::size_t c) {
    const std::size_t b = n * c / chunks, e = n * (c + 1) / chunks;
    part[c] = horner(a + b, e - b, base);
  });
  std::uint64_t h = 0;
  for (std::size_t c = chunks; c-- > 0;) {
    const std::size_t b = n * c / chunks, e = n * (c + 1) / chunks;
    h = mod_p_reduce(static_cast<unsigned __int128>(mod_p_mul(h, mod_p_pow(base, e - b))) + part[c]);
  }
  return h;
}

}  // namespace bigmul::detail
