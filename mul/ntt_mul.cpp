// Three-prime NTT multiplication: see mul/ntt_mul.hpp.
#include "mul/ntt_mul.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "fft/ntt.hpp"
#include "mul/limb_ops.hpp"
#include "prim/buffer.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {
namespace {

using fft::u64;
using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

constexpr std::size_t grain = std::size_t{1} << 13;

// Garner's constants for x = v1 + p1 v2 + p1 p2 v3 from the three residues.
struct crt_constants {
  u64 p1, p2, p3;
  u64 inv_p1_mod_p2, inv_p1_mod_p2_shoup;
  u64 p1_mod_p3, p1_mod_p3_shoup;
  u64 inv_p1p2_mod_p3, inv_p1p2_mod_p3_shoup;
  u64 p1p2_lo, p1p2_hi;
};

const crt_constants& crt() {
  static const crt_constants c = [] {
    crt_constants k{};
    k.p1 = fft::ntt_primes[0].p;
    k.p2 = fft::ntt_primes[1].p;
    k.p3 = fft::ntt_primes[2].p;
    k.inv_p1_mod_p2 = fft::inv_mod(k.p1 % k.p2, k.p2);
    k.inv_p1_mod_p2_shoup = fft::shoup_companion(k.inv_p1_mod_p2, k.p2);
    k.p1_mod_p3 = k.p1 % k.p3;
    k.p1_mod_p3_shoup = fft::shoup_companion(k.p1_mod_p3, k.p3);
    k.inv_p1p2_mod_p3 = fft::inv_mod(fft::mul_mod(k.p1_mod_p3, k.p2 % k.p3, k.p3), k.p3);
    k.inv_p1p2_mod_p3_shoup = fft::shoup_companion(k.inv_p1p2_mod_p3, k.p3);
    const fft::u128 p1p2 = static_cast<fft::u128>(k.p1) * k.p2;
    k.p1p2_lo = static_cast<u64>(p1p2);
    k.p1p2_hi = static_cast<u64>(p1p2 >> 64);
    return k;
  }();
  return c;
}

inline u64 sub_mod(u64 a, u64 b, u64 p) { return a >= b ? a - b : a + p - b; }

// The coefficient with residues r1, r2, r3 (each in [0, 2 p_i)), as three limbs.
// The primes are in decreasing order, so p1 < 2 p2 and p1 < 2 p3.
inline void crt_combine(const crt_constants& k, u64 r1, u64 r2, u64 r3, u64 x[3]) {
  using fft::reduce_2p_to_p;
  const u64 v1 = reduce_2p_to_p(r1, k.p1);
  r2 = reduce_2p_to_p(r2, k.p2);
  r3 = reduce_2p_to_p(r3, k.p3);
  const u64 v2 = fft::mul_shoup(sub_mod(r2, reduce_2p_to_p(v1, k.p2), k.p2), k.inv_p1_mod_p2,
                                k.inv_p1_mod_p2_shoup, k.p2);
  u64 s = reduce_2p_to_p(v1, k.p3) + fft::mul_shoup(v2, k.p1_mod_p3, k.p1_mod_p3_shoup, k.p3);
  s = reduce_2p_to_p(s, k.p3);
  const u64 v3 = fft::mul_shoup(sub_mod(r3, s, k.p3), k.inv_p1p2_mod_p3, k.inv_p1p2_mod_p3_shoup, k.p3);
  // v1 + p1 v2 (< 2^125) + p1 p2 v3 (< 2^186).
  const fft::u128 low = static_cast<fft::u128>(k.p1) * v2 + v1;
  const fft::u128 t0 = static_cast<fft::u128>(k.p1p2_lo) * v3;
  const fft::u128 t1 = static_cast<fft::u128>(k.p1p2_hi) * v3 + static_cast<u64>(t0 >> 64);
  const fft::u128 s0 = static_cast<fft::u128>(static_cast<u64>(t0)) + static_cast<u64>(low);
  const fft::u128 s1 = static_cast<fft::u128>(static_cast<u64>(t1)) + static_cast<u64>(low >> 64) +
                       static_cast<u64>(s0 >> 64);
  x[0] = static_cast<u64>(s0);
  x[1] = static_cast<u64>(s1);
  x[2] = static_cast<u64>(t1 >> 64) + static_cast<u64>(s1 >> 64);
}

// x (< 2^162) as base-10^19 digits.
inline void to_decimal_digits(u64 x[3]) {
  const qr64 hi = div_1e19((static_cast<fft::u128>(x[2]) << 64) | x[1]);  // x[2] < 2^34 < 10^19
  const qr64 lo = div_1e19((static_cast<fft::u128>(hi.r) << 64) | x[0]);
  const qr64 top = div_1e19((static_cast<fft::u128>(hi.q) << 64) | lo.q);  // hi.q < 2^35
  x[0] = lo.r;
  x[1] = top.r;
  x[2] = top.q;
}

// r[i] += x at limb offset i, carries rippling up to r[rn); returns false if
// anything would land at or beyond rn.
bool add_at(limb_t* r, std::size_t rn, std::size_t i, const u64 x[3], radix rx) {
  limb_t c = 0;
  for (int k = 0; k < 3; ++k, ++i) {
    if (i >= rn) {
      if (x[k] || c) return false;
      continue;
    }
    r[i] = add_limb(r[i], x[k], c, rx);
  }
  for (; c && i < rn; ++i) r[i] = add_limb(r[i], 0, c, rx);
  return c == 0;
}

void load_residues(u64* dst, std::size_t n, const limb_t* src, std::size_t len, u64 p, unsigned threads) {
  prim::parallel_chunks(n, grain, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) dst[i] = i < len ? fft::reduce_u64_to_2p(src[i], p) : 0;
  });
}

}  // namespace

std::size_t ntt_transform_length(std::size_t an, std::size_t bn) { return fft::ntt_fit_length(an + bn - 1); }

void mul_ntt(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
             const mul_options& options, mul_stats& st) {
  const std::size_t count = an + bn - 1;  // convolution coefficients
  const std::size_t n = ntt_transform_length(an, bn);
  if (n == 0)
    throw error(error::kind::domain, "ntt: a product of " + std::to_string(an + bn) +
                                         " limbs needs a transform longer than 3*2^32 points");
  const unsigned threads = prim::resolve_threads(options.threads);
  const bool square = a == b && an == bn;
  st.transform_length = n;
  st.coefficient_digits = rx == radix::binary ? 64 : decimal_limb_digits;

  prim::buffer<u64> res[fft::ntt_prime_count];
  prim::buffer<u64> other(square ? 0 : n);
  for (unsigned k = 0; k < fft::ntt_prime_count; ++k) {
    const auto plan = fft::ntt_plan::get(k, n);
    const u64 p = plan->modulus();
    res[k] = prim::buffer<u64>(n);
    auto t0 = clock_type::now();
    load_residues(res[k].data(), n, a, an, p, threads);
    if (!square) load_residues(other.data(), n, b, bn, p, threads);
    st.t_split += seconds_since(t0);

    t0 = clock_type::now();
    plan->forward(res[k].data(), threads);
    if (!square) plan->forward(other.data(), threads);
    st.t_forward += seconds_since(t0);

    // c = a b / n: a Montgomery product (a b / 2^64) times 2^64 / n.
    t0 = clock_type::now();
    const u64 p_neg_inv = fft::neg_inverse_mod_2_64(p);
    const u64 r_mod_p = static_cast<u64>((static_cast<fft::u128>(1) << 64) % p);
    const u64 scale = fft::mul_mod(r_mod_p, fft::inv_mod(n % p, p), p);
    const u64 scale_shoup = fft::shoup_companion(scale, p);
    u64* x = res[k].data();
    const u64* y = square ? x : other.data();
    prim::parallel_chunks(n, grain, threads, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) {
        const u64 m = fft::montgomery_reduce_lazy(static_cast<fft::u128>(x[i]) * y[i], p, p_neg_inv);
        x[i] = fft::mul_shoup_lazy(m, scale, scale_shoup, p);
      }
    });
    st.t_pointwise += seconds_since(t0);

    t0 = clock_type::now();
    plan->inverse(x, threads);
    st.t_inverse += seconds_since(t0);
  }
  other = prim::buffer<u64>();

  // Chinese remaindering and carries: each chunk writes its own limbs and
  // keeps what carries past its end; the chunks' tails are added in order.
  const auto t0 = clock_type::now();
  const crt_constants& k = crt();
  const std::size_t rn = an + bn;
  const std::size_t chunks = prim::chunk_count(count, grain, threads);
  std::vector<u64> tails(3 * chunks);
  prim::parallel_for(chunks, threads, [&](std::size_t c) {
    const std::size_t lo = count * c / chunks, hi = count * (c + 1) / chunks;
    u64 pend[3] = {0, 0, 0};
    for (std::size_t i = lo; i < hi; ++i) {
      u64 v[3];
      crt_combine(k, res[0][i], res[1][i], res[2][i], v);
      if (rx == radix::decimal) to_decimal_digits(v);
      limb_t carry = 0;
      pend[0] = add_limb(pend[0], v[0], carry, rx);
      pend[1] = add_limb(pend[1], v[1], carry, rx);
      pend[2] = add_limb(pend[2], v[2], carry, rx);  // no carry out: pend < 2^163 / B
      r[i] = pend[0];
      pend[0] = pend[1];
      pend[1] = pend[2];
      pend[2] = 0;
    }
    std::copy(pend, pend + 3, tails.begin() + 3 * c);
  });
  for (std::size_t i = count; i < rn; ++i) r[i] = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t end = count * (c + 1) / chunks;
    if (!add_at(r, rn, end, tails.data() + 3 * c, rx))
      throw error(error::kind::internal, "ntt: the product overflowed its " + std::to_string(rn) + " limbs");
  }
  st.t_carry += seconds_since(t0);
}

}  // namespace bigmul::detail
