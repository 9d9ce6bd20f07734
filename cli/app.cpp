// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/app.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/mul.hpp"
#include "bigmul/version.hpp"
#include "cli/arena.hpp"
#include "cli/failure.hpp"
#include "cli/heap.hpp"
#include "cli/input.hpp"
#include "cli/memory_check.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/prepare.hpp"
#include "cli/progress.hpp"
#include "cli/random_operand.hpp"
#include "cli/verify.hpp"
#include "mul/cuda/params_gpu.hpp"
#include "prim/buffer.hpp"
#include "prim/parallel.hpp"
#include "prim/stopwatch.hpp"
#include "src/arith/radix_convert.hpp"
#include "src/digits/digits.hpp"

namespace bigmul::cli {
namespace {

using clock_type = prim::steady_clock;

// Runs whose operands hold at least this many digits in all show progress.
constexpr std::uint64_t progress_min_digits = 100000;

// The heap made huge pages (cli/heap.hpp) for a run whose operands hold
// this many bytes a character: enough for the library's vectors and buffers
// of a run with a radix conversion, where a smaller reserve leaves most of
// the page faults in place (bench/cli/bench_cli measures whole runs).
constexpr std::size_t heap_bytes_per_char = 12;


using prim::seconds_since;

// An operand or the product as the command line holds it: limbs (no high
// zeros; none for zero) in the arena or in an integer, sign and radix.
struct number_view {
  const limb_t* limbs = nullptr;
  std::size_t size = 0;
  bool negative = false;
  radix rx = radix::binary;
  std::span<const limb_t> magnitude() const { return {limbs, size}; }
  bool is_zero() const { return size == 0; }
};

number_view view_of(const integer& x) {
  return {x.magnitude().data(), x.size(), x.is_negative(), x.get_radix()};
}

integer to_integer(const number_view& v) { return integer(v.magnitude(), v.negative, v.rx); }

// Digits in the number's own radix (decimal digits, or hex digits for binary).
std::uint64_t digit_count(const number_view& x) {
  if (x.size == 0) return 1;
  limb_t top = x.limbs[x.size - 1];
  std::uint64_t top_digits = 0;
  const unsigned base = x.rx == radix::decimal ? 10 : 16;
  for (; top; top /= base) ++top_digits;
  const std::uint64_t per_limb = x.rx == radix::decimal ? decimal_limb_digits : 16;
  return per_limb * (x.size - 1) + top_digits;
}

std::string describe(const number_view& x) {
  const bool decimal = x.rx == radix::decimal;
  return std::to_string(digit_count(x)) + (decimal ? " decimal" : " hex") + " digits (" + std::to_string(x.size) +
         " limbs, " + (decimal ? "decimal" : "binary") + " radix)";
}

// The text's characters at most for a product of n limbs in radix rx:
// sign, "0x", the digits and the newline.
std::size_t text_bound(std::size_t n, radix rx) {
  return 4 + n * (rx == radix::decimal ? decimal_limb_digits : 16);
}

void say(const std::string& line) {
  std::string text = line;
  text += '\n';
  static_cast<void>(write_fd(STDERR_FILENO, text));
}

// Test hook: BIGMUL_CLI_FAULT=corrupt-product changes the product after the
// multiplication, so that tests can reach the --verify mismatch path. Any
// other non-empty value is a usage error naming the variable.
bool fault_corrupt_product() {
  const char* e = std::getenv("BIGMUL_CLI_FAULT");
  if (!e || !*e) return false;
  if (std::strcmp(e, "corrupt-product") == 0) return true;
  throw failure(exit_usage, "bigmul: BIGMUL_CLI_FAULT=" + std::string(e) + " is not a fault (corrupt-product)");
}

// The environment's settings, checked before any work like the options: an
// invalid value is a usage error naming its variable (the library throws
// invalid_argument for BIGMUL_THREADS; BIGMUL_NTT_ENGINE is read when a
// product needs an engine and mapped the same way there).
void check_environment() {
  static_cast<void>(fault_corrupt_product());
  try {
    static_cast<void>(prim::default_threads());
  } catch (const error& e) {
    if (e.code() == error::kind::invalid_argument) throw failure(exit_usage, std::string("bigmul: ") + e.what());
    throw;
  }
}

struct phase_times {
  double read = 0, parse = 0, generate = 0, multiply = 0, verify = 0, convert = 0, write = 0;
  double prepare = -1;  // prepare_mul's seconds while the operands were parsed or generated (-1: not run)
};

void print_timing(const phase_times& t, const mul_stats& st, bool multiplied, bool random, bool verified,
                  unsigned threads, double total) {
  char line[224];
  const auto row = [&](const char* name, double s) {
    std::snprintf(line, sizeof line, "bigmul: time %-18s %12.6f s", name, s);
    say(line);
  };
  if (random) {
    row("generate", t.generate);
  } else {
    row("read", t.read);
    row("parse", t.parse);
  }
  if (t.prepare >= 0) row("  prepare (beside)", t.prepare);
  row("multiply", t.multiply);
  if (multiplied) {
    // The FFT phases when a transform ran; otherwise only what was measured.
    const bool fft = st.transform_length > 0;
    const struct {
      const char* name;
      double seconds;
    } phases[] = {{"  split", st.t_split},         {"  forward", st.t_forward}, {"  pointwise", st.t_pointwise},
                  {"  inverse", st.t_inverse},     {"  round", st.t_round},     {"  carry", st.t_carry},
                  {"  modular check", st.t_check}};
    for (const auto& p : phases)
      if (fft || p.seconds > 0) row(p.name, p.seconds);
    if (st.backend_used == backend::cuda) row("  GPU transfers", st.t_transfer);
  }
  if (verified) row("verify", t.verify);
  row("convert", t.convert);
  row("write", t.write);
  row("total", total);
  if (multiplied) {
    std::snprintf(line, sizeof line,
                  "bigmul: algorithm %s%s%s on the %s, transform length %zu, coefficient digits %u, max round-off %.6g, "
                  "retries %u, modular check %s, threads %u",
                  algorithm_name(st.used), st.ntt_engine ? " engine " : "", st.ntt_engine ? st.ntt_engine : "",
                  st.backend_used == backend::cuda ? "GPU" : "CPU", st.transform_length, st.coefficient_digits, st.max_roundoff,
                  st.retries, st.modular_check ? "passed" : "off", threads);
  } else {
    std::snprintf(line, sizeof line, "bigmul: algorithm none (an operand is zero), threads %u", threads);
  }
  say(line);
}

int run_checked(const options& o, progress& prog) {
  const auto t_start = clock_type::now();
  // --backend cuda without a usable GPU fails before any work (exit 1: a
  // missing resource, not a usage error). Probed only when asked for or
  // reported: probing loads the CUDA driver, milliseconds that a small product
  // on the CPU does not need (backend auto probes when a product is large).
  std::string gpu_why;
  const bool gpu = (o.backend_choice == backend::cuda || (o.verbose && o.backend_choice == backend::automatic)) &&
                   cuda_usable(&gpu_why);
  if (o.backend_choice == backend::cuda && !gpu) throw failure(exit_io, "bigmul: --backend cuda: " + gpu_why);
  check_environment();
  // Parsing and printing use the library's default thread count: make --threads apply there too.
  if (o.threads) prim::set_default_threads(o.threads);
  // -o's target is checked before any work (a directory or a dangling link
  // fails now, not after a long product); atomic_file checks it again.
  if (o.output) static_cast<void>(resolve_output(*o.output, o.force));
  const unsigned threads = prim::resolve_threads(o.threads);
  if (o.verbose) {
    const std::string th = ", " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
    if (o.backend_choice == backend::cpu) say("bigmul: backend cpu" + th);
    else if (o.backend_choice == backend::cuda) say("bigmul: backend cuda" + th);
    else if (gpu) say("bigmul: backend auto: the GPU for large products, else the CPU" + th);
    else say("bigmul: backend cpu (auto, falling back: " + gpu_why + ")" + th);
    // The device and its crossover table: its own, or the nearest tuned one.
    if (gpu) say("bigmul: " + detail::params_gpu::describe_active());
  }

  // The product's options, known before the operands: prepare_mul takes them.
  mul_stats st;
  mul_options mo;
  mo.algo = o.algo;
  mo.threads = o.threads;
  mo.modular_check = o.modular_check;
  mo.where = o.backend_choice;
  mo.engine = o.engine;
  mo.stats = &st;
  const radix product_radix = o.hex ? radix::binary : radix::decimal;

  phase_times t;
  const unsigned base = o.hex ? 16 : 10;
  integer ia, ib;      // operands held as integers: generated (--random), or converted to the product's radix
  number_view a, b;    // the operands as multiplied (in ia/ib, or as parsed into mem)
  arena mem;           // the operands as parsed (their own radix), the product's limbs, the product's text
  limb_t* product_at = nullptr;  // room in mem for product_room limbs of the product
  std::size_t product_room = 0;
  char* text_at = nullptr;  // room in mem for text_room characters of its text
  std::size_t text_room = 0;
  std::pair<limb_t*, std::size_t> parsed[2] = {};  // the operands' limbs as parsed into mem
  const auto make_room = [&](std::size_t operand_limbs, std::size_t product_limbs) {
    // Sized from upper bounds (exact for operands in the product's radix);
    // a product or text that misses goes to its own allocation. Past the
    // huge-page sizes the text is left out: allocated once the operands
    // and the product's scratch are freed, it never adds to the peak (of
    // memory, or of address space under ulimit -v).
    product_room = product_limbs + 1;
    const std::size_t text = text_bound(product_limbs, product_radix);
    const std::size_t bytes = operand_limbs * sizeof(limb_t) + product_room * sizeof(limb_t) + 4 * 64;
    text_room = bytes + text <= prim::buffer<char>::huge_page_max ? text : 0;
    mem = arena(bytes + text_room);
  };
  const auto take_product_room = [&] {  // after the operands' limbs
    product_at = mem.take<limb_t>(product_room);
    text_at = mem.take<char>(text_room);
  };
  // The product's and the text's first-touch page faults, taken while the
  // operands are parsed or generated by whichever thread is done first (the
  // parse of hex text is shorter than preparing the product; a decimal parse
  // or a product to convert to is longer) rather than inside the multiply
  // and the print.
  std::atomic<bool> touch_claimed{false};
  const auto touch_product_room = [&] {
    if (touch_claimed.exchange(true)) return;
    arena::touch(product_at, product_room * sizeof(limb_t));
    arena::touch(text_at, text_room);
  };
  if (o.random_digits) {
    const std::uint64_t seed = o.seed ? *o.seed : seed_from_clock();
    if (o.verbose)
      say("bigmul: --random " + std::to_string(*o.random_digits) + " with seed " + std::to_string(seed) +
          " (repeat with --seed " + std::to_string(seed) + ")");
    prog.set_long_run(2 * *o.random_digits >= progress_min_digits);
    {
      // Too large for this machine: say so before generating anything. The
      // numbers are generated in decimal; --hex converts them first.
      const std::uint64_t generated = saturating_mul((*o.random_digits + 18) / 19, 2 * sizeof(limb_t));
      run_buffers need;
      need.an = need.bn = estimated_limbs_of_decimal(*o.random_digits, product_radix);
      need.rx = product_radix;
      need.convert = product_radix != radix::decimal;
      need.inputs = need.convert ? generated : 0;
      need.verify = o.verify;
      check_run_memory(need, mo, "the product of two " + std::to_string(*o.random_digits) + "-digit numbers");
    }
    use_huge_page_heap(heap_bytes_per_char * 2 * *o.random_digits);
    prog.phase("generating two random " + std::to_string(*o.random_digits) + "-digit numbers");
    const auto t0 = clock_type::now();
    const auto generate = [&] {
      ia = random_decimal(*o.random_digits, seed, 0, o.threads);
      ib = random_decimal(*o.random_digits, seed, 1, o.threads);
    };
    // The product's scratch is touched on this thread while another generates.
    const std::size_t limbs = estimated_limbs_of_decimal(*o.random_digits, product_radix);
    make_room(0, 2 * limbs);
    take_product_room();
    if (worth_preparing(limbs, limbs, product_radix, mo, 2 * limbs * sizeof(limb_t)))
      run_while_preparing(
          limbs, limbs, product_radix, mo,
          [&] {
            generate();
            touch_product_room();
          },
          &t.prepare, touch_product_room);
    else
      generate();
    t.generate = seconds_since(t0);
  } else {
    const bool from_sources = o.operands[0].starts_with('@') || o.operands[0] == "-" ||
                              o.operands[1].starts_with('@') || o.operands[1] == "-";
    prog.set_long_run(from_sources);
    prog.phase("reading");
    auto t0 = clock_type::now();
    operand_text ta, tb;
    // Each source at most a third of the memory left: its text, the limbs
    // parsed from it and its share of the product take more than that.
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
    prog.phase("parsing");
    t0 = clock_type::now();
    // Both literals parsed straight into the arena in their own radix (no
    // integer, no zero-filled vector), where they stay until exit; one in
    // the other radix is converted from there.
    const literal_shape sa = shape_of(ta.literal), sb = shape_of(tb.literal);
    // The sizes are known from the text: the product's plans and scratch
    // pages are made ready on this thread while another parses.
    const std::size_t ea = estimated_limbs(ta.literal, product_radix), eb = estimated_limbs(tb.literal, product_radix);
    const std::uint64_t operand_bytes =
        (static_cast<std::uint64_t>(ta.literal.size()) + tb.literal.size()) / 2;  // >= their limbs' bytes
    const bool prepare = worth_preparing(ea, eb, product_radix, mo, operand_bytes);
    const std::size_t na = digits::limbs_for(sa.digits.size(), sa.base), nb = digits::limbs_for(sb.digits.size(), sb.base);
    {
      // Everything the run will hold, before the parse: the text (mapped),
      // the parsed limbs when they are converted, and what run_memory counts.
      run_buffers need;
      need.an = ea;
      need.bn = eb;
      need.rx = product_radix;
      need.convert = sa.base != base || sb.base != base;
      need.inputs = saturating_add(ta.literal.size() + tb.literal.size(),
                                   need.convert ? saturating_mul(saturating_add(na, nb), sizeof(limb_t)) : 0);
      need.verify = o.verify;
      check_run_memory(need, mo, "the product of operands of " + std::to_string(ta.literal.size()) + " and " +
                                     std::to_string(tb.literal.size()) + " characters");
    }
    make_room(na + nb, ea + eb);
    limb_t* pa = mem.take<limb_t>(na);
    limb_t* pb = mem.take<limb_t>(nb);
    parsed[0] = {pa, na};
    parsed[1] = {pb, nb};
    // Beside prepare_mul (which runs the pool's parallel loops), the parsing
    // thread takes both on its own; alone, each on all the threads.
    const unsigned parse_threads = prepare ? 1 : o.threads;
    const auto parse = [&, pa, pb, parse_threads] {
      a = {pa, parse_operand_into(ta, sa, pa, parse_threads), sa.negative, sa.base == 10 ? radix::decimal : radix::binary};
      b = {pb, parse_operand_into(tb, sb, pb, parse_threads), sb.negative, sb.base == 10 ? radix::decimal : radix::binary};
    };
    take_product_room();
    if (prepare)
      run_while_preparing(
          ea, eb, product_radix, mo,
          [&] {
            parse();
            touch_product_room();
          },
          &t.prepare,
          [&] {
            // A conversion to come finds its table of powers built (~0.5-1
            // ms at 10^6 digits, cold) while the other thread still parses.
            if (sa.base != base) detail::prepare_conversion(na, sa.base == 10 ? radix::decimal : radix::binary);
            if (sb.base != base) detail::prepare_conversion(nb, sb.base == 10 ? radix::decimal : radix::binary);
            touch_product_room();
          });
    else
      parse();
    t.parse = seconds_since(t0);
  }
  if (o.random_digits) {
    a = view_of(ia);
    b = view_of(ib);
  }
  if (o.verbose) {
    say("bigmul: A: " + describe(a));
    say("bigmul: B: " + describe(b));
    if (a.rx != product_radix || b.rx != a.rx)
      say(std::string("bigmul: the operands are converted to the output's radix (") + (o.hex ? "binary" : "decimal") +
          ") before the product");
  }
  if (a.rx != product_radix || b.rx != product_radix) {
    // Operands in the output's radix: converting an operand costs less than
    // converting the product (twice as long), and a mixed product then needs
    // no conversion at all.
    prog.phase("converting the operands to the output's radix");
    const auto tc = clock_type::now();
    // In turn, each on all the threads, not side by side one thread each:
    // the tree levels' tasks balance where two long tasks wait for the
    // slower one, and operands of nearly equal length share one cached root
    // reciprocal when converted in turn (side by side each thread computes it).
    // Into an integer that holds the result (x's limbs may be that
    // integer's own: they are read before it is replaced). Parsed limbs of
    // a large arena are given back once converted (see below).
    const auto convert = [&](number_view& x, integer& held, const std::pair<limb_t*, std::size_t>& from) {
      if (x.rx == product_radix) return;
      std::vector<limb_t> v =
          x.rx == radix::decimal ? decimal_to_binary(x.limbs, x.size) : binary_to_decimal(x.limbs, x.size);
      held = integer(std::move(v), x.negative, product_radix);
      x = view_of(held);
      if (mem.capacity() > prim::buffer<char>::huge_page_max) mem.discard(from.first, from.second * sizeof(limb_t));
    };
    convert(a, ia, parsed[0]);
    convert(b, ib, parsed[1]);
    t.convert += seconds_since(tc);
  }
  prog.set_long_run(digit_count(a) + digit_count(b) >= progress_min_digits);

  // Multiply.
  const bool multiplied = !a.is_zero() && !b.is_zero();
  prog.phase("multiplying " + std::to_string(digit_count(a)) + " x " + std::to_string(digit_count(b)) + " digits");
  if (multiplied && mo.where != backend::cuda)
    check_product_memory(a.size, b.size, a.rx, mo, 0,
                         "the product of " + std::to_string(digit_count(a)) + " x " + std::to_string(digit_count(b)) +
                             " digits",
                         product_at && a.size + b.size + 1 <= product_room);
  auto t0 = clock_type::now();
  prim::buffer<limb_t> product_spill;  // the product when the arena's room missed
  limb_t* r = product_at;
  const std::size_t rn = a.size + b.size;
  if (!r || rn + 1 > product_room) {
    product_spill = prim::buffer<limb_t>(rn + 1);
    r = product_spill.data();
  }
  number_view product{r, 0, false, a.rx};
  try {
    if (multiplied) {
      const number_view& big = a.size >= b.size ? a : b;
      const number_view& small = a.size >= b.size ? b : a;
      mul(r, big.limbs, big.size, small.limbs, small.size, a.rx, mo);
      std::size_t n = rn;
      while (n > 0 && r[n - 1] == 0) --n;
      product = {r, n, a.negative != b.negative, a.rx};
    }
    release_scratch();  // the transform buffers are not needed for the text
  } catch (const error& e) {
    if (e.code() == error::kind::internal)
      throw failure(exit_check, std::string("bigmul: the product failed a check: ") + e.what());
    if (e.code() == error::kind::domain)
      throw failure(exit_usage, std::string("bigmul: --algorithm ") + algorithm_name(o.algo) + ": " + e.what());
    if (e.code() == error::kind::resource) throw failure(exit_io, std::string("bigmul: ") + e.what());
    // A request the library refuses (--backend cuda's limits, an unknown
    // BIGMUL_NTT_ENGINE) is the user's to change: usage, not an internal error.
    if (e.code() == error::kind::invalid_argument)
      throw failure(exit_usage, std::string("bigmul: ") + (o.backend_choice == backend::cuda ? "--backend cuda: " : "") +
                                    e.what());
    throw;
  }
  t.multiply = seconds_since(t0);
  if (o.verbose) {
    say(std::string("bigmul: algorithm ") + (multiplied ? algorithm_name(st.used) : "none (an operand is zero)") +
        (o.algo == algorithm::automatic && multiplied ? " (chosen by size)" : "") +
        (multiplied ? (st.backend_used == backend::cuda ? " on the GPU" : " on the CPU") : "") +
        (multiplied && o.modular_check ? ", modular check passed" : ""));
  }
  if (fault_corrupt_product()) {
    // Flips the lowest bit of the lowest limb (stays a valid decimal limb).
    if (product.size == 0) {
      r[0] = 0;
      product.size = 1;
    }
    r[0] ^= 1;
    while (product.size > 0 && r[product.size - 1] == 0) --product.size;
  }

  if (o.verify) {
    prog.phase("verifying against GMP");
    t0 = clock_type::now();
    std::string detail;
    if (!matches_gmp(to_integer(a), to_integer(b), to_integer(product), detail))
      throw failure(exit_check, "bigmul: --verify: " + detail);
    t.verify = seconds_since(t0);
    if (o.verbose) say("bigmul: --verify: product matches GMP's mpz_mul");
  }

  // The operands are no longer needed: give their memory back before the
  // text is built. In the arena only past the huge-page sizes (from ~10^7
  // digits): below, the pages are few and the system call costs more than
  // the memory is worth for the short rest of the run.
  if (mem.capacity() > prim::buffer<char>::huge_page_max)
    for (const auto& [at, limbs] : parsed) mem.discard(at, limbs * sizeof(limb_t));
  a = b = number_view{};
  ia = integer();
  ib = integer();

  prog.phase("converting the product to text");
  t0 = clock_type::now();
  // Into uninitialized memory, newline included (a string would be
  // zero-filled first: a second pass over fresh pages).
  const bool minus = product.negative && !product.is_zero();
  const std::size_t head = (minus ? 1 : 0) + (o.hex ? 2 : 0);
  const std::size_t printed = head + digits::printed_size(product.limbs, product.size, base);
  prim::buffer<char> text_spill;  // when the arena's room missed
  char* out = printed + 1 <= text_room ? text_at : nullptr;
  if (!out) {
    text_spill = prim::buffer<char>(printed + 1);
    out = text_spill.data();
  }
  char* w = out;
  if (minus) *w++ = '-';
  if (o.hex) {
    *w++ = '0';
    *w++ = 'x';
  }
  digits::print(product.limbs, product.size, base, w);
  out[printed] = '\n';
  const std::string_view text(out, printed + 1);
  t.convert += seconds_since(t0);

  prog.phase(o.output ? "writing " + quoted(*o.output) : std::string("writing"));
  t0 = clock_type::now();
  if (o.output) {
    atomic_file file(*o.output, o.force);
    file.write(text);
    file.commit();
  } else if (!write_fd(STDOUT_FILENO, text)) {
    const int err = errno;
    throw_write_error("bigmul: cannot write the product to standard output", err);
  }
  t.write = seconds_since(t0);
  prog.clear();
  if (o.timing) print_timing(t, st, multiplied, o.random_digits.has_value(), o.verify, threads, seconds_since(t_start));
  return exit_ok;
}

// A standard descriptor that is closed at start would be reused by the next
// open() (an operand file, the -o temporary file). Park /dev/null there, open
// for the wrong direction, so that using it fails with EBADF as it would have.
void park_closed_standard_fds() {
  for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int parked = ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
    if (parked >= 0 && parked != fd) {
      ::dup2(parked, fd);
      ::close(parked);
    }
  }
}

}  // namespace

int run(int argc, const char* const* argv) {
  park_closed_standard_fds();
  // A closed pipe must be a write error (exit 1 with a message), not a silent death.
  std::signal(SIGPIPE, SIG_IGN);
  // A file-size limit (ulimit -f) likewise: write() then fails with EFBIG,
  // reported in one line, and -o's temporary file is removed.
  std::signal(SIGXFSZ, SIG_IGN);
  progress prog;
  try {
    const options o = parse_command_line(argc, argv);
    if (o.help || o.version) {
      const std::string text = o.help ? usage_text() : std::string("bigmul " BIGMUL_VERSION_STRING "\n");
      if (!write_fd(STDOUT_FILENO, text)) {
        const int err = errno;
        throw_io(std::string("bigmul: cannot write the ") + (o.help ? "help" : "version") + " to standard output", err);
      }
      return exit_ok;
    }
    return run_checked(o, prog);
  } catch (const failure& f) {
    prog.clear();
    say(f.what());
    return f.status();
  } catch (const std::bad_alloc&) {
    prog.clear();
    say("bigmul: out of memory");
    return exit_io;
  } catch (const error& e) {
    // The library's and the GMP guard's out-of-memory (kind resource) and
    // thread-creation failures say what failed themselves.
    prog.clear();
    say(std::string(e.code() == error::kind::resource ? "bigmul: " : "bigmul: internal error: ") + e.what());
    return exit_io;
  } catch (const std::exception& e) {
    prog.clear();
    say(std::string("bigmul: internal error: ") + e.what());
    return exit_io;
  }
}

}  // namespace bigmul::cli
