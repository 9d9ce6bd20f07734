// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/operands.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "bigmul/arith.hpp"
#include "cli/heap.hpp"
#include "cli/input.hpp"
#include "cli/memory_check.hpp"
#include "cli/prepare.hpp"
#include "cli/random_operand.hpp"
#include "prim/stopwatch.hpp"
#include "src/arith/radix_convert.hpp"
#include "src/digits/digits.hpp"

namespace bigmul::cli {
namespace {

using prim::seconds_since;
using clock_type = prim::steady_clock;

// Runs whose operands hold at least this many digits in all show progress.
constexpr std::uint64_t progress_min_digits = 100000;

// The heap made huge pages (cli/heap.hpp) for a run whose operands hold
// this many bytes a character: enough for the library's vectors and buffers
// of a run with a radix conversion, where a smaller reserve leaves most of
// the page faults in place (bench/cli/bench_cli measures whole runs).
constexpr std::size_t heap_bytes_per_char = 12;

radix radix_of_base(unsigned base) { return base == 10 ? radix::decimal : radix::binary; }

// --random: two numbers generated in decimal while this thread prepares the
// product and touches its room.
void generate(const options& o, const mul_options& mo, radix product_radix, progress& prog, run_room& room,
              run_operands& ops, phase_times& t) {
  const std::uint64_t digits = *o.random_digits;
  const std::uint64_t seed = o.seed ? *o.seed : seed_from_clock();
  if (o.verbose)
    say("bigmul: --random " + std::to_string(digits) + " with seed " + std::to_string(seed) + " (repeat with --seed " +
        std::to_string(seed) + ")");
  prog.set_long_run(2 * digits >= progress_min_digits);
  {
    // Too large for this machine: say so before generating anything. The
    // numbers are generated in decimal; --hex converts them first.
    const std::uint64_t generated = saturating_mul((digits + 18) / 19, 2 * sizeof(limb_t));
    run_buffers need;
    need.an = need.bn = estimated_limbs_of_decimal(digits, product_radix);
    need.rx = product_radix;
    need.convert = product_radix != radix::decimal;
    need.inputs = need.convert ? generated : 0;
    need.verify = o.verify;
    check_run_memory(need, mo, "the product of two " + std::to_string(digits) + "-digit numbers");
  }
  use_huge_page_heap(heap_bytes_per_char * 2 * digits);
  prog.phase("generating two random " + std::to_string(digits) + "-digit numbers");
  const auto t0 = clock_type::now();
  const auto generate_both = [&] {
    ops.ia = random_decimal(digits, seed, 0, o.threads);
    ops.ib = random_decimal(digits, seed, 1, o.threads);
  };
  // The product's scratch is touched on this thread while another generates.
  const std::size_t limbs = estimated_limbs_of_decimal(digits, product_radix);
  room.reserve(0, 2 * limbs, product_radix);
  room.take_product_room();
  const auto touch = [&] { room.touch_product_room(); };
  if (worth_preparing(limbs, limbs, product_radix, mo, 2 * limbs * sizeof(limb_t)))
    run_while_preparing(
        limbs, limbs, product_radix, mo,
        [&] {
          generate_both();
          touch();
        },
        &t.prepare, touch);
  else
    generate_both();
  t.generate = seconds_since(t0);
  ops.a = view_of(ops.ia);
  ops.b = view_of(ops.ib);
}

// Both sources' text, each at most a third of the memory left: its text, the
// limbs parsed from it and its share of the product take more than that.
void read_sources(const options& o, progress& prog, operand_text& ta, operand_text& tb, phase_times& t) {
  const bool from_sources = o.operands[0].starts_with('@') || o.operands[0] == "-" ||
                            o.operands[1].starts_with('@') || o.operands[1] == "-";
  prog.set_long_run(from_sources);
  prog.phase("reading");
  const auto t0 = clock_type::now();
  input_limit limit;
  if (const auto available = memory_available()) {
    limit.bytes = *available / 3;
    limit.why = "a third of the " + std::to_string(*available / 1000000) + " MB of memory available" +
                (address_space_limited() ? " under ulimit -v" : "");
  }
  read_operands(o.operands[0], o.operands[1], ta, tb, limit);
  t.read = seconds_since(t0);
  prog.set_long_run(ta.literal.size() + tb.literal.size() >= progress_min_digits);
  use_huge_page_heap(heap_bytes_per_char * (ta.literal.size() + tb.literal.size()));
}

// Everything the run will hold, before the parse: the text (mapped), the
// parsed limbs when they are converted, and what run_memory counts.
void check_parse_memory(const options& o, const mul_options& mo, radix product_radix, const operand_text& ta,
                        const operand_text& tb, std::size_t ea, std::size_t eb, bool convert, std::size_t parsed_limbs) {
  run_buffers need;
  need.an = ea;
  need.bn = eb;
  need.rx = product_radix;
  need.convert = convert;
  need.inputs = saturating_add(ta.literal.size() + tb.literal.size(),
                               need.convert ? saturating_mul(parsed_limbs, sizeof(limb_t)) : 0);
  need.verify = o.verify;
  check_run_memory(need, mo, "the product of operands of " + std::to_string(ta.literal.size()) + " and " +
                                 std::to_string(tb.literal.size()) + " characters");
}

// Both literals parsed straight into the arena in their own radix (no
// integer, no zero-filled vector), where they stay until exit; one in the
// other radix is converted from there. The sizes are known from the text:
// the product's plans and scratch pages are made ready on this thread while
// another parses.
void read_and_parse(const options& o, const mul_options& mo, radix product_radix, progress& prog, run_room& room,
                    run_operands& ops, phase_times& t) {
  operand_text ta, tb;
  read_sources(o, prog, ta, tb, t);
  prog.phase("parsing");
  const auto t0 = clock_type::now();
  const unsigned base = o.hex ? 16 : 10;
  const literal_shape sa = shape_of(ta.literal), sb = shape_of(tb.literal);
  const std::size_t ea = estimated_limbs(ta.literal, product_radix), eb = estimated_limbs(tb.literal, product_radix);
  const std::uint64_t operand_bytes =
      (static_cast<std::uint64_t>(ta.literal.size()) + tb.literal.size()) / 2;  // >= their limbs' bytes
  const bool prepare = worth_preparing(ea, eb, product_radix, mo, operand_bytes);
  const std::size_t na = digits::limbs_for(sa.digits.size(), sa.base), nb = digits::limbs_for(sb.digits.size(), sb.base);
  check_parse_memory(o, mo, product_radix, ta, tb, ea, eb, sa.base != base || sb.base != base,
                     saturating_add(na, nb));
  room.reserve(na + nb, ea + eb, product_radix);
  limb_t* pa = room.take_operand(na);
  limb_t* pb = room.take_operand(nb);
  ops.parsed[0] = {pa, na};
  ops.parsed[1] = {pb, nb};
  // Beside prepare_mul (which runs the pool's parallel loops), the parsing
  // thread takes both on its own; alone, each on all the threads.
  const unsigned parse_threads = prepare ? 1 : o.threads;
  const auto parse = [&, pa, pb, parse_threads] {
    ops.a = {pa, parse_operand_into(ta, sa, pa, parse_threads), sa.negative, radix_of_base(sa.base)};
    ops.b = {pb, parse_operand_into(tb, sb, pb, parse_threads), sb.negative, radix_of_base(sb.base)};
  };
  room.take_product_room();
  if (prepare)
    run_while_preparing(
        ea, eb, product_radix, mo,
        [&] {
          parse();
          room.touch_product_room();
        },
        &t.prepare,
        [&] {
          // A conversion to come finds its table of powers built (~0.5-1
          // ms at 10^6 digits, cold) while the other thread still parses.
          if (sa.base != base) detail::prepare_conversion(na, radix_of_base(sa.base));
          if (sb.base != base) detail::prepare_conversion(nb, radix_of_base(sb.base));
          room.touch_product_room();
        });
  else
    parse();
  t.parse = seconds_since(t0);
}

// Operands in the output's radix: converting an operand costs less than
// converting the product (twice as long), and a mixed product then needs no
// conversion at all.
void convert_operands(radix product_radix, progress& prog, run_room& room, run_operands& ops, phase_times& t) {
  prog.phase("converting the operands to the output's radix");
  const auto tc = clock_type::now();
  // In turn, each on all the threads, not side by side one thread each:
  // the tree levels' tasks balance where two long tasks wait for the
  // slower one, and operands of nearly equal length share one cached root
  // reciprocal when converted in turn (side by side each thread computes it).
  // Into an integer that holds the result (x's limbs may be that
  // integer's own: they are read before it is replaced). Parsed limbs of
  // a large arena are given back once converted.
  const auto convert = [&](number_view& x, integer& held, const std::pair<limb_t*, std::size_t>& from) {
    if (x.rx == product_radix) return;
    std::vector<limb_t> v =
        x.rx == radix::decimal ? decimal_to_binary(x.limbs, x.size) : binary_to_decimal(x.limbs, x.size);
    held = integer(std::move(v), x.negative, product_radix);
    x = view_of(held);
    room.give_back(from.first, from.second);
  };
  convert(ops.a, ops.ia, ops.parsed[0]);
  convert(ops.b, ops.ib, ops.parsed[1]);
  t.convert += seconds_since(tc);
}

}  // namespace

void obtain_operands(const options& o, const mul_options& mo, radix product_radix, progress& prog, run_room& room,
                     run_operands& ops, phase_times& t) {
  if (o.random_digits)
    generate(o, mo, product_radix, prog, room, ops, t);
  else
    read_and_parse(o, mo, product_radix, prog, room, ops, t);
  if (o.verbose) {
    say("bigmul: A: " + describe(ops.a));
    say("bigmul: B: " + describe(ops.b));
    if (ops.a.rx != product_radix || ops.b.rx != ops.a.rx)
      say(std::string("bigmul: the operands are converted to the output's radix (") + (o.hex ? "binary" : "decimal") +
          ") before the product");
  }
  if (ops.a.rx != product_radix || ops.b.rx != product_radix) convert_operands(product_radix, prog, room, ops, t);
  prog.set_long_run(digit_count(ops.a) + digit_count(ops.b) >= progress_min_digits);
}

void release_operands(run_room& room, run_operands& ops) {
  for (const auto& [at, limbs] : ops.parsed) room.give_back(at, limbs);
  ops.a = ops.b = number_view{};
  ops.ia = integer();
  ops.ib = integer();
}

}  // namespace bigmul::cli
