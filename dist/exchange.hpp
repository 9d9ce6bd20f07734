// SPDX-License-Identifier: LGPL-3.0-or-later
// One all-to-all of 64-bit words (MPI_Alltoallv), timed and counted for -t
// and the model (docs/distributed.md). Counts are per rank, in words.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "bigmul/mpi.hpp"

namespace bigmul::dist {

struct context {
  MPI_Comm comm;
  int rank = 0, size = 1;
  unsigned threads = 1;
  mpi::stats* st = nullptr;
  // The words each side of a bounded all-to-all (exchange_rounds) moves a
  // round: its send and receive buffers' size (round_words).
  std::size_t round = SIZE_MAX;
};

// Displacements (prefix sums) of counts; the total.
std::size_t displacements(const std::vector<std::size_t>& counts, std::vector<std::size_t>& displs);

// recv (sum of recv_counts words) from every rank's send, in rank order.
// The totals fit MPI's int counts: the preflight (dist/product.cpp) refuses
// products whose buffers would not, on every rank at once.
void exchange(const context& ctx, const char* what, const std::uint64_t* send,
              const std::vector<std::size_t>& send_counts, std::uint64_t* recv,
              const std::vector<std::size_t>& recv_counts);
// The same with the send side's displacements given (words of one buffer
// already grouped by destination, in rank order, the rank's own part left
// in place: its count 0).
void exchange(const context& ctx, const char* what, const std::uint64_t* send,
              const std::vector<std::size_t>& send_counts, const std::vector<std::size_t>& send_displs,
              std::uint64_t* recv, const std::vector<std::size_t>& recv_counts);

// One side of a bounded all-to-all: the words of this rank's part for (or
// from) each peer, in the order both ends agree on. copy(peer, offset,
// count, buf) moves words [offset, offset + count) of that peer's part to
// buf (sending) or from it (receiving). A sender whose parts already lie in
// one array gives it as direct (peer d's part from displs[d]) instead.
using part_copy = std::function<void(std::size_t peer, std::size_t offset, std::size_t count, std::uint64_t* buf)>;
struct part_side {
  std::vector<std::size_t> counts;  // a peer's part's words; the rank's own: 0
  part_copy copy;
  const std::uint64_t* direct = nullptr;
  std::vector<std::size_t> displs;
};

// The words a round's buffer holds on each side for a transform of n points
// on `size` ranks: BIGMUL_DIST_ROUND_WORDS where it is set (tests: many
// rounds at small sizes), else max(ceil(n / size) / 16, 2^18), so that the
// buffers are 1/8 of an array between them (the transforms' parts are
// (P - 1) / P of one) while a round's message to each peer stays large
// enough (2 MiB over the peers at least) that its latency is noise.
std::size_t round_words(std::size_t n, int size);

// The all-to-all of `what` in rounds: round r moves words [r q, (r + 1) q)
// of every peer's part (q: the smallest of the ranks' round / (P - 1)), so
// send_buf and recv_buf hold ctx.round words at most (send_buf unused with
// direct parts). Every rank takes the same number of rounds (the largest
// part's); one record in ctx.st with the bytes and the seconds of all of
// them, the same bytes as one MPI_Alltoallv of the whole parts.
void exchange_rounds(const context& ctx, const char* what, const part_side& send, std::uint64_t* send_buf,
                     const part_side& recv, std::uint64_t* recv_buf);

// A part that lies in pieces of memory, in order (runs of limbs).
class piece_list {
 public:
  void add(std::uint64_t* at, std::size_t words);
  std::size_t words() const { return start_.back(); }
  // Words [offset, offset + count) of the pieces to buf, or from it.
  void copy(std::size_t offset, std::size_t count, std::uint64_t* buf, bool to_buf) const;

 private:
  std::vector<std::uint64_t*> at_;
  std::vector<std::size_t> start_{0};  // the part's word where piece i starts; the last: the total
};

}  // namespace bigmul::dist
