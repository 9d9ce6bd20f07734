// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::fixed_factor: one operand's NTT transforms kept for many products
// (include/bigmul/fixed_factor.hpp), over the converter's fixed-factor
// products (src/arith/ntt_reuse.hpp) sized so that no product wraps.
#include "bigmul/fixed_factor.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/entry_checks.hpp"
#include "fft/ntt.hpp"
#include "mul/ntt_mul.hpp"
#include "prim/parallel.hpp"
#include "src/arith/ntt_reuse.hpp"

namespace bigmul {

struct fixed_factor::state {
  radix rx = radix::binary;
  bool negative = false;  // the integer constructor's sign of b
  std::size_t max_an = 0;
  std::vector<limb_t> b;  // b's limbs: products that go to bigmul::mul
  std::unique_ptr<detail::ntt_fixed_factor> ntt;  // null: every product goes to mul
  bool kept_at_max = false;  // whether an operand of max_an limbs uses the kept transforms (fixed_pays)
  bool uses_kept(std::size_t an) const;
};

namespace {

const char* radix_name(radix rx) { return rx == radix::binary ? "binary" : "decimal"; }

// The NTT's cost of a product in transform points: `transforms` transforms
// of n points on each prime.
std::size_t cost(std::size_t transforms, unsigned primes, std::size_t n) { return transforms * primes * n; }

// Whether bigmul::mul would multiply an x bn limbs with the NTT on the CPU
// (only then is a transform kept worth it).
bool mul_runs_ntt(std::size_t an, std::size_t bn, radix rx) { return mul_heap_bytes(an, bn, rx) != 0; }

// Below this many points mul's own transforms (folded shapes, fused loads)
// cost as much as the two kept-length ones: products go to mul and no
// transform is kept. (Not tuned: about 10^4 digits a product.)
constexpr std::size_t min_points = std::size_t{1} << 12;

// The transform holds every coefficient of a max_an x bn product.
std::size_t min_length(std::size_t max_an, std::size_t bn) { return max_an + bn - 1; }

// Whether the kept transforms beat bigmul::mul for an a of an limbs: two
// transforms of the kept length against mul's three of its own (shorter
// when a is much shorter than max_an; a folded shape's piece or low product
// counted as transforms of its length).
bool fixed_pays(const detail::ntt_fixed_factor& f, std::size_t an, std::size_t bn, radix rx) {
  if (!mul_runs_ntt(an, bn, rx) || f.length() < min_points) return false;
  const detail::ntt_layout plain = detail::ntt_choose_layout(detail::ntt_default_engine(), std::max(an, bn),
                                                             std::min(an, bn), rx);
  const std::size_t plain_points = plain.shape.n + plain.shape.piece + plain.shape.low_length;
  return cost(2, f.primes(), f.length() + f.low_length() + f.piece_length()) < cost(3, plain.primes, plain_points);
}

}  // namespace

fixed_factor::fixed_factor(const limb_t* b, std::size_t bn, std::size_t max_an, radix rx, unsigned threads) try
    : s_(std::make_unique<state>()) {
  static constexpr const char* who = "bigmul::fixed_factor";
  detail::check_radix(rx, who);
  if (bn == 0 || max_an == 0)
    throw error(error::kind::invalid_argument, std::string(who) + ": needs bn >= 1 and max_an >= 1 (got bn=" +
                                                   std::to_string(bn) + ", max_an=" + std::to_string(max_an) + ")");
  if (!b) throw error(error::kind::invalid_argument, std::string(who) + ": null pointer");
  detail::check_product_size(max_an, bn, who);
  if (rx == radix::decimal) detail::check_decimal(b, bn, who, "b");
  state& s = *s_;
  s.rx = rx;
  s.max_an = max_an;
  s.b.assign(b, b + bn);
  (void)threads;  // the transforms of b use the library's default, as the converter's do
  if (mul_runs_ntt(max_an, bn, rx) && fft::ntt_fit_length(min_length(max_an, bn)) >= min_points) {
    if (heap_bytes(bn, max_an, rx) == SIZE_MAX)
      throw error(error::kind::domain, std::string(who) + ": " + std::to_string(max_an) + " + " + std::to_string(bn) +
                                           " limbs is beyond the NTT's longest transform");
    s.ntt = std::make_unique<detail::ntt_fixed_factor>(b, bn, max_an, min_length(max_an, bn), rx, true);
    s.kept_at_max = fixed_pays(*s.ntt, max_an, bn, rx);
  }
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::fixed_factor");
}

namespace {

const limb_t* nonzero(const integer& b) {
  if (b.is_zero()) throw error(error::kind::invalid_argument, "bigmul::fixed_factor: the fixed operand is 0");
  return b.magnitude().data();
}

}  // namespace

fixed_factor::fixed_factor(const integer& b, std::size_t max_an, unsigned threads)
    : fixed_factor(nonzero(b), b.size(), max_an, b.get_radix(), threads) {
  s_->negative = b.sign() < 0;
}

fixed_factor::~fixed_factor() = default;
fixed_factor::fixed_factor(fixed_factor&&) noexcept = default;
fixed_factor& fixed_factor::operator=(fixed_factor&&) noexcept = default;

const fixed_factor::state& fixed_factor::checked(const char* who) const {
  if (!s_) throw error(error::kind::invalid_argument, std::string(who) + ": the fixed_factor was released");
  return *s_;
}

void fixed_factor::release() noexcept { s_.reset(); }
bool fixed_factor::prepared() const noexcept { return s_ != nullptr; }
std::size_t fixed_factor::size() const noexcept { return s_ ? s_->b.size() : 0; }
std::size_t fixed_factor::max_an() const noexcept { return s_ ? s_->max_an : 0; }
radix fixed_factor::get_radix() const noexcept { return s_ ? s_->rx : radix::binary; }
std::size_t fixed_factor::transform_length() const noexcept { return s_ && s_->ntt ? s_->ntt->length() : 0; }

std::size_t fixed_factor::heap_bytes() const noexcept {
  if (!s_) return 0;
  const std::size_t b = s_->b.size() * sizeof(limb_t);
  return s_->ntt ? b + s_->ntt->kept_bytes() : b;
}

std::size_t fixed_factor::heap_bytes(std::size_t bn, std::size_t max_an, radix rx) {
  detail::check_radix(rx, "bigmul::fixed_factor::heap_bytes");
  if (bn == 0 || max_an == 0) return 0;
  detail::check_product_size(max_an, bn, "bigmul::fixed_factor::heap_bytes");
  const std::size_t b = bn * sizeof(limb_t);
  const std::size_t n = fft::ntt_fit_length(std::max({min_length(max_an, bn), std::size_t{4}}));
  if (!mul_runs_ntt(max_an, bn, rx) || (n != 0 && n < min_points)) {
    const std::size_t m = mul_heap_bytes(max_an, bn, rx);
    return m > SIZE_MAX - b ? SIZE_MAX : b + m;
  }
  const std::size_t t = detail::ntt_fixed_factor::bytes(bn, max_an, min_length(max_an, bn), rx, true);
  return t == SIZE_MAX ? SIZE_MAX : b + t;
}

// Whether a product by an a of an limbs uses the kept transforms: decided
// once for the longest operands, the usual ones (mul's layout, which
// fixed_pays compares with, costs about a microsecond a product).
bool fixed_factor::state::uses_kept(std::size_t an) const {
  if (!ntt) return false;
  return an == max_an ? kept_at_max : fixed_pays(*ntt, an, b.size(), rx);
}

void fixed_factor::product(const state& s, limb_t* r, const limb_t* a, std::size_t an, unsigned threads) {
  const std::size_t bn = s.b.size();
  if (s.uses_kept(an)) {
    s.ntt->mul_exact(r, a, an, threads);
    return;
  }
  mul_options o;
  o.threads = threads;
  o.where = backend::cpu;  // as the kept transforms: one backend for every product
  if (an >= bn)
    bigmul::mul(r, a, an, s.b.data(), bn, s.rx, o);
  else
    bigmul::mul(r, s.b.data(), bn, a, an, s.rx, o);
}

bool fixed_factor::spread(const state& s, std::size_t an) {
  // Products whose transforms are too short to split run one a thread.
  constexpr std::size_t split_points = std::size_t{1} << 16;
  return !(s.uses_kept(an) && s.ntt->length() >= split_points) &&
         an + s.b.size() < split_points;
}

void fixed_factor::mul(limb_t* r, const limb_t* a, std::size_t an, radix rx, unsigned threads) const try {
  static constexpr const char* who = "bigmul::fixed_factor::mul";
  const state& s = checked(who);
  check_operand(s, a, an, 1, rx, who);
  if (!r) throw error(error::kind::invalid_argument, std::string(who) + ": null pointer");
  if (detail::overlaps(r, an + s.b.size(), a, an))
    throw error(error::kind::invalid_argument, std::string(who) + ": the result overlaps the operand");
  product(s, r, a, an, threads);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::fixed_factor::mul");
}

void fixed_factor::check_operand(const state& s, const limb_t* a, std::size_t an, std::size_t G, radix rx,
                                 const char* who) {
  detail::check_radix(rx, who);
  if (rx != s.rx)
    throw error(error::kind::invalid_argument, std::string(who) + ": operand radix " + radix_name(rx) +
                                                   ", the fixed factor was prepared for " + radix_name(s.rx));
  if (an == 0 || an > s.max_an)
    throw error(error::kind::invalid_argument, std::string(who) + ": an = " + std::to_string(an) +
                                                   " limbs, prepared for 1 .. " + std::to_string(s.max_an));
  if (!a) throw error(error::kind::invalid_argument, std::string(who) + ": null pointer");
  detail::check_batch_size(an + s.b.size(), G, who);
  if (rx == radix::decimal) detail::check_decimal(a, an * G, who, "a");
}

void fixed_factor::mul_batched(limb_t* r, const limb_t* a, std::size_t an, std::size_t G, radix rx,
                               unsigned threads) const try {
  static constexpr const char* who = "bigmul::fixed_factor::mul_batched";
  const state& s = checked(who);
  if (G == 0) return;
  check_operand(s, a, an, G, rx, who);
  const std::size_t rn = an + s.b.size();
  if (!r) throw error(error::kind::invalid_argument, std::string(who) + ": null pointer");
  if (detail::overlaps(r, rn * G, a, an * G))
    throw error(error::kind::invalid_argument, std::string(who) + ": the results overlap the operands");
  if (spread(s, an)) {
    prim::parallel_for(G, prim::resolve_threads(threads), [&](std::size_t g) { product(s, r + g * rn, a + g * an, an, 1); });
    return;
  }
  for (std::size_t g = 0; g < G; ++g) product(s, r + g * rn, a + g * an, an, threads);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::fixed_factor::mul_batched");
}

integer fixed_factor::mul(const integer& a, unsigned threads) const try {
  std::vector<integer> one;
  one.push_back(a);
  return std::move(mul(one, threads)[0]);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::fixed_factor::mul");
}

std::vector<integer> fixed_factor::mul(const std::vector<integer>& as, unsigned threads) const try {
  static constexpr const char* who = "bigmul::fixed_factor::mul";
  const state& s = checked(who);
  // Each operand in the prepared radix, checked before any product.
  std::vector<integer> converted(as.size());
  std::vector<const integer*> xs(as.size());
  bool all_spread = true;
  for (std::size_t i = 0; i < as.size(); ++i) {
    xs[i] = &as[i];
    if (as[i].get_radix() != s.rx && !as[i].is_zero()) {
      converted[i] = as[i].to_radix(s.rx);
      xs[i] = &converted[i];
    }
    const std::size_t an = xs[i]->size();
    if (an > s.max_an)
      throw error(error::kind::invalid_argument, std::string(who) + ": operand " + std::to_string(i) + " has " +
                                                     std::to_string(an) + " limbs, prepared for 1 .. " +
                                                     std::to_string(s.max_an));
    all_spread &= an == 0 || spread(s, an);
  }
  std::vector<integer> out(as.size());
  const auto one = [&](std::size_t i, unsigned t) {
    const integer& x = *xs[i];
    if (x.is_zero()) {
      out[i] = integer(std::vector<limb_t>{}, false, s.rx);
      return;
    }
    std::vector<limb_t> r(x.size() + s.b.size());
    product(s, r.data(), x.magnitude().data(), x.size(), t);
    out[i] = integer(std::move(r), (x.sign() < 0) != s.negative, s.rx);
  };
  if (all_spread)
    prim::parallel_for(as.size(), prim::resolve_threads(threads), [&](std::size_t i) { one(i, 1); });
  else
    for (std::size_t i = 0; i < as.size(); ++i) one(i, threads);
  return out;
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::fixed_factor::mul");
}

}  // namespace bigmul
