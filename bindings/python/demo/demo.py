"""`make demo` (Python part): the same corpus as the Rust demo, placed through
the Python package; the numbers must match the other languages' exactly."""

import pathlib

import xxhash

import longstraw

KEYS = [f"user:{i}" for i in range(100_000)]
PACKED, OFFSETS = longstraw.pack(KEYS)


def owners(r):
    """Every key's owner id, through the buffer batch (one snapshot)."""
    snap = r.snapshot()
    nodes = snap.nodes
    return [nodes[i] for i in snap.owner_indices(PACKED, OFFSETS)]


def mod_n(n):
    return [xxhash.xxh3_64_intdigest(k.encode()) % n for k in KEYS]


def moved(a, b):
    return sum(x != y for x, y in zip(a, b))


def pct(x):
    return f"{100 * x / len(KEYS):5.2f}%"


def show_shares(title, r):
    print(f"  {title}")
    own = owners(r)
    counts = {n: 0 for n in r.nodes}
    for o in own:
        counts[o] += 1
    for node, weight in zip(r.nodes, r.weights):
        share = counts[node] / len(KEYS)
        print(f"    {node:<8} w={weight:<4g} {100 * share:6.2f}% {'#' * round(share * 120)}")


def write_placements(r):
    """The cross-language check of `make demo`: the owners of user:0..user:19,
    in the format every language's demo writes to build/demo/placements-<lang>.txt."""
    out = pathlib.Path(__file__).resolve().parents[3] / "build" / "demo"
    out.mkdir(parents=True, exist_ok=True)
    lines = "".join(f"user:{i}\t{r.owner(f'user:{i}')}\n" for i in range(20))
    (out / "placements-python.txt").write_text(lines)


def moved_all(before, after, test):
    return all(test(b, a) for b, a in zip(before, after) if b != a)


def main():
    ids = [f"cache-{i}" for i in range(10)]
    r = longstraw.Rendezvous(ids)
    print(f"longstraw demo (Python): {len(KEYS)} keys over {len(ids)} nodes, backend {longstraw.backend()}")
    print(f"  user:42 -> {r.owner('user:42')}")
    print(f"  user:42 replicas (top 3) -> {', '.join(r.top_k('user:42', 3))}")
    show_shares("shares with 10 equal nodes:", r)
    write_placements(r)

    before = owners(r)
    mod_before = mod_n(10)
    print("\n  what moves                          longstraw     hash mod n   ideal")

    r.add("cache-10")
    after = owners(r)
    ok = moved_all(before, after, lambda b, a: a == "cache-10")
    print(
        f"  add cache-10 (10 -> 11 nodes)      {pct(moved(before, after))}       "
        f"{pct(moved(mod_before, mod_n(11)))}       {pct(len(KEYS) // 11)}   (moved keys all went to cache-10: {ok})"
    )
    r.remove("cache-10")

    r.remove("cache-3")
    after = owners(r)
    ok = moved_all(before, after, lambda b, a: b == "cache-3")
    survivors = [i for i in range(10) if i != 3]
    mod_after = [survivors[h] for h in mod_n(9)]
    print(
        f"  remove cache-3 (10 -> 9 nodes)     {pct(moved(before, after))}       "
        f"{pct(moved(mod_before, mod_after))}       {pct(len(KEYS) // 10)}   (moved keys all came from cache-3: {ok})"
    )
    r.add("cache-3")

    r.set_weight("cache-5", 2.0)
    after = owners(r)
    ok = moved_all(before, after, lambda b, a: a == "cache-5")
    print(
        f"  reweight cache-5 1 -> 2            {pct(moved(before, after))}          n/a       "
        f"{pct(len(KEYS) * 9 // 110)}   (moved keys all went to cache-5: {ok})"
    )
    show_shares(
        "\n  shares after cache-5 gets weight 2 (ideal 18.18% for cache-5, 9.09% for the rest):", r
    )


if __name__ == "__main__":
    main()
