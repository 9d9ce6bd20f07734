// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's product output (dist/app/product_io.hpp).
#include "dist/app/product_io.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "bigmul/error.hpp"
#include "bigmul/mpi.hpp"
#include "cli/failure.hpp"
#include "cli/output.hpp"
#include "cli/replace.hpp"
#include "dist/app/operand_io.hpp"
#include "dist/collective.hpp"
#include "src/digits/digits.hpp"

namespace bigmul::dist::app {
namespace {

// This rank's text: its significant limbs, zero-padded to whole limbs unless
// it holds the top one; the sign and 0x before the top, "\n" after limb 0.
std::string rank_text(const std::vector<limb_t>& limbs, mpi::range blk, std::size_t top, radix rx, bool negative,
                      unsigned threads) {
  const unsigned base = rx == radix::binary ? 16 : 10, per = digits::per_limb(base);
  std::string out;
  if (top == 0) return blk.begin == 0 && blk.size() ? "0\n" : "";
  const std::size_t count = blk.begin < top ? std::min(blk.end, top) - blk.begin : 0;
  if (count) {
    const bool holds_top = blk.begin + count == top;
    const std::size_t body = holds_top ? digits::printed_size(limbs.data(), count, base) : per * count;
    const std::string head = holds_top ? std::string(negative ? "-" : "") + (base == 16 ? "0x" : "") : "";
    out.assign(head.size() + body, '0');
    std::memcpy(out.data(), head.data(), head.size());
    const std::size_t digits_here = digits::printed_size(limbs.data(), count, base);
    digits::print(limbs.data(), count, base, out.data() + head.size() + (body - digits_here), threads);
  }
  if (blk.begin == 0) out += '\n';
  return out;
}

std::string raw_text(const std::vector<limb_t>& limbs, mpi::range blk, std::size_t top, radix rx, bool negative) {
  std::string out;
  if (blk.begin == 0) {
    const unsigned long long head[2] = {(rx == radix::decimal ? 1ull : 0ull) | (negative && top ? 2ull : 0ull), top};
    out.assign(raw_magic, 8);
    out.append(reinterpret_cast<const char*>(head), 16);
  }
  const std::size_t count = blk.begin < top ? std::min(blk.end, top) - blk.begin : 0;
  out.append(reinterpret_cast<const char*>(limbs.data()), 8 * count);
  return out;
}

// Byte offset of this rank's text: the ranks above it come first in text
// (most significant first), after it in the raw format.
std::size_t text_offset(MPI_Comm comm, std::size_t bytes, bool raw, std::size_t& total) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  std::vector<unsigned long long> all(static_cast<std::size_t>(size));
  const unsigned long long mine = bytes;
  MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all.data(), 1, MPI_UNSIGNED_LONG_LONG, comm);
  std::size_t off = 0;
  total = 0;
  for (int r = 0; r < size; ++r) {
    total += all[static_cast<std::size_t>(r)];
    if (raw ? r < rank : r > rank) off += all[static_cast<std::size_t>(r)];
  }
  return off;
}

// The whole text on rank 0 (empty elsewhere), in the output's order: the top
// rank first for text, rank 0 first for the raw format.
std::string gather_text(MPI_Comm comm, const std::string& text, std::size_t total, bool raw) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  if (total > static_cast<std::size_t>(INT_MAX))  // every rank knows total: all throw
    throw error(error::kind::resource,
                "bigmul: a product over 2 GB goes to a regular file: use -o PATH (not standard output or a device)");
  int len = static_cast<int>(text.size());
  std::vector<int> lens(static_cast<std::size_t>(size)), displs(lens.size());
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (rank == 0) {
    long long at = 0;
    for (int k = 0; k < size; ++k) {
      const auto r = static_cast<std::size_t>(raw ? k : size - 1 - k);
      displs[r] = static_cast<int>(at);
      at += lens[r];
    }
    all.resize(static_cast<std::size_t>(at));
  }
  MPI_Gatherv(text.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, comm);
  return all;
}

void to_stdout(MPI_Comm comm, const std::string& text, std::size_t total, bool raw) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::string all = gather_text(comm, text, total, raw);
  phase_plain(comm, "output", false, [&] {
    if (rank == 0 && (std::fwrite(all.data(), 1, all.size(), stdout) != all.size() || std::fflush(stdout) != 0))
      throw error(error::kind::resource, std::string("bigmul: cannot write standard output: ") + std::strerror(errno));
  });
}

// -o naming a device or FIFO (/dev/null, a pipe): written directly from rank
// 0, as the single-process bigmul writes it (a rename would replace it).
void to_device(MPI_Comm comm, const std::string& text, std::size_t total, bool raw, const std::string& path) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::string all = gather_text(comm, text, total, raw);
  phase_plain(comm, "output", false, [&] {
    if (rank != 0) return;
    const int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw error(error::kind::resource, "bigmul: cannot write '" + path + "': " + std::strerror(errno));
    std::size_t done = 0;
    while (done < all.size()) {
      const ssize_t n = write(fd, all.data() + done, all.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int err = errno;
        close(fd);
        throw error(error::kind::resource, "bigmul: cannot write '" + path + "': " + std::strerror(err));
      }
      done += static_cast<std::size_t>(n);
    }
    if (close(fd) != 0) throw error(error::kind::resource, "bigmul: cannot write '" + path + "': " + std::strerror(errno));
  });
}

// Whether -o names a device or FIFO (decided on rank 0 by the single-process
// rules, agreed by every rank).
bool output_is_direct(MPI_Comm comm, const std::string& path) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int direct = 0;
  phase_plain(comm, "output", false, [&] {
    if (rank != 0) return;
    try {
      direct = cli::resolve_output(path).direct ? 1 : 0;
    } catch (const cli::failure& f) {
      throw error(error::kind::resource, f.what());
    }
  });
  MPI_Bcast(&direct, 1, MPI_INT, 0, comm);
  return direct != 0;
}

// -o's rules are the single-process bigmul's (cli/output.hpp, issue 32),
// taken on rank 0: a symbolic link's target is replaced and the link kept, a
// directory or a dangling link is refused, a device or FIFO is written
// directly (to_device; a regular file goes through a temporary file and a
// rename), and the replaced file's owner,
// group, mode and attributes pass to the new one (cli/replace.hpp).
// cli::failure becomes bigmul::error so that every rank throws it.
template <class Body>
void with_cli_rules(Body&& body) {
  try {
    body();
  } catch (const cli::failure& f) {
    throw error(error::kind::resource, f.what());
  }
}

std::string broadcast_string(MPI_Comm comm, std::string s) {
  unsigned long long n = s.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  s.resize(n);
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
  return s;
}

// Rank 0: the file -o replaces, and the temporary file beside it.
void output_names(const std::string& path, std::string& target, std::string& tmp) {
  with_cli_rules([&] {
    const cli::output_target t = cli::resolve_output(path);
    if (t.direct)
      throw error(error::kind::resource, "bigmul: cannot write " + cli::quoted(path) +
                                             ": not a regular file (--distributed writes -o through a temporary "
                                             "file and a rename, which would replace it)");
    target = t.path;
  });
  const std::size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  if (name.empty() || name == "." || name == "..")
    throw error(error::kind::resource, "bigmul: cannot write " + cli::quoted(path) + ": not a file name");
  cli::remove_stale_temporaries(dir);
  std::uint32_t tag = 0;
  if (getrandom(&tag, sizeof tag, 0) != static_cast<ssize_t>(sizeof tag)) tag = static_cast<std::uint32_t>(time(nullptr));
  tmp = (slash == std::string::npos ? "" : dir) + cli::temporary_name(name, static_cast<long>(getpid()), tag);
}

// Rank 0, once every rank wrote its part: the temporary file's length, the
// replaced file's identity, then the rename.
void commit_output(const std::string& path, const std::string& target, const std::string& tmp,
                   unsigned long long total) {
  struct stat sb {};
  if (stat(tmp.c_str(), &sb) != 0 || static_cast<unsigned long long>(sb.st_size) != total)
    throw error(error::kind::resource, "bigmul: cannot write '" + path + "': MPI-IO wrote a short file");
  struct stat old {};
  if (stat(target.c_str(), &old) == 0 && S_ISREG(old.st_mode)) {
    const int fd = open(tmp.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw error(error::kind::resource, "bigmul: cannot write '" + path + "': " + std::strerror(errno));
    try {
      with_cli_rules([&] { cli::keep_file_identity(fd, path, target, old, false); });
    } catch (...) {
      close(fd);
      throw;
    }
    close(fd);
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0)
    throw error(error::kind::resource, "bigmul: cannot write '" + path + "': " + std::strerror(errno));
}

void to_file(MPI_Comm comm, const std::string& text, std::size_t offset, const std::string& path) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string target, tmp;
  phase_plain(comm, "output", false, [&] {
    if (rank == 0) output_names(path, target, tmp);
  });
  tmp = broadcast_string(comm, tmp);
  MPI_File f = MPI_FILE_NULL;
  phase_plain(comm, "output", false, [&] {
    const int rc = MPI_File_open(comm, tmp.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_EXCL, MPI_INFO_NULL, &f);
    if (rc != MPI_SUCCESS) throw error(error::kind::resource, "bigmul: cannot create a temporary file beside '" + path + "'");
  });
  failure mine;
  try {
    if (text.size() > static_cast<std::size_t>(INT_MAX))
      throw error(error::kind::resource, "bigmul: a rank's output exceeds 2 GB: use more ranks");
  } catch (...) {
    mine = current_failure("output");
  }
  MPI_Status st;
  const int rc = MPI_File_write_at_all(f, static_cast<MPI_Offset>(offset), text.data(),
                                       mine.failed ? 0 : static_cast<int>(text.size()), MPI_CHAR, &st);
  if (!mine.failed && rc != MPI_SUCCESS) mine = {true, error::kind::resource, "bigmul: cannot write '" + tmp + "'"};
  if (MPI_File_close(&f) != MPI_SUCCESS && !mine.failed)
    mine = {true, error::kind::resource, "bigmul: cannot write '" + tmp + "'"};
  // Open MPI's collective I/O can report success after failing to allocate
  // its buffers (it prints "OUT OF MEMORY"): rank 0 checks the file's length.
  unsigned long long end = offset + text.size(), total = 0;
  MPI_Allreduce(&end, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  try {
    agree(comm, mine, false, true);
    phase_plain(comm, "output", false, [&] {
      if (rank == 0) commit_output(path, target, tmp, total);
    });
  } catch (...) {
    if (rank == 0) std::remove(tmp.c_str());
    throw;
  }
}

}  // namespace

void write_product(MPI_Comm comm, const std::vector<limb_t>& limbs, std::size_t rn, radix rx, bool negative,
                   const std::optional<std::string>& path, bool raw, unsigned threads) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  const mpi::range blk = mpi::product_block(rn, size, rank);
  unsigned long long mine = 0, top = 0;
  for (std::size_t i = limbs.size(); i-- > 0;)
    if (limbs[i]) {
      mine = blk.begin + i + 1;
      break;
    }
  MPI_Allreduce(&mine, &top, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  std::string text;
  phase_plain(comm, "output", false, [&] {
    text = raw ? raw_text(limbs, blk, top, rx, negative) : rank_text(limbs, blk, top, rx, negative, threads);
  });
  std::size_t total = 0;
  const std::size_t offset = text_offset(comm, text.size(), raw, total);
  if (!path)
    to_stdout(comm, text, total, raw);
  else if (output_is_direct(comm, *path))
    to_device(comm, text, total, raw, *path);
  else
    to_file(comm, text, offset, *path);
}

}  // namespace bigmul::dist::app
