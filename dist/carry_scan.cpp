// SPDX-License-Identifier: LGPL-3.0-or-later
// Carries across ranks (dist/carry_scan.hpp).
#include "dist/carry_scan.hpp"

#include "dist/collective.hpp"
#include "mul/limb_ops.hpp"

namespace bigmul::dist {

carry_table normalize_sums(const sums_ref& s, std::size_t len, limb_t* out, radix rx) {
  if (len == 0) return {0, 1, 2, 3};
  std::uint64_t carry = 0;  // <= 2: a sum of three digits is at most 3B - 3
  if (rx == radix::binary) {
    for (std::size_t i = 0; i < len; ++i) {
      const std::uint64_t t = s.lo[i] + carry;
      out[i] = t;
      carry = s.hi[i] + (t < carry ? 1 : 0);
    }
  } else {
    // t < 3B: its quotient by B is 0, 1 or 2, found by two comparisons
    // (cheaper than div_1e19's multiply by the reciprocal).
    constexpr unsigned __int128 B = decimal_limb_base, B2 = 2 * B;
    for (std::size_t i = 0; i < len; ++i) {
      const unsigned __int128 t = ((static_cast<unsigned __int128>(s.hi[i]) << 64) | s.lo[i]) + carry;
      const std::uint64_t q = static_cast<std::uint64_t>(t >= B) + static_cast<std::uint64_t>(t >= B2);
      out[i] = static_cast<limb_t>(t - q * B);
      carry = q;
    }
  }
  const unsigned h = static_cast<unsigned>(carry);  // <= 2
  const limb_t top = detail::limb_max(rx);
  bool upper_max = true;  // limbs 1 .. len - 1 all B - 1: a carry into limb 0 may run through
  for (std::size_t i = 1; i < len && upper_max; ++i) upper_max = out[i] == top;
  carry_table f{};
  for (unsigned c = 0; c < 4; ++c)
    f[c] = static_cast<std::uint8_t>(h + (c > 0 && upper_max && out[0] >= top - (c - 1) ? 1 : 0));
  return f;
}

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
