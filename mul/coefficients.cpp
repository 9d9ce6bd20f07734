#include "mul/coefficients.hpp"

#include <numeric>
#include <utility>

#include "bigmul/error.hpp"

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

// Decimal digit I of a period of K limbs (19 digits per limb): compile-time
// offsets, so the divisions below are by constants.
template <unsigned K, unsigned I>
inline std::uint32_t dec_digit(const limb_t* L) {
  constexpr unsigned d = I * K, j = d / 19, off = d % 19;
  if constexpr (off + K <= 19) {
    return static_cast<std::uint32_t>((L[j] / pow10_table[off]) % pow10_table[K]);
  } else {
    constexpr unsigned low_digits = 19 - off;
    return static_cast<std::uint32_t>(L[j] / pow10_table[off] +
                                      (L[j + 1] % pow10_table[K - low_digits]) * pow10_table[low_digits]);
  }
}

template <unsigned K, unsigned... I>
inline void dec_split(const limb_t* L, std::uint32_t* out, std::integer_sequence<unsigned, I...>) {
  ((out[I] = dec_digit<K, I>(L)), ...);
}

template <unsigned K, unsigned I>
inline void dec_put(const std::uint32_t* d, limb_t* L) {
  constexpr unsigned pos = I * K, j = pos / 19, off = pos % 19;
  if constexpr (off + K <= 19) {
    L[j] += d[I] * pow10_table[off];
  } else {
    constexpr unsigned low_digits = 19 - off;
    L[j] += (d[I] % pow10_table[low_digits]) * pow10_table[off];
    L[j + 1] += d[I] / pow10_table[low_digits];
  }
}

template <unsigned K, unsigned... I>
inline void dec_join(const std::uint32_t* d, limb_t* L, std::integer_sequence<unsigned, I...>) {
  for (unsigned j = 0; j < K; ++j) L[j] = 0;
  (dec_put<K, I>(d, L), ...);
}

template <unsigned K>
void dec_split_k(const limb_t* L, std::uint32_t* out) {
  dec_split<K>(L, out, std::make_integer_sequence<unsigned, 19>{});
}
template <unsigned K>
void dec_join_k(const std::uint32_t* d, limb_t* L) {
  dec_join<K>(d, L, std::make_integer_sequence<unsigned, 19>{});
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
  const limb_t mask = (limb_t{1} << k) - 1;
  for (std::size_t i = 0; i < pd; ++i) {
    const std::size_t bit = i * k, j = bit / 64, off = bit % 64;
    limb_t v = src[j] >> off;
    if (off + k > 64) v |= src[j + 1] << (64 - off);
    out[i] = static_cast<std::uint32_t>(v & mask);
  }
}

void join_period(const std::uint32_t* d, coeff_format f, limb_t* out) {
  if (f.rx == radix::decimal) {
    dec_join_table[f.digits](d, out);
    return;
  }
  const unsigned k = f.digits;
  const std::size_t pd = period_digits(f), pl = period_limbs(f);
  for (std::size_t j = 0; j < pl; ++j) out[j] = 0;
  for (std::size_t i = 0; i < pd; ++i) {
    const std::size_t bit = i * k, j = bit / 64, off = bit % 64;
    out[j] |= static_cast<limb_t>(d[i]) << off;
    if (off + k > 64) out[j + 1] |= static_cast<limb_t>(d[i]) >> (64 - off);
  }
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
