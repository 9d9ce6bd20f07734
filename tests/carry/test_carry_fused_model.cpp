// SPDX-License-Identifier: LGPL-3.0-or-later
// The single-pass carry (carry/cuda/carry_fused.cu) on its CPU block emulator
// (CUDA builds: the shared functions sit beside carry_device.cuh's): blocks
// take tickets, gather s for their tile and its one-position halo, fold the
// warps' ballots, publish one-word descriptors and look back one 64-bit
// access a step (random or latest-first interleaving), emit digits and fold
// the fit flag through the per-product bad/done counters, with the kernel's
// own per-position and per-tile functions (carry/cuda/carry_fused_hd.hpp).
// Digits and flag must equal the CPU two-phase carry on random, carry-chain,
// negative and overflowing inputs, batched; mutants of the halo, the tile
// prefix, the warp order and the flag fold must fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "carry/carry_two_phase.hpp"
#include "carry/cuda/carry_device.cuh"
#include "carry/cuda/carry_fused_hd.hpp"
#include "prim/cuda/carry_code_hd.hpp"
#include "lookback_emulator.hpp"
#include "test_support.hpp"

using bigmul::carry::digit_base;
using bigmul::carry::cuda::carry_plan;
namespace fhd = bigmul::carry::cuda::fused_hd;
namespace hd = bigmul::carry::cuda::hd;
namespace code = bigmul::prim::carry_code;

namespace emu = bigmul::test::emu;

namespace {

enum class mutant { none, no_halo, no_tile_prefix, warp_order, own_flag_only };

struct config {
  unsigned warps, items;  // tile: warps x items runs of 32 positions (the kernel: 8 x 4)
  unsigned lanes;         // look-back window (the kernel: 32)
  unsigned resident;
  bool latest_first;
  mutant mu;
};

struct block : emu::lookback {
  std::size_t g = 0, tile = 0;
  int phase = emu::not_started;  // then look-back, emit, done
  std::vector<std::int64_t> t;
  std::vector<std::uint32_t> gm, pm, codes;
};

template <class Base>
class emulator {
 public:
  emulator(const Base& base, const std::vector<std::int64_t>& c, std::size_t nc, std::size_t G, const carry_plan& plan,
           std::size_t m, config k, std::uint64_t seed)
      : base_(base), c_(c), nc_(nc), G_(G), plan_(plan), m_(m), k_(k), rng_(seed),
        tl_{plan.M, std::size_t{k.warps} * 32 * k.items} {
    out_.assign(G * m, 0xdeadbeef);
    ok_.assign(G, -1);
    desc_.assign(G * tl_.tiles(), 0);
    ticket_.assign(G, 0);
    bad_.assign(G, 0);
    done_.assign(G, 0);
  }

  void run(std::vector<std::uint32_t>& out, std::vector<int>& ok) {
    std::vector<block> grid(G_ * tl_.tiles());
    for (std::size_t i = 0; i < grid.size(); ++i) grid[i].g = i / tl_.tiles();
    emu::run_grid(grid, k_.resident, k_.latest_first, rng_, [&](block& b) {
      if (b.phase == emu::not_started) start(b);
      else if (b.phase == emu::looking_back) look(b);
      else emit(b);
    });
    out = out_;
    ok = ok_;
  }

 private:
  // Ticket; s of the tile and its halo; t, ballots, warp codes; the aggregate.
  void start(block& b) {
    b.tile = ticket_[b.g]++;
    const std::size_t P = tl_.P, first = b.tile * P;
    const std::int64_t* cg = c_.data() + b.g * nc_;
    std::vector<std::int64_t> s(P + 1);
    for (std::size_t i = 0; i <= P; ++i)
      s[i] = first + i == 0 || (i == 0 && k_.mu == mutant::no_halo)
                 ? 0
                 : fhd::position_s(base_, cg, nc_, plan_.ns, plan_.D[0], plan_.signed_top[0], first + i - 1);
    const auto B = static_cast<std::int64_t>(base_.base());
    const std::size_t runs = std::size_t{k_.warps} * k_.items;
    b.t.assign(P, 0);
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
      const std::size_t w = run / k_.items;
      b.codes[w] = code::op{}(b.codes[w], fhd::warp_code(b.gm[run], b.pm[run]));
    }
    std::uint32_t aggregate = code::identity;
    for (std::uint32_t x : b.codes) aggregate = code::op{}(aggregate, x);
    b.phase = emu::start_lookback(desc_, b.g * tl_.tiles(), b.tile, aggregate, code::identity, k_.lanes, b);
  }

  void look(block& b) {
    b.phase = emu::lookback_step(desc_, b.g * tl_.tiles(), b.tile, k_.lanes, code::op{}, code::identity, b);
  }

  // Digits and the fit flag; the last tile of the product to finish writes ok.
  void emit(block& b) {
    const auto B = static_cast<std::int64_t>(base_.base());
    const std::size_t first = b.tile * tl_.P;
    const std::uint32_t tile_carry = k_.mu == mutant::no_tile_prefix ? 0 : b.running & 1u;
    bool bad = false;
    for (unsigned w = 0; w < k_.warps; ++w) {
      std::vector<std::uint32_t> codes = b.codes;
      if (k_.mu == mutant::warp_order) std::reverse(codes.begin(), codes.begin() + w);
      std::uint32_t cin = fhd::warp_carry_in(tile_carry, codes.data(), w);
      for (unsigned r = 0; r < k_.items; ++r) {
        const std::size_t run = std::size_t{w} * k_.items + r;
        const std::uint64_t bits = hd::warp_carry_bits(b.gm[run], b.pm[run], cin);
        cin = static_cast<std::uint32_t>(bits >> 32) & 1u;
        for (unsigned lane = 0; lane < 32; ++lane) {
          const std::size_t p = first + run * 32 + lane;
          if (p >= plan_.M) continue;
          bool carry_out;
          const std::uint32_t d =
              hd::resolve_digit(b.t[run * 32 + lane], static_cast<std::uint32_t>(bits >> lane) & 1u, B, carry_out);
          if (p < m_) out_[b.g * m_ + p] = d;
          bad |= hd::position_bad(p, d, carry_out, m_, plan_.M);
        }
      }
    }
    if (bad) bad_[b.g] = 1;
    if (++done_[b.g] == tl_.tiles())
      ok_[b.g] = (k_.mu == mutant::own_flag_only ? bad : bad_[b.g] != 0) ? 0 : 1;
    b.phase = emu::done;
  }

  Base base_;
  const std::vector<std::int64_t>& c_;
  std::size_t nc_, G_;
  carry_plan plan_;
  std::size_t m_;
  config k_;
  std::mt19937_64 rng_;
  fhd::tiling tl_;
  std::vector<std::uint32_t> out_;
  std::vector<int> ok_;
  std::vector<std::uint64_t> desc_;
  std::vector<std::size_t> ticket_, bad_, done_;
};

struct problem {
  std::string what;
  std::vector<std::int64_t> c;  // G x nc
  std::size_t nc, G, m;
  std::uint64_t max_abs;
};

// Coefficients of FFT products and adversarial ones for base b.
std::vector<problem> problems(digit_base b, std::mt19937_64& g) {
  const std::uint64_t B = b.value();
  const std::int64_t lim = std::int64_t{1} << 52;
  std::vector<problem> v;
  for (std::size_t nc : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{700}}) {
    const std::size_t m = nc + 6;
    problem r{"random", {}, nc, 3, m, static_cast<std::uint64_t>(lim)};
    for (std::size_t i = 0; i < 3 * nc; ++i) r.c.push_back(static_cast<std::int64_t>(g() % (2 * lim)) - lim);
    for (std::size_t k = 0; k < 3; ++k) r.c[k * nc + nc - 1] = static_cast<std::int64_t>(g() % lim);  // top >= 0 fits
    v.push_back(r);
    // B - 1 everywhere behind a carry from position 0: a chain through every tile.
    problem chain{"chain", std::vector<std::int64_t>(nc, static_cast<std::int64_t>(B - 1)), nc, 1, m,
                  static_cast<std::uint64_t>(lim)};
    chain.c[0] = static_cast<std::int64_t>(B);
    v.push_back(chain);
    // The same chain one digit short of its room: the carry out breaks the fit.
    problem tight = chain;
    tight.what = "chain, no room";
    tight.m = nc;
    v.push_back(tight);
    // A negative value: never fits.
    problem neg{"negative", std::vector<std::int64_t>(nc, 0), nc, 1, m, static_cast<std::uint64_t>(lim)};
    neg.c[nc - 1] = -1;
    v.push_back(neg);
    // Borrows: -1 then +1 a digit up, a chain of B - 1 digits from a borrow.
    problem borrow{"borrow", std::vector<std::int64_t>(nc, 0), nc, 1, m, static_cast<std::uint64_t>(lim)};
    borrow.c[0] = -1;
    borrow.c[nc - 1] += 1;
    if (nc > 1) v.push_back(borrow);
  }
  return v;
}

// Mismatches over bases and problems under config k.
int failures(config k, bool stop_at_first) {
  auto g = bigmul::test::rng(0xca77);
  int bad = 0;
  for (digit_base b : {digit_base{false, 8}, digit_base{false, 16}, digit_base{false, 20}, digit_base{false, 32},
                       digit_base{true, 1}, digit_base{true, 4}, digit_base{true, 9}}) {
    for (const problem& pr : problems(b, g)) {
      carry_plan plan;
      EXPECT_TRUE(bigmul::carry::cuda::make_carry_plan<std::int64_t>(b, pr.nc, pr.m, pr.max_abs, plan));
      if (!fhd::fusable(plan)) continue;
      std::vector<std::uint32_t> got;
      std::vector<int> ok;
      bigmul::carry::with_base(b, [&](auto base) {
        emulator<decltype(base)>(base, pr.c, pr.nc, pr.G, plan, pr.m, k, g()).run(got, ok);
      });
      for (std::size_t q = 0; q < pr.G; ++q) {
        std::vector<std::uint32_t> want(pr.m, 0);
        const bool fits = bigmul::carry::carry_normalize_two_phase(pr.c.data() + q * pr.nc, pr.nc, b, want.data(),
                                                                   pr.m, 1, pr.max_abs);
        const bool same = ok[q] == (fits ? 1 : 0) &&
                          (!fits || std::equal(want.begin(), want.end(), got.begin() + static_cast<long>(q * pr.m)));
        if (!same) {
          ++bad;
          if (stop_at_first) {
            ADD_FAILURE() << pr.what << " base " << b.value() << " nc " << pr.nc << " product " << q << " fits "
                          << fits << " ok " << ok[q];
            return bad;
          }
        }
      }
    }
  }
  return bad;
}

TEST(CarryFusedModel, FftPlansAreOneRound) {
  for (digit_base b : {digit_base{false, 16}, digit_base{false, 20}, digit_base{true, 4}, digit_base{true, 6}}) {
    carry_plan plan;
    ASSERT_TRUE(bigmul::carry::cuda::make_carry_plan<std::int64_t>(b, 1000, 1010, std::uint64_t{1} << 53, plan));
    EXPECT_TRUE(fhd::fusable(plan)) << b.value();
  }
  carry_plan plan;  // base 2, the int64 range: more rounds, the multi-pass kernels
  ASSERT_TRUE(bigmul::carry::cuda::make_carry_plan<std::int64_t>(digit_base{false, 1}, 10, 80, 0, plan));
  EXPECT_FALSE(fhd::fusable(plan));
}

TEST(CarryFusedModel, MatchesTwoPhaseCpu) {
  for (config k : {config{2, 1, 4, 6, false, mutant::none}, config{1, 2, 1, 8, true, mutant::none},
                   config{2, 2, 32, 4, true, mutant::none}, config{8, 4, 32, 4, false, mutant::none}})
    EXPECT_EQ(failures(k, true), 0) << k.warps << "x" << k.items << " lanes " << k.lanes;
}

TEST(CarryFusedModel, MutantsFail) {
  for (mutant mu : {mutant::no_halo, mutant::no_tile_prefix, mutant::warp_order, mutant::own_flag_only})
    EXPECT_GT(failures(config{3, 1, 4, 6, false, mu}, false), 0) << "mutant " << static_cast<int>(mu);
}

}  // namespace
