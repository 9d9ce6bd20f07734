// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_cli: the whole `bigmul` process against gmp_ref (mpz_set_str,
// mpz_mul, mpz_out_str; built beside it) on random operands in files, for
// decimal->decimal, hex->hex, decimal->hex, hex->decimal and decimal x hex
// (decimal output). N digits means N digits in each operand's own radix (a
// hex operand holds 1.2x the bits of a decimal one). Wall time of spawn to
// exit, stdout to a file, median of several runs; the outputs of the two
// programs are compared byte for byte. A run past --cap seconds is killed,
// reported as "> cap", and that program is not run at larger sizes of the
// combination. Also: process start-up (`bigmul 3 4`, median of 51 runs) and
// whether the binary links the CUDA libraries (ldd).
//
//   bench_cli [--bigmul PATH] [--ref PATH] [--max-digits 1e7] [--runs 5]
//             [--cap 60] [--startup-extra PATH]... [--json F] [--txt F]
//             [--repetitions N (= --runs)] [--filter REGEX]
// Rows startup/<program> and <combination>/<digits>; cpu_time is 0 (the work
// runs in the child processes, timed by wall clock).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

extern char** environ;

namespace {

using bigmul::bench::now_seconds;

struct run_result {
  double seconds = 0;
  bool capped = false;
  int status = 0;
};

// Runs argv with stdout to out_path and stderr to err_path; kills it after
// cap seconds. SIGCHLD is blocked in this process (main), so sigtimedwait
// wakes exactly when the child exits.
run_result run(const std::vector<std::string>& args, const std::string& out_path, const std::string& err_path,
               double cap) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  run_result r;
  const double t0 = now_seconds();
  pid_t pid;
  if (posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), environ) != 0) {
    std::fprintf(stderr, "bench_cli: cannot run %s\n", argv[0]);
    std::exit(1);
  }
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  for (;;) {
    const double left = cap - (now_seconds() - t0);
    if (left <= 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &r.status, 0);
      r.capped = true;
      break;
    }
    timespec ts{static_cast<time_t>(left), static_cast<long>((left - std::floor(left)) * 1e9)};
    sigtimedwait(&chld, nullptr, &ts);
    if (waitpid(pid, &r.status, WNOHANG) == pid) break;
  }
  r.seconds = now_seconds() - t0;
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

void write_operand(const std::string& path, std::size_t digits, bool hex, std::mt19937_64& g) {
  std::string s = hex ? "0x" : "";
  const char* alphabet = hex ? "0123456789abcdef" : "0123456789";
  const unsigned base = hex ? 16 : 10;
  s.reserve(s.size() + digits + 1);
  s += alphabet[1 + g() % (base - 1)];  // no leading zero
  for (std::size_t i = 1; i < digits; ++i) s += alphabet[g() % base];
  s += '\n';
  std::ofstream(path, std::ios::binary) << s;
}

std::string shell_output(const std::string& command) {
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    std::size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, got);
    pclose(p);
  }
  return out;
}

struct combination {
  const char* name;
  bool a_hex, b_hex, hex_out;
};

std::string fmt(double s, bool capped, double cap) {
  char buf[64];
  if (capped) std::snprintf(buf, sizeof buf, "> %.0f s", cap);
  else std::snprintf(buf, sizeof buf, "%.4f", s);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  bigmul::bench::harness h("bench_cli", argc, argv, "bench_cli.json");
  std::string bigmul = BIGMUL_CLI_PATH, ref = GMP_REF_PATH, txt_path = "bench_cli.txt";
  double max_digits = 1e7, cap = 60;
  int runs = h.repetitions().value_or(5);
  std::vector<std::string> extra;
  const auto& av = h.args();
  if (av.size() % 2) {
    std::fprintf(stderr, "bench_cli: option %s needs a value\n", av.back().c_str());
    return 2;
  }
  for (std::size_t i = 0; i + 1 < av.size(); i += 2) {
    const std::string k = av[i], v = av[i + 1];
    if (k == "--bigmul") bigmul = v;
    else if (k == "--ref") ref = v;
    else if (k == "--max-digits") max_digits = std::atof(v.c_str());
    else if (k == "--runs") runs = std::max(1, std::atoi(v.c_str()));
    else if (k == "--cap") cap = std::atof(v.c_str());
    else if (k == "--startup-extra") extra.push_back(v);
    else if (k == "--txt") txt_path = v;
    else {
      std::fprintf(stderr, "bench_cli: unknown option %s\n", k.c_str());
      return 2;
    }
  }
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, nullptr);
  char dir_template[] = "/tmp/bench_cli.XXXXXX";
  const std::string dir = mkdtemp(dir_template);

  std::ostringstream txt;
  const std::string head = "bench_cli  " + bigmul::bench::machine_description() + "  commit " +
                           bigmul::bench::git_commit() + "  " + bigmul::bench::today() + "  gmp " + gmp_version;
  txt << "# " << head << "\n# bigmul: " << bigmul << "\n# reference: " << ref
      << " (mpz_set_str, mpz_mul, mpz_out_str)\n# wall time of the whole process, stdout to a file, median of up to "
      << runs << " runs (3 from 10^7 digits, 1 at 10^8); cap " << cap << " s a run\n";
  h.context("cap_s", cap);
  h.context("bigmul", bigmul);
  h.context("reference", ref + " (mpz_set_str, mpz_mul, mpz_out_str)");
  h.context("ratio", "bigmul's wall time / the reference's, same operands, same run");

  // Start-up: the smallest product, and which shared libraries load.
  std::vector<std::string> startup_bins = {bigmul, ref};
  startup_bins.insert(startup_bins.end(), extra.begin(), extra.end());
  txt << "\nstart-up (" << "`PROGRAM 3 4`, median of 51 runs)\n";
  for (const auto& bin : startup_bins) {
    const std::string row_name = "startup/" + bin.substr(bin.rfind('/') + 1);
    if (!h.selected(row_name)) continue;
    std::vector<double> t;
    for (int i = 0; i < 51; ++i) t.push_back(run({bin, "3", "4"}, dir + "/out", dir + "/err", cap).seconds);
    const std::string ldd = shell_output("ldd '" + bin + "' 2>/dev/null");
    const bool cuda = ldd.find("libcudart") != std::string::npos || ldd.find("libcufft") != std::string::npos;
    char line[512];
    std::snprintf(line, sizeof line, "  %-60s %8.2f ms   CUDA libraries linked: %s\n", bin.c_str(), median(t) * 1e3,
                  cuda ? "yes (libcudart/libcufft load at start-up)" : "no");
    txt << line;
    bigmul::bench::measurement m;
    m.real_s = median(t);
    m.iterations = t.size();
    h.add(row_name, m).label("program", bin).counter("cuda_linked", cuda ? 1 : 0);
  }

  const combination combos[] = {{"dec->dec", false, false, false},
                                {"hex->hex", true, true, true},
                                {"dec->hex", false, false, true},
                                {"hex->dec", true, true, false},
                                {"dec*hex->dec", false, true, false}};
  std::mt19937_64 g(2026);
  bool capped_prog[5][2] = {};
  txt << "\n" << std::string(88, '-') << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-8s %-13s %12s %12s %10s %14s %6s\n", "digits", "combination", "bigmul s", "gmp s",
                "bigmul/gmp", "vs dec->dec", "runs");
  txt << line;
  std::printf("%s", txt.str().c_str());
  std::fflush(stdout);
  for (double d = 1e4; d <= max_digits * 1.0001; d *= 10) {
    const auto digits = static_cast<std::size_t>(d);
    const int n_runs = d >= 1e8 ? 1 : d >= 1e7 ? std::min(runs, 3) : runs;
    for (const char* kind : {"dec", "hex"})
      for (const char* which : {"a", "b"})
        write_operand(dir + "/" + which + "." + kind, digits, kind[0] == 'h', g);
    double dec_dec = 0;
    for (std::size_t c = 0; c < 5; ++c) {
      const combination& cb = combos[c];
      const std::string row_name = std::string(cb.name) + "/" + std::to_string(digits);
      if (!h.selected(row_name)) continue;
      const std::string a = "@" + dir + "/a." + (cb.a_hex ? "hex" : "dec");
      const std::string b = "@" + dir + "/b." + (cb.b_hex ? "hex" : "dec");
      double med[2] = {0, 0};
      bool capped[2] = {false, false};
      int done_runs = 0;
      for (int p = 0; p < 2; ++p) {
        if (capped_prog[c][p]) {
          capped[p] = true;
          continue;
        }
        std::vector<std::string> args = {p == 0 ? bigmul : ref};
        if (cb.hex_out) args.push_back("--hex");
        args.push_back(a);
        args.push_back(b);
        std::vector<double> t;
        for (int r = 0; r < n_runs; ++r) {
          const run_result rr = run(args, dir + "/out" + std::to_string(p), dir + "/err", cap);
          if (rr.capped) {
            capped[p] = capped_prog[c][p] = true;
            break;
          }
          if (!WIFEXITED(rr.status) || WEXITSTATUS(rr.status) != 0) {
            std::fprintf(stderr, "bench_cli: %s failed (%s)\n", args[0].c_str(), read_file(dir + "/err").c_str());
            return 1;
          }
          t.push_back(rr.seconds);
        }
        if (!capped[p]) med[p] = median(t);
        done_runs = std::max(done_runs, static_cast<int>(t.size()));
      }
      if (!capped[0] && !capped[1] && read_file(dir + "/out0") != read_file(dir + "/out1")) {
        std::fprintf(stderr, "bench_cli: %s at %zu digits: bigmul's output differs from GMP's\n", cb.name, digits);
        return 1;
      }
      if (c == 0) dec_dec = capped[0] ? 0 : med[0];
      char ratio[32] = "-", vs[32] = "-";
      if (!capped[0] && !capped[1]) std::snprintf(ratio, sizeof ratio, "%.3f", med[0] / med[1]);
      if (!capped[0] && dec_dec > 0) std::snprintf(vs, sizeof vs, "%.2f", med[0] / dec_dec);
      std::snprintf(line, sizeof line, "%-8.0e %-13s %12s %12s %10s %14s %6d\n", d, cb.name,
                    fmt(med[0], capped[0], cap).c_str(), fmt(med[1], capped[1], cap).c_str(), ratio, vs, done_runs);
      txt << line;
      std::printf("%s", line);
      std::fflush(stdout);
      // A capped program's time is the cap (a lower bound), flagged.
      bigmul::bench::measurement m;
      m.real_s = capped[0] ? cap : med[0];
      m.iterations = static_cast<std::size_t>(std::max(done_runs, 1));
      auto& w = h.add(row_name, m).label("combination", cb.name);
      w.counter("digits", static_cast<double>(digits)).counter("bigmul_capped", capped[0]).counter("gmp_capped", capped[1]);
      if (!capped[1]) w.baseline("gmp", med[1]);
      if (!capped[0] && dec_dec > 0) w.counter("vs_dec_dec", med[0] / dec_dec);
    }
  }
  std::ofstream(txt_path) << txt.str();
  std::printf("wrote %s\n", txt_path.c_str());
  std::system(("rm -rf '" + dir + "'").c_str());
  return h.write() ? 0 : 1;
}
