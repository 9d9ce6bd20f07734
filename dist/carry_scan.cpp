// SPDX-License-Identifier: LGPL-3.0-or-later
// Carries across ranks (dist/carry_scan.hpp).
#include "dist/carry_scan.hpp"

#include "dist/collective.hpp"
#include "mul/limb_ops.hpp"

namespace bigmul::dist {

unsigned add_carry(limb_t* out, std::size_t len, unsigned c, radix rx) {
  const limb_t top = detail::limb_max(rx);
  for (std::size_t i = 0; i < len && c; ++i) {
    if (out[i] <= top - c) {
      out[i] += c;
      return 0;
    }
    out[i] = out[i] - (top - c + 1);  // out + c - B
    c = 1;
  }
  return c;
}

namespace {
// MPI's user operator: inout = inout o in (in holds the lower ranks).
void compose_op(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* g = static_cast<const carry_table*>(in);
  auto* h = static_cast<carry_table*>(inout);
  for (int i = 0; i < *len; ++i) h[i] = compose(g[i], h[i]);
}
}  // namespace

unsigned carry_in(MPI_Comm comm, const carry_table& mine) {
  MPI_Datatype type;
  MPI_Type_contiguous(4, MPI_UINT8_T, &type);
  MPI_Type_commit(&type);
  MPI_Op op;
  MPI_Op_create(&compose_op, /*commute=*/0, &op);
  carry_table below{0, 1, 2, 3};
  const int code = MPI_Exscan(&mine, &below, 1, type, op, comm);
  MPI_Op_free(&op);
  MPI_Type_free(&type);
  check_mpi(code, "carry scan");
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank == 0 ? 0 : below[0];  // rank 0's result is undefined: nothing below it
}

}  // namespace bigmul::dist
