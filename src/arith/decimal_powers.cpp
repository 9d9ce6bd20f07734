// SPDX-License-Identifier: LGPL-3.0-or-later
// The power table: entry k + 1 is the square of entry k. Reciprocals are
// computed on request to the precision asked for (a full-length reciprocal of
// every entry cost more than the conversion that needed one of them), then
// cached per entry.
#include "src/arith/decimal_powers.hpp"

#include <bit>
#include <mutex>
#include <vector>

#include "bigmul/arith.hpp"
#include "mul/release_hooks.hpp"
#include "src/arith/mul_helpers.hpp"
#include "src/arith/ntt_reuse.hpp"
#include "src/arith/reciprocal.hpp"

namespace bigmul::detail {
namespace {

constexpr limb_t five_19 = 19073486328125ull;  // 5^19

std::mutex table_mutex;
std::vector<std::shared_ptr<const decimal_power>>& table() {
  static std::vector<std::shared_ptr<const decimal_power>> t;
  return t;
}

std::mutex reciprocal_mutex;
std::vector<std::shared_ptr<const wide_reciprocal>>& reciprocals() {  // index k: the widest so far
  static std::vector<std::shared_ptr<const wide_reciprocal>> c;
  return c;
}

void prepare(decimal_power& p) {
  p.shift = static_cast<unsigned>(std::countl_zero(p.five.back()));
  p.normalized.resize(p.five.size());
  lshift(p.normalized.data(), p.five.data(), p.five.size(), p.shift);
}

}  // namespace

void release_decimal_powers() {
  std::vector<std::shared_ptr<const decimal_power>> t;
  std::vector<std::shared_ptr<const wide_reciprocal>> r;
  {
    std::lock_guard<std::mutex> lock(table_mutex);
    t.swap(table());
  }
  {
    std::lock_guard<std::mutex> lock(reciprocal_mutex);
    r.swap(reciprocals());
  }
  ntt_reuse_release_scratch();  // the calling thread's conversion transform buffers
}

std::shared_ptr<const decimal_power> decimal_power_at(std::size_t k) {
  static std::once_flag registered;
  std::call_once(registered, [] { add_release_hook(&release_decimal_powers); });
  std::lock_guard<std::mutex> lock(table_mutex);
  auto& t = table();
  if (t.empty()) {
    auto p = std::make_shared<decimal_power>();
    p->m = 19;
    p->five = {five_19};
    prepare(*p);
    t.push_back(std::move(p));
  }
  while (t.size() <= k) {
    const decimal_power& prev = *t.back();
    auto p = std::make_shared<decimal_power>();
    p->m = 2 * prev.m;
    p->five.resize(2 * prev.five.size());
    mul_any(p->five.data(), prev.five.data(), prev.five.size(), prev.five.data(), prev.five.size());
    trim(p->five);
    prepare(*p);
    t.push_back(std::move(p));
  }
  return t[k];
}

std::shared_ptr<const wide_reciprocal> decimal_power_wide_reciprocal(std::size_t k, std::size_t min_limbs) {
  const std::shared_ptr<const decimal_power> pp = decimal_power_at(k);
  const decimal_power& p = *pp;
  const std::size_t dn = p.five.size();
  {
    std::lock_guard<std::mutex> lock(reciprocal_mutex);
    const auto& cache = reciprocals();
    if (cache.size() > k && cache[k] && cache[k]->r.size() >= min_limbs + 3) return cache[k];
  }
  auto w = std::make_shared<wide_reciprocal>();
  // a = the top t limbs of 5^m 2^shift (t < dn: truncated), or it padded with t - dn zero limbs; either way
  // a ~ 5^m 2^shift B^(t - dn) and approx_reciprocal(a) ~ B^(2 t) / a (within
  // 2 units of t + 1 limbs, and r >= B^t) ~ 2^(64 (t + dn) - shift) / 5^m.
  // Truncation (< 2 B^-t relative, as a >= B^t / 2) and approximation
  // (<= 2 B^-t) together stay below 5 B^-t, t >= min_limbs + 2.
  // 1/64 more than asked for: operands of nearly the same length (the two
  // operands of one product) then share one reciprocal.
  const std::size_t t = min_limbs + 2 + min_limbs / 64;
  std::vector<limb_t> a(t, 0);
  if (t <= dn) {
    std::copy(p.normalized.end() - static_cast<std::ptrdiff_t>(t), p.normalized.end(), a.begin());
  } else {
    std::copy(p.normalized.begin(), p.normalized.end(), a.begin() + static_cast<std::ptrdiff_t>(t - dn));
  }
  w->r.resize(t + 1);
  approx_reciprocal(w->r.data(), a.data(), a.size());
  w->exponent_bits = 64 * (t + dn) - p.shift;
  std::lock_guard<std::mutex> lock(reciprocal_mutex);
  auto& cache = reciprocals();
  while (cache.size() <= k) cache.emplace_back();
  if (!cache[k] || cache[k]->r.size() < w->r.size()) cache[k] = w;
  return w;
}

}  // namespace bigmul::detail
