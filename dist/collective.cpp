// SPDX-License-Identifier: LGPL-3.0-or-later
// Collective failure (dist/collective.hpp).
#include "dist/collective.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

namespace bigmul::dist {

failure current_failure(const char* phase) {
  try {
    throw;
  } catch (const error& e) {
    return {true, e.code(), e.what()};
  } catch (const std::bad_alloc&) {
    return {true, error::kind::resource, std::string(phase) + ": out of memory"};
  } catch (const std::length_error&) {
    return {true, error::kind::resource, std::string(phase) + ": out of memory (an array larger than any allocation)"};
  } catch (const std::exception& e) {
    return {true, error::kind::internal, std::string(phase) + ": " + e.what()};
  } catch (...) {
    return {true, error::kind::internal, std::string(phase) + ": unknown exception"};
  }
}

void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw error(error::kind::internal, std::string(what) + ": " + std::string(text, static_cast<std::size_t>(len)));
}

void agree(MPI_Comm comm, const failure& mine, bool last_rank, bool plain) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  // The lowest failing rank, or size when none failed: one collective.
  // Ranks counted from the top with last_rank, so MIN finds the wanted one.
  const int key = last_rank ? size - 1 - rank : rank;
  int first = mine.failed ? key : size;
  int best = size;
  MPI_Allreduce(&first, &best, 1, MPI_INT, MPI_MIN, comm);
  if (best == size) return;
  const int lowest = last_rank ? size - 1 - best : best;
  // Its kind and message, to every rank (fixed size: one broadcast).
  constexpr int text_bytes = 1024;
  std::vector<char> text(text_bytes + 1, '\0');
  int kind = 0;
  if (rank == lowest) {
    const std::string m = (plain ? std::string() : "rank " + std::to_string(rank) + ": ") + mine.message;
    std::memcpy(text.data() + 1, m.data(), std::min<std::size_t>(m.size(), text_bytes - 1));
    kind = static_cast<int>(mine.kind);
    text[0] = static_cast<char>(kind);
  }
  MPI_Bcast(text.data(), text_bytes, MPI_CHAR, lowest, comm);
  kind = static_cast<int>(static_cast<unsigned char>(text[0]));
  throw error(static_cast<error::kind>(kind), std::string(text.data() + 1));
}

}  // namespace bigmul::dist
