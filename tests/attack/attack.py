#!/usr/bin/env python3
"""The key-flooding attack, runnable: keys chosen by an attacker who knows the seed pile onto one node,
and a secret (keyed-v1, docs/SPEC.md §15) spreads the same keys evenly. See docs/THREAT-MODEL.md.

    python tests/attack/attack.py [--keys 10000] [--seed 0]

Needs the longstraw Python package (make build-python) and PyPI `xxhash` (to show the collisions are
real XXH3 collisions). Exit status 0 when the attack piles up under v1 and is defeated under a secret.
"""

import argparse
import os
import struct
import sys
import time

import longstraw

try:
    import xxhash
except ImportError:  # the demonstration still runs; the collision check is skipped, loudly
    xxhash = None

NODES = ["cache-%d" % i for i in range(10)]
U64 = (1 << 64) - 1
# The first 16 bytes of XXH3's default secret (kSecret in xxhash.h).
XXH3_SECRET_HEAD = bytes.fromhex("b8fe6c3923a44bbe7c01812cf721ad1c")


def brute_force(seed, target, count):
    """Keys `attack-<i>` that v1 with this seed places on `target`: about len(NODES) tries per key."""
    r = longstraw.Rendezvous(NODES, seed=seed)
    keys, i = [], 0
    while len(keys) < count:
        key = b"attack-%d" % i
        if r.owner(key) == target:
            keys.append(key)
        i += 1
    return keys


def xxh3_colliding_family(seed, count):
    """`count` distinct 1024-byte keys with one XXH3-64 hash under `seed`.

    Above 240 bytes XXH3 adds, per 8-byte lane, lo32(d ^ s) * hi32(d ^ s) to one accumulator and d to
    its neighbour. With lo32(d) = lo32(s) the product vanishes, so lane 0 of stripes 0 and 1 adds just
    d0 + d1: any high halves with h0 + h1 constant (mod 2^32) collide. The secret words for a seed are
    public: word0 + seed and word1 - seed (XXH3's custom-secret derivation)."""
    w0, w1 = struct.unpack("<QQ", XXH3_SECRET_HEAD)
    lo0 = ((w0 + seed) & U64) & 0xFFFFFFFF
    lo1 = ((w1 - seed) & U64) & 0xFFFFFFFF
    keys = []
    for h0 in range(count):
        h1 = (0x12345678 - h0) & 0xFFFFFFFF
        key = bytearray(1024)
        key[0:8] = struct.pack("<Q", (h0 << 32) | lo0)
        key[64:72] = struct.pack("<Q", (h1 << 32) | lo1)
        keys.append(bytes(key))
    return keys


def counts(placer, keys):
    c = dict.fromkeys(NODES, 0)
    for node in placer.owners(keys):
        c[node] += 1
    return [c[n] for n in NODES]


def chi_square(cs):
    """Chi-square against a uniform spread; 9 degrees of freedom: mean 9, sd sqrt(18) = 4.24, and the
    bound 9 + 6 sd = 34.5 is exceeded by a uniform spread with probability below 1e-6."""
    expected = sum(cs) / len(cs)
    return sum((c - expected) ** 2 / expected for c in cs)


BOUND = 9 + 6 * 18 ** 0.5


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0, help="the seed the attacker knows (default 0)")
    args = ap.parse_args(argv)
    ok = True

    t0 = time.perf_counter()
    crafted = brute_force(args.seed, NODES[3], args.keys)
    t1 = time.perf_counter()
    family = xxh3_colliding_family(args.seed, args.keys)
    t2 = time.perf_counter()
    print("attacker: %d keys brute-forced onto %s in %.0f ms; %d colliding XXH3 keys in %.0f ms"
          % (len(crafted), NODES[3], (t1 - t0) * 1e3, len(family), (t2 - t1) * 1e3))
    if xxhash is None:
        print("SKIPPED the XXH3 collision check: PyPI xxhash is not installed")
    else:
        hashes = {xxhash.xxh3_64_intdigest(k, seed=args.seed) for k in family}
        print("  the family has %d distinct keys and %d distinct XXH3 hash(es)" % (len(set(family)), len(hashes)))
        ok &= len(hashes) == 1

    v1_modes = {
        "flat": longstraw.Rendezvous(NODES, seed=args.seed),
        "table": longstraw.Rendezvous.table(NODES, seed=args.seed),
        "skeleton": longstraw.Rendezvous.skeleton(NODES, seed=args.seed, fanout_bits=1, levels=2),
    }
    # Markdown tables, so that bench/record.py keeps every value (bench/results/*-attack.json).
    print("\n### v1 with the known seed %d\n" % args.seed)
    print("| attack | mode | keys per node | busiest / mean |\n|---|---|---|---|")
    for name, keys in (("brute force", crafted), ("XXH3 collisions", family)):
        for mode, placer in v1_modes.items():
            cs = counts(placer, keys)
            print("| %s | %s | %s | %.2f |" % (name, mode, " ".join(map(str, cs)), max(cs) / (sum(cs) / len(cs))))
            if mode == "flat" or name == "XXH3 collisions":
                ok &= max(cs) == len(keys)  # every key on one node

    secret = os.urandom(16)  # in production: from a secret store, the same for every user of the cluster
    keyed_modes = {
        "flat": longstraw.Rendezvous(NODES, secret=secret),
        "table": longstraw.Rendezvous.table(NODES, secret=secret),
        "skeleton": longstraw.Rendezvous.skeleton(NODES, secret=secret, fanout_bits=1, levels=2),
    }
    print("\n### keyed-v1 with a random secret (chi-square bound %.1f at 9 degrees of freedom)\n" % BOUND)
    print("| attack | mode | keys per node | chi-square | busiest / mean |\n|---|---|---|---|---|")
    for name, keys in (("brute force", crafted), ("XXH3 collisions", family)):
        for mode, placer in keyed_modes.items():
            cs = counts(placer, keys)
            stat = chi_square(cs)
            print("| %s | %s | %s | %.1f | %.2f |"
                  % (name, mode, " ".join(map(str, cs)), stat, max(cs) / (sum(cs) / len(cs))))
            # A table has 1024 partitions and a skeleton groups nodes: both are coarser than flat, so
            # only flat is held to the uniform bound; the others must not pile up.
            ok &= stat < BOUND if mode == "flat" else max(cs) < 0.3 * len(keys)
    print("\n%s" % ("the secret defeats the attack" if ok else "UNEXPECTED RESULT"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
