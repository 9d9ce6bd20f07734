#include "cli/verify.hpp"

#include "bigmul/error.hpp"

namespace bigmul::cli {
namespace {

// mpz_t with RAII, so an exception (bad_alloc) does not leak it.
struct mpz_holder {
  mpz_t v;
  mpz_holder() { mpz_init(v); }
  ~mpz_holder() { mpz_clear(v); }
  mpz_holder(const mpz_holder&) = delete;
  mpz_holder& operator=(const mpz_holder&) = delete;
};

}  // namespace

void to_mpz(mpz_t out, const integer& x) {
  if (x.is_zero()) {
    mpz_set_ui(out, 0);
    return;
  }
  if (x.get_radix() == radix::binary) {
    const auto mag = x.magnitude();
    static_assert(sizeof(limb_t) == 8);
    mpz_import(out, mag.size(), -1, sizeof(limb_t), 0, 0, mag.data());
    if (x.is_negative()) mpz_neg(out, out);
    return;
  }
  const std::string text = x.to_string(10);
  if (mpz_set_str(out, text.c_str(), 10) != 0)
    throw error(error::kind::internal, "verify: GMP could not read the decimal text of an operand");
}

bool matches_gmp(const integer& a, const integer& b, const integer& product, std::string& detail) {
  mpz_holder ga, gb, expected, got;
  to_mpz(ga.v, a);
  to_mpz(gb.v, b);
  mpz_mul(expected.v, ga.v, gb.v);
  to_mpz(got.v, product);
  if (mpz_cmp(expected.v, got.v) == 0) return true;
  mpz_holder diff;
  mpz_sub(diff.v, got.v, expected.v);
  detail = "product differs from GMP's mpz_mul: GMP has " + std::to_string(mpz_sizeinbase(expected.v, 10)) +
           " digits, bigmul " + std::to_string(mpz_sizeinbase(got.v, 10)) + " digits; bigmul - GMP has about " +
           std::to_string(mpz_sizeinbase(diff.v, 10)) + " digits" + (mpz_sgn(diff.v) < 0 ? " and is negative" : "");
  return false;
}

}  // namespace bigmul::cli
