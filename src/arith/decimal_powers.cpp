// The power table: entry k + 1 is the square of entry k. Reciprocals are
// computed on request to the precision asked for (a full-length reciprocal of
// every entry cost more than the conversion that needed one of them), then
// cached per entry.
#include "src/arith/decimal_powers.hpp"

#include <bit>
#include <deque>
#include <mutex>

#include "bigmul/arith.hpp"
#include "src/arith/mul_helpers.hpp"
#include "src/arith/reciprocal.hpp"

namespace bigmul::detail {
namespace {

constexpr limb_t five_19 = 19073486328125ull;  // 5^19

std::mutex table_mutex;
std::deque<decimal_power>& table() {
  static std::deque<decimal_power> t;
  return t;
}

void prepare(decimal_power& p) {
  p.shift = static_cast<unsigned>(std::countl_zero(p.five.back()));
  p.normalized.resize(p.five.size());
  lshift(p.normalized.data(), p.five.data(), p.five.size(), p.shift);
}

}  // namespace

const decimal_power& decimal_power_at(std::size_t k) {
  std::lock_guard<std::mutex> lock(table_mutex);
  auto& t = table();
  if (t.empty()) {
    decimal_power p;
    p.m = 19;
    p.five = {five_19};
    prepare(p);
    t.push_back(std::move(p));
  }
  while (t.size() <= k) {
    const decimal_power& prev = t.back();
    decimal_power p;
    p.m = 2 * prev.m;
    p.five.resize(2 * prev.five.size());
    mul_any(p.five.data(), prev.five.data(), prev.five.size(), prev.five.data(), prev.five.size());
    trim(p.five);
    prepare(p);
    t.push_back(std::move(p));
  }
  return t[k];
}

std::shared_ptr<const wide_reciprocal> decimal_power_wide_reciprocal(std::size_t k, std::size_t min_limbs) {
  static std::mutex m;
  static std::deque<std::shared_ptr<const wide_reciprocal>> cache;  // index k
  const decimal_power& p = decimal_power_at(k);
  const std::size_t dn = p.five.size();
  {
    std::lock_guard<std::mutex> lock(m);
    if (cache.size() > k && cache[k] && cache[k]->r.size() >= min_limbs + 3) return cache[k];
  }
  auto w = std::make_shared<wide_reciprocal>();
  // a = the top t limbs of 5^m 2^shift (t < dn: truncated), or it padded with t - dn zero limbs; either way
  // a ~ 5^m 2^shift B^(t - dn) and approx_reciprocal(a) ~ B^(2 t) / a (within
  // 2 units of t + 1 limbs, and r >= B^t) ~ 2^(64 (t + dn) - shift) / 5^m.
  // Truncation (< 2 B^-t relative, as a >= B^t / 2) and approximation
  // (<= 2 B^-t) together stay below 5 B^-t, t = min_limbs + 2.
  const std::size_t t = min_limbs + 2;
  std::vector<limb_t> a(t, 0);
  if (t <= dn) {
    std::copy(p.normalized.end() - static_cast<std::ptrdiff_t>(t), p.normalized.end(), a.begin());
  } else {
    std::copy(p.normalized.begin(), p.normalized.end(), a.begin() + static_cast<std::ptrdiff_t>(t - dn));
  }
  w->r.resize(t + 1);
  approx_reciprocal(w->r.data(), a.data(), a.size());
  w->exponent_bits = 64 * (t + dn) - p.shift;
  std::lock_guard<std::mutex> lock(m);
  while (cache.size() <= k) cache.emplace_back();
  if (!cache[k] || cache[k]->r.size() < w->r.size()) cache[k] = w;
  return w;
}

}  // namespace bigmul::detail
