#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""The distributed product's model (docs/distributed.md): all-to-all bytes,
memory per rank and time on P nodes, from a link bandwidth and the measured
single-node speed in bench/results/mpi.json.

  python3 bench/mpi/model.py [bench/results/mpi.json] [--gbps 100] [--nodes 16,64,256]

First it checks the model's all-to-all bytes and planned memory against every
measured row (the bytes must agree exactly: the model is the code's own
arithmetic); then it predicts 10^10 .. 10^12 digits.
"""
import argparse, json, math

MAX_POINTS = 3 << 32  # the three primes' largest transform (fft/ntt_arith.hpp)


def fit_length(count):
    """dist/shape.cpp: the smallest 2^k or 3 2^k >= count (at least 16)."""
    count = max(count, 16)
    if count > MAX_POINTS:
        return 0
    p = 1
    while p < count:
        p *= 2
    return 3 * p // 4 if p >= 4 and 3 * (p // 4) >= count else p


def shape(an, bn):
    n = fit_length(an + bn - 1)
    if n == 0:
        return 0, 0, 0
    pow2 = n // 3 if n % 3 == 0 else n
    n1 = 1
    while n1 * n1 < pow2:
        n1 *= 2
    if n1 * n1 > pow2:
        n1 //= 2
    return n, n1, n // n1


def block(count, parts, r):
    return count * r // parts, count * (r + 1) // parts


def product_block(limbs, parts, r):
    chunk = max(4, -(-limbs // parts))
    return min(limbs, chunk * r), min(limbs, chunk * (r + 1))


def alltoall_bytes(an, bn, P, primes=4):
    """Bytes leaving all ranks in all all-to-alls, rank-exact for even blocks.
    primes: 4 on the AVX-512 IFMA engine, 3 on the portable one."""
    n, n1, n2 = shape(an, bn)
    away = lambda total_words: 8 * total_words * (P - 1) / P  # an even block stays home
    limbs = primes * (away(an) + away(bn))  # each prime takes the limbs afresh
    transforms = primes * 3 * away(n)  # a prime: two forward, one inverse
    # A limb a coefficient to its position's rank, and three tail limbs a
    # segment (n2 segments a rank, dist/coefficients.hpp); one rank sends none.
    coefficients = away(an + bn - 1) + (away(3 * n2 * P) if P > 1 else 0)
    return limbs + transforms + coefficients


def round_words(n, P):
    """dist/exchange.cpp round_words: the words a side of an all-to-all's round."""
    return max(-(-n // P) // 16, 1 << 18)


def planned_bytes(an, bn, P, r=0, primes=4, threads=1, ifma=True):
    """dist/product.cpp buffer_words::peak_bytes for rank r."""
    n, n1, n2 = shape(an, bn)
    a = block(an, P, r); b = block(bn, P, r)
    cols = (block(n1, P, r)[1] - block(n1, P, r)[0]) * n2
    rows = (block(n2, P, r)[1] - block(n2, P, r)[0]) * n1
    # Only the other ranks' parts travel; one rank exchanges nothing.
    C, R = cols // n2, rows // n1
    col_side, row_side = C * (n2 - R), (n1 - C) * R
    limbs_in = C * (-(-max(an, bn) // n1))
    # The all-to-alls run in rounds through buffers of round_words each side;
    # B's columns to rows in rounds of h rows of every rank (product_inverse).
    rw = round_words(n, P)
    h = max(1, rw // n1)
    send = max(min(rw, max(col_side, row_side, a[1] - a[0], b[1] - b[0])), min(C * h * (P - 1), col_side)) if P > 1 else 0
    recv = max(min(rw, max(col_side, row_side, limbs_in)), (n1 - C) * min(h, R)) if P > 1 else 0
    lo, hi = product_block(an + bn, P, r)
    out = hi - lo
    arr = max(cols, rows)  # the row and residue arrays trade places
    # A thread's scratch: B's strips of rows, or (one rank on IFMA where
    # n2 = 3 m, 64 | m) 32 gathered columns.
    group = min(max((1 << 15) // n1, 8), 32)
    gathers = P == 1 and ifma and n2 % 3 == 0 and (n2 // 3) % 64 == 0
    scratch = threads * max(32 * n2 if gathers else 0, group * n1)
    # The residues (the last prime's: B's columns), A's rows, the buffers.
    transform = (primes + 1) * arr + send + recv + scratch
    # Garner: the residues, the product block, the limbs received (in
    # rounds) and the tails.
    garner = primes * arr + out + (min(rw, out) + 6 * n2 if P > 1 else 0)
    return 8 * max(transform, garner)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="?", default="bench/results/mpi.json")
    ap.add_argument("--gbps", type=float, default=100.0, help="link bandwidth per node, Gbit/s")
    ap.add_argument("--nodes", default="16,64,256")
    args = ap.parse_args()
    rows = [r for r in json.load(open(args.json))["rows"] if not r.get("single")]  # the ranks' rows
    print("Check against the measured rows (bytes: model / measured; memory: planned / peak RSS):")
    for r in rows:
        L = -(-r["digits"] // 19)
        measured = sum(x["bytes"] for x in r["exchanges"])
        k = r.get("primes", 3)
        model = alltoall_bytes(L, L, r["ranks"], k)
        print(f"  {r['digits']:>11} digits P={r['ranks']} t={r['threads']}: a2a {model / 1e6:9.1f} / {measured / 1e6:9.1f} MB"
              f" ({model / measured if measured else 1:.3f}); planned {planned_bytes(L, L, r['ranks'], 0, k, r['threads'], r.get('engine', 'ifma') == 'ifma') / 1e6:8.1f} MB,"
              f" RSS {r['peak_rss_max_rank'] / 1e6:8.1f} MB")
    # Single-node speed: the P = 1, one-thread distributed product, per n log2 n.
    base = max((r for r in rows if r["ranks"] == 1 and r["threads"] == 1), key=lambda r: r["digits"])
    Lb = -(-base["digits"] // 19)
    nb = shape(Lb, Lb)[0]
    # Per prime: products this large take four primes (decimal limbs past
    # ~2^23.8 limbs, binary past ~2^22: dist/product.cpp), the base may have
    # taken three.
    per_point = base["seconds_median"] / (base.get("primes", 3) * nb * math.log2(nb))
    beta = args.gbps * 1e9 / 8
    print(f"\nPredictions: local work {per_point * 1e9:.2f} ns per n log2 n point and prime (P = 1, one thread, "
          f"{base['digits']} digits), links {args.gbps:g} Gbit/s per node, one rank a node:")
    for digits in (10**10, 10**11, 10**12):
        L = -(-digits // 19)
        n = shape(L, L)[0]
        if n == 0:
            print(f"  {digits:.0e} digits: refused (the product needs {2 * L} limbs > {MAX_POINTS} points; "
                  "more primes with a larger power of two would lift it)")
            continue
        for P in map(int, args.nodes.split(",")):
            local = 4 * per_point * n * math.log2(n) / P
            comm = alltoall_bytes(L, L, P) / P / beta
            print(f"  {digits:.0e} digits, P={P:>4}: {local + comm:8.1f} s (local {local:7.1f} + all-to-all "
                  f"{comm:7.1f}), {planned_bytes(L, L, P) / 1e9:7.2f} GB a rank")


if __name__ == "__main__":
    main()
