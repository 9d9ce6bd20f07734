// SPDX-License-Identifier: LGPL-3.0-or-later
// gmp_ref: the GMP reference for bench_cli, a one-shot product the way a GMP
// user writes it: mpz_set_str, mpz_mul, mpz_out_str.
//   gmp_ref [--hex] A B     A, B: a literal or @FILE; decimal, or 0x hex
// Prints the product and a newline like bigmul (--hex: 0x..., -0x... when negative).
#include <gmp.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

bool read_all(const char* path, std::string& out) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  char buf[1 << 16];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, got);
  const bool ok = !std::ferror(f);
  std::fclose(f);
  return ok;
}

// Sets z from text: optional sign, then 0x hex or decimal (leading zeros
// decimal, as bigmul reads them). Surrounding whitespace is ignored.
bool set_operand(mpz_t z, std::string text) {
  while (!text.empty() && std::strchr(" \t\r\n", text.back())) text.pop_back();
  std::size_t pos = text.find_first_not_of(" \t\r\n");
  if (pos == std::string::npos) return false;
  bool negative = false;
  if (text[pos] == '+' || text[pos] == '-') negative = text[pos++] == '-';
  int base = 10;
  if (text.compare(pos, 2, "0x") == 0 || text.compare(pos, 2, "0X") == 0) {
    base = 16;
    pos += 2;
  }
  if (mpz_set_str(z, text.c_str() + pos, base) != 0) return false;
  if (negative) mpz_neg(z, z);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool hex = false;
  const char* operands[2];
  int n = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--hex") == 0) hex = true;
    else if (n < 2) operands[n++] = argv[i];
    else n = 3;
  }
  if (n != 2) {
    std::fprintf(stderr, "usage: gmp_ref [--hex] A B   (A, B: literal or @FILE)\n");
    return 2;
  }
  mpz_t x[2], r;
  for (int k = 0; k < 2; ++k) {
    std::string text;
    if (operands[k][0] == '@') {
      if (!read_all(operands[k] + 1, text)) {
        std::fprintf(stderr, "gmp_ref: cannot read %s\n", operands[k] + 1);
        return 1;
      }
    } else {
      text = operands[k];
    }
    mpz_init(x[k]);
    if (!set_operand(x[k], std::move(text))) {
      std::fprintf(stderr, "gmp_ref: operand %c is not an integer literal\n", 'A' + k);
      return 2;
    }
  }
  mpz_init(r);
  mpz_mul(r, x[0], x[1]);
  mpz_clear(x[0]);
  mpz_clear(x[1]);
  if (hex) {
    if (mpz_sgn(r) < 0) {
      std::fputc('-', stdout);
      mpz_neg(r, r);
    }
    std::fputs("0x", stdout);
  }
  mpz_out_str(stdout, hex ? 16 : 10, r);
  std::fputc('\n', stdout);
  mpz_clear(r);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
