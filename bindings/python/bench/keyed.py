"""owner(key) for 16-byte keys, v1 against keyed-v1 (docs/SPEC.md §15), in ns per lookup. Each figure
is the fastest of many short alternating batches, so that other jobs on a shared machine do not inflate
it (see bench/runs/2026-12-01-keyed/README.md). Run: .venv/bin/python bindings/python/bench/keyed.py"""

import os
import time

import longstraw

BATCH = 64
ROUNDS = 5000
KEYS = [b"key:%012d" % i for i in range(4096)]


def fastest_pair(a, b):
    best = [float("inf"), float("inf")]
    for r in range(ROUNDS):
        start = (r * BATCH) & 4095
        batch = KEYS[start:start + BATCH]
        for which, owner in enumerate((a.owner, b.owner)):
            t0 = time.perf_counter_ns()
            for k in batch:
                owner(k)
            best[which] = min(best[which], (time.perf_counter_ns() - t0) / BATCH)
    return best


print("| n | v1 ns | keyed-v1 ns | extra |")
print("|---|---|---|---|")
for n in (10, 100, 1000):
    nodes = ["node-%d" % i for i in range(n)]
    v1, keyed = fastest_pair(longstraw.Rendezvous(nodes), longstraw.Rendezvous(nodes, secret=os.urandom(16)))
    print("| %d | %.0f | %.0f | %+.0f |" % (n, v1, keyed, keyed - v1))
