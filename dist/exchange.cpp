// SPDX-License-Identifier: LGPL-3.0-or-later
// One timed all-to-all (dist/exchange.hpp).
#include "dist/exchange.hpp"

#include <chrono>
#include <string>

#include "dist/collective.hpp"

namespace bigmul::dist {

std::size_t displacements(const std::vector<std::size_t>& counts, std::vector<std::size_t>& displs) {
  displs.resize(counts.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = total;
    total += counts[i];
  }
  return total;
}

void exchange(const context& ctx, const char* what, const std::uint64_t* send,
              const std::vector<std::size_t>& send_counts, std::uint64_t* recv,
              const std::vector<std::size_t>& recv_counts) {
  std::vector<std::size_t> sd;
  displacements(send_counts, sd);
  exchange(ctx, what, send, send_counts, sd, recv, recv_counts);
}

void exchange(const context& ctx, const char* what, const std::uint64_t* send,
              const std::vector<std::size_t>& send_counts, const std::vector<std::size_t>& send_displs,
              std::uint64_t* recv, const std::vector<std::size_t>& recv_counts) {
  std::vector<std::size_t> rd;
  displacements(recv_counts, rd);
  std::vector<int> sc(send_counts.size()), sdi(sc.size()), rc(sc.size()), rdi(sc.size());
  std::size_t sent = 0;
  for (std::size_t i = 0; i < sc.size(); ++i) {
    sc[i] = static_cast<int>(send_counts[i]);
    sdi[i] = static_cast<int>(send_displs[i]);
    rc[i] = static_cast<int>(recv_counts[i]);
    rdi[i] = static_cast<int>(rd[i]);
    sent += send_counts[i];
  }
  const auto t0 = std::chrono::steady_clock::now();
  check_mpi(MPI_Alltoallv(send, sc.data(), sdi.data(), MPI_UINT64_T, recv, rc.data(), rdi.data(), MPI_UINT64_T,
                          ctx.comm),
            what);
  if (ctx.st) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // Bytes that leave this rank (its own block stays).
    const std::size_t away = (sent - send_counts[static_cast<std::size_t>(ctx.rank)]) * sizeof(std::uint64_t);
    ctx.st->exchanges.push_back({what, away, s});
  }
}

}  // namespace bigmul::dist
