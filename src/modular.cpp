// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::integer modular arithmetic (include/bigmul/modular.hpp): argument
// checks, radix conversion, and the choice between the IFMA lanes (batches)
// and scalar Montgomery arithmetic (src/arith/montgomery.hpp).
#include "bigmul/modular.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "prim/parallel.hpp"
#include "src/arith/montgomery.hpp"

namespace bigmul {
namespace detail {

struct montgomery_state {
  integer modulus;            // as given
  std::vector<limb_t> m;      // binary limbs
  mont_ctx ctx;
};

}  // namespace detail

namespace {

using limbs_t = std::vector<limb_t>;

enum class op { mul, sqr, pow, pow_sec };

const char* op_name(op o) {
  switch (o) {
    case op::mul: return "bigmul::mod_mul";
    case op::sqr: return "bigmul::mod_sqr";
    case op::pow: return "bigmul::mod_pow";
    case op::pow_sec: return "bigmul::mod_pow_sec";
  }
  return "bigmul::mod";
}

// x's magnitude in binary limbs: x's own when binary, else a converted copy
// kept in `keep` (reserved by the caller, so that spans stay valid).
std::span<const limb_t> binary_limbs(const integer& x, std::vector<integer>& keep) {
  if (x.get_radix() == radix::binary) return x.magnitude();
  keep.push_back(convert_radix(x, radix::binary));
  return keep.back().magnitude();
}

// Odd and positive (a number's parity is its low limb's in both radices: 10^19 is even).
void check_modulus(const integer& m, const char* fn) {
  if (m.sign() <= 0 || (m.magnitude()[0] & 1) == 0)
    throw error(error::kind::domain, std::string(fn) +
                                         ": the modulus must be odd and positive (Montgomery arithmetic needs an odd "
                                         "modulus; got " + (m.is_zero() ? "zero" : m.sign() < 0 ? "a negative one" : "an even one") + ")");
}

// 0 <= x < m, else a clear error naming the argument.
void check_residue(const integer& x, std::span<const limb_t> xb, std::span<const limb_t> mb, const char* fn,
                   const char* what, std::size_t index, bool batched) {
  if (x.sign() < 0 || compare(xb.data(), xb.size(), mb.data(), mb.size()) >= 0)
    throw error(error::kind::invalid_argument,
                std::string(fn) + ": " + what + (batched ? " " + std::to_string(index) : std::string()) +
                    " must lie in [0, m) (reduce it first: got " + (x.sign() < 0 ? "a negative value" : "a value >= m") + ")");
}

void check_exponent(const integer& e, const char* fn, std::size_t index, bool batched) {
  if (e.sign() < 0)
    throw error(error::kind::domain, std::string(fn) + ": exponent" +
                                         (batched ? " " + std::to_string(index) : std::string()) +
                                         " is negative (no modular inverse is computed)");
}

integer finish(limbs_t&& r, radix rx) {
  integer v = integer(std::move(r), false, radix::binary);
  return rx == radix::binary ? v : convert_radix(v, rx);
}

limbs_t padded(std::span<const limb_t> x, std::size_t n) {
  limbs_t v(n, 0);
  std::copy(x.begin(), x.end(), v.begin());
  return v;
}

// One operation by scalar Montgomery arithmetic.
limbs_t scalar_op(op o, const detail::mont_ctx& c, std::span<const limb_t> x, std::span<const limb_t> y) {
  const std::size_t n = c.n;
  limbs_t r(n), t(detail::mont_scratch_limbs(n));
  const limbs_t xp = padded(x, n);
  switch (o) {
    case op::mul:
    case op::sqr: {
      const limbs_t yp = o == op::sqr ? xp : padded(y, n);
      limbs_t xm(n);
      detail::to_mont(xm.data(), xp.data(), c, t.data());
      detail::mont_mul(r.data(), xm.data(), yp.data(), c, t.data());  // x R y R^-1 = x y
      break;
    }
    case op::pow:
      detail::mont_pow(r.data(), xp.data(), y.data(), y.size(), c);
      break;
    case op::pow_sec:
      detail::mont_pow_sec(r.data(), xp.data(), y.data(), y.size(), 64 * y.size(), c);
      break;
  }
  return r;
}

// The batched operations: x[g] (op) y[g] mod moduli[g or 0]. `shared`: the
// context of moduli[0] when there is one modulus and the caller has it.
std::vector<integer> run_batched(op o, std::span<const integer> x, std::span<const integer> y,
                                 std::span<const integer> moduli, unsigned threads,
                                 const detail::montgomery_state* shared) try {
  const char* fn = op_name(o);
  const std::size_t G = x.size();
  if ((o != op::sqr && y.size() != G) || (moduli.size() != G && moduli.size() != 1))
    throw error(error::kind::invalid_argument,
                std::string(fn) + " (batched): the inputs need equal lengths and one modulus or one per operation (got " +
                    std::to_string(G) + " / " + std::to_string(y.size()) + " / " + std::to_string(moduli.size()) + ")");
  if (G == 0) return {};
  std::vector<integer> keep;
  keep.reserve(2 * G + moduli.size());
  std::vector<std::span<const limb_t>> mb(moduli.size()), xb(G), yb(G);
  for (std::size_t k = 0; k < moduli.size(); ++k) {
    check_modulus(moduli[k], fn);
    mb[k] = shared ? std::span<const limb_t>(shared->m) : binary_limbs(moduli[k], keep);
  }
  const auto mod_of = [&](std::size_t g) { return mb[moduli.size() == 1 ? 0 : g]; };
  for (std::size_t g = 0; g < G; ++g) {
    xb[g] = binary_limbs(x[g], keep);
    check_residue(x[g], xb[g], mod_of(g), fn, o == op::pow || o == op::pow_sec ? "base" : "factor", g, true);
    if (o == op::sqr) {
      yb[g] = xb[g];
    } else {
      yb[g] = binary_limbs(y[g], keep);
      if (o == op::mul) check_residue(y[g], yb[g], mod_of(g), fn, "factor", g, true);
      else check_exponent(y[g], fn, g, true);
    }
  }
  std::vector<limbs_t> res(G);
  for (std::size_t g = 0; g < G; ++g) res[g].assign(mod_of(g).size(), 0);

  if (detail::lanes_supported()) {
    const std::size_t groups = (G + 7) / 8;
    prim::parallel_chunks(groups, 1, threads, [&](std::size_t q0, std::size_t q1) {
      for (std::size_t q = q0; q < q1; ++q) {
        const std::size_t g0 = 8 * q, count = std::min<std::size_t>(8, G - g0);
        detail::lane_job jobs[8];
        std::size_t exp_bits = 0;
        for (std::size_t l = 0; l < count; ++l) {
          const std::size_t g = g0 + l;
          const auto m = mod_of(g);
          jobs[l] = {m.data(), m.size(), xb[g].data(), xb[g].size(), yb[g].data(), yb[g].size(), res[g].data()};
          // pow_sec: 64 bits a limb (public sizes); pow: the exponent's bit length.
          std::size_t bits = 64 * yb[g].size();
          if (o == op::pow && !yb[g].empty())
            bits -= static_cast<std::size_t>(__builtin_clzll(yb[g].back()));
          exp_bits = std::max(exp_bits, bits);
        }
        if (o == op::mul || o == op::sqr) detail::lanes_mul(jobs, count);
        else detail::lanes_pow_sec(jobs, count, exp_bits);
      }
    });
  } else {
    std::vector<detail::mont_ctx> ctxs;
    if (moduli.size() == 1 && !shared) ctxs.push_back(detail::mont_setup(mb[0].data(), mb[0].size()));
    prim::parallel_chunks(G, 1, threads, [&](std::size_t g0, std::size_t g1) {
      for (std::size_t g = g0; g < g1; ++g) {
        if (moduli.size() == 1) {
          res[g] = scalar_op(o, shared ? shared->ctx : ctxs[0], xb[g], yb[g]);
        } else {
          const detail::mont_ctx c = detail::mont_setup(mb[g].data(), mb[g].size());
          res[g] = scalar_op(o, c, xb[g], yb[g]);
        }
      }
    });
  }
  std::vector<integer> out;
  out.reserve(G);
  for (std::size_t g = 0; g < G; ++g)
    out.push_back(finish(std::move(res[g]), moduli[moduli.size() == 1 ? 0 : g].get_radix()));
  return out;
} catch (...) {
  detail::rethrow_allocation_failure(op_name(o));
}

// One power under a context: mod_pow (sliding window) and mod_pow_sec (fixed
// window) differ only in the operation.
integer single_pow(op o, const detail::montgomery_state& s, const integer& base, const integer& exponent) try {
  std::vector<integer> keep;
  keep.reserve(2);
  const auto bb = binary_limbs(base, keep);
  check_residue(base, bb, s.m, op_name(o), "base", 0, false);
  check_exponent(exponent, op_name(o), 0, false);
  const auto eb = binary_limbs(exponent, keep);
  return finish(scalar_op(o, s.ctx, bb, eb), s.modulus.get_radix());
} catch (...) {
  detail::rethrow_allocation_failure(op_name(o));
}

}  // namespace

// Allocation failure in any entry point becomes bigmul::error kind resource
// (bigmul/error.hpp); the free functions get it from the context and its methods.
montgomery_context::montgomery_context(const integer& modulus) try {
  auto s = std::make_shared<detail::montgomery_state>();
  s->modulus = modulus;
  check_modulus(modulus, "bigmul::montgomery_context");
  const integer mb = convert_radix(modulus, radix::binary);
  s->m.assign(mb.magnitude().begin(), mb.magnitude().end());
  s->ctx = detail::mont_setup(s->m.data(), s->m.size());
  s_ = std::move(s);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::montgomery_context");
}

const integer& montgomery_context::modulus() const noexcept { return s_->modulus; }

integer montgomery_context::mod_mul(const integer& a, const integer& b) const try {
  std::vector<integer> keep;
  keep.reserve(2);
  const auto ab = binary_limbs(a, keep), bb = binary_limbs(b, keep);
  check_residue(a, ab, s_->m, "bigmul::mod_mul", "factor a", 0, false);
  check_residue(b, bb, s_->m, "bigmul::mod_mul", "factor b", 0, false);
  return finish(scalar_op(op::mul, s_->ctx, ab, bb), s_->modulus.get_radix());
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::mod_mul");
}

integer montgomery_context::mod_sqr(const integer& a) const try {
  std::vector<integer> keep;
  keep.reserve(1);
  const auto ab = binary_limbs(a, keep);
  check_residue(a, ab, s_->m, "bigmul::mod_sqr", "a", 0, false);
  return finish(scalar_op(op::sqr, s_->ctx, ab, ab), s_->modulus.get_radix());
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::mod_sqr");
}

integer montgomery_context::mod_pow(const integer& base, const integer& exponent) const {
  return single_pow(op::pow, *s_, base, exponent);
}

integer montgomery_context::mod_pow_sec(const integer& base, const integer& exponent) const {
  return single_pow(op::pow_sec, *s_, base, exponent);
}

std::vector<integer> montgomery_context::mod_mul(std::span<const integer> a, std::span<const integer> b,
                                                 unsigned threads) const {
  return run_batched(op::mul, a, b, std::span<const integer>(&s_->modulus, 1), threads, s_.get());
}
std::vector<integer> montgomery_context::mod_sqr(std::span<const integer> a, unsigned threads) const {
  return run_batched(op::sqr, a, {}, std::span<const integer>(&s_->modulus, 1), threads, s_.get());
}
std::vector<integer> montgomery_context::mod_pow(std::span<const integer> bases, std::span<const integer> exponents,
                                                 unsigned threads) const {
  return run_batched(op::pow, bases, exponents, std::span<const integer>(&s_->modulus, 1), threads, s_.get());
}
std::vector<integer> montgomery_context::mod_pow_sec(std::span<const integer> bases,
                                                     std::span<const integer> exponents, unsigned threads) const {
  return run_batched(op::pow_sec, bases, exponents, std::span<const integer>(&s_->modulus, 1), threads, s_.get());
}

integer mod_mul(const integer& a, const integer& b, const integer& m) { return montgomery_context(m).mod_mul(a, b); }
integer mod_sqr(const integer& a, const integer& m) { return montgomery_context(m).mod_sqr(a); }
integer mod_pow(const integer& base, const integer& exponent, const integer& m) {
  return montgomery_context(m).mod_pow(base, exponent);
}
integer mod_pow_sec(const integer& base, const integer& exponent, const integer& m) {
  return montgomery_context(m).mod_pow_sec(base, exponent);
}

std::vector<integer> mod_mul_batched(std::span<const integer> a, std::span<const integer> b,
                                     std::span<const integer> moduli, unsigned threads) {
  return run_batched(op::mul, a, b, moduli, threads, nullptr);
}
std::vector<integer> mod_sqr_batched(std::span<const integer> a, std::span<const integer> moduli, unsigned threads) {
  return run_batched(op::sqr, a, {}, moduli, threads, nullptr);
}
std::vector<integer> mod_pow_batched(std::span<const integer> bases, std::span<const integer> exponents,
                                     std::span<const integer> moduli, unsigned threads) {
  return run_batched(op::pow, bases, exponents, moduli, threads, nullptr);
}
std::vector<integer> mod_pow_sec_batched(std::span<const integer> bases, std::span<const integer> exponents,
                                         std::span<const integer> moduli, unsigned threads) {
  return run_batched(op::pow_sec, bases, exponents, moduli, threads, nullptr);
}

}  // namespace bigmul
