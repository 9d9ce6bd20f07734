// The power table: entry k + 1 is the square of entry k; reciprocals are
// computed once per entry, so every division by the same power reuses them.
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
  p.reciprocal.resize(p.five.size() + 1);
  approx_reciprocal(p.reciprocal.data(), p.normalized.data(), p.normalized.size());
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
    if (cache.size() > k && cache[k] && cache[k]->r.size() >= min_limbs + 1) return cache[k];
  }
  auto w = std::make_shared<wide_reciprocal>();
  // approx_reciprocal(a) ~ B^(2 n) / a for a = 5^m 2^shift B^z (n = dn + z limbs).
  const std::size_t z = min_limbs > dn ? min_limbs - dn : 0;
  if (z == 0) {
    w->r = p.reciprocal;
  } else {
    std::vector<limb_t> a(dn + z, 0);
    std::copy(p.normalized.begin(), p.normalized.end(), a.begin() + static_cast<std::ptrdiff_t>(z));
    w->r.resize(dn + z + 1);
    approx_reciprocal(w->r.data(), a.data(), a.size());
  }
  w->exponent_bits = 64 * (2 * dn + z) - p.shift;
  std::lock_guard<std::mutex> lock(m);
  while (cache.size() <= k) cache.emplace_back();
  if (!cache[k] || cache[k]->r.size() < w->r.size()) cache[k] = w;
  return w;
}

}  // namespace bigmul::detail
