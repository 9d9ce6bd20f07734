// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi: the distributed product as a command (docs/distributed.md).
// `bigmul --distributed ...` executes this program (cli/distributed.cpp), so
// the bigmul command itself never links or initializes MPI.
#include <mpi.h>
#include <sys/resource.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mpi.hpp"
#include "bigmul/mul.hpp"
#include "bigmul/version.hpp"
#include "dist/app/operand_io.hpp"
#include "dist/app/options.hpp"
#include "dist/app/product_io.hpp"
#include "dist/app/radix.hpp"
#include "dist/collective.hpp"

namespace bigmul::dist::app {
namespace {

using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

// Exit statuses as bigmul's (cli/failure.hpp).
int status_of(const error& e) {
  const std::string what = e.what();
  if (e.code() == error::kind::parse || e.code() == error::kind::invalid_argument) return 2;
  if (what.find("modular check") != std::string::npos || what.find("--verify") != std::string::npos) return 3;
  return 1;
}

// x (this rank's block of `global` limbs by `layout`) gathered on rank 0.
std::vector<limb_t> gather(MPI_Comm comm, const std::vector<limb_t>& x, std::size_t global) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
  const int mine = static_cast<int>(x.size());
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<limb_t> all(rank_of(comm) == 0 ? global : 0);
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  MPI_Gatherv(x.data(), mine, MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T, 0, comm);
  return all;
}

// --verify: the single-process product on rank 0 (bigmul::mul), compared.
void verify(MPI_Comm comm, const operand& a, const operand& b, const std::vector<limb_t>& product, radix rx) {
  phase_plain(comm, "verify", false, [&] {
    if (a.global + b.global > (std::size_t{1} << 31))
      throw error(error::kind::invalid_argument, "bigmul: --verify: the product is too large for one process here");
  });
  const auto ga = gather(comm, a.limbs, a.global), gb = gather(comm, b.limbs, b.global);
  const auto gp = gather(comm, product, a.global + b.global);
  phase_plain(comm, "verify", false, [&] {
    if (rank_of(comm) != 0) return;
    const bool a_big = a.global >= b.global;
    const auto& big = a_big ? ga : gb;
    const auto& small = a_big ? gb : ga;
    std::vector<limb_t> want(big.size() + small.size());
    mul(want.data(), big.data(), big.size(), small.data(), small.size(), rx);
    for (std::size_t i = 0; i < want.size(); ++i)
      if (want[i] != gp[i])
        throw error(error::kind::internal, "bigmul: --verify: the distributed product differs from the "
                                           "single-process product at limb " + std::to_string(i));
  });
}

// Before any rank reads its block: the product of operands this long must
// fit the primes' largest transform (mpi::max_product_limbs; the product
// checks it again, the same way, in its own pre-flight). An operand in the
// other radix changes length a little in conversion; the product's
// pre-flight then has the last word.
void admit(MPI_Comm comm, const operand& a, const operand& b) {
  phase_plain(comm, "preflight", false, [&] {
    const std::size_t cap = mpi::max_product_limbs();
    if (a.global > cap || b.global > cap || (a.global && b.global && a.global + b.global - 1 > cap))
      throw error(error::kind::invalid_argument,
                  "bigmul: --distributed: a product of " + std::to_string(a.global) + " and " +
                      std::to_string(b.global) + " limbs exceeds the primes' largest transform (" +
                      std::to_string(cap) + " product limbs, about 10^11 digits)");
  });
}

void print_timing(MPI_Comm comm, const std::vector<std::pair<std::string, double>>& phases, const mpi::stats& st) {
  std::vector<double> secs, xsecs, maxed, xmaxed;
  std::vector<unsigned long long> bytes, summed;
  for (const auto& p : phases) secs.push_back(p.second);
  for (const auto& x : st.exchanges) {
    xsecs.push_back(x.seconds);
    bytes.push_back(x.bytes_sent);
  }
  maxed.resize(secs.size());
  xmaxed.resize(xsecs.size());
  summed.resize(bytes.size());
  MPI_Reduce(secs.data(), maxed.data(), static_cast<int>(secs.size()), MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(xsecs.data(), xmaxed.data(), static_cast<int>(xsecs.size()), MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(bytes.data(), summed.data(), static_cast<int>(bytes.size()), MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm);
  unsigned long long planned = st.planned_bytes, planned_max = 0;
  MPI_Reduce(&planned, &planned_max, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, comm);
  rusage u{};
  getrusage(RUSAGE_SELF, &u);  // ru_maxrss in KiB on Linux
  unsigned long long rss = static_cast<unsigned long long>(u.ru_maxrss) * 1024, rss_max = 0;
  MPI_Reduce(&rss, &rss_max, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, comm);
  if (rank_of(comm) != 0) return;
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::fprintf(stderr, "bigmul: %d ranks, %s engine (%u primes); seconds are the slowest rank's\n", size,
               st.engine == "ifma" ? "AVX-512 IFMA" : st.engine == "avx2" ? "AVX2" : "portable", st.primes);
  for (std::size_t i = 0; i < phases.size(); ++i)
    std::fprintf(stderr, "bigmul: %-22s %10.6f s\n", phases[i].first.c_str(), maxed[i]);
  for (std::size_t i = 0; i < st.exchanges.size(); ++i)
    std::fprintf(stderr, "bigmul:   all-to-all %-18s %14llu bytes %10.6f s\n", st.exchanges[i].what.c_str(), summed[i],
                 xmaxed[i]);
  std::fprintf(stderr, "bigmul: planned working memory %llu bytes on the largest rank\n", planned_max);
  std::fprintf(stderr, "bigmul: peak resident memory %llu bytes on the largest rank\n", rss_max);
}

int run(MPI_Comm comm, int argc, char** argv) {
  const auto t_start = clock_type::now();
  const options o = parse_options(argc, argv);
  if (o.help || o.version) {
    if (rank_of(comm) == 0) std::fputs(o.help ? usage_text().c_str() : "bigmul " BIGMUL_VERSION_STRING " (distributed)\n", stdout);
    return 0;
  }
  std::vector<std::pair<std::string, double>> phases;
  auto t0 = clock_type::now();
  operand a, b;
  if (o.random_digits) {
    a = random_operand(comm, 'A', *o.random_digits, o.seed);
    b = random_operand(comm, 'B', *o.random_digits, o.seed + 1);
  } else {
    // Standard input ('-', both operands '-': two literals) is read by rank 0.
    const unsigned dashes = (o.operands[0] == "-") + (o.operands[1] == "-");
    const std::vector<stdin_literal> in = read_stdin_literals(comm, dashes);
    pending_operand pa = probe_operand(comm, 'A', o.operands[0], o.operands[0] == "-" ? &in[0] : nullptr);
    pending_operand pb = probe_operand(comm, 'B', o.operands[1], o.operands[1] == "-" ? &in[dashes - 1] : nullptr);
    admit(comm, pa.op, pb.op);
    a = load_operand(comm, std::move(pa), o.threads);
    b = load_operand(comm, std::move(pb), o.threads);
  }
  phases.emplace_back("input", since(t0));
  // Test knob (tests/dist/cli_dist.sh): this rank dies here, as a crashed
  // node would, to check that the job ends non-zero and -o stays untouched.
  if (const char* kill = std::getenv("BIGMUL_MPI_TEST_KILL_RANK"); kill && std::atoi(kill) == rank_of(comm))
    std::raise(SIGKILL);
  // The product's radix is the output's, as the single-process bigmul's.
  const radix rx = o.hex ? radix::binary : radix::decimal;
  t0 = clock_type::now();
  to_radix(comm, a, rx);
  to_radix(comm, b, rx);
  if (a.rx != b.rx || a.rx != rx) throw error(error::kind::internal, "bigmul: operands not in the output's radix");
  phases.emplace_back("radix conversion", since(t0));
  mpi::options mo;
  mo.rx = a.rx;
  mo.threads = o.threads;
  mo.modular_check = o.modular_check;
  mo.memory_cap = o.memory_cap;
  mpi::stats st;
  t0 = clock_type::now();
  const auto product = mpi::mul(comm, a.limbs.data(), a.limbs.size(), b.limbs.data(), b.limbs.size(), mo, &st);
  phases.emplace_back("product", since(t0));
  for (const auto& p : st.phases) phases.emplace_back("  " + p.first, p.second);
  if (o.verify) {
    t0 = clock_type::now();
    verify(comm, a, b, product, a.rx);
    phases.emplace_back("verify", since(t0));
  }
  // The working arrays and the operands are done with: the output's text and
  // Open MPI's collective-I/O buffers need the room (under a tight
  // per-process cap its I/O can fail to allocate them and stall).
  mpi::release_scratch();
  bigmul::release_scratch();
  const std::size_t rn = a.global + b.global;
  const bool negative = a.negative != b.negative;
  std::vector<limb_t>().swap(a.limbs);
  std::vector<limb_t>().swap(b.limbs);
  t0 = clock_type::now();
  write_product(comm, product, rn, rx, negative, o.output, o.raw, o.threads);
  phases.emplace_back("output", since(t0));
  phases.emplace_back("total", since(t_start));
  if (o.timing) print_timing(comm, phases, st);
  return 0;
}

}  // namespace
}  // namespace bigmul::dist::app

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    status = bigmul::dist::app::run(MPI_COMM_WORLD, argc, argv);
  } catch (const bigmul::error& e) {
    // Every rank holds the same error; rank 0 says it.
    std::string what = e.what();
    if (what.rfind("bigmul:", 0) != 0) what = "bigmul: " + what;
    if (bigmul::dist::app::rank_of(MPI_COMM_WORLD) == 0) std::fprintf(stderr, "%s\n", what.c_str());
    status = bigmul::dist::app::status_of(e);
  }
  MPI_Finalize();
  return status;
}
