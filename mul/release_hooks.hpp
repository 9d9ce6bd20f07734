// SPDX-License-Identifier: LGPL-3.0-or-later
// Caches kept above mul/ (the radix converter's power table, reciprocals and
// transform buffers in src/arith) register a function here, and
// bigmul::release_scratch() calls every registered one: one public call frees
// every cache the library keeps, while mul/ names nothing above it (internal).
#pragma once

namespace bigmul::detail {

// Adds hook to the functions release_scratch() calls (once per distinct
// function; thread-safe). A hook frees what the calling thread and the
// process keep between calls, never what a running call still uses.
void add_release_hook(void (*hook)());

}  // namespace bigmul::detail
