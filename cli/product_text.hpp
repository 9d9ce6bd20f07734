// SPDX-License-Identifier: LGPL-3.0-or-later
// The product as text (sign, 0x for --hex, digits, newline) written to
// standard output or atomically to -o's file.
#pragma once

#include "cli/number_view.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "cli/report.hpp"
#include "cli/run_room.hpp"

namespace bigmul::cli {

// Adds the conversion's seconds to t.convert and the write's to t.write.
// Throws failure on a write error (-o's file is then removed).
void write_product(const options& o, progress& prog, const number_view& product, run_room& room, phase_times& t);

}  // namespace bigmul::cli
