#include "mul/modcheck.hpp"

#include <vector>

#include "prim/parallel.hpp"

namespace bigmul::detail {
std::uint64_t residue_mod_p(const limb_t* a, std::size_t n, radix rx, unsigned threads) {
  const std::uint64_t base = limb_base_mod_p(rx);
  // Horner per chunk, chunks combined with base^(chunk length).
  const std::size_t chunks = prim::chunk_count(n, 1 << 16, threads);
  if (chunks <= 1) {
    std::uint64_t h = 0;
    for (std::size_t i = n; i-- > 0;) h = mod_p_reduce(static_cast<unsigned __int128>(h) * base + a[i]);
    return h;
  }
  std::vector<std::uint64_t> part(chunks);
  prim::parallel_for(chunks, threads, [&](std::size_t c) {
    const std::size_t b = n * c / chunks, e = n * (c + 1) / chunks;
    std::uint64_t h = 0;
    for (std::size_t i = e; i-- > b;) h = mod_p_reduce(static_cast<unsigned __int128>(h) * base + a[i]);
    part[c] = h;
  });
  std::uint64_t h = 0;
  for (std::size_t c = chunks; c-- > 0;) {
    const std::size_t b = n * c / chunks, e = n * (c + 1) / chunks;
    h = mod_p_reduce(static_cast<unsigned __int128>(mod_p_mul(h, mod_p_pow(base, e - b))) + part[c]);
  }
  return h;
}

}  // namespace bigmul::detail
