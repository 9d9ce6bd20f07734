// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/product_text.hpp"

#include <unistd.h>

#include <cerrno>
#include <string>
#include <string_view>

#include "cli/failure.hpp"
#include "cli/output.hpp"
#include "prim/buffer.hpp"
#include "prim/stopwatch.hpp"
#include "src/digits/digits.hpp"

namespace bigmul::cli {

void write_product(const options& o, progress& prog, const number_view& product, run_room& room, phase_times& t) {
  prog.phase("converting the product to text");
  auto t0 = prim::steady_clock::now();
  // Into uninitialized memory, newline included (a string would be
  // zero-filled first: a second pass over fresh pages).
  const unsigned base = o.hex ? 16 : 10;
  const bool minus = product.negative && !product.is_zero();
  const std::size_t head = (minus ? 1 : 0) + (o.hex ? 2 : 0);
  const std::size_t printed = head + digits::printed_size(product.limbs, product.size, base);
  prim::buffer<char> text_spill;  // when the arena's room missed
  char* out = room.text(printed + 1, text_spill);
  char* w = out;
  if (minus) *w++ = '-';
  if (o.hex) {
    *w++ = '0';
    *w++ = 'x';
  }
  digits::print(product.limbs, product.size, base, w);
  out[printed] = '\n';
  const std::string_view text(out, printed + 1);
  t.convert += prim::seconds_since(t0);

  prog.phase(o.output ? "writing " + quoted(*o.output) : std::string("writing"));
  t0 = prim::steady_clock::now();
  if (o.output) {
    atomic_file file(*o.output, o.force);
    file.write(text);
    file.commit();
  } else if (!write_fd(STDOUT_FILENO, text)) {
    const int err = errno;
    throw_write_error("bigmul: cannot write the product to standard output", err);
  }
  t.write = prim::seconds_since(t0);
}

}  // namespace bigmul::cli
