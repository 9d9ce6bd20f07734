// SPDX-License-Identifier: LGPL-3.0-or-later
// The bigmul command's phases in order: start-up checks (cli/startup.hpp),
// the operands (cli/operands.hpp), the product and --verify
// (cli/multiply.hpp), the text (cli/product_text.hpp), -t's table
// (cli/report.hpp); and the exit status of every failure.
#include "cli/app.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <new>
#include <string>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "bigmul/version.hpp"
#include "cli/failure.hpp"
#include "cli/multiply.hpp"
#include "cli/operands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/product_text.hpp"
#include "cli/progress.hpp"
#include "cli/report.hpp"
#include "cli/run_room.hpp"
#include "cli/startup.hpp"
#include "mul/params_cpu.hpp"
#include "prim/buffer.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul::cli {
namespace {

// The product's options, known before the operands: prepare_mul takes them.
mul_options product_options(const options& o, mul_stats& st) {
  mul_options mo;
  mo.algo = o.algo;
  mo.threads = o.threads;
  mo.modular_check = o.modular_check;
  mo.where = o.backend_choice;
  mo.engine = o.engine;
  mo.stats = &st;
  return mo;
}

int run_checked(const options& o, progress& prog) {
  const auto t_start = prim::steady_clock::now();
  const unsigned threads = start_run(o);
  mul_stats st;
  const mul_options mo = product_options(o, st);
  const radix product_radix = o.hex ? radix::binary : radix::decimal;
  phase_times t;
  run_room room;  // the operands as parsed (their own radix), the product's limbs, the product's text
  run_operands ops;
  obtain_operands(o, mo, product_radix, prog, room, ops, t);
  const bool multiplied = !ops.a.is_zero() && !ops.b.is_zero();
  prim::buffer<limb_t> product_spill;  // the product when the arena's room missed
  const number_view product = multiply(o, mo, prog, room, ops, product_spill, t);
  verify_product(o, prog, ops, product, t);
  // The operands are no longer needed: give their memory back before the
  // text is built.
  release_operands(room, ops);
  write_product(o, prog, product, room, t);
  prog.clear();
  if (o.timing)
    print_timing(t, st, multiplied, o.random_digits.has_value(), o.verify, threads, prim::seconds_since(t_start));
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
      // --version's second line names the tuned CPU table in use (docs/tuning.md).
      const std::string text = o.help ? usage_text()
                                      : std::string("bigmul " BIGMUL_VERSION_STRING "\ncpu table: ") +
                                            detail::params_cpu::tuned_table_description() + "\n";
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
