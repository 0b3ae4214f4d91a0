"""Python's per-call cost of `owner`, for side-by-side runs (`make bench-java` starts it between its
own rounds, beside bench/src/bin/owner_per_call.rs and bench/owner_per_call.js):

    .venv/bin/python bench/owner_per_call.py <calls per sample> <samples> <n>...

For each n: a flat set of n nodes `cache-0`.. `cache-{n-1}` (weight 1, seed 0, the detected backend),
keys `user:0`..`user:1023` as bytes, cycled, as the Rust and Java measurements use. Two subjects:
`Rendezvous.owner` (returns the id, a str) and `Snapshot.owner_index` (returns an int). Each sample
is a plain Python loop over `calls` keys, so the interpreter's own cost of a call is included, as a
Python caller pays it. Samples alternate between subjects and node counts, after one untimed sample
each. Each line printed is `<py_owner|py_owner_index> n=<n> backend=<name> ns=<median wall ns per
call> cpu_ns=<median on-CPU ns per call>`; on-CPU time is the thread's (time.thread_time_ns), which
leaves out the time the thread waited for a core.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import longstraw


def upper_median(v: list[float]) -> float:
    """The middle value (the upper one of the two middles for an even count), as the Rust side takes it."""
    return sorted(v)[len(v) // 2]


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print("usage: owner_per_call.py <calls per sample> <samples> <n>...", file=sys.stderr)
        return 2
    calls, samples = int(argv[1]), int(argv[2])
    ns = [int(a) for a in argv[3:]]
    keys = [f"user:{i}".encode() for i in range(1024)]
    seq = [keys[i & 1023] for i in range(calls)]
    subjects: list[tuple[str, int, Callable[[bytes], object]]] = []
    backends: dict[int, str] = {}
    for n in ns:
        s = longstraw.Rendezvous([f"cache-{i}" for i in range(n)])
        backends[n] = s.backend
        subjects.append(("py_owner", n, s.owner))
        subjects.append(("py_owner_index", n, s.snapshot().owner_index))
    wall: dict[tuple[str, int], list[float]] = {(name, n): [] for name, n, _ in subjects}
    cpu: dict[tuple[str, int], list[float]] = {(name, n): [] for name, n, _ in subjects}
    for sample in range(samples + 1):
        for name, n, f in subjects:
            c0, w0 = time.thread_time_ns(), time.perf_counter_ns()
            for k in seq:
                f(k)
            w, c = time.perf_counter_ns() - w0, time.thread_time_ns() - c0
            if sample > 0:
                wall[(name, n)].append(w / calls)
                cpu[(name, n)].append(c / calls)
    for name, n, _ in subjects:
        print(
            f"{name} n={n} backend={backends[n]} ns={upper_median(wall[(name, n)]):.2f}"
            f" cpu_ns={upper_median(cpu[(name, n)]):.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
