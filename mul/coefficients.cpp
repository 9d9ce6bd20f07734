// SPDX-License-Identifier: LGPL-3.0-or-later
#include "mul/coefficients.hpp"

#include <numeric>
#include <utility>

#include "bigmul/error.hpp"
#include "mul/coefficients_period.hpp"

namespace bigmul::detail {
namespace {

constexpr std::uint64_t pow10_table[20] = {1ull,
                                           10ull,
                                           100ull,
                                           1000ull,
                                           10000ull,
                                           100000ull,
                                           1000000ull,
                                           10000000ull,
                                           100000000ull,
                                           1000000000ull,
                                           10000000000ull,
                                           100000000000ull,
                                           1000000000000ull,
                                           10000000000000ull,
                                           100000000000000ull,
                                           1000000000000000ull,
                                           10000000000000000ull,
                                           100000000000000000ull,
                                           1000000000000000000ull,
                                           10000000000000000000ull};

// Decimal periods of K limbs (19 digits per limb): the shared per-period
// arithmetic of mul/coefficients_period.hpp with compile-time offsets.
template <unsigned K>
void dec_split_k(const limb_t* L, std::uint32_t* out) {
  decimal_period_digits<K>([L](std::size_t j) { return L[j]; }, [out](unsigned i, std::uint32_t d) { out[i] = d; });
}
template <unsigned K>
void dec_join_k(const std::uint32_t* d, limb_t* L) {
  decimal_period_join<K>([d](unsigned i) { return d[i]; }, L);
}

using split_fn = void (*)(const limb_t*, std::uint32_t*);
using join_fn = void (*)(const std::uint32_t*, limb_t*);
constexpr split_fn dec_split_table[10] = {nullptr,        dec_split_k<1>, dec_split_k<2>, dec_split_k<3>,
                                          dec_split_k<4>, dec_split_k<5>, dec_split_k<6>, dec_split_k<7>,
                                          dec_split_k<8>, dec_split_k<9>};
constexpr join_fn dec_join_table[10] = {nullptr,       dec_join_k<1>, dec_join_k<2>, dec_join_k<3>,
                                        dec_join_k<4>, dec_join_k<5>, dec_join_k<6>, dec_join_k<7>,
                                        dec_join_k<8>, dec_join_k<9>};

}  // namespace

bool coeff_format::valid() const {
  return rx == radix::binary ? (digits >= 1 && digits <= 32) : (digits >= 1 && digits <= 9);
}

std::uint64_t coeff_format::base() const {
  return rx == radix::binary ? (std::uint64_t{1} << digits) : pow10_table[digits];
}

std::size_t coeff_format::count(std::size_t limbs) const {
  const std::size_t per_limb = rx == radix::binary ? 64 : 19;
  return (limbs * per_limb + digits - 1) / digits;
}

std::size_t period_digits(coeff_format f) {
  return f.rx == radix::binary ? 64 / std::gcd(64u, f.digits) : 19;
}
std::size_t period_limbs(coeff_format f) {
  return f.rx == radix::binary ? f.digits / std::gcd(64u, f.digits) : f.digits;
}

void split_period(const limb_t* src, coeff_format f, std::uint32_t* out) {
  if (f.rx == radix::decimal) {
    dec_split_table[f.digits](src, out);
    return;
  }
  const unsigned k = f.digits;
  const std::size_t pd = period_digits(f);
  const auto load = [src](std::size_t j) { return src[j]; };
  for (std::size_t i = 0; i < pd; ++i) out[i] = binary_digit(load, k, i);
}

void join_period(const std::uint32_t* d, coeff_format f, limb_t* out) {
  if (f.rx == radix::decimal) {
    dec_join_table[f.digits](d, out);
    return;
  }
  const unsigned k = f.digits;
  const std::size_t pl = period_limbs(f);
  const auto digit = [d](std::size_t i) { return static_cast<limb_t>(d[i]); };
  for (std::size_t j = 0; j < pl; ++j) out[j] = binary_limb(digit, k, j);
}

void split_digits(const limb_t* a, std::size_t n, coeff_format f, std::uint32_t* out, unsigned threads) {
  if (!f.valid()) throw error(error::kind::invalid_argument, "invalid coefficient format");
  const std::size_t total = f.count(n), pd = period_digits(f), pl = period_limbs(f);
  const std::size_t periods = (total + pd - 1) / pd;
  prim::parallel_chunks(periods, 2048 / pl + 1, threads, [&](std::size_t p0, std::size_t p1) {
    std::uint32_t buf[64];
    limb_t tail[32];
    for (std::size_t p = p0; p < p1; ++p) {
      const limb_t* src = a + p * pl;
      if (p * pl + pl > n) {
        std::fill(tail, tail + pl, limb_t{0});
        std::copy(a + p * pl, a + n, tail);
        src = tail;
      }
      if ((p + 1) * pd <= total) {
        split_period(src, f, out + p * pd);
      } else {
        split_period(src, f, buf);
        std::copy(buf, buf + (total - p * pd), out + p * pd);
      }
    }
  });
}

void join_digits(const std::uint32_t* d, std::size_t m, coeff_format f, limb_t* out, std::size_t out_n,
                 unsigned threads) {
  if (!f.valid()) throw error(error::kind::invalid_argument, "invalid coefficient format");
  const std::size_t pd = period_digits(f), pl = period_limbs(f);
  const std::size_t periods = (out_n + pl - 1) / pl;
  prim::parallel_chunks(periods, 2048 / pl + 1, threads, [&](std::size_t p0, std::size_t p1) {
    std::uint32_t buf[64];
    limb_t tmp[32];
    for (std::size_t p = p0; p < p1; ++p) {
      const std::uint32_t* src = d + p * pd;
      if ((p + 1) * pd > m) {  // past the digits: zero-extend
        std::fill(buf, buf + pd, 0u);
        if (p * pd < m) std::copy(d + p * pd, d + m, buf);
        src = buf;
      }
      if ((p + 1) * pl <= out_n) {
        join_period(src, f, out + p * pl);
      } else {
        join_period(src, f, tmp);
        std::copy(tmp, tmp + (out_n - p * pl), out + p * pl);
      }
    }
  });
}

}  // namespace bigmul::detail
