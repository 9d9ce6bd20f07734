// The distributed transform's shape (dist/shape.hpp).
#include "dist/shape.hpp"

#include "fft/ntt.hpp"

namespace bigmul::dist {

shape four_step_shape(std::size_t count) {
  const std::size_t n = fft::ntt_fit_length(std::max<std::size_t>(count, 16));
  if (n == 0) return {};
  const std::size_t pow2 = n % 3 == 0 ? n / 3 : n;
  std::size_t n1 = 1;
  while (n1 * n1 < pow2) n1 *= 2;
  if (n1 * n1 > pow2) n1 /= 2;  // n1 = 2^floor(log2(pow2) / 2): n2 >= n1
  return {n, n1, n / n1};
}

std::vector<std::uint32_t> frequency_positions(std::size_t m) {
  const std::size_t thirds = m % 3 == 0 ? 3 : 1, pow2 = m / thirds;
  unsigned bits = 0;
  while ((std::size_t{1} << bits) < pow2) ++bits;
  std::vector<std::uint32_t> pos(m);
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t third = k % thirds, inner = k / thirds;
    std::size_t rev = 0;
    for (unsigned i = 0; i < bits; ++i) rev |= ((inner >> i) & 1) << (bits - 1 - i);
    pos[k] = static_cast<std::uint32_t>(third * pow2 + rev);
  }
  return pos;
}

}  // namespace bigmul::dist
