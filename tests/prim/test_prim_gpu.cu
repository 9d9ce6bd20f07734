// SPDX-License-Identifier: LGPL-3.0-or-later
// GPU primitives compared with their CPU twins. Every test skips when no
// CUDA device is usable, and fails then under BIGMUL_REQUIRE_GPU=1 (no CUDA
// call happens before SetUp(); tests/support/gpu_test_support.cuh).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "prim/copy_if.hpp"
#include "prim/cuda/device_copy_if.cuh"
#include "prim/cuda/device_radix_sort.cuh"
#include "prim/cuda/device_reduce.cuh"
#include "prim/cuda/device_scan.cuh"
#include "prim/cuda/device_sort.cuh"
#include "prim/ops.hpp"
#include "prim/reduce.hpp"
#include "prim/scan.hpp"
#include "prim/scan_batched.hpp"
#include "prim/scan_segmented.hpp"
#include "prim/sort_merge.hpp"
#include "gpu_test_support.cuh"
#include "prim_test_util.hpp"
#include "test_support.hpp"

using namespace bigmul::prim;
namespace gpu = bigmul::prim::cuda;

using bigmul::prim::test::random_mat;
using bigmul::test::dev_buf;

namespace {

// Runs a CUB-shaped call twice: size query, then the real thing.
template <class F>
void two_phase(F&& f) {
  std::size_t bytes = 0;
  ASSERT_EQ(f(nullptr, bytes), cudaSuccess);
  dev_buf<char> temp(bytes);
  ASSERT_EQ(f(temp.p, bytes), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

const std::size_t gpu_sizes[] = {0, 1, 2, 31, 33, 255, 1023, 1024, 1025, 4095, 4097, 65535, 65537, 1u << 20, (1u << 20) + 3};

using PrimGpu = bigmul::test::gpu_fixture;

}  // namespace

TEST_F(PrimGpu, InclusiveAndExclusiveScanBothAlgorithms) {
  auto g = bigmul::test::rng(401);
  for (std::size_t n : gpu_sizes) {
    std::vector<std::int64_t> in(n), ref(n), eref(n);
    for (auto& x : in) x = static_cast<std::int64_t>(g() % 2001) - 1000;
    inclusive_scan(in.data(), ref.data(), n, plus_op{}, std::int64_t{0});
    exclusive_scan(in.data(), eref.data(), n, plus_op{}, std::int64_t{0});
    for (auto alg : {gpu::scan_algorithm::lookback, gpu::scan_algorithm::reduce_then_scan,
                     gpu::scan_algorithm::lookback_packed}) {
      dev_buf<std::int64_t> d_in(in), d_out(n);
      two_phase([&](void* t, std::size_t& b) {
        return gpu::device_inclusive_scan(t, b, d_in.p, d_out.p, n, plus_op{}, std::int64_t{0}, 0, alg);
      });
      ASSERT_EQ(d_out.get(n), ref) << "n=" << n;
      two_phase([&](void* t, std::size_t& b) {
        return gpu::device_exclusive_scan(t, b, d_in.p, d_out.p, n, plus_op{}, std::int64_t{0}, 0, alg);
      });
      ASSERT_EQ(d_out.get(n), eref) << "n=" << n;
    }
  }
}

// The packed look-back (prim/cuda/lookback_packed.hpp) on both descriptor
// widths: int32 (one word), int64 and carry_gp (two words, carry_op
// not commutative), past 2^24 elements (thousands of tiles looking back at
// once), in place, and from an array 4 bytes off 16-byte alignment (the
// element path instead of the vector one).
template <class T, class Op>
void packed_case(const std::vector<T>& in, Op op, T identity, std::size_t offset, bool in_place, const char* what) {
  const std::size_t n = in.size() - offset;
  std::vector<T> ref(n), eref(n);
  inclusive_scan(in.data() + offset, ref.data(), n, op, identity);
  exclusive_scan(in.data() + offset, eref.data(), n, op, identity);
  for (const bool inclusive : {true, false}) {
    dev_buf<T> d_in(in), d_out(in.size());
    T* out = in_place ? d_in.p + offset : d_out.p + offset;
    two_phase([&](void* t, std::size_t& b) {
      return inclusive ? gpu::device_inclusive_scan(t, b, d_in.p + offset, out, n, op, identity, 0,
                                                     gpu::scan_algorithm::lookback_packed)
                       : gpu::device_exclusive_scan(t, b, d_in.p + offset, out, n, op, identity, 0,
                                                     gpu::scan_algorithm::lookback_packed);
    });
    std::vector<T> got = in_place ? d_in.get(in.size()) : d_out.get(in.size());
    got.erase(got.begin(), got.begin() + std::ptrdiff_t(offset));
    ASSERT_TRUE(got == (inclusive ? ref : eref))
        << what << " n=" << n << " offset=" << offset << (in_place ? " in place" : "")
        << (inclusive ? " inclusive" : " exclusive");
  }
}

TEST_F(PrimGpu, PackedLookbackScan) {
  auto g = bigmul::test::rng(405);
  for (std::size_t n : {std::size_t{1}, std::size_t{4097}, std::size_t{1} << 20, (std::size_t{1} << 24) + 7}) {
    for (std::size_t offset : {0u, 1u}) {
      if (offset && n > (std::size_t{1} << 20)) continue;  // the element path: smaller sizes suffice
      const bool in_place = n > 4097 && offset == 0;
      std::vector<std::int32_t> a(n + offset);
      for (auto& x : a) x = static_cast<std::int32_t>(g() % 201) - 100;
      packed_case(a, plus_op{}, std::int32_t{0}, offset, in_place, "int32");
      std::vector<std::int64_t> b(n + offset);
      for (auto& x : b) x = static_cast<std::int64_t>(g() >> 20) - (std::int64_t{1} << 43);
      packed_case(b, plus_op{}, std::int64_t{0}, offset, false, "int64");
      std::vector<carry_gp> c(n + offset);
      for (auto& x : c) {
        const unsigned r = g() % 8;
        x = r == 0 ? carry_gp{1, 0} : r == 1 ? carry_gp{0, 0} : carry_gp{0, 1};
      }
      packed_case(c, carry_op{}, carry_identity, offset, in_place, "carry_gp");
    }
  }
}

// The radix sort (prim/cuda/device_radix_sort.cuh) against std::sort: every
// key type, random / one key / signed extremes, sizes around the 2048-key
// tile and past 2^24, out of place and in place (d_in == d_out).
template <class K>
void radix_case(const std::vector<K>& keys, bool in_place, const std::string& what) {
  std::vector<K> want = keys;
  std::sort(want.begin(), want.end());
  dev_buf<K> d_in(keys), d_out(keys.size());
  K* out = in_place ? d_in.p : d_out.p;
  two_phase([&](void* t, std::size_t& b) { return gpu::device_radix_sort(t, b, d_in.p, out, keys.size()); });
  ASSERT_TRUE((in_place ? d_in.get(keys.size()) : d_out.get(keys.size())) == want)
      << what << " n=" << keys.size() << (in_place ? " in place" : "");
  if (!in_place) ASSERT_TRUE(d_in.get(keys.size()) == keys) << what << ": the input changed";
}

template <class K>
void radix_kinds(std::mt19937_64& g, const char* type) {
  const K lo = std::numeric_limits<K>::min(), hi = std::numeric_limits<K>::max();
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{33}, std::size_t{2047}, std::size_t{2049},
                        std::size_t{100003}, (std::size_t{1} << 24) + 5}) {
    std::vector<K> random(n), extremes(n);
    for (std::size_t i = 0; i < n; ++i) {
      random[i] = static_cast<K>(g());
      const K pick[] = {lo, K(lo + 1), K(-1), K(0), K(1), K(hi - 1), hi};
      extremes[i] = pick[g() % 7];
    }
    radix_case(random, false, std::string(type) + " random");
    if (n > (std::size_t{1} << 20)) continue;  // the host's std::sort dominates; one large case per type
    radix_case(extremes, n % 2 == 1, std::string(type) + " extremes");
    if (n < 5000) radix_case(std::vector<K>(n, K(-7)), true, std::string(type) + " one key");
  }
}

TEST_F(PrimGpu, RadixSortMatchesStdSort) {
  std::mt19937_64 g(406);
  radix_kinds<std::int32_t>(g, "int32");
  radix_kinds<std::uint32_t>(g, "uint32");
  radix_kinds<std::int64_t>(g, "int64");
  radix_kinds<std::uint64_t>(g, "uint64");
}

TEST_F(PrimGpu, NonCommutativeScansCarryAndMatrix) {
  auto g = bigmul::test::rng(402);
  for (std::size_t n : gpu_sizes) {
    std::vector<carry_gp> c(n), cref(n);
    for (auto& x : c) {
      const unsigned r = g() % 8;
      x = r == 0 ? carry_gp{1, 0} : r == 1 ? carry_gp{0, 0} : carry_gp{0, 1};
    }
    inclusive_scan(c.data(), cref.data(), n, carry_op{}, carry_identity);
    std::vector<mat2> m(n), mref(n);
    for (auto& x : m) x = random_mat(g);
    inclusive_scan(m.data(), mref.data(), n, mat2_mul_op{}, mat2_identity);
    for (auto alg : {gpu::scan_algorithm::lookback, gpu::scan_algorithm::reduce_then_scan,
                     gpu::scan_algorithm::lookback_packed}) {  // mat2 (32 bytes): packed runs lookback
      dev_buf<carry_gp> dc(c), dco(n);
      two_phase([&](void* t, std::size_t& b) {
        return gpu::device_inclusive_scan(t, b, dc.p, dco.p, n, carry_op{}, carry_identity, 0, alg);
      });
      ASSERT_EQ(dco.get(n), cref) << "n=" << n;
      dev_buf<mat2> dm(m), dmo(n);
      two_phase([&](void* t, std::size_t& b) {
        return gpu::device_inclusive_scan(t, b, dm.p, dmo.p, n, mat2_mul_op{}, mat2_identity, 0, alg);
      });
      ASSERT_EQ(dmo.get(n), mref) << "n=" << n;
    }
  }
}

TEST_F(PrimGpu, BatchedAndSegmentedScan) {
  auto g = bigmul::test::rng(403);
  const std::size_t shapes[][2] = {{1, 1}, {1000, 3}, {33, 4097}, {5, 300001}, {4096, 1024}};
  for (const auto& s : shapes) {
    const std::size_t G = s[0], N = s[1];
    std::vector<std::uint64_t> in(G * N), ref(G * N);
    for (auto& x : in) x = g();
    batched_inclusive_scan(in.data(), ref.data(), G, N, plus_op{}, std::uint64_t{0});
    dev_buf<std::uint64_t> d_in(in), d_out(G * N);
    two_phase([&](void* t, std::size_t& b) {
      return gpu::device_batched_inclusive_scan(t, b, d_in.p, d_out.p, G, N, plus_op{}, std::uint64_t{0});
    });
    ASSERT_EQ(d_out.get(G * N), ref) << "G=" << G << " N=" << N;
  }
  const std::size_t n = (1 << 20) + 7;
  std::vector<mat2> in(n), ref(n);
  std::vector<std::uint8_t> heads(n);
  for (auto& x : in) x = random_mat(g);
  for (auto& h : heads) h = g() % 3000 == 0;
  segmented_inclusive_scan(in.data(), heads.data(), ref.data(), n, mat2_mul_op{}, mat2_identity);
  dev_buf<mat2> d_in(in), d_out(n);
  dev_buf<std::uint8_t> d_heads(heads);
  two_phase([&](void* t, std::size_t& b) {
    return gpu::device_segmented_inclusive_scan(t, b, d_in.p, d_heads.p, d_out.p, n, mat2_mul_op{}, mat2_identity);
  });
  ASSERT_EQ(d_out.get(n), ref);
}

TEST_F(PrimGpu, ReduceCommutativeAndOrdered) {
  auto g = bigmul::test::rng(404);
  for (std::size_t n : gpu_sizes) {
    std::vector<std::int32_t> in(n);
    for (auto& x : in) x = static_cast<std::int32_t>(g());
    std::vector<mat2> m(n);
    for (auto& x : m) x = random_mat(g);
    dev_buf<std::int32_t> d_in(in), d_out(1);
    for (auto order : {operand_order::commutative, operand_order::ordered}) {
      two_phase([&](void* t, std::size_t& b) {
        return gpu::device_reduce(t, b, d_in.p, d_out.p, n, plus_op{}, std::int32_t{0}, order);
      });
      ASSERT_EQ(d_out.get(1)[0], reduce(in.data(), n, plus_op{}, std::int32_t{0})) << "n=" << n;
    }
    dev_buf<mat2> dm(m), dmo(1);
    two_phase([&](void* t, std::size_t& b) {
      return gpu::device_reduce(t, b, dm.p, dmo.p, n, mat2_mul_op{}, mat2_identity, operand_order::ordered);
    });
    ASSERT_EQ(dmo.get(1)[0], pipeline_reduce(m.data(), n, mat2_mul_op{}, mat2_identity)) << "n=" << n;
  }
}

TEST_F(PrimGpu, CopyIf) {
  auto g = bigmul::test::rng(405);
  for (std::size_t n : gpu_sizes) {
    std::vector<std::int64_t> in(n);
    for (auto& x : in) x = static_cast<std::int64_t>(g() % 1000);
    const gpu::select_less_than<std::int64_t> pred{300};
    std::vector<std::int64_t> ref(n);
    ref.resize(copy_if(in.data(), n, ref.data(), pred));
    dev_buf<std::int64_t> d_in(in), d_out(n);
    dev_buf<std::uint64_t> d_count(1);
    two_phase([&](void* t, std::size_t& b) { return gpu::device_copy_if(t, b, d_in.p, d_out.p, d_count.p, n, pred); });
    ASSERT_EQ(d_count.get(1)[0], ref.size()) << "n=" << n;
    ASSERT_EQ(d_out.get(ref.size()), ref) << "n=" << n;
  }
}

TEST_F(PrimGpu, SortsMatchCpuMergeSort) {
  auto g = bigmul::test::rng(406);
  for (std::size_t n : gpu_sizes) {
    for (int kind = 0; kind < 3; ++kind) {  // random, few distinct, reversed
      std::vector<std::int64_t> keys(n);
      for (std::size_t i = 0; i < n; ++i)
        keys[i] = kind == 0 ? static_cast<std::int64_t>(g()) : kind == 1 ? static_cast<std::int64_t>(g() % 4)
                                                                          : static_cast<std::int64_t>(n - i);
      std::vector<std::uint32_t> vals(n);
      std::iota(vals.begin(), vals.end(), 0u);
      auto ref = keys;
      merge_sort(ref.data(), n);
      auto ref_desc = keys;
      merge_sort(ref_desc.data(), n, std::greater<>{});
      {
        dev_buf<std::int64_t> dk(keys);
        two_phase([&](void* t, std::size_t& b) {
          return gpu::device_bitonic_sort(t, b, dk.p, static_cast<gpu::no_values*>(nullptr), n, gpu::less_op{});
        });
        ASSERT_EQ(dk.get(n), ref) << "bitonic n=" << n << " kind=" << kind;
      }
      {
        dev_buf<std::int64_t> dk(keys);
        two_phase([&](void* t, std::size_t& b) {
          return gpu::device_merge_sort(t, b, dk.p, static_cast<gpu::no_values*>(nullptr), n, gpu::greater_op{});
        });
        ASSERT_EQ(dk.get(n), ref_desc) << "merge n=" << n << " kind=" << kind;
      }
      for (int algo = 0; algo < 2; ++algo) {  // key-value: values must follow keys
        dev_buf<std::int64_t> dk(keys);
        dev_buf<std::uint32_t> dv(vals);
        two_phase([&](void* t, std::size_t& b) {
          return algo ? gpu::device_merge_sort(t, b, dk.p, dv.p, n, gpu::less_op{})
                      : gpu::device_bitonic_sort(t, b, dk.p, dv.p, n, gpu::less_op{});
        });
        const auto k = dk.get(n);
        const auto v = dv.get(n);
        ASSERT_EQ(k, ref);
        std::vector<int> used(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_EQ(keys[v[i]], k[i]);
          ASSERT_EQ(used[v[i]]++, 0);
        }
      }
    }
  }
}

TEST_F(PrimGpu, BatchedSmallSort) {
  auto g = bigmul::test::rng(407);
  const std::size_t shapes[][2] = {{1, 2}, {100, 7}, {1000, 64}, {17, 1000}, {64, 1024}, {5, 4095}, {3, 4096}, {16384, 128}};
  for (const auto& s : shapes) {
    const std::size_t G = s[0], N = s[1];
    std::vector<std::int32_t> keys(G * N);
    for (auto& x : keys) x = static_cast<std::int32_t>(g() % 50);
    auto ref = keys;
    for (std::size_t q = 0; q < G; ++q) merge_sort(ref.data() + q * N, N);
    dev_buf<std::int32_t> dk(keys);
    two_phase([&](void* t, std::size_t& b) {
      return gpu::device_batched_sort(t, b, dk.p, static_cast<gpu::no_values*>(nullptr), G, N, gpu::less_op{});
    });
    ASSERT_EQ(dk.get(G * N), ref) << "G=" << G << " N=" << N;
  }
}
