// SPDX-License-Identifier: LGPL-3.0-or-later
// Collective failure: an error on one rank becomes the same bigmul::error on
// every rank at the next phase boundary, never a hang. A phase is local work
// only (no MPI call that another rank could be left waiting in); after it,
// one MPI_Allreduce tells every rank whether any failed, and the lowest
// failing rank's message and kind are broadcast and thrown everywhere.
#pragma once

#include <mpi.h>

#include <exception>
#include <string>
#include <utility>

#include "bigmul/error.hpp"

namespace bigmul::dist {

// The outcome of one rank's phase: empty when it succeeded.
struct failure {
  bool failed = false;
  error::kind kind = error::kind::internal;
  std::string message;
};

// The failure the current exception means (call inside a catch block).
failure current_failure(const char* phase);

// Every rank passes its own outcome; throws on every rank when any failed:
// the lowest failing rank's error (the highest's with last_rank: a text's
// first bad byte lies in the highest rank's block), its message prefixed
// "rank R: " unless plain.
void agree(MPI_Comm comm, const failure& mine, bool last_rank = false, bool plain = false);

// Runs body() as a phase: its exception (if any) is caught and agreed on.
template <class Body>
void phase(MPI_Comm comm, const char* name, Body&& body) {
  failure mine;
  try {
    std::forward<Body>(body)();
  } catch (...) {
    mine = current_failure(name);
  }
  agree(comm, mine);
}

// The same for the command's user-facing steps: the message as written
// (no rank), from the highest failing rank when last_rank.
template <class Body>
void phase_plain(MPI_Comm comm, const char* name, bool last_rank, Body&& body) {
  failure mine;
  try {
    std::forward<Body>(body)();
  } catch (...) {
    mine = current_failure(name);
  }
  agree(comm, mine, last_rank, true);
}

// An MPI call's return code as bigmul::error (the communicator's handler is
// MPI_ERRORS_RETURN inside the product).
void check_mpi(int code, const char* what);

}  // namespace bigmul::dist
