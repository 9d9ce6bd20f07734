// SPDX-License-Identifier: LGPL-3.0-or-later
#include "mul/fft_exactness.hpp"

#include <cstddef>

namespace bigmul::detail {
namespace {

struct exactness_row {
  algorithm algo;
  radix rx;
  unsigned measured_up_to;      // largest log2 length the sweep ran
  unsigned char digits[41];     // digits[L]; 0 = no exact size
};

#include "mul/fft_exactness_table.inc"

}  // namespace

unsigned fft_safe_digits(algorithm algo, radix rx, unsigned log2_length) {
  for (const exactness_row& row : fft_exactness_rows) {
    if (row.algo != algo || row.rx != rx) continue;
    if (log2_length <= row.measured_up_to) return row.digits[log2_length];
    // Past the sweep: each doubling of the length adds up to sqrt(2)..2x to the
    // round-off; give up one bit every two doublings (binary) or one decimal
    // digit (3.3 bits) every six.
    const unsigned extra = log2_length - row.measured_up_to;
    const unsigned last = row.digits[row.measured_up_to];
    const unsigned drop = rx == radix::binary ? (extra + 1) / 2 : (extra + 5) / 6;
    return last > drop ? last - drop : 0;
  }
  return 0;
}

}  // namespace bigmul::detail
