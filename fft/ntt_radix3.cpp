// SPDX-License-Identifier: LGPL-3.0-or-later
// The portable engine's radix-3 stage (lengths 3 * 2^k, see fft/ntt.hpp):
// its tables and its forward and inverse passes over the array's thirds.
#include <algorithm>

#include "fft/ntt.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {

ntt_radix3_stage::ntt_radix3_stage(u64 prime, u64 generator, std::size_t n) : p(prime), m(n / 3) {
  p_neg_inv = neg_inverse_mod_2_64(p);
  r_mod_p = static_cast<u64>((static_cast<u128>(1) << 64) % p);
  root_n = pow_mod(generator, (p - 1) / n, p);
  root_n_inv = inv_mod(root_n, p);
  cube_root = pow_mod(root_n, m, p);
  cube_root_inv = inv_mod(cube_root, p);
  cube_root_shoup = shoup_companion(cube_root, p);
  cube_root_inv_shoup = shoup_companion(cube_root_inv, p);
  for (int d = 0; d < 2; ++d)
    for (int r = 0; r < 2; ++r) {
      const u64 w = pow_mod(d == 0 ? root_n : root_n_inv, r + 1, p);
      u64 x = 1;
      for (std::size_t i = 0; i < block; ++i, x = mul_mod(x, w, p)) {
        tw[d][r][i] = x;
        tw_shoup[d][r][i] = shoup_companion(x, p);
      }
      block_step_mont[d][r] = mul_mod(x, r_mod_p, p);  // x = w^block
    }
}
// Chunks start on block boundaries, so i = j mod block indexes the tables.
void ntt_radix3_stage::forward(u64* a, unsigned threads) const {
  const u64 pni = p_neg_inv;
  const std::size_t blocks = (m + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    u64 base1 = mul_mod(pow_mod(root_n, b0 * block, p), r_mod_p, p);  // w^j0 R
    u64 base2 = mul_mod(pow_mod(root_n, 2 * b0 * block, p), r_mod_p, p);
    for (std::size_t blk = b0; blk < b1; ++blk) {
      const std::size_t j0 = blk * block, len = std::min(block, m - j0);
      for (std::size_t i = 0; i < len; ++i) {
        const std::size_t j = j0 + i;
        const u64 w1 = mul_shoup(base1, tw[0][0][i], tw_shoup[0][0][i], p);  // w^j R
        const u64 w2 = mul_shoup(base2, tw[0][1][i], tw_shoup[0][1][i], p);
        const u64 x0 = reduce_2p_to_p(a[j], p), x1 = reduce_2p_to_p(a[j + m], p),
                  x2 = reduce_2p_to_p(a[j + 2 * m], p);
        const u64 u = mul_shoup(sub_mod(x1, x2, p), cube_root, cube_root_shoup, p);
        a[j] = add_mod(add_mod(x0, x1, p), x2, p);
        a[j + m] = mont_mul(add_mod(sub_mod(x0, x2, p), u, p), w1, p, pni);
        a[j + 2 * m] = mont_mul(sub_mod(sub_mod(x0, x1, p), u, p), w2, p, pni);
      }
      base1 = mont_mul(base1, block_step_mont[0][0], p, pni);
      base2 = mont_mul(base2, block_step_mont[0][1], p, pni);
    }
  });
}

// z_r = y_r w_n^(-j r), x_l = sum_r z_r w3^(-l r).
void ntt_radix3_stage::inverse(u64* a, unsigned threads) const {
  const u64 pni = p_neg_inv;
  const std::size_t blocks = (m + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    u64 base1 = mul_mod(pow_mod(root_n_inv, b0 * block, p), r_mod_p, p);
    u64 base2 = mul_mod(pow_mod(root_n_inv, 2 * b0 * block, p), r_mod_p, p);
    for (std::size_t blk = b0; blk < b1; ++blk) {
      const std::size_t j0 = blk * block, len = std::min(block, m - j0);
      for (std::size_t i = 0; i < len; ++i) {
        const std::size_t j = j0 + i;
        const u64 w1 = mul_shoup(base1, tw[1][0][i], tw_shoup[1][0][i], p);
        const u64 w2 = mul_shoup(base2, tw[1][1][i], tw_shoup[1][1][i], p);
        const u64 z0 = reduce_2p_to_p(a[j], p);
        const u64 z1 = mont_mul(a[j + m], w1, p, pni), z2 = mont_mul(a[j + 2 * m], w2, p, pni);
        const u64 u = mul_shoup(sub_mod(z1, z2, p), cube_root_inv, cube_root_inv_shoup, p);
        a[j] = add_mod(add_mod(z0, z1, p), z2, p);
        a[j + m] = add_mod(sub_mod(z0, z2, p), u, p);
        a[j + 2 * m] = sub_mod(sub_mod(z0, z1, p), u, p);
      }
      base1 = mont_mul(base1, block_step_mont[1][0], p, pni);
      base2 = mont_mul(base2, block_step_mont[1][1], p, pni);
    }
  });
}

}  // namespace bigmul::fft
