// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's operands (dist/app/operand_io.hpp).
#include "dist/app/operand_io.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <memory>

#include "bigmul/error.hpp"
#include "bigmul/mpi.hpp"
#include "dist/collective.hpp"
#include "src/digits/digits.hpp"

namespace bigmul::dist::app {
namespace {

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
int size_of(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// The bytes of a literal: the command line's text, or a file read
// collectively (every rank calls read with its own range, possibly empty).
struct source {
  std::string origin;  // "operand A (PATH)" or "operand A"
  std::string where;   // " of the file" or ""
  const std::string* text = nullptr;
  MPI_File file = MPI_FILE_NULL;
  std::size_t size = 0;

  std::string read(std::size_t at, std::size_t len) const {
    std::string out(len, '\0');
    if (text) {
      std::memcpy(out.data(), text->data() + at, len);
      return out;
    }
    if (len > static_cast<std::size_t>(INT_MAX))
      throw error(error::kind::resource, "bigmul: " + origin + ": a rank's block exceeds 2 GB: use more ranks");
    MPI_Status st;
    const int rc = MPI_File_read_at_all(file, static_cast<MPI_Offset>(at), out.data(), static_cast<int>(len),
                                        MPI_CHAR, &st);
    if (rc != MPI_SUCCESS) throw error(error::kind::resource, "bigmul: cannot read " + origin);
    return out;
  }
  [[noreturn]] void bad(const std::string& message) const {
    throw error(error::kind::parse, "bigmul: " + origin + ": " + message);
  }
};

// Where the literal's non-space bytes begin and end (collective).
void trim(MPI_Comm comm, const source& s, std::size_t& first, std::size_t& last) {
  const mpi::range blk = mpi::block_of(s.size, size_of(comm), rank_of(comm));
  std::string bytes;
  phase_plain(comm, "read", false, [&] { bytes = s.read(blk.begin, blk.size()); });
  unsigned long long lo = ULLONG_MAX, hi = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (!is_space(bytes[i])) {
      lo = std::min<unsigned long long>(lo, blk.begin + i);
      hi = blk.begin + i + 1;
    }
  unsigned long long glo = 0, ghi = 0;
  MPI_Allreduce(&lo, &glo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
  MPI_Allreduce(&hi, &ghi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  first = glo == ULLONG_MAX ? s.size : glo;
  last = ghi;
}

// Sign and 0x prefix at `first`, read by rank 0 and broadcast.
void prefix(MPI_Comm comm, const source& s, std::size_t first, std::size_t last, operand& op, std::size_t& digits_at) {
  unsigned long long info[3] = {0, 0, first};  // negative, hex, first digit
  std::string head;
  const std::size_t want = std::min<std::size_t>(3, last - std::min(first, last));
  phase_plain(comm, "read", false, [&] { head = s.read(first, rank_of(comm) == 0 ? want : 0); });
  if (rank_of(comm) == 0) {
    std::size_t k = 0;
    if (k < head.size() && (head[k] == '+' || head[k] == '-')) info[0] = head[k++] == '-';
    if (k + 1 < head.size() && head[k] == '0' && (head[k + 1] == 'x' || head[k + 1] == 'X')) {
      info[1] = 1;
      k += 2;
    }
    info[2] = first + k;
  }
  MPI_Bcast(info, 3, MPI_UNSIGNED_LONG_LONG, 0, comm);
  op.negative = info[0];
  op.rx = info[1] ? radix::binary : radix::decimal;
  digits_at = info[2];
}

// This rank's limbs of the digits [d0, d1): the bytes of limbs [b, e).
void parse_block(MPI_Comm comm, const source& s, std::size_t d0, std::size_t d1, operand& op, unsigned threads) {
  const unsigned base = op.rx == radix::binary ? 16 : 10, per = digits::per_limb(base);
  op.global = digits::limbs_for(d1 - d0, base);
  const mpi::range blk = mpi::block_of(op.global, size_of(comm), rank_of(comm));
  const std::size_t hi = d1 - per * blk.begin;
  const std::size_t lo = blk.size() ? (d1 - d0 > per * blk.end ? d1 - per * blk.end : d0) : hi;
  std::string text;
  phase_plain(comm, "read", false, [&] { text = s.read(lo, hi - lo); });
  // The first bad byte of the literal lies in the highest failing rank's block.
  phase_plain(comm, "parse", true, [&] {
    op.limbs.assign(blk.size(), 0);
    const std::size_t bad = text.empty() ? digits::no_error : digits::parse(text, base, op.limbs.data(), threads);
    if (bad != digits::no_error)
      s.bad("not a valid integer literal: byte " + std::string(1, text[bad]) + " at byte offset " +
            std::to_string(lo + bad) + s.where + " is not a " + (base == 10 ? "decimal" : "hex") + " digit");
  });
}

// The raw-limb format: header from rank 0, then each rank its block.
operand read_raw(MPI_Comm comm, const source& s) {
  operand op;
  unsigned long long head[2] = {0, 0};
  std::string bytes;
  phase_plain(comm, "read", false, [&] {
    bytes = s.read(0, rank_of(comm) == 0 ? raw_header_bytes : 0);
    if (rank_of(comm) == 0) std::memcpy(head, bytes.data() + 8, 16);
  });
  MPI_Bcast(head, 2, MPI_UNSIGNED_LONG_LONG, 0, comm);
  op.rx = head[0] & 1 ? radix::decimal : radix::binary;
  op.negative = head[0] & 2;
  op.global = head[1];
  if (head[1] > (s.size - raw_header_bytes) / 8 || s.size != raw_header_bytes + 8 * head[1])
    s.bad("raw-limb file of " + std::to_string(s.size) + " bytes, its header says " + std::to_string(head[1]) +
          " limbs (" + std::to_string(raw_header_bytes + 8 * head[1]) + " bytes): truncated or corrupt");
  const mpi::range blk = mpi::block_of(op.global, size_of(comm), rank_of(comm));
  phase_plain(comm, "read", false, [&] {
    bytes = s.read(raw_header_bytes + 8 * blk.begin, 8 * blk.size());
    op.limbs.resize(blk.size());
    if (!bytes.empty()) std::memcpy(op.limbs.data(), bytes.data(), bytes.size());
  });
  return op;
}

operand read_source(MPI_Comm comm, const source& s, unsigned threads) {
  // The raw format is told by its magic (no literal starts with 'B').
  std::string magic;
  phase_plain(comm, "read", false, [&] { magic = s.read(0, rank_of(comm) == 0 ? std::min<std::size_t>(8, s.size) : 0); });
  int raw = rank_of(comm) == 0 && magic.size() == 8 && std::memcmp(magic.data(), raw_magic, 8) == 0;
  MPI_Bcast(&raw, 1, MPI_INT, 0, comm);
  if (raw) return read_raw(comm, s);
  operand op;
  std::size_t first = 0, last = 0, digits_at = 0;
  trim(comm, s, first, last);
  if (first >= last) s.bad("not a valid integer literal: it is empty");
  prefix(comm, s, first, last, op, digits_at);
  if (digits_at >= last) s.bad("not a valid integer literal: no digits after byte offset " + std::to_string(first) + s.where);
  parse_block(comm, s, digits_at, last, op, threads);
  return op;
}

}  // namespace

operand read_operand(MPI_Comm comm, char name, const std::string& spec, unsigned threads) {
  source s;
  s.origin = std::string("operand ") + name;
  if (spec.empty() || spec[0] != '@') {
    s.text = &spec;
    s.size = spec.size();
    return read_source(comm, s, threads);
  }
  const std::string path = spec.substr(1);
  s.origin += " (" + path + ")";
  s.where = " of the file";
  phase_plain(comm, "open", false, [&] {
    const int rc = MPI_File_open(comm, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &s.file);
    if (rc != MPI_SUCCESS) throw error(error::kind::resource, "bigmul: cannot open '" + path + "'");
    MPI_Offset size = 0;
    MPI_File_get_size(s.file, &size);
    s.size = static_cast<std::size_t>(size);
  });
  struct closer {
    MPI_File* f;
    ~closer() {
      if (*f != MPI_FILE_NULL) MPI_File_close(f);
    }
  } close_at_exit{&s.file};
  return read_source(comm, s, threads);
}

operand random_operand(MPI_Comm comm, char name, std::uint64_t ndigits, std::uint64_t seed) {
  operand op;
  op.rx = radix::decimal;
  op.global = digits::limbs_for(ndigits, 10);
  const mpi::range blk = mpi::block_of(op.global, size_of(comm), rank_of(comm));
  op.limbs.resize(blk.size());
  const unsigned top_digits = static_cast<unsigned>(ndigits - 19 * (op.global - 1));
  limb_t top_base = 1;
  for (unsigned i = 1; i < top_digits; ++i) top_base *= 10;  // 10^(top_digits - 1)
  for (std::size_t i = blk.begin; i < blk.end; ++i) {
    std::uint64_t z = seed * 0x9e3779b97f4a7c15ull + (static_cast<std::uint64_t>(name) << 56) + i;  // splitmix64
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    limb_t v = z % decimal_limb_base;
    if (i + 1 == op.global) v = top_base + z % (9 * top_base);  // exactly top_digits digits
    op.limbs[i - blk.begin] = v;
  }
  return op;
}

}  // namespace bigmul::dist::app
