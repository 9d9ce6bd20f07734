// SPDX-License-Identifier: LGPL-3.0-or-later
// The fold cost model of an NTT product's transform shape: ntt_choose_shape
// (mul/ntt_mul.hpp).
//
// Two ways to fold, by cost (per prime, in point-levels len log2 len of the
// three transforms, plus the piece's passes at the engine's piece_pass_cost
// each per element, mul/ntt_engine_iface.hpp):
// a low product recomputes c[0 .. w) from the operands' low w limbs, a
// transform of ~2w points and nothing else, the cheaper for a small
// overhang; a piece (mul/ntt_piece.hpp) takes M >= w points (M | n, about
// half the low product's) but passes over both operands and r1, the cheaper
// from w ~ n/10 on, and it also folds w up to n/4 where the low product's
// 2w points would cost as much as the next length. A low product is taken
// when it is 10% below the plain shape (its model leaves out its loads), a
// piece when 5% below (its passes are in the model). The piece beats the
// plain next length at w ~ n/5 and loses to the low product below w ~ n/10
// (bench/mul/bench_mul's rows at those sizes).
#include <algorithm>
#include <cmath>

#include "fft/ntt.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_piece.hpp"

namespace bigmul::detail {

ntt_shape ntt_choose_shape(std::size_t an, std::size_t bn, ntt_engine e, ntt_fold fold) {
  const std::size_t count = an + bn - 1;
  ntt_shape plain;
  plain.n = fft::ntt_fit_length(count);
  if (count < 256 || plain.n == 0) return plain;
  const std::size_t n = fft::ntt_length_below(count), wrap = count - n;
  if (an > n || bn > n) return plain;  // an operand longer than n would have to be folded too
  const auto f = [](std::size_t len) { return static_cast<double>(len) * std::log2(static_cast<double>(len)); };
  const std::size_t low = fft::ntt_fit_length(std::min(wrap, an) + std::min(wrap, bn) - 1);
  const std::size_t m = ntt_piece_length(n, wrap);
  const double c_low = 3 * (f(n) + f(low));
  // Past 2^19 points the passes stream from memory, not cache: several
  // times their in-cache cost relative to the transforms'.
  const double pass = ntt_engine_of(e).piece_pass_cost * (n > (std::size_t{1} << 19) ? 3.5 : 1.0);
  const double c_piece = m == 0 ? c_low : 3 * (f(n) + f(m)) + pass * static_cast<double>(an + bn + n + 2 * m);
  const double c_plain = 3 * f(plain.n);
  if (fold == ntt_fold::automatic && c_low > 0.9 * c_plain && (m == 0 || c_piece > 0.95 * c_plain)) return plain;
  ntt_shape s{n, wrap, 0, 0};
  if (m != 0 && (fold == ntt_fold::piece ||
                 (fold == ntt_fold::automatic && (c_piece < c_low || c_low > 0.9 * c_plain))))
    s.piece = m;
  else
    s.low_length = low;
  return s;
}

}  // namespace bigmul::detail
