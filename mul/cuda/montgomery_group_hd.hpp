// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched Montgomery multiplication and exponentiation [MONTGOMERY85] by a
// group of threads per operation, the layout of CGBN (NVIDIA's CUDA big-number
// library): a group of TPI threads (a power of two <= 32, lanes of one warp)
// holds an n-limb number, K = 4 consecutive limbs per thread, n_pad = TPI K
// limbs (the modulus zero-extended; R = 2^(64 n_pad)). Each thread computes
// on its own slice and the group exchanges single limbs by warp shuffles.
//
// The group algorithm is written once, here, over a group policy G that
// provides:
//   G::tpi                      the group's thread count;
//   g.each(f)                   runs f(t) for the thread(s) t this copy plays
//                               (the device: its own lane; the CPU model: all);
//   g.st(t)                     thread t's registers (a thread_state<K>);
//   g.peek(t, src)              thread src's `send` register, read by thread t
//                               (the device: __shfl_sync; the model: an array);
//   g.sync()                    orders the group's global-memory writes before
//                               its later reads (__syncwarp; the model: nothing).
// A phase (one g.each) either sets `send` or reads it with peek, never both,
// so running the threads one after the other (the model) and in lock-step
// (the warp) give the same result. mul/cuda/batched_montgomery.cu runs it on
// the GPU; tests/mul/test_montgomery_group_model.cpp runs the same functions
// on the CPU with the model policy below and compares with GMP.
//
// The product (CIOS, one limb of a per step): every step adds a_i b and q m
// (q = T_0 ninv, thread 0's limb, broadcast) into the slices, each thread
// keeping the carry out of its slice as a pending carry p_t (at limb
// (t + 1) K; the top thread's is limb n_pad of T), handed to the thread above
// at the next step; then T shifts down a limb (each thread takes the next
// thread's lowest limb). After n_pad steps the pending carries are rippled up
// in TPI fixed rounds, and T < 2m is reduced by adding B^n_pad - m and
// keeping the sum when it carries out (selected by mask). No branch and no
// address depends on the values: the time depends on n_pad only, and the
// window selection of the exponentiation reads all 16 table entries.
// C++17, free of CUDA headers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "bigmul/hd.hpp"

namespace bigmul::detail::cuda::mont_group {

inline constexpr int limbs_per_thread = 4;  // K
inline constexpr int max_tpi = 32;          // one warp
inline constexpr std::size_t max_limbs = static_cast<std::size_t>(limbs_per_thread) * max_tpi;  // 8192 bits
inline constexpr int window_bits = 4;       // fixed window of the exponentiation
inline constexpr int table_entries = 1 << window_bits;

// Threads per group for an n-limb modulus: the smallest power of two with
// TPI K >= n (n <= max_limbs).
BIGMUL_HD int threads_for(std::size_t n) {
  int t = 1;
  while (static_cast<std::size_t>(t) * limbs_per_thread < n) t *= 2;
  return t;
}

// hi:lo = x y.
BIGMUL_HD limb_t mul_wide(limb_t x, limb_t y, limb_t& hi) {
#if defined(__CUDA_ARCH__)
  hi = __umul64hi(x, y);
  return x * y;
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(x) * y;
  hi = static_cast<limb_t>(p >> 64);
  return static_cast<limb_t>(p);
#endif
}

// x + y + c for c in {0, 1}; c becomes the carry out (0 or 1).
BIGMUL_HD limb_t add_c(limb_t x, limb_t y, limb_t& c) {
  const limb_t s = x + y;
  const limb_t c1 = s < x;
  const limb_t t = s + c;
  c = c1 + (t < s);
  return t;
}

template <int K>
struct thread_state {
  limb_t T[K];   // the thread's slice of the accumulator
  limb_t D[K];   // T + B^n_pad - m (the final reduction)
  limb_t bs[K];  // its slice of the second factor
  limb_t ms[K];  // its slice of the modulus
  limb_t ns[K];  // its slice of B^n_pad - m
  limb_t p;      // pending carry of T (see above)
  limb_t pd;     // pending carry of D
  limb_t c, h;   // the step's carry out of the slice: h 2^64 + c
  limb_t send;   // the limb the thread offers to peek
};

// T[0 .. K) += x[0 .. K) y + cin; returns the carry limb (the sum fits K + 1 limbs).
template <int K>
BIGMUL_HD limb_t addmul_slice(limb_t* T, const limb_t* x, limb_t y, limb_t cin) {
  limb_t c = cin;
  for (int j = 0; j < K; ++j) {
    limb_t hi;
    const limb_t lo = mul_wide(x[j], y, hi);
    limb_t k = 0, k2 = 0;
    const limb_t s = add_c(T[j], lo, k);
    T[j] = add_c(s, c, k2);
    c = hi + k + k2;  // T + x y + c <= B^2 - 1: no overflow
  }
  return c;
}

// Limb `src` of thread t's neighbour at offset d (d = -1, +1) or 0 at the
// group's edge. peek is called by every thread (a shuffle needs the whole
// warp), the edge is selected after.
template <class G>
BIGMUL_HD limb_t peek_neighbour(G& g, int t, int d) {
  const int src = t + d;
  const bool inside = src >= 0 && src < G::tpi;
  const limb_t v = g.peek(t, inside ? src : t);
  return inside ? v : 0;
}

// Loads each thread's slice of x (n_pad limbs in memory) into member `dst`.
template <int K, class G>
BIGMUL_HD void load_slices(G& g, const limb_t* x, limb_t (thread_state<K>::*dst)[K]) {
  g.each([&](int t) {
    auto& s = g.st(t);
    for (int j = 0; j < K; ++j) (s.*dst)[j] = x[t * K + j];
  });
}

// Ripples the pending carries of member `v` (carry member `pc`) up through
// the slices: TPI fixed rounds, each handing every thread's carry to the
// thread above. Afterwards only the top thread's carry (limb n_pad) can be
// nonzero.
template <int K, class G>
BIGMUL_HD void resolve(G& g, limb_t (thread_state<K>::*v)[K], limb_t thread_state<K>::*pc) {
  for (int round = 0; round < G::tpi; ++round) {
    g.each([&](int t) { g.st(t).send = g.st(t).*pc; });
    g.each([&](int t) {
      auto& s = g.st(t);
      limb_t c = peek_neighbour(g, t, -1);  // 0..2
      for (int j = 0; j < K; ++j) {
        limb_t k = 0;
        (s.*v)[j] = add_c((s.*v)[j], c, k);
        c = k;
      }
      s.*pc = t == G::tpi - 1 ? s.*pc + c : c;
    });
  }
}

// r = a b R^-1 mod m for a, b < m: a is an n_pad-limb number in memory, b's,
// m's and (B^n_pad - m)'s slices are in the threads' bs, ms, ns. r may alias
// a (the group syncs before writing it) and is readable by the whole group on
// return.
template <int K, class G>
BIGMUL_HD void mont_mul(G& g, const limb_t* a, limb_t ninv, limb_t* r) {
  constexpr int top = G::tpi - 1;
  const int n_pad = G::tpi * K;
  g.each([&](int t) {
    auto& s = g.st(t);
    for (int j = 0; j < K; ++j) s.T[j] = 0;
    s.p = 0;
  });
  for (int i = 0; i < n_pad; ++i) {
    const limb_t ai = a[i];
    // 1. T += a_i b; the pending carries go in at the bottom of the slice above.
    g.each([&](int t) { g.st(t).send = g.st(t).p; });
    g.each([&](int t) {
      auto& s = g.st(t);
      const limb_t cin = peek_neighbour(g, t, -1);
      s.c = addmul_slice<K>(s.T, s.bs, ai, cin);
    });
    // 2. q = T_0 ninv from thread 0; T += q m.
    g.each([&](int t) { g.st(t).send = g.st(t).T[0]; });
    g.each([&](int t) {
      auto& s = g.st(t);
      const limb_t q = g.peek(t, 0) * ninv;
      const limb_t c2 = addmul_slice<K>(s.T, s.ms, q, 0);
      s.h = 0;
      s.c = add_c(s.c, c2, s.h);  // the slice's carry out: h 2^64 + c
    });
    // 3. T /= B: each slice shifts down a limb and takes the next slice's
    // lowest (thread 0's is 0 now); the carry out lands in the new top limb.
    g.each([&](int t) { g.st(t).send = g.st(t).T[0]; });
    g.each([&](int t) {
      auto& s = g.st(t);
      const limb_t next = peek_neighbour(g, t, +1);
      for (int j = 0; j + 1 < K; ++j) s.T[j] = s.T[j + 1];
      limb_t k = 0;
      limb_t top_in = t == top ? s.p : 0;  // the top thread's p is limb n_pad of T
      limb_t k0 = 0;
      const limb_t c = add_c(s.c, top_in, k0);
      s.T[K - 1] = add_c(next, c, k);
      s.p = s.h + k0 + k;  // at limb (t + 1) K: <= 2 (top: T < 2m bounds it)
    });
  }
  resolve<K>(g, &thread_state<K>::T, &thread_state<K>::p);
  // T < 2m: D = T + (B^n_pad - m) carries out exactly when T >= m.
  g.each([&](int t) {
    auto& s = g.st(t);
    limb_t c = 0;
    for (int j = 0; j < K; ++j) {
      limb_t k = 0;
      s.D[j] = add_c(s.T[j], s.ns[j], k);
      limb_t k2 = 0;
      s.D[j] = add_c(s.D[j], c, k2);
      c = k + k2;
    }
    s.pd = c;
  });
  resolve<K>(g, &thread_state<K>::D, &thread_state<K>::pd);
  g.each([&](int t) {
    auto& s = g.st(t);
    s.send = (s.p + s.pd) != 0 ? 1 : 0;  // meaningful in the top thread
  });
  g.sync();  // every read of a is done
  g.each([&](int t) {
    auto& s = g.st(t);
    const limb_t use_d = limb_t{0} - g.peek(t, top);  // all ones when T >= m
    for (int j = 0; j < K; ++j) r[t * K + j] = (s.D[j] & use_d) | (s.T[j] & ~use_d);
  });
  g.sync();
}

// r = a b mod m (a, b < m, n_pad limbs in memory; ms, ns loaded): two
// Montgomery products, the second by R^2 mod m. tmp: n_pad limbs.
template <int K, class G>
BIGMUL_HD void mod_mul(G& g, const limb_t* a, const limb_t* b, const limb_t* r2, limb_t ninv, limb_t* tmp,
                       limb_t* r) {
  load_slices<K>(g, b, &thread_state<K>::bs);
  mont_mul<K>(g, a, ninv, tmp);  // a b R^-1
  load_slices<K>(g, r2, &thread_state<K>::bs);
  mont_mul<K>(g, tmp, ninv, r);  // a b
}

// r = x^e mod m (x < m; e: en limbs, exp_bits bits of it processed, bits past
// en limbs read as 0), fixed 4-bit windows. scratch: (table_entries + 2)
// n_pad limbs; one: the number 1 in n_pad limbs.
template <int K, class G>
BIGMUL_HD void mod_pow(G& g, const limb_t* x, const limb_t* e, std::size_t en, std::size_t exp_bits,
                       const limb_t* r2, const limb_t* one, limb_t ninv, limb_t* scratch, limb_t* r) {
  const int n_pad = G::tpi * K;
  limb_t* table = scratch;                      // x^j R mod m, j < 16
  limb_t* acc = scratch + table_entries * n_pad;
  load_slices<K>(g, r2, &thread_state<K>::bs);
  mont_mul<K>(g, one, ninv, table);           // R mod m
  mont_mul<K>(g, x, ninv, table + n_pad);     // x R mod m
  load_slices<K>(g, table + n_pad, &thread_state<K>::bs);
  for (int j = 2; j < table_entries; ++j) mont_mul<K>(g, table + (j - 1) * n_pad, ninv, table + j * n_pad);
  g.each([&](int t) {
    for (int j = 0; j < K; ++j) acc[t * K + j] = table[t * K + j];
  });
  g.sync();
  const std::size_t windows = (exp_bits + window_bits - 1) / window_bits;
  for (std::size_t w = windows; w-- > 0;) {
    for (int k = 0; k < window_bits; ++k) {
      load_slices<K>(g, acc, &thread_state<K>::bs);
      mont_mul<K>(g, acc, ninv, acc);
    }
    // The window's bits (their position is public), then every table entry
    // read and the one wanted kept by mask.
    const std::size_t bit = w * window_bits, limb = bit / 64;
    const limb_t bits = limb < en ? (e[limb] >> (bit % 64)) & (table_entries - 1) : 0;
    g.each([&](int t) {
      auto& s = g.st(t);
      for (int j = 0; j < K; ++j) s.bs[j] = 0;
      for (int v = 0; v < table_entries; ++v) {
        const limb_t keep = limb_t{0} - static_cast<limb_t>(static_cast<limb_t>(v) == bits);
        for (int j = 0; j < K; ++j) s.bs[j] |= table[v * n_pad + t * K + j] & keep;
      }
    });
    mont_mul<K>(g, acc, ninv, acc);
  }
  load_slices<K>(g, one, &thread_state<K>::bs);
  mont_mul<K>(g, acc, ninv, r);  // out of Montgomery form
}

// ---------------------------------------------------------------------------
// Per-modulus set-up (host code, public values): the padded modulus, B^n_pad - m,
// -m^-1 mod 2^64 and R^2 mod m.

// -m0^-1 mod 2^64 for odd m0 (Newton: each step doubles the correct bits).
BIGMUL_HD limb_t neg_inverse(limb_t m0) {
  limb_t x = m0;  // correct to 3 bits for odd m0
  for (int i = 0; i < 5; ++i) x *= 2 - m0 * x;
  return limb_t{0} - x;
}

// nm[0 .. n_pad) = B^n_pad - m (m zero-extended from n limbs, m != 0).
inline void negate_modulus(limb_t* nm, const limb_t* m, std::size_t n, std::size_t n_pad) {
  limb_t c = 1;  // ~m + 1
  for (std::size_t j = 0; j < n_pad; ++j) nm[j] = add_c(~(j < n ? m[j] : limb_t{0}), 0, c);
}

// r2[0 .. n_pad) = B^(2 n_pad) mod m by 128 n_pad doublings with a
// conditional subtraction (m: n limbs, odd, top limb nonzero; quadratic in
// n_pad, a few milliseconds at 8192 bits, once per modulus).
inline void r_squared(limb_t* r2, const limb_t* m, std::size_t n, std::size_t n_pad) {
  for (std::size_t j = 0; j < n_pad; ++j) r2[j] = 0;
  r2[0] = 1;  // < m unless m = 1
  if (n == 1 && m[0] == 1) {
    r2[0] = 0;
    return;
  }
  for (std::size_t step = 0; step < 128 * n_pad; ++step) {
    limb_t out = 0;  // bit shifted out of n_pad limbs
    for (std::size_t j = 0; j < n_pad; ++j) {
      const limb_t v = r2[j];
      r2[j] = (v << 1) | out;
      out = v >> 63;
    }
    // r2 (with `out` above) >= m: subtract.
    bool ge = out != 0;
    if (!ge) {
      ge = true;  // equal counts as >=
      for (std::size_t j = n_pad; j-- > 0;) {
        const limb_t mj = j < n ? m[j] : 0;
        if (r2[j] != mj) {
          ge = r2[j] > mj;
          break;
        }
      }
    }
    if (ge) {
      limb_t b = 0;
      for (std::size_t j = 0; j < n_pad; ++j) {
        const limb_t mj = j < n ? m[j] : 0;
        const limb_t d = r2[j] - mj - b;
        b = (r2[j] < mj) || (r2[j] - mj < b);
        r2[j] = d;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// The CPU model: the whole group in one host thread, threads one after the
// other within each phase.
template <int K, int TPI>
struct model_group {
  static constexpr int tpi = TPI;
  thread_state<K> regs[TPI];
  template <class F>
  void each(F f) {
    for (int t = 0; t < TPI; ++t) f(t);
  }
  thread_state<K>& st(int t) { return regs[t]; }
  limb_t peek(int, int src) const { return regs[src].send; }
  void sync() {}
};

}  // namespace bigmul::detail::cuda::mont_group
