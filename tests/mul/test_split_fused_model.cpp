// SPDX-License-Identifier: LGPL-3.0-or-later
// The single-pass balanced split (mul/cuda/split_fused.cu) on its CPU block
// emulator, every build: blocks take tickets, fold and scan their periods,
// publish one-word descriptors and look back through them one 64-bit access a
// step, interleaved at random or latest-first, then emit through the stage,
// with the kernel's own per-period and per-tile functions
// (mul/cuda/split_fused_hd.hpp). The result must equal the CPU split_balanced
// for every format, for all-max, runs, power and random operands, batched.
// Mutants of the thread prefix, the tile prefix, the fold order, the window
// step and the top carry must fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "carry/digit_base.hpp"
#include "mul/coefficients.hpp"
#include "mul/coefficients_impl.hpp"
#include "mul/cuda/split_fused_hd.hpp"
#include "lookback_emulator.hpp"
#include "test_support.hpp"

using namespace bigmul;
using namespace bigmul::detail;
namespace shd = bigmul::detail::cuda::split_hd;
namespace emu = bigmul::test::emu;
using bigmul::test::operand_kind;

namespace {

// (Folding past a prefix is no mutant here: the carry operator is idempotent,
// so a tile counted twice changes nothing; a tile skipped does.)
enum class mutant { none, inclusive_thread, no_tile_prefix, fold_reversed, skip_tile, no_top_carry };
enum class schedule { random, latest_first };

struct config {
  std::size_t tp;   // periods per tile (the kernel: split_hd::threads)
  unsigned lanes;   // look-back window (the kernel: 32)
  unsigned resident;  // blocks holding a ticket at once, at most
  schedule sched;
  mutant mu;
};

// One block of the emulated grid.
struct block : emu::lookback {
  std::size_t g = 0, tile = 0;
  int phase = emu::not_started;  // ticket + scan + publish, then look-back, emit, done
  std::vector<std::uint32_t> excl;
};

template <class Src>
class emulator {
 public:
  emulator(Src src, const std::vector<limb_t>& a, std::size_t n, std::size_t G, coeff_format f, config c,
           std::uint64_t seed)
      : src_(src), a_(a), n_(n), G_(G), B_(f.base()), c_(c), rng_(seed) {
    const std::size_t total = f.count(n);
    t_ = shd::tiling{(total + src.pd - 1) / src.pd, c.tp, src.pd, total};
    out_.assign(G * (total + 1), 0x5a5a5a5a);
    desc_.assign(G * t_.tiles(), 0);
    tickets_.assign(G, 0);
  }

  std::vector<std::int32_t> run() {
    if (t_.periods == 0) return std::vector<std::int32_t>(G_, 0);
    std::vector<block> grid(G_ * t_.tiles());
    for (std::size_t i = 0; i < grid.size(); ++i) grid[i].g = i / t_.tiles();  // blockIdx.y, then x
    emu::run_grid(grid, c_.resident, c_.sched == schedule::latest_first, rng_, [&](block& b) { step(b); });
    return out_;
  }

 private:
  void step(block& b) {
    if (b.phase == emu::not_started) start(b);
    else if (b.phase == emu::looking_back) look(b);
    else emit(b);
  }

  // Ticket, the block scan of the period codes, the first descriptor.
  void start(block& b) {
    b.tile = tickets_[b.g]++;
    const limb_t* ag = a_.data() + b.g * n_;
    b.excl.assign(c_.tp, 0);
    std::uint32_t acc = shd::code_identity;
    for (std::size_t i = 0; i < c_.tp; ++i) {
      const std::uint32_t code = shd::period_code(src_, ag, n_, t_, B_, t_.first_period(b.tile) + i);
      const std::uint32_t incl = shd::code_op{}(acc, code);
      b.excl[i] = c_.mu == mutant::inclusive_thread ? incl : acc;
      acc = incl;
    }
    b.phase = emu::start_lookback(desc_, b.g * t_.tiles(), b.tile, acc, shd::code_identity, c_.lanes, b);
  }

  // One lane's one-word read; a full window folds (packed_look_back's steps).
  void look(block& b) {
    const emu::lookback_faults f{c_.mu == mutant::fold_reversed, c_.mu == mutant::skip_tile};
    b.phase = emu::lookback_step(desc_, b.g * t_.tiles(), b.tile, c_.lanes, shd::code_op{}, shd::code_identity, b, f);
  }

  // Every thread's period into the stage (or straight out), then the sweep.
  void emit(block& b) {
    const limb_t* ag = a_.data() + b.g * n_;
    std::int32_t* og = out_.data() + b.g * (t_.total + 1);
    std::vector<std::int32_t> stage(shd::stage_capacity, 0x3c3c3c3c);
    const std::uint32_t prefix = c_.mu == mutant::no_tile_prefix ? shd::code_identity : b.running;
    for (std::size_t i = 0; i < c_.tp; ++i) {
      const std::size_t p = t_.first_period(b.tile) + i;
      if (p >= t_.periods) continue;
      std::int32_t* dst = t_.staged() ? stage.data() + i * t_.pd : og + p * t_.pd;
      const std::uint32_t top = shd::period_emit(src_, ag, n_, t_, B_, p, shd::carry_in(prefix, b.excl[i]), dst);
      if (p + 1 == t_.periods && c_.mu != mutant::no_top_carry) og[t_.total] = static_cast<std::int32_t>(top);
    }
    if (t_.staged()) {
      const std::size_t first = t_.first_digit(b.tile), count = t_.digits(b.tile);
      for (std::size_t i = 0; i < count; ++i) og[first + i] = stage[i];
    }
    b.phase = emu::done;
  }

  Src src_;
  const std::vector<limb_t>& a_;
  std::size_t n_, G_;
  std::uint64_t B_;
  config c_;
  std::mt19937_64 rng_;
  shd::tiling t_{};
  std::vector<std::int32_t> out_;
  std::vector<std::uint64_t> desc_;
  std::vector<std::size_t> tickets_;
};

std::vector<std::int32_t> model(const std::vector<limb_t>& a, std::size_t n, std::size_t G, coeff_format f,
                                config c, std::uint64_t seed) {
  if (f.rx == radix::binary) {
    const cuda::coeff_hd::binary_src src{f.digits, period_digits(f), period_limbs(f)};
    return emulator(src, a, n, G, f, c, seed).run();
  }
  return carry::with_decimal_digits(f.digits, [&](auto K) {
    return emulator(cuda::coeff_hd::decimal_src<decltype(K)::value>{}, a, n, G, f, c, seed).run();
  });
}

std::vector<std::int32_t> cpu(const std::vector<limb_t>& a, std::size_t n, std::size_t G, coeff_format f) {
  const std::size_t s = f.count(n) + 1;
  std::vector<std::int32_t> c(G * s, 0x77777777);
  for (std::size_t g = 0; g < G; ++g)
    split_balanced(a.data() + g * n, n, f, [&](std::size_t i, std::int64_t v) { c[g * s + i] = static_cast<std::int32_t>(v); }, 1);
  return c;
}

std::vector<coeff_format> formats() {
  std::vector<coeff_format> v;
  for (unsigned k : {1u, 3u, 8u, 13u, 16u, 19u, 20u, 21u, 24u, 32u}) v.push_back({radix::binary, k});
  for (unsigned k = 1; k <= 9; ++k) v.push_back({radix::decimal, k});
  return v;
}

std::string name(coeff_format f) { return (f.rx == radix::binary ? "2^" : "10^") + std::to_string(f.digits); }

// G operands of n limbs of one kind, back to back.
std::vector<limb_t> batch(operand_kind kind, std::size_t n, std::size_t G, radix rx, std::mt19937_64& g) {
  std::vector<limb_t> a;
  for (std::size_t i = 0; i < G; ++i) {
    const auto x = bigmul::test::make_operand(kind, n, rx, g);
    a.insert(a.end(), x.begin(), x.end());
  }
  return a;
}

// n limbs whose digits all propagate a carry (B/2 - 1) but for a few random
// ones: carries that cross many tiles, so the look-back must fold every
// aggregate back to the nearest tile that generates or kills.
std::vector<limb_t> propagating(std::size_t n, coeff_format f, std::mt19937_64& g) {
  const std::uint64_t B = f.base();
  std::vector<std::uint32_t> d(f.count(n), static_cast<std::uint32_t>(B / 2 - 1));
  for (int i = 0; i < 3 && !d.empty(); ++i) d[g() % d.size()] = static_cast<std::uint32_t>(g() % B);
  std::vector<limb_t> a(n);
  join_digits(d.data(), d.size(), f, a.data(), n, 1);
  return a;
}

constexpr operand_kind kinds[] = {operand_kind::all_max, operand_kind::runs, operand_kind::power,
                                  operand_kind::random, operand_kind::half_max};

// Mismatching cases among formats x sizes x operands under config c.
int failures(config c, bool stop_at_first) {
  auto g = bigmul::test::rng(0x5f17);
  int bad = 0;
  const auto check = [&](const std::vector<limb_t>& a, std::size_t n, std::size_t G, coeff_format f,
                         const char* what) {
    if (model(a, n, G, f, c, g()) == cpu(a, n, G, f)) return true;
    ++bad;
    if (stop_at_first) ADD_FAILURE() << name(f) << " n " << n << " " << what << " tp " << c.tp;
    return !stop_at_first;
  };
  for (const coeff_format f : formats()) {
    const std::size_t pl = period_limbs(f);
    for (std::size_t n : {std::size_t{1}, pl, 7 * pl + 1, 29 * pl + 3, 61 * pl}) {
      for (operand_kind kind : kinds) {
        const std::size_t G = kind == operand_kind::random ? 3 : 1;
        if (!check(batch(kind, n, G, f.rx, g), n, G, f, bigmul::test::operand_kind_name(kind))) return bad;
      }
      if (!check(propagating(n, f, g), n, 1, f, "propagating")) return bad;
    }
  }
  return bad;
}

TEST(SplitFusedModel, TilingCoversEveryDigitOnce) {
  for (std::size_t pd : {1, 4, 19, 64})
    for (std::size_t total : {1, 5, 255, 256, 1000, 4099}) {
      const shd::tiling t{(total + pd - 1) / pd, 8, pd, total};
      std::vector<int> seen(total, 0);
      for (std::size_t tile = 0; tile < t.tiles(); ++tile)
        for (std::size_t i = 0; i < t.digits(tile); ++i) ++seen[t.first_digit(tile) + i];
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(total)) << pd << " " << total;
    }
  EXPECT_TRUE((shd::tiling{1, shd::threads, 19, 19}.staged()));
  EXPECT_FALSE((shd::tiling{1, shd::threads, 64, 64}.staged()));
}

TEST(SplitFusedModel, MatchesCpuSplitBalanced) {
  for (std::size_t tp : {1, 3, 32})
    for (unsigned lanes : {1u, 32u})
      for (schedule s : {schedule::random, schedule::latest_first})
        EXPECT_EQ(failures(config{tp, lanes, 6, s, mutant::none}, true), 0)
            << "tp " << tp << " lanes " << lanes << " latest-first " << (s == schedule::latest_first);
  // The kernel's own tile and window.
  EXPECT_EQ(failures(config{shd::threads, 32, 4, schedule::random, mutant::none}, true), 0);
}

TEST(SplitFusedModel, MutantsFail) {
  for (mutant mu : {mutant::inclusive_thread, mutant::no_tile_prefix, mutant::fold_reversed, mutant::skip_tile,
                    mutant::no_top_carry})
    EXPECT_GT(failures(config{3, 4, 6, schedule::random, mu}, false) +
                  failures(config{2, 1, 8, schedule::latest_first, mu}, false),
              0)
        << "mutant " << static_cast<int>(mu);
}

}  // namespace
