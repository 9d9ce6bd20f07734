// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's operands in the product's radix. The product prints in
// decimal, or in hex with --hex, whatever the operands' radices (as the
// single-process bigmul); an operand in the other radix is converted first
// (converting an operand costs less than converting the product, twice as
// long). The conversion is not distributed: the operand is gathered on rank
// 0, converted by bigmul's subquadratic converter (bigmul/arith.hpp) and
// scattered back, so it must fit one process; operands already in the
// product's radix never leave their ranks.
#pragma once

#include <mpi.h>

#include "bigmul/config.hpp"
#include "dist/app/operand_io.hpp"

namespace bigmul::dist::app {

// x in radix rx, block-distributed again (collective; throws the same
// bigmul::error on every rank).
void to_radix(MPI_Comm comm, operand& x, radix rx);

}  // namespace bigmul::dist::app
