// SPDX-License-Identifier: LGPL-3.0-or-later
// Every public entity of the C++ API, reached through <bigmul/bigmul.hpp>
// alone (no other bigmul header is included), each used once and its result
// checked against GMP or a value computed another way. Compiles only if the
// umbrella header declares everything; fails if a result is wrong.
#include <bigmul/bigmul.hpp>

#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace {

int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "umbrella: %s is wrong\n", what);
    ++failures;
  }
}

using bigmul::integer;
using bigmul::limb_t;

std::string gmp_text(const integer& x) {
  bigmul::guarded_mpz z;
  bigmul::to_mpz(z, x);
  char* s = mpz_get_str(nullptr, 10, z.get());
  std::string out(s);
  void (*free_fn)(void*, std::size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_fn);
  free_fn(s, out.size() + 1);
  return out;
}

void limb_level() {
  const limb_t a[3] = {~limb_t{0}, ~limb_t{0}, 5}, b[2] = {7, ~limb_t{0}};
  limb_t r[5], s[5], t[3];
  bigmul::mul_stats st;
  bigmul::mul_options o;
  o.algo = bigmul::algorithm::basecase;
  o.threads = 1;
  o.modular_check = true;
  o.tile = 0;
  o.coefficient_digits = 0;
  o.where = bigmul::backend::cpu;
  o.engine = bigmul::fft_engine::in_house;
  o.stats = &st;
  bigmul::mul(r, a, 3, b, 2, bigmul::radix::binary, o);
  check(st.used == bigmul::algorithm::basecase && st.backend_used == bigmul::backend::cpu && st.modular_check &&
            st.transform_length == 0 && st.coefficient_digits == 0 && st.max_roundoff == 0 && st.l2_roundoff == 0 &&
            st.retries == 0 && st.t_split + st.t_forward + st.t_pointwise + st.t_inverse + st.t_round + st.t_carry +
                                       st.t_transfer >= 0 &&
            st.t_check >= 0 && st.t_total >= 0 && (st.ntt_engine == nullptr || st.ntt_engine[0]),
        "mul_stats");
  mpz_t za, zb, zr;
  mpz_inits(za, zb, zr, nullptr);
  mpz_import(za, 3, -1, sizeof(limb_t), 0, 0, a);
  mpz_import(zb, 2, -1, sizeof(limb_t), 0, 0, b);
  ::mpz_mul(zr, za, zb);
  limb_t want[5] = {};
  mpz_export(want, nullptr, -1, sizeof(limb_t), 0, 0, zr);
  check(std::equal(r, r + 5, want), "mul (binary)");
  for (bigmul::algorithm alg : {bigmul::algorithm::automatic, bigmul::algorithm::karatsuba, bigmul::algorithm::toom3,
                                bigmul::algorithm::ntt, bigmul::algorithm::tiled, bigmul::algorithm::fft_complex,
                                bigmul::algorithm::fft_real, bigmul::algorithm::fft_complex_f32,
                                bigmul::algorithm::fft_real_f32}) {
    bigmul::mul_options each;
    each.algo = alg;
    bigmul::algorithm back{};
    check(bigmul::parse_algorithm(bigmul::algorithm_name(alg), back) && back == alg, "algorithm_name/parse_algorithm");
    bigmul::mul(s, a, 3, b, 2, bigmul::radix::binary, each);
    check(std::equal(s, s + 5, want), bigmul::algorithm_name(alg));
  }
  std::vector<limb_t> pairs = {a[0], a[1], b[0], b[1]}, batch(8);
  bigmul::mul_batched(batch.data(), pairs.data(), pairs.data() + 2, 1, 2);
  limb_t one[2];
  bigmul::mul(one, &a[1], 1, &b[1], 1);
  check(batch[2] == one[0] && batch[3] == one[1], "mul_batched");
  const limb_t d9 = bigmul::decimal_limb_base - 1;
  limb_t dd[2];
  bigmul::mul(dd, &d9, 1, &d9, 1, bigmul::radix::decimal);
  check(dd[1] == 9999999999999999998ull && dd[0] == 1 && bigmul::decimal_limb_digits == 19, "mul (decimal)");
  check(bigmul::mul_heap_bytes(1000000, 1000000) > 0 && bigmul::mul_table_bytes(1000000, 1000000) > 0,
        "mul_heap_bytes/mul_table_bytes");
  bigmul::prepare_mul(5000, 5000);
  {
    bigmul::fixed_factor f(&d9, 1, 1, bigmul::radix::decimal);
    limb_t fd[2] = {};
    f.mul(fd, &d9, 1, bigmul::radix::decimal);
    check(fd[0] == dd[0] && fd[1] == dd[1] && f.size() == 1 &&
              f.heap_bytes() == bigmul::fixed_factor::heap_bytes(1, 1, bigmul::radix::decimal),
          "fixed_factor");
  }
  bigmul::release_scratch();
  check(bigmul::gmp_crossover_limbs() > 0 && bigmul::mpz_mul_crossover_limbs() == bigmul::gmp_crossover_limbs(),
        "gmp_crossover_limbs");
  std::string why;
  check(bigmul::cuda_usable(&why) || !why.empty(), "cuda_usable");
  // add, sub, compare, shifts, division.
  check(bigmul::add(t, a, 3, b, 2) == 0 && bigmul::sub(t, t, 3, b, 2) == 0 && std::equal(t, t + 3, a) &&
            bigmul::compare(a, 3, b, 2) == 1,
        "add/sub/compare");
  check(bigmul::lshift(t, a, 3, 4) == 0 && bigmul::rshift(t, t, 3, 4) == 0 && std::equal(t, t + 3, a), "lshift/rshift");
  limb_t q[4], rem[2];
  bigmul::div_qr(q, rem, r, 5, b, 2, bigmul::div_algorithm::basecase);
  check(std::equal(q, q + 3, a) && q[3] == 0 && rem[0] == 0 && rem[1] == 0, "div_qr");
  bigmul::div_qr(q, rem, r, 5, b, 2, bigmul::div_algorithm::newton);
  bigmul::div_qr(q, rem, r, 5, b, 2, bigmul::div_algorithm::automatic);
  check(bigmul::divrem_1(t, a, 3, 10) == mpz_fdiv_ui(za, 10), "divrem_1");
  const std::vector<limb_t> dec = bigmul::binary_to_decimal(a, 3);
  check(bigmul::decimal_to_binary(dec.data(), dec.size()) == std::vector<limb_t>(a, a + 3), "radix conversion");
  mpz_clears(za, zb, zr, nullptr);
}

void integers() {
  const integer a = integer::from_string("-123456789012345678901234567890123");
  const integer b(std::vector<limb_t>{5, 7}, false, bigmul::radix::binary);
  const integer c(std::span<const limb_t>(std::vector<limb_t>{42}), true, bigmul::radix::decimal);
  integer x = 3, y(4u), z(5l), w(6ul), v(7ll), u(8ull), copy(a), moved(std::move(copy));
  x = a;
  x = std::move(moved);
  check(gmp_text(a * b) == (a * b).to_string() && gmp_text(a + b) == (a + b).to_string(), "integer * +");
  check((a - b) + b == a && (a / b) * b + a % b == a && bigmul::divmod(a, b).first == a / b, "- / % divmod");
  integer qq, rr;
  bigmul::divmod(qq, rr, a, b);
  check(qq == a / b && rr == a % b && -(-a) == a && bigmul::abs(a) == -a, "divmod/abs/unary -");
  check((a << 10) >> 10 == a && (a & b) + (a | b) == a + b && (a ^ b) == (a | b) - (a & b) && ~a == -a - 1,
        "shifts/bitwise");
  integer m = a;
  m += b, m -= b, m *= b, m /= b, m %= b, m <<= 3, m >>= 3, m &= b, m |= b, m ^= b, ++m, --m, m++, m--;
  check(m == ((((a % b) & b) | b) ^ b), "compound assignment");
  check(bigmul::bit_length(integer(1) << 100) == 101 && bigmul::lowest_set_bit(integer(1) << 100) == 100 &&
            bigmul::test_bit(integer(5), 2),
        "bit queries");
  check(c.is_negative() && !c.is_zero() && c.sign() == -1 && c.get_radix() == bigmul::radix::decimal && c.size() == 1 &&
            c.magnitude()[0] == 42 && (a <=> b) < 0 && a != b,
        "integer accessors/comparison");
  const integer h = bigmul::convert_radix(a, bigmul::radix::binary);
  check(h.to_radix(bigmul::radix::decimal) == a && h.to_string(16, false).size() == h.printed_size(16, false),
        "to_radix/convert_radix/printed_size");
  std::string text(a.printed_size(10, true), '?');
  a.print(text.data(), 10, true);
  check(text == a.to_string(), "print");
  integer r;
  bigmul::mul(r, a, b, {});
  check(r == a * b && x + y + z + w + v + u == integer(30) + a, "mul(integer)");
}

void errors() {
  try {
    (void)integer::from_string("12x");
    check(false, "parse_error not thrown");
  } catch (const bigmul::parse_error& e) {
    check(e.offset() == 2 && e.code() == bigmul::error::kind::parse, "parse_error");
  }
  const bigmul::error kinds[] = {{bigmul::error::kind::invalid_argument, "a"}, {bigmul::error::kind::domain, "b"},
                                 {bigmul::error::kind::resource, "c"}, {bigmul::error::kind::internal, "d"}};
  check(kinds[3].code() == bigmul::error::kind::internal && std::string(kinds[0].what()) == "a", "error");
}

void modular() {
  const integer m = (integer(1) << 127) - 1, b = 3, e = integer(1) << 70;
  const bigmul::montgomery_context ctx(m);
  bigmul::guarded_mpz zm, zb, ze, zr;
  bigmul::to_mpz(zm, m), bigmul::to_mpz(zb, b), bigmul::to_mpz(ze, e);
  mpz_powm(zr, zb, ze, zm);
  const integer want = bigmul::from_mpz(zr);
  check(ctx.modulus() == m && ctx.mod_pow(b, e) == want && ctx.mod_pow_sec(b, e) == want &&
            ctx.mod_mul(b, b) == 9 && ctx.mod_sqr(b) == 9,
        "montgomery_context");
  check(bigmul::mod_pow(b, e, m) == want && bigmul::mod_pow_sec(b, e, m) == want && bigmul::mod_mul(b, b, m) == 9 &&
            bigmul::mod_sqr(b, m) == 9,
        "mod_* free functions");
  const std::vector<integer> bs = {b, b}, es = {e, e}, ms = {m};
  check(ctx.mod_pow(bs, es)[1] == want && ctx.mod_pow_sec(bs, es)[0] == want && ctx.mod_mul(bs, bs)[0] == 9 &&
            ctx.mod_sqr(bs)[1] == 9,
        "montgomery_context batched");
  check(bigmul::mod_pow_batched(bs, es, ms)[0] == want && bigmul::mod_pow_sec_batched(bs, es, ms)[1] == want &&
            bigmul::mod_mul_batched(bs, bs, ms)[0] == 9 && bigmul::mod_sqr_batched(bs, ms)[1] == 9,
        "mod_*_batched");
}

void bridges() {
  const integer a = integer::from_string("98765432109876543210987654321");
  bigmul::guarded_mpz za, zr;
  {
    const bigmul::gmp_guard guard;
    check(!bigmul::gmp_guard::failed(), "gmp_guard");
  }
  bigmul::to_mpz(za, a);
  const bigmul::mpz_view view(a);
  bigmul::mpz_mul(zr, view, za.get());
  check(bigmul::from_mpz(zr) == a * a && mpz_cmp(static_cast<mpz_srcptr>(view), za.get()) == 0, "GMP bridge");
  const bigmul::boost_int x("123456789012345678901234567890"), y = x * x;
  bigmul::boost_backend be = bigmul::boost_backend::from_integer(a);
  be.negate();
  check(y.str() == (integer::from_string("123456789012345678901234567890") *
                    integer::from_string("123456789012345678901234567890"))
                       .to_string() &&
            be.value() == -a && be.compare(0) < 0,
        "Boost backend");
}

BIGMUL_HD int twice(int v) { return 2 * v; }

}  // namespace

int main() {
  limb_level();
  integers();
  errors();
  modular();
  bridges();
  check(twice(21) == 42 && std::string(BIGMUL_VERSION_STRING) ==
                               std::to_string(BIGMUL_VERSION_MAJOR) + "." + std::to_string(BIGMUL_VERSION_MINOR) + "." +
                                   std::to_string(BIGMUL_VERSION_PATCH),
        "version macros / BIGMUL_HD");
  if (failures) return 1;
  std::printf("umbrella: every public entity reached through <bigmul/bigmul.hpp>\n");
  return 0;
}
