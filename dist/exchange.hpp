// SPDX-License-Identifier: LGPL-3.0-or-later
// One all-to-all of 64-bit words (MPI_Alltoallv), timed and counted for -t
// and the model (docs/distributed.md). Counts are per rank, in words.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bigmul/mpi.hpp"

namespace bigmul::dist {

struct context {
  MPI_Comm comm;
  int rank = 0, size = 1;
  unsigned threads = 1;
  mpi::stats* st = nullptr;
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

}  // namespace bigmul::dist
