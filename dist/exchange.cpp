// SPDX-License-Identifier: LGPL-3.0-or-later
// One timed all-to-all (dist/exchange.hpp).
#include "dist/exchange.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
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

std::size_t round_words(std::size_t n, int size) {
  const std::size_t ranks = static_cast<std::size_t>(std::max(size, 1));
  // A round moves a word to each peer at least.
  if (const char* knob = std::getenv("BIGMUL_DIST_ROUND_WORDS")) {
    const unsigned long long v = std::strtoull(knob, nullptr, 10);
    if (v > 0) return std::max<std::size_t>(static_cast<std::size_t>(v), ranks - 1);
  }
  return std::max<std::size_t>((n + ranks - 1) / ranks / 16, std::size_t{1} << 18);
}

void exchange_rounds(const context& ctx, const char* what, const part_side& send, std::uint64_t* send_buf,
                     const part_side& recv, std::uint64_t* recv_buf) {
  const std::size_t P = static_cast<std::size_t>(ctx.size), me = static_cast<std::size_t>(ctx.rank);
  const std::size_t q_mine = std::max<std::size_t>(1, ctx.round / std::max<std::size_t>(1, P - 1));
  std::size_t most = 0;
  for (std::size_t d = 0; d < P; ++d)
    if (d != me) most = std::max({most, send.counts[d], recv.counts[d]});
  // The largest part and the smallest quota of any rank (one collective):
  // every rank then slices every part alike.
  const unsigned long long mine[2] = {most, ULLONG_MAX - q_mine};
  unsigned long long all[2] = {0, 0};
  check_mpi(MPI_Allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, ctx.comm), what);
  const std::size_t q = static_cast<std::size_t>(ULLONG_MAX - all[1]);
  const std::size_t rounds = (static_cast<std::size_t>(all[0]) + q - 1) / q;
  std::vector<int> sc(P, 0), sd(P, 0), rc(P, 0), rd(P, 0);
  // A rank with nothing to move may have no buffers: MPI gets an address.
  std::uint64_t none[1];
  if (!send_buf) send_buf = none;
  if (!recv_buf) recv_buf = none;
  std::size_t away = 0;
  double seconds = 0;
  for (std::size_t r = 0; r < rounds; ++r) {
    const std::size_t off = r * q;
    auto slice = [&](std::size_t count) { return count > off ? std::min(q, count - off) : std::size_t{0}; };
    int at_s = 0, at_r = 0;
    for (std::size_t d = 0; d < P; ++d) {
      if (d == me) continue;
      const std::size_t ns = slice(send.counts[d]), nr = slice(recv.counts[d]);
      sc[d] = static_cast<int>(ns);
      sd[d] = send.direct ? static_cast<int>(ns ? send.displs[d] + off : 0) : at_s;
      if (ns && !send.direct) send.copy(d, off, ns, send_buf + at_s);
      at_s += static_cast<int>(ns);
      rc[d] = static_cast<int>(nr);
      rd[d] = at_r;
      at_r += static_cast<int>(nr);
      away += ns;
    }
    const auto t0 = std::chrono::steady_clock::now();
    check_mpi(MPI_Alltoallv(send.direct ? send.direct : send_buf, sc.data(), sd.data(), MPI_UINT64_T, recv_buf,
                            rc.data(), rd.data(), MPI_UINT64_T, ctx.comm),
              what);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t d = 0; d < P; ++d)
      if (rc[d]) recv.copy(d, off, static_cast<std::size_t>(rc[d]), recv_buf + rd[d]);
  }
  if (ctx.st) ctx.st->exchanges.push_back({what, away * sizeof(std::uint64_t), seconds});
}

void piece_list::add(std::uint64_t* at, std::size_t words) {
  if (!words) return;
  at_.push_back(at);
  start_.push_back(start_.back() + words);
}

void piece_list::copy(std::size_t offset, std::size_t count, std::uint64_t* buf, bool to_buf) const {
  // The piece holding word `offset`, then on through the pieces.
  std::size_t i = static_cast<std::size_t>(std::upper_bound(start_.begin(), start_.end(), offset) - start_.begin()) - 1;
  for (std::size_t w = offset, end = offset + count; w < end; ++i) {
    const std::size_t from = w - start_[i], k = std::min(end, start_[i + 1]) - w;
    if (to_buf)
      std::copy(at_[i] + from, at_[i] + from + k, buf);
    else
      std::copy(buf, buf + k, at_[i] + from);
    buf += k;
    w += k;
  }
}

}  // namespace bigmul::dist
