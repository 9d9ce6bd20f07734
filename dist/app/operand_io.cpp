// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's operands (dist/app/operand_io.hpp).
#include "dist/app/operand_io.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
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
  std::string where;   // " of the file", " of standard input" or ""
  std::size_t base = 0;  // the text's offset in standard input
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
  std::string offset(std::size_t at) const { return std::to_string(base + at) + where; }
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
            s.offset(lo + bad) + " is not a " + (base == 10 ? "decimal" : "hex") + " digit");
  });
}

// The raw-limb format's header, from rank 0.
void probe_raw(MPI_Comm comm, const source& s, operand& op) {
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
  if (s.size < raw_header_bytes || head[1] > (s.size - raw_header_bytes) / 8 ||
      s.size != raw_header_bytes + 8 * head[1])
    s.bad("raw-limb file of " + std::to_string(s.size) + " bytes, its header says " + std::to_string(head[1]) +
          " limbs (" + std::to_string(raw_header_bytes + 8 * head[1]) + " bytes): truncated or corrupt");
}

// Each rank its block of a raw-limb file.
void load_raw(MPI_Comm comm, const source& s, operand& op) {
  const mpi::range blk = mpi::block_of(op.global, size_of(comm), rank_of(comm));
  std::string bytes;
  phase_plain(comm, "read", false, [&] {
    bytes = s.read(raw_header_bytes + 8 * blk.begin, 8 * blk.size());
    op.limbs.resize(blk.size());
    if (!bytes.empty()) std::memcpy(op.limbs.data(), bytes.data(), bytes.size());
  });
}

}  // namespace

// An operand found but not read: its source and where its digits lie.
struct pending_operand::state {
  source s;
  std::string literal;  // a command-line literal's text (s.text points here)
  bool raw = false;
  std::size_t digits_at = 0, last = 0;
  ~state() {
    if (s.file != MPI_FILE_NULL) MPI_File_close(&s.file);
  }
};
pending_operand::pending_operand() = default;
pending_operand::~pending_operand() = default;
pending_operand::pending_operand(pending_operand&&) noexcept = default;
pending_operand& pending_operand::operator=(pending_operand&&) noexcept = default;

pending_operand probe_operand(MPI_Comm comm, char name, const std::string& spec, const stdin_literal* in) {
  pending_operand p;
  p.st = std::make_unique<pending_operand::state>();
  source& s = p.st->s;
  operand& op = p.op;
  s.origin = std::string("operand ") + name;
  if (in) {
    s.text = &in->text;
    s.size = in->text.size();
    s.base = in->offset;
    s.where = " of standard input";
  } else if (spec.empty() || spec[0] != '@') {
    p.st->literal = spec;
    s.text = &p.st->literal;
    s.size = spec.size();
  } else {
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
  }
  // The raw format is told by its magic (no literal starts with 'B').
  std::string magic;
  phase_plain(comm, "read", false, [&] { magic = s.read(0, rank_of(comm) == 0 ? std::min<std::size_t>(8, s.size) : 0); });
  int raw = rank_of(comm) == 0 && magic.size() == 8 && std::memcmp(magic.data(), raw_magic, 8) == 0;
  MPI_Bcast(&raw, 1, MPI_INT, 0, comm);
  p.st->raw = raw;
  if (raw) {
    probe_raw(comm, s, op);
    return p;
  }
  std::size_t first = 0;
  trim(comm, s, first, p.st->last);
  if (first >= p.st->last) s.bad("not a valid integer literal: it is empty");
  prefix(comm, s, first, p.st->last, op, p.st->digits_at);
  if (p.st->digits_at >= p.st->last) s.bad("not a valid integer literal: no digits after byte offset " + s.offset(first));
  op.global = digits::limbs_for(p.st->last - p.st->digits_at, op.rx == radix::binary ? 16 : 10);
  return p;
}

operand load_operand(MPI_Comm comm, pending_operand&& p, unsigned threads) {
  operand op = std::move(p.op);
  if (p.st->raw)
    load_raw(comm, p.st->s, op);
  else
    parse_block(comm, p.st->s, p.st->digits_at, p.st->last, op, threads);
  p.st.reset();
  return op;
}

std::vector<stdin_literal> read_stdin_literals(MPI_Comm comm, unsigned count) {
  std::vector<stdin_literal> out(count);
  if (count == 0) return out;
  std::string all;
  phase_plain(comm, "read", false, [&] {
    if (rank_of(comm) != 0) return;
    char buf[1 << 16];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, stdin)) > 0;) all.append(buf, got);
    if (std::ferror(stdin)) throw error(error::kind::resource, "bigmul: cannot read standard input");
    if (count == 1) {
      out[0] = {std::move(all), 0};
      return;
    }
    // Two literals: the words of the input; more or fewer is an error.
    std::size_t pos = 0;
    for (unsigned k = 0; k < 2; ++k) {
      while (pos < all.size() && is_space(all[pos])) ++pos;
      const std::size_t start = pos;
      while (pos < all.size() && !is_space(all[pos])) ++pos;
      if (start == pos)
        throw error(error::kind::parse, std::string("bigmul: operand ") + static_cast<char>('A' + k) +
                                            ": not a valid integer literal: standard input holds " +
                                            (k ? "one literal" : "no literal") + " (both operands are '-': expected two)");
      out[k] = {all.substr(start, pos - start), start};
    }
    while (pos < all.size() && is_space(all[pos])) ++pos;
    if (pos < all.size())
      throw error(error::kind::parse, "bigmul: operand B: unexpected text after the second literal at byte offset " +
                                          std::to_string(pos) + " of standard input (both operands are '-': expected two)");
  });
  for (auto& lit : out) {  // MPI's counts are ints: in pieces
    unsigned long long meta[2] = {lit.text.size(), lit.offset};
    MPI_Bcast(meta, 2, MPI_UNSIGNED_LONG_LONG, 0, comm);
    lit.text.resize(meta[0]);
    lit.offset = meta[1];
    for (std::size_t at = 0; at < lit.text.size(); at += std::size_t{1} << 30) {
      const int n = static_cast<int>(std::min<std::size_t>(std::size_t{1} << 30, lit.text.size() - at));
      MPI_Bcast(lit.text.data() + at, n, MPI_CHAR, 0, comm);
    }
  }
  return out;
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
