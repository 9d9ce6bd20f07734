// SPDX-License-Identifier: LGPL-3.0-or-later
// Binary <-> decimal (10^19 limbs) conversion by divide and conquer over
// the cached powers 10^(19 * 2^k): binary -> decimal is a scaled remainder
// tree (one product by a cached reciprocal at the root, then one product per
// node, no division; see below); decimal -> binary merges blocks bottom up,
// one multiplication a merge. Both run level by level and transform each
// level's power once (src/arith/ntt_reuse.hpp). Below a tuned length
// (mul/params_cpu.inc, measured by bench/tune/tune_cpu) the schoolbook
// conversions run; the same length is the tree's leaf size. This is the
// library's only radix converter.
#include "src/arith/radix_convert.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "mul/basecase_adx.hpp"
#include "mul/limb_vec.hpp"
#include "mul/params_cpu.hpp"
#include "prim/parallel.hpp"
#include "src/arith/decimal_powers.hpp"
#include "src/arith/mul_helpers.hpp"
#include "src/arith/ntt_reuse.hpp"

namespace bigmul {
namespace {

// Decimal lengths from which the nodes of a tree level run as tasks on the
// library's threads (a task costs microseconds); levels with fewer nodes than
// threads run their nodes in turn, each product using all the threads.
constexpr std::size_t parallel_limbs = 1024;
// Nodes longer than this run in turn even then, each product on all the
// threads: a product run inside a task keeps its transform buffers in that
// worker thread (ntt_reuse's and the NTT's per-thread scratch), which
// release_scratch() on the caller's thread cannot free; this bounds them to a
// few MB a worker.
constexpr std::size_t task_limbs_max = std::size_t{1} << 15;

// Exactly L decimal limbs of x (< 10^(19 L)) by repeated division by 10^19.
void to_decimal_basecase(const limb_t* x, std::size_t n, limb_t* out, std::size_t L) {
  std::vector<limb_t> t(x, x + n);
  for (std::size_t i = 0; i < L; ++i) {
    limb_t rem = 0;
    for (std::size_t j = n; j-- > 0;) {
      const auto qr = detail::div_1e19((static_cast<detail::u128>(rem) << 64) | t[j]);
      t[j] = qr.q;
      rem = qr.r;
    }
    out[i] = rem;
    while (n > 0 && t[n - 1] == 0) --n;
  }
}

// ---------------------------------------------------------------------------
// Binary -> decimal by a scaled remainder tree [BERNSTEIN04]: no division below
// the root. A node covering decimal limbs [p, p + len) of x holds the binary
// fraction phi = frac(x / D^(p + len)) (D = 10^19) to P = frac_limbs(len)
// limbs. Its high part [p + lo, p + len) has the same fraction (truncated to
// its own precision), its low part [p, p + lo) the fraction frac(phi * D^hi):
// one product by 5^(19 hi) (cached) and a shift, of which only a window is
// kept. The tree runs level by level, so that each level's 5^(19 hi) is
// transformed once for all its nodes (src/arith/ntt_reuse.hpp). Leaves
// multiply their fraction by D once a limb. Every fraction is off by less
// than B^-1 of its node's last decimal limb (each level's truncations and
// wrapped carries are a few units of B^-P <= B^-2 D^-len, modulo 1),
// so a leaf's block of digits is right or off by one exactly when the digits
// below it are ~00.. or ~99..; one pass from the lowest leaf up settles that
// from each leaf's leftover fraction and the (already settled) block below.

constexpr double limbs_per_decimal_limb = 0.98621539261553175;  // 19 log2(10) / 64

// Fraction limbs for a node of len decimal limbs: B^P >= B^2 D^len.
std::size_t frac_limbs(std::size_t len) {
  return static_cast<std::size_t>(static_cast<double>(len) * limbs_per_decimal_limb) + 2;
}

struct tree {
  limb_t* out;                       // L decimal limbs
  std::vector<limb_t> leftover;      // per leaf start: the top limb of the fraction left after its digits
  std::vector<std::uint32_t> width;  // per leaf start: the leaf's decimal limbs (0: no leaf starts here)
  std::size_t leaf;
  std::size_t L;  // limbs of out: positions from L up are zero and not visited
};

// Digits of a leaf: c times fraction * D, the carry out is the next digit limb;
// limbs no longer needed for the remaining digits' precision are dropped.
void leaf_digits(tree& t, const limb_t* frac, std::size_t pn, std::size_t p, std::size_t c) {
  limb_t buf[128];
  std::vector<limb_t> big;
  limb_t* f = buf;
  if (pn > 128) {
    big.resize(pn);
    f = big.data();
  }
  std::copy(frac, frac + pn, f);
  for (std::size_t i = c; i-- > 0;) {
    const std::size_t keep = frac_limbs(i + 1);
    if (keep < pn) {
      f += pn - keep;
      pn = keep;
    }
    limb_t carry = 0;
    for (std::size_t j = 0; j < pn; ++j) {
      const detail::u128 v = static_cast<detail::u128>(f[j]) * decimal_limb_base + carry;
      f[j] = static_cast<limb_t>(v);
      carry = static_cast<limb_t>(v >> 64);
    }
    if (p + i < t.L) t.out[p + i] = carry;  // digits from L up are zero
  }
  t.leftover[p] = f[pn - 1];
  t.width[p] = static_cast<std::uint32_t>(std::min(c, t.L - p));
}

// One tree level: nodes of len = 2 hi decimal limbs (a power of two), each
// (p, its fraction of P limbs). The high child keeps the top of the fraction;
// the low child's is frac(F D^hi / B^P) with D^hi = 5^m 2^m: F's top m/64
// limbs only add integers, and limbs below lo_cut add less than
// B^-(P_lo + 2). So the low child needs only the window of limbs
// [w - P_lo, w) of W * 5^m (W: F's w limbs from lo_cut, then shifted by m
// mod 64), a middle product: every node of the level multiplies by the same
// 5^m, whose transform is computed once for the level, and the product is
// cyclic, modulo B^n - 1 with n >= w: its top limbs (below B^(w - P_lo - 2))
// wrap onto limbs under the window, where they change the window by at most
// one unit (a carry), an error of the size the truncations already make.
struct level {
  std::size_t P = 0;                // fraction limbs of every node of the level
  std::vector<std::size_t> p;       // node i covers decimal limbs [p[i], p[i] + len)
  std::vector<limb_t> frac;         // node i's fraction: limbs [i P, (i + 1) P)
};

// Products from this many limbs of 5^m use the level's cached transform:
// with a higher cut the mid levels of the tree (hundreds of limbs) fall back
// to full products and schoolbook windows and cost several times their
// neighbours; the value is a measured optimum (bench/src/bench_arith).
// A level of one node (the root's children) takes the same cyclic product:
// its length covers the window and the wrap (~0.84 len limbs) where the
// dispatcher's full product covers W * 5^m (~1.18 len).
constexpr std::size_t reuse_five_limbs = 32;
// Below this many limbs of 5^m, where the level's cached transform does not
// run (5^m below reuse_five_limbs, or a short W), the window is computed by schoolbook
// rows that skip the columns under it (fewer limb products than the full
// product); it stops paying at a few hundred limbs.
constexpr std::size_t basecase_window_five_limbs = 128;

// The children of every node of `cur` (length len) into `next` (whose
// buffers are reused from two levels up: no fresh pages a level).
void split_level(tree& t, const level& cur, std::size_t len, level& next) {
  const std::size_t hi = len / 2, lo = len - hi;
  const std::size_t P = cur.P, P_hi = frac_limbs(hi), P_lo = frac_limbs(lo);
  const auto pw_held = detail::decimal_power_at(static_cast<std::size_t>(std::countr_zero(hi)));
  const detail::decimal_power& pw = *pw_held;
  const std::size_t mw = pw.m / 64;
  const unsigned mb = static_cast<unsigned>(pw.m % 64);
  const std::size_t need = P_lo + static_cast<std::size_t>(static_cast<double>(hi) * limbs_per_decimal_limb) + 3;
  const std::size_t lo_cut = P > need ? P - need : 0;
  const std::size_t w = P - mw - lo_cut;  // window limbs, all below the binary point after the shift
  const std::size_t fn = pw.five.size();
  const std::size_t count = cur.p.size();
  const bool adx = detail::basecase_adx_supported();
  std::unique_ptr<detail::ntt_fixed_factor> factor;
  if (fn >= reuse_five_limbs)
    factor = std::make_unique<detail::ntt_fixed_factor>(pw.five.data(), fn, w, std::max(w, fn + P_lo + 2));
  // Child slots: node i's low child, then its high child unless it starts at or above L.
  std::vector<std::size_t> first(count);
  next.P = P_lo;  // == P_hi: lo == hi
  next.p.clear();
  for (std::size_t i = 0; i < count; ++i) {
    first[i] = next.p.size();
    next.p.push_back(cur.p[i]);
    if (cur.p[i] + lo < t.L) next.p.push_back(cur.p[i] + lo);
  }
  next.frac.resize(next.p.size() * P_lo);
  const unsigned threads = prim::resolve_threads(0);
  const bool by_node = count >= threads && len * count >= parallel_limbs && len <= task_limbs_max;
  const auto one = [&](std::size_t i) {
    const limb_t* frac = cur.frac.data() + i * P;
    limb_t* low_frac = next.frac.data() + first[i] * P_lo;
    if (cur.p[i] + lo < t.L) std::copy(frac + (P - P_hi), frac + P, low_frac + P_lo);
    // Above L the fraction's top limbs are zero: multiply only the rest.
    const limb_t* W = frac + lo_cut;
    const std::size_t wn = detail::trimmed(W, w);
    // q: limbs [q0, q0 + qn) of the product (or of it mod B^n - 1), zero above.
    std::vector<limb_t> own;
    const limb_t* q;
    std::size_t q0 = 0, qn;
    if (factor && 2 * (wn + fn) > factor->length()) {
      q = factor->mul_mod_scratch(W, wn, by_node ? 1 : threads);
      qn = factor->length();
    } else if (fn < basecase_window_five_limbs) {
      // Only the columns the window reads, from two guard columns below it:
      // the products dropped below them sum to less than fn B^(q0 + 1), at
      // most a carry into the limb under the window.
      q0 = w > P_lo + 3 ? w - P_lo - 3 : 0;
      qn = w - q0 + 1;
      own.assign(qn, 0);
      for (std::size_t j = 0; j < fn && j < w; ++j) {
        const std::size_t i0 = q0 > j ? q0 - j : 0, i1 = std::min(wn, w - j);
        if (i0 >= i1) continue;
        limb_t* row = own.data() + (i0 + j - q0);
        const limb_t c = adx ? detail::addmul_1_adx(row, W + i0, i1 - i0, pw.five[j])
                             : detail::addmul_1(row, W + i0, i1 - i0, pw.five[j], radix::binary);
        detail::add_1(own.data() + (i1 + j - q0), qn - (i1 + j - q0), c, radix::binary);  // past the top: integers, dropped
      }
      q = own.data();
    } else {
      own.resize(wn + fn);
      detail::mul_any(own.data(), W, wn, pw.five.data(), fn);
      q = own.data();
      qn = own.size();
    }
    const auto at = [&](std::size_t j) { return j >= q0 && j - q0 < qn ? q[j - q0] : limb_t{0}; };
    // low_frac = limbs [w - P_lo, w) of q << mb.
    for (std::size_t k = 0; k < P_lo; ++k) {
      const std::size_t j = w - P_lo + k;  // w >= P_lo + 1 (w - P_lo >= |5^m| + 1)
      low_frac[k] = mb ? (at(j) << mb) | (at(j - 1) >> (64 - mb)) : at(j);
    }
  };
  if (by_node) {
    prim::parallel_for(count, threads, one);
  } else {
    for (std::size_t i = 0; i < count; ++i) one(i);
  }
}

// Settles each leaf's block (off by at most one, modulo D^c) from the lowest up.
void settle(tree& t, std::size_t L) {
  constexpr double two64 = 18446744073709551616.0;
  for (std::size_t p = 0; p < L;) {
    const std::size_t c = t.width[p];
    // Block + (x mod D^p) / D^p == digits + leftover, up to B^-1: the
    // difference between the two fractions is the block's error.
    const double below = p == 0 ? 0.0 : static_cast<double>(t.out[p - 1]) / 1e19;
    const double left = static_cast<double>(t.leftover[p]) / two64;
    const double k = left - below;
    limb_t* b = t.out + p;
    if (k > 0.5) {  // one more, modulo D^c
      for (std::size_t i = 0; i < c; ++i) {
        if (++b[i] < decimal_limb_base) break;
        b[i] = 0;
      }
    } else if (k < -0.5) {  // one less, modulo D^c
      for (std::size_t i = 0; i < c; ++i) {
        if (b[i]-- != 0) break;
        b[i] = decimal_limb_base - 1;
      }
    }
    p += c;
  }
}

// q = floor(x / D^Lt) exactly, from an estimate off by at most one (D^Lt =
// 5^m 2^m, the power pw): adjusts q while q D^Lt > x or (q + 1) D^Lt <= x.
void settle_quotient(std::vector<limb_t>& q, const limb_t* x, std::size_t n, const detail::decimal_power& pw) {
  const std::size_t mw = pw.m / 64;
  const unsigned mb = static_cast<unsigned>(pw.m % 64);
  const auto times_power = [&](const std::vector<limb_t>& v) {
    std::vector<limb_t> out;
    if (v.empty()) return out;
    std::vector<limb_t> p(v.size() + pw.five.size());
    detail::mul_any(p.data(), v.data(), v.size(), pw.five.data(), pw.five.size());
    out.assign(mw + p.size() + 1, 0);
    out[mw + p.size()] = lshift(out.data() + mw, p.data(), p.size(), mb);
    detail::trim(out);
    return out;
  };
  const std::size_t xn = detail::trimmed(x, n);
  // -1, 0, 1 as v < x, v == x, v > x.
  const auto compare = [&](const std::vector<limb_t>& v) {
    if (v.size() != xn) return v.size() < xn ? -1 : 1;
    return detail::cmp_n(v.data(), x, xn);
  };
  for (int step = 0; step < 4; ++step) {
    if (compare(times_power(q)) > 0) {
      detail::sub_1_in_place(q.data(), q.size());
      detail::trim(q);
      continue;
    }
    std::vector<limb_t> up = q;
    up.push_back(0);
    detail::add_1_in_place(up.data(), up.size());
    detail::trim(up);
    if (compare(times_power(up)) <= 0) {
      q = std::move(up);
      continue;
    }
    return;
  }
  throw error(error::kind::internal, "bigmul: radix conversion quotient did not settle");
}

// The span of the tree's root for L > basecase decimal limbs: the power of
// two Lt >= L, or Lt / 2 when L is just above it (see to_decimal).
std::size_t root_span(std::size_t L, std::size_t basecase) {
  const std::size_t Lt0 = std::bit_ceil(L);
  const bool low_root = L > Lt0 / 2 && 8 * (L - Lt0 / 2) <= Lt0 && Lt0 / 2 > basecase;
  return low_root ? Lt0 / 2 : Lt0;
}

void to_decimal(const limb_t* x, std::size_t n, limb_t* out, std::size_t L, std::size_t basecase) {
  if (L <= basecase) {
    to_decimal_basecase(x, n, out, L);
    return;
  }
  // The tree spans a power of two, Lt >= L, so that the root divides by a
  // cached power through its cached reciprocal: one product. Nodes at or
  // above L are zeros (x < D^L) and are not visited. When L is just above a
  // power of two (L - Lt/2 <= Lt/8), the tree spans Lt/2 instead and the same
  // product's integer part, x_hi = floor(x / D^(Lt/2)) (the few limbs above),
  // is converted on its own: half the root's span, no 5^m of Lt, no root-level
  // product of a node that is almost all zeros.
  const std::size_t Lt = root_span(L, basecase);
  const bool low_root = Lt < L;
  const std::size_t k = static_cast<std::size_t>(std::countr_zero(Lt));
  const auto pw_held = detail::decimal_power_at(k);
  const detail::decimal_power& pw = *pw_held;
  const std::shared_ptr<const detail::wide_reciprocal> Rp = detail::decimal_power_wide_reciprocal(k, n + 3);
  const detail::wide_reciprocal& R = *Rp;
  // Root fraction F = x B^P / D^Lt = x 2^(64 P - m) / 5^m ~ x R 2^(64 P - m - E),
  // R ~ 2^E / 5^m; R's top n + 3 limbs carry all the precision x needs
  // (F < B^(n + 2) as B^P <= B^2 D^Lt, so a relative error of B^-(n+2) is below one unit of F).
  const std::size_t P = frac_limbs(Lt);
  const std::size_t rt = std::min(R.r.size(), n + 3), drop = R.r.size() - rt;
  std::vector<limb_t> prod(n + rt);
  detail::mul_any(prod.data(), x, n, R.r.data() + drop, rt);
  const std::size_t S = R.exponent_bits + pw.m - 64 * (P + drop);  // right shift of prod, in bits
  // Limbs [from, from + count) of prod >> S.
  const auto shifted = [&](std::size_t from, std::size_t count) {
    std::vector<limb_t> v(count, 0);
    const std::size_t sw = S / 64 + from;
    const unsigned sb = static_cast<unsigned>(S % 64);
    for (std::size_t i = 0; i < count && sw + i < prod.size(); ++i) {
      const limb_t cur = prod[sw + i];
      const limb_t above = sw + i + 1 < prod.size() ? prod[sw + i + 1] : 0;
      v[i] = sb ? (cur >> sb) | (above << (64 - sb)) : cur;
    }
    return v;
  };
  std::vector<limb_t> frac = shifted(0, P);
  if (low_root) {
    std::vector<limb_t> x_hi = shifted(P, prod.size() > S / 64 + P ? prod.size() - S / 64 - P : 0);
    detail::trim(x_hi);
    // F is off by a unit or two: floor(F) can be off by one only when its
    // fraction is within that of an integer; then x_hi is settled exactly
    // against x - x_hi D^Lt in [0, D^Lt).
    const bool near_integer = std::all_of(frac.begin() + 1, frac.end(), [](limb_t v) { return v == 0; }) ||
                              std::all_of(frac.begin() + 1, frac.end(), [](limb_t v) { return v == ~limb_t{0}; });
    if (near_integer) settle_quotient(x_hi, x, n, pw);
    to_decimal(x_hi.data(), x_hi.size(), out + Lt, L - Lt, basecase);
    L = Lt;
  }
  prod = {};
  tree t{out, std::vector<limb_t>(L), std::vector<std::uint32_t>(L), basecase, L};
  // Level by level, so that each level's power is transformed once.
  level cur, next;
  cur.P = P;
  cur.p = {0};
  cur.frac = std::move(frac);
  std::size_t len = Lt;
  for (; len > t.leaf; len /= 2) {
    split_level(t, cur, len, next);
    std::swap(cur, next);
  }
  next = {};
  prim::parallel_for(cur.p.size(), cur.p.size() * len >= parallel_limbs ? 0u : 1u, [&](std::size_t i) {
    leaf_digits(t, cur.frac.data() + i * cur.P, cur.P, cur.p[i], len);
  });
  settle(t, L);
}

// Horner's rule: x[0 .. L) decimal limbs to binary, into out (room for
// binary_limbs(L)); returns the limb count, trimmed. The rows run on MULX
// where the processor has it (from 8 limbs): the portable row's carry runs
// through one add/adc chain a limb, and these leaves are a sizeable part of
// a decimal -> binary conversion.
std::size_t horner(const limb_t* x, std::size_t L, limb_t* out) {
  static const bool adx = detail::basecase_adx_supported();
  std::size_t n = 0;
  for (std::size_t i = L; i-- > 0;) {
    const limb_t c = adx && n >= detail::basecase_adx_min_limbs ? detail::mul_1_adx(out, out, n, decimal_limb_base)
                                                               : detail::mul_1(out, out, n, decimal_limb_base, radix::binary);
    if (c) out[n++] = c;
    if (const limb_t left = detail::add_1(out, n, x[i], radix::binary)) out[n++] = left;
  }
  return detail::trimmed(out, n);
}

// Binary limbs that hold any value below D^s: 19 s log2(10) / 64 rounded up, with slack.
std::size_t binary_limbs(std::size_t s) { return static_cast<std::size_t>(static_cast<double>(s) * limbs_per_decimal_limb) + 3; }

// Decimal -> binary bottom up: blocks of s decimal limbs (s a power of two,
// the largest <= basecase) by Horner's rule, then pairs of blocks merged level
// by level, hi * 10^(19 s) + lo = (hi * 5^m) << m + lo, m = 19 s, until one
// is left. Every merge of a level multiplies by the same 5^m, whose transform
// is computed once for the level (src/arith/ntt_reuse.hpp; the cyclic length
// covers the whole product, so it is exact). The blocks of a level lie in one
// buffer at a fixed stride and the merges write the next level's into the
// other one: two buffers for the whole conversion (a fresh vector a merge
// would pay for fresh pages at every merge).
std::vector<limb_t> from_decimal(const limb_t* x, std::size_t L, std::size_t basecase) {
  L = detail::trimmed(x, L);
  if (L == 0) return {};
  std::size_t s = L <= basecase ? L : std::bit_floor(basecase);  // one Horner block up to basecase
  std::size_t count = (L + s - 1) / s, stride = binary_limbs(s);
  std::vector<limb_t> cur(count * stride), next;
  std::vector<std::size_t> len(count), next_len;
  const unsigned threads = prim::resolve_threads(0);
  prim::parallel_for(count, L >= parallel_limbs ? threads : 1u, [&](std::size_t i) {
    len[i] = horner(x + i * s, std::min(s, L - i * s), cur.data() + i * stride);
  });
  std::vector<limb_t> own;  // a product without the level's cached transform
  for (std::size_t k = static_cast<std::size_t>(std::countr_zero(s)); count > 1; ++k, s *= 2) {
    const auto pw_held = detail::decimal_power_at(k);
    const detail::decimal_power& pw = *pw_held;
    const std::size_t fn = pw.five.size(), pairs = count / 2, next_count = (count + 1) / 2;
    const std::size_t next_stride = binary_limbs(2 * s);
    std::size_t max_hi = 0;
    for (std::size_t i = 0; i < pairs; ++i) max_hi = std::max(max_hi, len[2 * i + 1]);
    std::unique_ptr<detail::ntt_fixed_factor> factor;
    if (fn >= reuse_five_limbs && pairs > 1 && max_hi > 0)
      factor = std::make_unique<detail::ntt_fixed_factor>(pw.five.data(), fn, max_hi, max_hi + fn);
    const bool by_pair = pairs >= threads && s * pairs >= parallel_limbs && s <= task_limbs_max;
    const std::size_t mw = pw.m / 64;
    const unsigned mb = static_cast<unsigned>(pw.m % 64);
    if (!factor && !by_pair) own.resize(max_hi + fn);
    next.resize(next_count * next_stride);
    next_len.assign(next_count, 0);
    prim::parallel_for(pairs, by_pair ? threads : 1u, [&](std::size_t i) {
      const limb_t* hi = cur.data() + (2 * i + 1) * stride;
      const limb_t* lo = cur.data() + 2 * i * stride;
      const std::size_t hn = len[2 * i + 1], ln = len[2 * i];
      limb_t* out = next.data() + i * next_stride;
      if (hn == 0) {
        std::copy(lo, lo + ln, out);
        next_len[i] = ln;
        return;
      }
      std::vector<limb_t> task_own;  // only when pairs run as tasks without a cached transform
      const limb_t* prod;
      std::size_t pn;
      if (factor) {  // into the thread's kept buffer: no fresh zeroed pages a merge
        prod = factor->mul_mod_scratch(hi, hn, by_pair ? 1 : threads);
        pn = factor->length();
      } else {
        limb_t* p = own.data();
        if (by_pair) {
          task_own.resize(hn + fn);
          p = task_own.data();
        }
        detail::mul_any(p, hi, hn, pw.five.data(), fn);
        prod = p;
        pn = hn + fn;
      }
      pn = detail::trimmed(prod, pn);
      // out = prod << m + lo; lo < D^s < 2^m B^... fills [0, mw) and adds above.
      const std::size_t on = mw + pn + 1;
      if (on > next_stride) throw error(error::kind::internal, "bigmul: radix conversion block overflow");
      const std::size_t low = std::min(ln, mw);
      std::copy(lo, lo + low, out);
      std::fill(out + low, out + mw, limb_t{0});
      out[mw + pn] = lshift(out + mw, prod, pn, mb);
      if (ln > mw) add(out + mw, out + mw, pn + 1, lo + mw, ln - mw, radix::binary);
      next_len[i] = detail::trimmed(out, on);
    });
    if (count % 2) {
      std::copy(cur.data() + (count - 1) * stride, cur.data() + (count - 1) * stride + len[count - 1],
                next.data() + (next_count - 1) * next_stride);
      next_len[next_count - 1] = len[count - 1];
    }
    std::swap(cur, next);
    std::swap(len, next_len);
    count = next_count;
    stride = next_stride;
  }
  cur.resize(len[0]);
  return cur;
}

}  // namespace

namespace detail {

std::size_t decimal_limbs_bound(const limb_t* a, std::size_t n) {
  n = trimmed(a, n);
  if (n == 0) return 0;
  // bits * log10(2) / 19, rounded up, plus slack.
  const std::size_t bits = 64 * n - static_cast<std::size_t>(std::countl_zero(a[n - 1]));
  return static_cast<std::size_t>(static_cast<double>(bits) * 0.30102999566398120 / 19.0) + 2;
}

std::vector<limb_t> binary_to_decimal(const limb_t* a, std::size_t n, std::size_t basecase_limbs) {
  n = trimmed(a, n);
  if (n == 0) return {};
  const std::size_t L = decimal_limbs_bound(a, n);
  std::vector<limb_t> out(L);
  to_decimal(a, n, out.data(), L, std::max<std::size_t>(basecase_limbs, 1));
  trim(out);
  return out;
}

std::vector<limb_t> decimal_to_binary(const limb_t* a, std::size_t n, std::size_t basecase_limbs) {
  return from_decimal(a, n, std::max<std::size_t>(basecase_limbs, 1));
}

void prepare_conversion(std::size_t n, radix from) {
  if (from == radix::decimal) {
    // from_decimal's last merge joins blocks of s = 2^k with s < L <= 2 s.
    const std::size_t basecase = std::max<std::size_t>(params_cpu::radix_from_decimal_basecase, 1);
    if (n > basecase && n >= 2) decimal_power_at(static_cast<std::size_t>(std::bit_width(n - 1)) - 1);
    return;
  }
  // to_decimal's root span for the largest value of n limbs.
  if (n == 0) return;
  const std::size_t basecase = std::max<std::size_t>(params_cpu::radix_to_decimal_basecase, 1);
  const std::size_t L = static_cast<std::size_t>(static_cast<double>(64 * n) * 0.30102999566398120 / 19.0) + 2;
  if (L > basecase) decimal_power_at(static_cast<std::size_t>(std::countr_zero(root_span(L, basecase))));
}

}  // namespace detail

// The public converters: allocation failure becomes bigmul::error kind
// resource (bigmul/error.hpp), like every entry point.
std::vector<limb_t> binary_to_decimal(const limb_t* a, std::size_t n) try {
  return detail::binary_to_decimal(a, n, detail::params_cpu::radix_to_decimal_basecase);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::binary_to_decimal");
}

std::vector<limb_t> decimal_to_binary(const limb_t* a, std::size_t n) try {
  return detail::decimal_to_binary(a, n, detail::params_cpu::radix_from_decimal_basecase);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::decimal_to_binary");
}

}  // namespace bigmul
