// SPDX-License-Identifier: LGPL-3.0-or-later
// The carry-and-join pass (mul/cuda/carry_join_fused.cu) on its CPU block
// emulator (CUDA builds: the shared functions sit beside carry_device.cuh's):
// blocks take tickets, gather s for the tile, the one position before it and
// the halo after it, fold the warps' ballots, publish one-word descriptors and
// look back one 64-bit access a step (random or latest-first interleaving),
// resolve the tile's digits and the halo's from the tile's carry-out into
// their shared array, join the limbs or decimal periods they own (periods
// through the limb stage and out in one sweep), and fold
// the fit flag, with the kernel's own functions (mul/cuda/carry_join_hd.hpp,
// carry/cuda/carry_fused_hd.hpp). Every limb must be written exactly once and
// equal GMP's product (coefficients from the FFT's balanced split,
// convolved exactly) or the CPU carry and join (adversarial coefficients);
// a pass past the guard writes nothing. Mutants of the halo, its carry-in,
// the ownership rule, the guard and the stage's sweep must fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "carry/carry_two_phase.hpp"
#include "carry/cuda/carry_device.cuh"
#include "carry/cuda/carry_fused_hd.hpp"
#include "carry/digit_base.hpp"
#include "mul/coefficients.hpp"
#include "mul/coefficients_impl.hpp"
#include "mul/cuda/carry_join_hd.hpp"
#include "prim/cuda/carry_code_hd.hpp"
#include "lookback_emulator.hpp"
#include "test_support.hpp"

using bigmul::limb_t;
using bigmul::radix;
using bigmul::carry::digit_base;
using bigmul::carry::cuda::carry_plan;
using bigmul::detail::coeff_format;
namespace fhd = bigmul::carry::cuda::fused_hd;
namespace jhd = bigmul::detail::cuda::carry_join_hd;
namespace code = bigmul::prim::carry_code;
namespace emu = bigmul::test::emu;

namespace {

enum class mutant { none, no_halo, halo_carry_zero, owner_short, ignore_guard, verdict_own_product, stage_short };

struct config {
  unsigned warps, items;  // tile: warps x items runs of 32 positions (the kernel: 8 x 4)
  unsigned lanes;         // look-back window (the kernel: 32)
  unsigned resident;
  bool latest_first;
  mutant mu;
};

struct block : emu::lookback {
  std::size_t g = 0, tile = 0;
  int phase = emu::not_started;  // then look-back, emit and join, done
  std::vector<std::int64_t> t;  // tile positions, then the halo's
  std::vector<std::uint32_t> gm, pm, codes;
};

// One run of 32 positions through the kernel's resolve_runs<R>, lane by lane.
template <unsigned R>
bool resolve(const std::vector<std::int64_t>& tv, const std::vector<std::uint32_t>& gmv,
             const std::vector<std::uint32_t>& pmv, std::size_t run0, std::uint32_t cin, std::size_t local0,
             std::size_t first, std::size_t M, std::size_t m, std::int64_t B, bool count_bad, std::uint32_t* sh) {
  bool bad = false;
  for (unsigned lane = 0; lane < 32; ++lane) {
    std::int64_t t[R];
    std::uint32_t gm[R], pm[R];
    for (unsigned r = 0; r < R; ++r) {
      t[r] = tv[(run0 + r) * 32 + lane];
      gm[r] = gmv[run0 + r];
      pm[r] = pmv[run0 + r];
    }
    bad |= jhd::resolve_runs<R>(t, gm, pm, cin, local0, first, lane, M, m, B, count_bad, sh);
  }
  return bad;
}

// The tile's join into out as the kernel does it: binary limbs straight out;
// decimal periods into a limb stage of stage_limbs(P) (poison where nothing
// was staged), then the stage's consecutive limbs out. False when a staged
// limb lands outside the stage.
template <class Join>
bool join_tile(const Join& join, const jhd::tile_digits& td, jhd::owned own, std::size_t P, std::size_t out_n,
               limb_t* out, limb_t poison, mutant mu) {
  if constexpr (Join::staged) {
    const std::size_t cap = jhd::stage_limbs(P);
    std::vector<limb_t> st(cap + 64, poison);  // 64 guard limbs past the stage
    for (std::size_t p = own.lo; p < own.hi; ++p) join.stage(td, p, own.lo, st.data());
    const jhd::owned l = join.limbs_of(own, out_n);
    const std::size_t hi = mu == mutant::stage_short && l.hi > l.lo ? l.hi - 1 : l.hi;
    for (std::size_t i = l.lo; i < hi; ++i) out[i] = st[i - l.lo];
    for (std::size_t i = cap; i < st.size(); ++i)
      if (st[i] != poison) return false;
    return l.hi <= l.lo || l.hi - l.lo <= cap;
  } else {
    for (std::size_t i = own.lo; i < own.hi; ++i) join.put(td, i, out, out_n);
    return true;
  }
}

template <class Base, class Join>
class emulator {
 public:
  emulator(const Base& base, const Join& join, const std::vector<std::int64_t>& c, std::size_t nc, std::size_t G,
           const carry_plan& plan, std::size_t m, std::size_t out_n, config k, bool guard_ok, std::uint64_t seed)
      : base_(base), join_(join), c_(c), nc_(nc), G_(G), plan_(plan), m_(m), out_n_(out_n), k_(k),
        guard_ok_(guard_ok), rng_(seed), tl_{plan.M, std::size_t{k.warps} * 32 * k.items} {
    out_.assign(G * out_n, 0x5e5e5e5e5e5e5e5eull);
    writes_.assign(G * out_n, 0);
    ok_.assign(G, -1);
    desc_.assign(G * tl_.tiles(), 0);
    ticket_.assign(G, 0);
    bad_.assign(G, 0);
    done_.assign(G, 0);
  }

  // Limbs, how often each was written, ok flags, the pass's verdict (-1: never written);
  // false when a decimal tile's limb stage overflowed.
  bool run(std::vector<limb_t>& out, std::vector<int>& writes, std::vector<int>& ok, int& accept) {
    std::vector<block> grid(G_ * tl_.tiles());
    for (std::size_t i = 0; i < grid.size(); ++i) grid[i].g = i / tl_.tiles();
    emu::run_grid(grid, k_.resident, k_.latest_first, rng_, [&](block& b) {
      if (b.phase == emu::not_started) start(b);
      else if (b.phase == emu::looking_back) look(b);
      else emit(b);
    });
    out = out_;
    writes = writes_;
    ok = ok_;
    accept = accept_;
    return staged_ok_;
  }

 private:
  std::size_t P() const { return tl_.P; }

  // The guard; ticket; s of the tile and both halos; t, ballots, warp codes (the tile's runs, then the halo's).
  void start(block& b) {
    if (!guard_ok_ && k_.mu != mutant::ignore_guard) {
      b.phase = emu::done;
      return;
    }
    b.tile = ticket_[b.g]++;
    const std::size_t first = b.tile * P(), H = jhd::halo_positions;
    const std::int64_t* cg = c_.data() + b.g * nc_;
    std::vector<std::int64_t> s(P() + 1 + H);
    for (std::size_t i = 0; i <= P() + H; ++i)
      s[i] = first + i == 0 ? 0
                            : fhd::position_s(base_, cg, nc_, plan_.ns, plan_.D[0], plan_.signed_top[0], first + i - 1);
    const auto B = static_cast<std::int64_t>(base_.base());
    const std::size_t runs = std::size_t{k_.warps} * k_.items + jhd::halo_runs;
    b.t.assign(runs * 32, 0);
    b.gm.assign(runs, 0);
    b.pm.assign(runs, 0);
    b.codes.assign(k_.warps, code::identity);
    for (std::size_t run = 0; run < runs; ++run) {
      for (unsigned lane = 0; lane < 32; ++lane) {  // the ballots
        const std::size_t local = run * 32 + lane, p = first + local;
        const bool in = p < plan_.M;
        b.t[local] = in ? fhd::position_t(base_, s[local + 1], s[local], p) : 0;
        if (in && b.t[local] >= B) b.gm[run] |= 1u << lane;
        if (!in || b.t[local] == B - 1) b.pm[run] |= 1u << lane;
      }
      if (run < std::size_t{k_.warps} * k_.items) {
        const std::size_t w = run / k_.items;
        b.codes[w] = code::op{}(b.codes[w], fhd::warp_code(b.gm[run], b.pm[run]));
      }
    }
    std::uint32_t aggregate = code::identity;
    for (std::uint32_t x : b.codes) aggregate = code::op{}(aggregate, x);
    b.phase = emu::start_lookback(desc_, b.g * tl_.tiles(), b.tile, aggregate, code::identity, k_.lanes, b);
  }

  void look(block& b) {
    b.phase = emu::lookback_step(desc_, b.g * tl_.tiles(), b.tile, k_.lanes, code::op{}, code::identity, b);
  }

  template <unsigned R>
  bool resolve_warp(const block& b, unsigned w, std::uint32_t cin, std::vector<std::uint32_t>& sh) {
    const std::size_t first = b.tile * P(), run0 = std::size_t{w} * k_.items;
    return resolve<R>(b.t, b.gm, b.pm, run0, cin, run0 * 32, first, plan_.M, m_,
                      static_cast<std::int64_t>(base_.base()), true, sh.data());
  }

  // Digits of the tile and its halo, the owned limbs, the fit flag; the last tile of the product writes ok.
  void emit(block& b) {
    const std::size_t first = b.tile * P(), runs = std::size_t{k_.warps} * k_.items;
    const std::uint32_t tile_carry = b.running & 1u;
    std::vector<std::uint32_t> sh(P() + jhd::halo_positions, 0xa5a5a5a5u);  // the kernel's dig[]: stale values
    bool bad = false;
    for (unsigned w = 0; w < k_.warps; ++w) {
      const std::uint32_t cin = fhd::warp_carry_in(tile_carry, b.codes.data(), w);
      switch (k_.items) {
        case 1: bad |= resolve_warp<1>(b, w, cin, sh); break;
        case 2: bad |= resolve_warp<2>(b, w, cin, sh); break;
        default: bad |= resolve_warp<4>(b, w, cin, sh); break;
      }
    }
    const std::uint32_t hcin =
        k_.mu == mutant::halo_carry_zero ? 0 : jhd::halo_carry_in(tile_carry, b.codes.data(), k_.warps);
    const auto B = static_cast<std::int64_t>(base_.base());
    if (k_.mu != mutant::no_halo)
      resolve<jhd::halo_runs>(b.t, b.gm, b.pm, runs, hcin, P(), first, plan_.M, m_, B, false, sh.data());
    jhd::owned own = join_.owned_by(first, P(), out_n_);
    if (k_.mu == mutant::owner_short && own.hi > own.lo) --own.hi;  // the tile's last limb left to no one
    const jhd::tile_digits td{sh.data(), first, m_};
    // Twice over different fill (and stage poison): a limb both runs agree on was written.
    std::vector<limb_t> mine(out_n_, 0), again(out_n_, ~limb_t{0});
    staged_ok_ &= join_tile(join_, td, own, P(), out_n_, mine.data(), 0x1111111111111111ull, k_.mu);
    staged_ok_ &= join_tile(join_, td, own, P(), out_n_, again.data(), 0x2222222222222222ull, k_.mu);
    for (std::size_t j = 0; j < out_n_; ++j)
      if (mine[j] == again[j]) {
        out_[b.g * out_n_ + j] = mine[j];
        ++writes_[b.g * out_n_ + j];
      }
    if (bad) bad_[b.g] = 1;
    if (++done_[b.g] == tl_.tiles()) {  // the product's flag, and the last product's verdict
      ok_[b.g] = bad_[b.g] ? 0 : 1;
      if (!ok_[b.g]) pass_bad_ = 1;
      if (++pass_done_ == G_) accept_ = k_.mu == mutant::verdict_own_product ? ok_[b.g] : pass_bad_ ? 0 : 1;
    }
    b.phase = emu::done;
  }

  Base base_;
  Join join_;
  const std::vector<std::int64_t>& c_;
  std::size_t nc_, G_;
  carry_plan plan_;
  std::size_t m_, out_n_;
  config k_;
  bool guard_ok_;
  std::mt19937_64 rng_;
  fhd::tiling tl_;
  std::vector<limb_t> out_;
  std::vector<int> writes_, ok_;
  std::vector<std::uint64_t> desc_;
  std::vector<std::size_t> ticket_, bad_, done_;
  std::size_t pass_bad_ = 0, pass_done_ = 0;
  int accept_ = -1;
  bool staged_ok_ = true;
};

// A problem: G products' coefficients and the limbs they must give.
struct problem {
  std::string what;
  coeff_format f;
  std::vector<std::int64_t> c;  // G x nc
  std::size_t nc, G, m, out_n;
  std::uint64_t max_abs;
  std::vector<limb_t> want;  // G x out_n (when fits)
  std::vector<int> fits;
};

problem make(std::string what, coeff_format f, std::vector<std::int64_t> c, std::size_t nc, std::size_t G,
             std::size_t out_n, std::uint64_t max_abs) {
  problem pr;
  pr.what = std::move(what);
  pr.f = f;
  pr.c = std::move(c);
  pr.nc = nc;
  pr.G = G;
  pr.out_n = out_n;
  pr.m = f.count(out_n);
  pr.max_abs = max_abs;
  return pr;
}

template <class F>
void with_join(coeff_format f, F&& fn) {
  if (f.rx == radix::binary) {
    fn(bigmul::carry::binary_base{f.digits}, jhd::binary_join{f.digits});
    return;
  }
  bigmul::carry::with_decimal_digits(f.digits, [&](auto K) {
    constexpr unsigned k = decltype(K)::value;
    fn(bigmul::carry::decimal_base<k>{}, jhd::decimal_join<k>{});
  });
}

// The expected limbs from the CPU carry and join.
void expect_from_cpu(problem& pr) {
  const digit_base b{pr.f.rx == radix::decimal, pr.f.digits};
  pr.want.assign(pr.G * pr.out_n, 0);
  pr.fits.assign(pr.G, 0);
  for (std::size_t q = 0; q < pr.G; ++q) {
    std::vector<std::uint32_t> d(pr.m, 0);
    pr.fits[q] = bigmul::carry::carry_normalize_two_phase(pr.c.data() + q * pr.nc, pr.nc, b, d.data(), pr.m, 1,
                                                          pr.max_abs);
    if (pr.fits[q]) bigmul::detail::join_digits(d.data(), pr.m, pr.f, pr.want.data() + q * pr.out_n, pr.out_n, 1);
  }
}

std::vector<limb_t> operand(radix rx, std::size_t n, int kind, std::mt19937_64& g) {
  const limb_t top = rx == radix::binary ? ~limb_t{0} : limb_t{9999999999999999999ull};
  std::vector<limb_t> a(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (kind) {
      case 0: a[i] = rx == radix::binary ? g() : g() % (top + 1); break;
      case 1: a[i] = top; break;                        // all-max limbs: carry chains through every digit
      case 2: a[i] = i + 1 == n ? 1 : 0; break;         // a power of the radix
      default: a[i] = i % 7 == 3 ? 0 : top; break;      // runs of max limbs
    }
  }
  return a;
}

// G = 2 products of the FFT's balanced digits, convolved exactly; GMP's products.
problem fft_problem(coeff_format f, std::size_t an, std::size_t bn, int kind, std::mt19937_64& g) {
  const std::size_t ca = f.count(an) + 1, cb = f.count(bn) + 1, nc = ca + cb - 1;
  // The FP64 pass's precise limit bounds the sums.
  problem pr = make("fft " + std::to_string(an) + "x" + std::to_string(bn) + " kind " + std::to_string(kind), f,
                    std::vector<std::int64_t>(2 * nc, 0), nc, 2, an + bn, std::uint64_t{1} << 53);
  for (std::size_t q = 0; q < pr.G; ++q) {
    const auto a = operand(f.rx, an, q ? 0 : kind, g), b = operand(f.rx, bn, kind, g);
    std::vector<std::int64_t> da(ca, 0), db(cb, 0);
    bigmul::detail::split_balanced(a.data(), an, f, [&](std::size_t i, std::int64_t v) { da[i] = v; }, 1);
    bigmul::detail::split_balanced(b.data(), bn, f, [&](std::size_t i, std::int64_t v) { db[i] = v; }, 1);
    for (std::size_t i = 0; i < ca; ++i)
      for (std::size_t j = 0; j < cb; ++j) pr.c[q * pr.nc + i + j] += da[i] * db[j];
    const auto p = bigmul::test::gmp_product(a.data(), an, b.data(), bn, f.rx);
    pr.want.insert(pr.want.end(), p.begin(), p.end());
  }
  pr.fits.assign(pr.G, 1);
  return pr;
}

// Adversarial coefficients (against the CPU carry and join): chains, borrows,
// a value that does not fit, a negative one; k = 1 digits (a limb spans 64).
std::vector<problem> adversarial(coeff_format f, std::mt19937_64& g) {
  const std::uint64_t B = f.base();
  std::vector<problem> v;
  for (std::size_t out_n : {std::size_t{1}, std::size_t{5}, std::size_t{7}, std::size_t{8}, std::size_t{40}}) {
    const std::size_t m = f.count(out_n), nc = m;
    // One spread round: B^D > max_abs with D <= B digits.
    const std::uint64_t max_abs = f.digits > 1 ? std::uint64_t{1} << 40 : f.rx == radix::binary ? 3 : 1000000000;
    problem chain =
        make("chain", f, std::vector<std::int64_t>(nc, static_cast<std::int64_t>(B - 1)), nc, 1, out_n + 1, max_abs);
    chain.c[0] = max_abs >= B ? static_cast<std::int64_t>(B) : 1;
    v.push_back(chain);
    problem tight = chain;  // B^nc + ...: one digit short of its room
    tight.what = "chain, no room";
    tight.out_n = out_n;
    tight.m = m;
    v.push_back(tight);
    problem neg = make("negative", f, std::vector<std::int64_t>(nc, 0), nc, 1, out_n, max_abs);
    neg.c[nc - 1] = -1;
    v.push_back(neg);
    problem borrow = make("borrow", f, std::vector<std::int64_t>(nc, 0), nc, 1, out_n, max_abs);
    borrow.c[0] = -1;
    borrow.c[nc - 1] += 1;
    if (nc > 1) v.push_back(borrow);
    // Three products, the middle one negative: the verdict is 0 whichever finishes last.
    problem mixed = make("mixed", f, chain.c, nc, 3, out_n + 1, max_abs);
    mixed.c.insert(mixed.c.end(), neg.c.begin(), neg.c.end());
    mixed.c.insert(mixed.c.end(), chain.c.begin(), chain.c.end());
    v.push_back(mixed);
    problem rnd = make("random", f, {}, nc, 3, out_n + 1, max_abs);
    const auto lim = static_cast<std::int64_t>(max_abs);
    for (std::size_t i = 0; i < 3 * nc; ++i) rnd.c.push_back(static_cast<std::int64_t>(g() % (2 * max_abs + 1)) - lim);
    for (std::size_t q = 0; q < 3; ++q) rnd.c[q * nc + nc - 1] = static_cast<std::int64_t>(g() % (max_abs + 1));
    v.push_back(rnd);
  }
  for (problem& pr : v) expect_from_cpu(pr);
  return v;
}

std::vector<problem> problems(std::mt19937_64& g) {
  std::vector<problem> v;
  for (coeff_format f : {coeff_format{radix::binary, 16}, coeff_format{radix::binary, 20},
                         coeff_format{radix::decimal, 4}, coeff_format{radix::decimal, 6}}) {
    for (int kind = 0; kind < 4; ++kind) v.push_back(fft_problem(f, 37, 41, kind, g));
    v.push_back(fft_problem(f, 1, 90, 0, g));  // very unbalanced
    v.push_back(fft_problem(f, 1, 1, 1, g));
  }
  v.push_back(fft_problem(coeff_format{radix::binary, 20}, 300, 280, 1, g));  // tiles of the kernel's 1024 positions
  v.push_back(fft_problem(coeff_format{radix::decimal, 5}, 170, 160, 0, g));
  for (coeff_format f : {coeff_format{radix::binary, 1}, coeff_format{radix::binary, 4},
                         coeff_format{radix::binary, 16},
                         coeff_format{radix::binary, 32}, coeff_format{radix::decimal, 1},
                         coeff_format{radix::decimal, 9}})
    for (problem& pr : adversarial(f, g)) v.push_back(std::move(pr));
  return v;
}

// Mismatches over the problems under config k.
int failures(config k, bool guard_ok, bool stop_at_first) {
  auto g = bigmul::test::rng(0xc01e);
  int bad = 0;
  for (const problem& pr : problems(g)) {
    const digit_base b{pr.f.rx == radix::decimal, pr.f.digits};
    carry_plan plan;
    EXPECT_TRUE(bigmul::carry::cuda::make_carry_plan<std::int64_t>(b, pr.nc, pr.m, pr.max_abs, plan));
    EXPECT_TRUE(fhd::fusable(plan)) << pr.what << " base " << b.value();
    if (!fhd::fusable(plan)) continue;
    std::vector<limb_t> got;
    std::vector<int> writes, ok;
    int accept = -1;
    bool staged = true;
    with_join(pr.f, [&](auto base, auto join) {
      staged = emulator<decltype(base), decltype(join)>(base, join, pr.c, pr.nc, pr.G, plan, pr.m, pr.out_n, k,
                                                        guard_ok, g())
                   .run(got, writes, ok, accept);
    });
    if (!staged) {
      ++bad;
      if (stop_at_first) {
        ADD_FAILURE() << pr.what << ": a staged limb outside the stage";
        return bad;
      }
    }
    const int all_fit = std::all_of(pr.fits.begin(), pr.fits.end(), [](int f) { return f != 0; }) ? 1 : 0;
    if (accept != (guard_ok ? all_fit : -1)) {
      ++bad;
      if (stop_at_first) {
        ADD_FAILURE() << pr.what << " verdict " << accept << " want " << (guard_ok ? all_fit : -1);
        return bad;
      }
    }
    for (std::size_t q = 0; q < pr.G; ++q) {
      bool same;
      if (!guard_ok) {
        same = ok[q] == -1 && std::all_of(writes.begin(), writes.end(), [](int w) { return w == 0; });
      } else {
        const auto at = static_cast<long>(q * pr.out_n);
        same = ok[q] == pr.fits[q] &&
               std::all_of(writes.begin() + at, writes.begin() + at + static_cast<long>(pr.out_n),
                           [](int w) { return w == 1; }) &&
               (!pr.fits[q] || std::equal(pr.want.begin() + at, pr.want.begin() + at + static_cast<long>(pr.out_n),
                                          got.begin() + at));
      }
      if (!same) {
        ++bad;
        if (stop_at_first) {
          ADD_FAILURE() << pr.what << " base " << b.value() << " product " << q << " fits " << pr.fits[q] << " ok "
                        << ok[q];
          return bad;
        }
      }
    }
  }
  return bad;
}

TEST(CarryJoinModel, OwnershipCoversEveryLimbOnce) {
  for (unsigned k : {1u, 4u, 16u, 20u, 31u, 32u})
    for (std::size_t P : {std::size_t{32}, std::size_t{96}, std::size_t{1024}}) {
      const jhd::binary_join join{k};
      const std::size_t out_n = 3 * P * k / 64 + 5, m = (out_n * 64 + k - 1) / k;
      std::size_t next = 0;
      for (std::size_t first = 0; first < m + 1; first += P) {
        const jhd::owned o = join.owned_by(first, P, out_n);
        ASSERT_EQ(o.lo, std::min(next, out_n)) << k << " " << P << " " << first;
        for (std::size_t j = o.lo; j < o.hi; ++j) {  // first digit in the tile, last within the halo
          ASSERT_GE(64 * j / k, first);
          ASSERT_LT(64 * j / k, first + P);
          ASSERT_LT((64 * j + 63) / k, first + P + jhd::halo_positions);
        }
        next = std::max(next, o.hi);
      }
      EXPECT_EQ(next, out_n);
    }
}

TEST(CarryJoinModel, MatchesGmpAndCpuCarry) {
  for (config k : {config{1, 1, 4, 6, false, mutant::none}, config{2, 2, 1, 8, true, mutant::none},
                   config{3, 1, 32, 4, true, mutant::none}, config{8, 4, 32, 4, false, mutant::none}})
    EXPECT_EQ(failures(k, true, true), 0) << k.warps << "x" << k.items << " lanes " << k.lanes;
}

TEST(CarryJoinModel, PastTheGuardWritesNothing) {
  EXPECT_EQ(failures(config{2, 1, 4, 6, false, mutant::none}, false, true), 0);
}

TEST(CarryJoinModel, MutantsFail) {
  for (mutant mu : {mutant::no_halo, mutant::halo_carry_zero, mutant::owner_short, mutant::verdict_own_product,
                    mutant::stage_short})
    EXPECT_GT(failures(config{1, 1, 4, 6, false, mu}, true, false), 0) << "mutant " << static_cast<int>(mu);
  EXPECT_GT(failures(config{2, 1, 4, 6, false, mutant::ignore_guard}, false, false), 0);
}

}  // namespace
