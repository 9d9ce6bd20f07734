// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's radix conversion of an operand (dist/app/radix.hpp).
#include "dist/app/radix.hpp"

#include <climits>
#include <string>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "bigmul/mpi.hpp"
#include "dist/collective.hpp"

namespace bigmul::dist::app {

void to_radix(MPI_Comm comm, operand& x, radix rx) {
  if (x.rx == rx) return;
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  // MPI's counts are ints; the converted operand is at most ~1.03x longer.
  phase_plain(comm, "radix conversion", false, [&] {
    if (x.global > static_cast<std::size_t>(INT_MAX) / 2)
      throw error(error::kind::invalid_argument,
                  "bigmul: --distributed converts an operand of the other radix on one rank: " +
                      std::to_string(x.global) + " limbs is too large (give both operands in the output's radix)");
  });
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
  for (int r = 0; r < size; ++r) {
    const mpi::range b = mpi::block_of(x.global, size, r);
    counts[static_cast<std::size_t>(r)] = static_cast<int>(b.size());
    displs[static_cast<std::size_t>(r)] = static_cast<int>(b.begin);
  }
  std::vector<limb_t> all, converted;
  phase_plain(comm, "radix conversion", false, [&] { all.resize(rank == 0 ? x.global : 0); });
  MPI_Gatherv(x.limbs.data(), static_cast<int>(x.limbs.size()), MPI_UINT64_T, all.data(), counts.data(),
              displs.data(), MPI_UINT64_T, 0, comm);
  unsigned long long n = 0;
  phase_plain(comm, "radix conversion", false, [&] {
    if (rank != 0) return;
    converted = rx == radix::decimal ? binary_to_decimal(all.data(), all.size()) : decimal_to_binary(all.data(), all.size());
    std::vector<limb_t>().swap(all);
    n = converted.size();
  });
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  x.global = n;
  x.rx = rx;
  for (int r = 0; r < size; ++r) {
    const mpi::range b = mpi::block_of(x.global, size, r);
    counts[static_cast<std::size_t>(r)] = static_cast<int>(b.size());
    displs[static_cast<std::size_t>(r)] = static_cast<int>(b.begin);
  }
  phase_plain(comm, "radix conversion", false,
              [&] { x.limbs.assign(static_cast<std::size_t>(counts[static_cast<std::size_t>(rank)]), 0); });
  MPI_Scatterv(converted.data(), counts.data(), displs.data(), MPI_UINT64_T, x.limbs.data(),
               static_cast<int>(x.limbs.size()), MPI_UINT64_T, 0, comm);
}

}  // namespace bigmul::dist::app
