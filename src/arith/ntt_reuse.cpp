// SPDX-License-Identifier: LGPL-3.0-or-later
// Fixed-factor cyclic products over the NTT engines: see ntt_reuse.hpp.
#include "src/arith/ntt_reuse.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "fft/ntt.hpp"
#include "fft/ntt_arith.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"
#include "mul/ntt_garner.hpp"
#include "mul/ntt_mul.hpp"
#include "prim/buffer.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {
namespace {

using fft::u128;
using fft::u64;

// Coefficients a carry task handles at least (as mul/ntt_mul.cpp).
constexpr std::size_t grain = std::size_t{1} << 13;

// The three engines behind one shape: plan type, primes, Garner digits.
template <class Plan>
struct engine_of;
template <>
struct engine_of<fft::ntt52_plan> {
  static constexpr const fft::ntt_prime* primes = fft::ntt52_primes;
  static void digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
    fft::ntt52_mixed_radix_digits(res, i, count, v, used);
  }
};
template <>
struct engine_of<fft::ntt_avx2_plan> {
  static constexpr const fft::ntt_prime* primes = fft::ntt52_primes;
  static void digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
    fft::ntt_avx2_mixed_radix_digits(res, i, count, v, used);
  }
};
template <>
struct engine_of<fft::ntt_plan> {
  static constexpr const fft::ntt_prime* primes = fft::ntt_primes;
  static void digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
    fft::ntt_mixed_radix_digits(res, i, count, v, used);
  }
};

// Residues in [0, 2p) of src[0 .. len), zero-padded to the plan's length,
// then the forward transform.
template <class Plan>
void load_forward(const Plan& plan, u64* x, const limb_t* src, std::size_t len, unsigned threads) {
  const std::size_t n = plan.length();
  if constexpr (requires { plan.load(x, src, len, threads); }) {
    plan.load(x, src, len, threads);
  } else {
    const u64 p = plan.modulus(), one_shoup = fft::shoup_companion(1, p);
    for (std::size_t i = 0; i < len; ++i) x[i] = fft::mul_shoup_lazy(src[i], 1, one_shoup, p);
    std::fill(x + len, x + n, u64{0});
  }
  if constexpr (requires { plan.forward(x, threads, len); })
    plan.forward(x, threads, len);  // x[len ..) is zero
  else
    plan.forward(x, threads);
}


// r += v * B^pos modulo B^n - 1 (B^n = 1: a carry out of the top limb comes
// back in at the bottom).
void add_cyclic(limb_t* r, std::size_t n, std::size_t pos, const u64 v[3]) {
  u64 carry = 0;
  std::size_t i = pos % n;
  for (std::size_t k = 0; k < 3 || carry; ++k) {
    const u64 add = k < 3 ? v[k] : 0;
    const u128 s = static_cast<u128>(r[i]) + add + carry;
    r[i] = static_cast<u64>(s);
    carry = static_cast<u64>(s >> 64);
    i = i + 1 == n ? 0 : i + 1;
  }
}

// The calling thread's residue buffers, kept between products (a tree level
// makes thousands of them; fresh pages cost more than the small ones' work).
thread_local std::vector<prim::buffer<u64>> thread_scratch;

// Index 4: mul_mod_scratch's result.
u64* scratch(unsigned k, std::size_t n) {
  auto& s = thread_scratch;
  if (s.size() <= k) s.resize(k + 1);
  if (s[k].size() < n) {
    s[k] = prim::buffer<u64>();
    s[k] = prim::buffer<u64>(n);
  }
  return s[k].data();
}

}  // namespace

struct ntt_fixed_factor::state {
  ntt_engine engine = ntt_engine::portable;
  unsigned used = 0;
  std::size_t n = 0, max_an = 0;
  std::vector<prim::buffer<u64>> fb;  // b's forward transform per prime

  template <class Plan>
  void build(const limb_t* b, std::size_t bn) {
    fb.resize(used);
    const unsigned threads = n < grain ? 1u : prim::resolve_threads(0);
    for (unsigned k = 0; k < used; ++k) {
      fb[k] = prim::buffer<u64>(n);
      load_forward(*Plan::get(k, n), fb[k].data(), b, bn, threads);
    }
  }

  template <class Plan>
  void mul(limb_t* r, const limb_t* a, std::size_t an, unsigned threads) const {
    if (threads == 0) threads = prim::resolve_threads(0);
    if (n < grain) threads = 1;
    u64* res[4] = {};
    for (unsigned k = 0; k < used; ++k) res[k] = scratch(k, n);
    for (unsigned k = 0; k < used; ++k) {
      const auto plan = Plan::get(k, n);
      load_forward(*plan, res[k], a, an, threads);
      plan->pointwise(res[k], fb[k].data(), threads);
      plan->inverse(res[k], threads);
    }
    // Garner and the carries, in chunks: each chunk writes its limbs and
    // keeps what carries past its end (three limbs), added in afterwards.
    const std::size_t chunks = prim::chunk_count(n, grain, threads);
    std::vector<u64> tails(3 * chunks, 0);
    std::vector<char> ok(chunks, 1);
    const u64* const* residues = res;
    prim::parallel_for(chunks, threads, [&](std::size_t c) {
      constexpr std::size_t group = 64;
      u64 digits[4 * group], x[3];
      const std::size_t lo = n * c / chunks, hi = n * (c + 1) / chunks;
      u64 pend[3] = {0, 0, 0};
      bool fine = true;
      for (std::size_t g0 = lo; g0 < hi; g0 += group) {
        const std::size_t len = std::min(group, hi - g0);
        engine_of<Plan>::digits(residues, g0, len, digits, used);
        if (used == 3) {
          // The common case (the multiply's fused Garner and carry): x = v0 + p0 (v1 + p1 v2) < 2^163.
          ntt_garner3_carry(digits, digits + len, digits + 2 * len, len, engine_of<Plan>::primes[0].p,
                            engine_of<Plan>::primes[1].p, r + g0, pend);
          continue;
        }
        for (std::size_t q = 0; q < len; ++q) {
          fine &= ntt_horner_limbs(engine_of<Plan>::primes, used, digits, len, q, x);
          u128 s = static_cast<u128>(pend[0]) + x[0];
          r[g0 + q] = static_cast<u64>(s);
          s = static_cast<u128>(pend[1]) + x[1] + static_cast<u64>(s >> 64);
          pend[0] = static_cast<u64>(s);
          pend[1] = pend[2] + x[2] + static_cast<u64>(s >> 64);  // pend < 2^163 / 2^64: no overflow
          pend[2] = 0;
        }
      }
      std::copy(pend, pend + 3, tails.begin() + static_cast<std::ptrdiff_t>(3 * c));
      ok[c] = fine;
    });
    if (!std::all_of(ok.begin(), ok.end(), [](char f) { return f != 0; }))
      throw error(error::kind::internal, "ntt_fixed_factor: a reconstructed coefficient exceeded its bound");
    for (std::size_t c = 0; c < chunks; ++c) add_cyclic(r, n, n * (c + 1) / chunks, tails.data() + 3 * c);
  }
};

ntt_fixed_factor::ntt_fixed_factor(const limb_t* b, std::size_t bn, std::size_t max_an, std::size_t min_length)
    : s_(std::make_unique<state>()) {
  state& s = *s_;
  s.engine = ntt_resolve_engine(ntt_engine::best);
  s.max_an = std::max<std::size_t>(max_an, 1);
  s.n = fft::ntt_fit_length(std::max({min_length, s.max_an, bn, std::size_t{4}}));
  if (s.n == 0) throw error(error::kind::domain, "ntt_fixed_factor: no transform of " + std::to_string(min_length));
  // Each cyclic coefficient sums at most min(an, bn) products of two limbs,
  // as a plain product's does: the same prime count covers it.
  s.used = ntt_primes_needed(s.engine, s.max_an, bn, radix::binary);
  switch (s.engine) {
    case ntt_engine::ifma: s.build<fft::ntt52_plan>(b, bn); break;
    case ntt_engine::avx2: s.build<fft::ntt_avx2_plan>(b, bn); break;
    default: s.build<fft::ntt_plan>(b, bn); break;
  }
}

ntt_fixed_factor::~ntt_fixed_factor() = default;

std::size_t ntt_fixed_factor::length() const { return s_->n; }
std::size_t ntt_fixed_factor::max_an() const { return s_->max_an; }

void ntt_fixed_factor::mul_mod(limb_t* r, const limb_t* a, std::size_t an, unsigned threads) const {
  const state& s = *s_;
  if (an > s.max_an) throw error(error::kind::invalid_argument, "ntt_fixed_factor: operand longer than declared");
  if (an == 0) {
    std::fill(r, r + s.n, limb_t{0});
    return;
  }
  switch (s.engine) {
    case ntt_engine::ifma: return s.mul<fft::ntt52_plan>(r, a, an, threads);
    case ntt_engine::avx2: return s.mul<fft::ntt_avx2_plan>(r, a, an, threads);
    default: return s.mul<fft::ntt_plan>(r, a, an, threads);
  }
}

const limb_t* ntt_fixed_factor::mul_mod_scratch(const limb_t* a, std::size_t an, unsigned threads) const {
  limb_t* r = scratch(4, s_->n);
  mul_mod(r, a, an, threads);
  return r;
}

void ntt_reuse_release_scratch() { std::vector<prim::buffer<u64>>().swap(thread_scratch); }

}  // namespace bigmul::detail
