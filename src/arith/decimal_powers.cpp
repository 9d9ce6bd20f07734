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

const wide_reciprocal& decimal_power_wide_reciprocal(std::size_t k) {
  static std::mutex m;
  static std::deque<wide_reciprocal> cache;  // index k; empty r: not built yet
  const decimal_power& p = decimal_power_at(k);
  std::lock_guard<std::mutex> lock(m);
  while (cache.size() <= k) cache.emplace_back();
  wide_reciprocal& w = cache[k];
  if (w.r.empty()) {
    // Significant limbs: the fraction x / 10^m needs 19 2^k log_B(10) + 2
    // limbs; one more for the truncations.
    const std::size_t sig = static_cast<std::size_t>(static_cast<double>(p.m) * 0.051905126482615034) + 4;
    const std::size_t e = p.five.size() + sig;
    std::vector<limb_t> num(e + 1, 0);
    num[e] = 1;
    std::vector<limb_t> q(num.size() - p.five.size() + 1), r(p.five.size());
    div_qr(q.data(), r.data(), num.data(), num.size(), p.five.data(), p.five.size());
    trim(q);
    w.exponent_limbs = e;
    w.r = std::move(q);
  }
  return w;
}

}  // namespace bigmul::detail
