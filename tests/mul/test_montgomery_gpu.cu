// SPDX-License-Identifier: LGPL-3.0-or-later
// The batched Montgomery kernels (mul/cuda/batched_montgomery.cuh) on the GPU
// against GMP (mpz_mul + mpz_mod, mpz_powm), and against the CPU model of the
// same group algorithm (test_montgomery_group_model runs that one in every
// build). Every group width (1 to 128 limbs), ragged batches (a group count
// that does not fill a block), moduli random odd, 2^k - 1, 2^(k-1) + 1;
// operands 0, 1, m - 1, random; exponents 0, 1, all ones, random. Skipped
// without a usable GPU (BIGMUL_REQUIRE_GPU=1 makes that a failure).
#include <gmp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_test_support.cuh"
#include "mul/cuda/batched_montgomery.cuh"
#include "test_support.hpp"

namespace {

using namespace bigmul;
namespace gpu = bigmul::detail::cuda;

struct gmp_num {
  mpz_t z;
  gmp_num() { mpz_init(z); }
  ~gmp_num() { mpz_clear(z); }
};
void to_z(mpz_t z, const limb_t* v, std::size_t n) { mpz_import(z, n, -1, sizeof(limb_t), 0, 0, v); }
void from_z(limb_t* v, std::size_t n, const mpz_t z) {
  std::fill(v, v + n, limb_t{0});
  mpz_export(v, nullptr, -1, sizeof(limb_t), 0, 0, z);
}

// G moduli of n limbs cycling through the kinds, and operands below them.
struct batch {
  std::size_t n, G;
  std::vector<limb_t> m, a, b;
};
batch make_batch(std::size_t n, std::size_t G, std::mt19937_64& g) {
  batch B{n, G, std::vector<limb_t>(n * G), std::vector<limb_t>(n * G), std::vector<limb_t>(n * G)};
  gmp_num zm, zx;
  for (std::size_t i = 0; i < G; ++i) {
    limb_t* m = B.m.data() + i * n;
    for (std::size_t j = 0; j < n; ++j) m[j] = i % 3 == 1 ? ~limb_t{0} : i % 3 == 2 ? 0 : g();
    if (i % 3 == 2) m[n - 1] = limb_t{1} << 63;
    m[0] |= 1;
    m[n - 1] |= limb_t{1} << 62;
    to_z(zm.z, m, n);
    for (limb_t* x : {B.a.data() + i * n, B.b.data() + i * n}) {
      const int kind = static_cast<int>((i / 3 + (x == B.b.data() + i * n)) % 4);
      if (kind == 0) mpz_set_ui(zx.z, 0);
      if (kind == 1) mpz_set_ui(zx.z, 1);
      if (kind == 2) mpz_sub_ui(zx.z, zm.z, 1);
      if (kind == 3) {
        std::vector<limb_t> r(n);
        for (auto& v : r) v = g();
        to_z(zx.z, r.data(), n);
        mpz_mod(zx.z, zx.z, zm.z);
      }
      from_z(x, n, zx.z);
    }
  }
  return B;
}

class MontgomeryGpu : public bigmul::test::gpu_fixture {};

TEST_F(MontgomeryGpu, ModMulMatchesGmp) {
  auto g = bigmul::test::rng(2210);
  for (std::size_t n : {1u, 3u, 4u, 5u, 16u, 17u, 32u, 48u, 64u, 128u})
    for (std::size_t G : {1u, 7u, 33u, 200u}) {
      const batch B = make_batch(n, G, g);
      std::vector<limb_t> r(n * G);
      ASSERT_EQ(gpu::mod_mul_batched_gpu(r.data(), B.a.data(), B.b.data(), B.m.data(), n, G), cudaSuccess);
      gmp_num za, zb, zm, zw;
      std::vector<limb_t> want(n);
      for (std::size_t i = 0; i < G; ++i) {
        to_z(za.z, B.a.data() + i * n, n);
        to_z(zb.z, B.b.data() + i * n, n);
        to_z(zm.z, B.m.data() + i * n, n);
        mpz_mul(zw.z, za.z, zb.z);
        mpz_mod(zw.z, zw.z, zm.z);
        from_z(want.data(), n, zw.z);
        ASSERT_EQ(std::vector<limb_t>(r.begin() + i * n, r.begin() + (i + 1) * n), want)
            << "n=" << n << " G=" << G << " item " << i;
      }
    }
}

TEST_F(MontgomeryGpu, ModPowMatchesGmp) {
  auto g = bigmul::test::rng(2211);
  for (std::size_t n : {1u, 4u, 5u, 16u, 32u, 64u})
    for (std::size_t G : {1u, 9u, 40u}) {
      const batch B = make_batch(n, G, g);
      const std::size_t en = n;
      std::vector<limb_t> e(en * G);
      for (std::size_t i = 0; i < G; ++i)
        for (std::size_t j = 0; j < en; ++j)
          e[i * en + j] = i % 4 == 0 ? 0 : i % 4 == 1 ? (j == 0) : i % 4 == 2 ? ~limb_t{0} : g();
      std::vector<limb_t> r(n * G);
      ASSERT_EQ(gpu::mod_pow_batched_gpu(r.data(), B.a.data(), e.data(), en, 64 * en, B.m.data(), n, G), cudaSuccess);
      gmp_num zx, ze, zm, zw;
      std::vector<limb_t> want(n);
      for (std::size_t i = 0; i < G; ++i) {
        to_z(zx.z, B.a.data() + i * n, n);
        to_z(ze.z, e.data() + i * en, en);
        to_z(zm.z, B.m.data() + i * n, n);
        mpz_powm(zw.z, zx.z, ze.z, zm.z);
        from_z(want.data(), n, zw.z);
        ASSERT_EQ(std::vector<limb_t>(r.begin() + i * n, r.begin() + (i + 1) * n), want)
            << "n=" << n << " G=" << G << " item " << i;
      }
    }
}

TEST_F(MontgomeryGpu, RefusesBadSizes) {
  std::vector<limb_t> x(300, 1);
  EXPECT_EQ(gpu::mod_mul_batched_gpu(x.data(), x.data(), x.data(), x.data(), 0, 1), cudaErrorInvalidValue);
  EXPECT_EQ(gpu::mod_mul_batched_gpu(x.data(), x.data(), x.data(), x.data(), 129, 1), cudaErrorInvalidValue);
  EXPECT_EQ(gpu::mod_pow_batched_gpu(x.data(), x.data(), x.data(), 0, 0, x.data(), 4, 1), cudaErrorInvalidValue);
}

}  // namespace
