"""Writes the cross-language differential cases (fixed seed) as a line file.

Every driver reads the same file, so no driver needs a JSON library:

    S <set> <seed>                  start a set (empty, placement 1)
    N <id> <weight> <domain>        add a node; hex bytes, "." for empty, "-" for no domain
    K <key> <k>                     a key (hex bytes) and the k of top_k / top_k_distinct
    L <units>                       a string key given as UTF-16 code units (hex, comma
                                    separated) with a lone surrogate: only Python and Node
                                    can hold it, and both must refuse it
    E                               end of the set

Keys and ids are Unicode text (when their bytes are UTF-8, drivers that have
strings also run them as strings) and arbitrary binary, with lengths around
127/128/255/256/1024 bytes and multi-byte characters straddling each of those
boundaries, where the old Node string path cut keys short.
"""

import random
import sys

SEED = 20261201
BOUNDARIES = [127, 128, 255, 256, 1024]
WIDE = ["é", "€", "😀", "ß", "中"]
WEIGHTS_VALID = ["1", "0.5", "2", "3.25", "1000", "0.001", "5.421010862427522e-20", "1.8446744073709552e19", "0"]
WEIGHTS_INVALID = ["NaN", "Infinity", "-1", "1e-20", "1.9e19"]


def hx(b: bytes) -> str:
    return b.hex() if b else "."


def straddling(rng: random.Random) -> bytes:
    """Text whose UTF-8 form puts a multi-byte character across a boundary."""
    boundary = rng.choice(BOUNDARIES)
    ch = rng.choice(WIDE)
    width = len(ch.encode())
    shift = rng.randrange(width + 1)
    prefix_len = max(0, boundary - shift - rng.choice([0, 0, 1, 2]))
    filler = rng.choice(["a", "é", "x"])
    prefix = (filler * prefix_len).encode()[:prefix_len]
    while True:  # cut on a character boundary
        try:
            prefix.decode()
            break
        except UnicodeDecodeError:
            prefix = prefix[:-1]
    return prefix + (ch * rng.randint(1, 3)).encode() + rng.choice([b"", b"z", b"tail"])


def unicode_text(rng: random.Random, max_len: int) -> bytes:
    alphabet = "abcxyz019-_:/" + "éüßñ€中文字😀🎉" + "\u0301\ufffd\u200b"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, max_len))).encode()


def binary(rng: random.Random) -> bytes:
    n = rng.choice([0, 1, 2, 7, 8, 127, 128, 255, 256, 1024, rng.randint(1, 300)])
    return bytes(rng.randrange(256) for _ in range(n))


def key(rng: random.Random) -> bytes:
    kind = rng.random()
    if kind < 0.45:
        return straddling(rng)
    if kind < 0.75:
        return unicode_text(rng, 40)
    return binary(rng)


def node_id(rng: random.Random, i: int, binary_ids: bool) -> bytes:
    kind = rng.random()
    if not binary_ids and 0.6 <= kind < 0.8:
        kind = 0.9
    if kind < 0.3:
        return straddling(rng) + str(i).encode()
    if kind < 0.6:
        return unicode_text(rng, 12) + str(i).encode()
    if kind < 0.8:
        return binary(rng) + b"\xff" + bytes([i % 256, i // 256])
    return f"node-{i}".encode()


def lone_surrogate(rng: random.Random) -> str:
    at = rng.choice([0, 1, 100, 127, 128, 200, 254, 255, 256, 1000])
    units = [0x61] * at + [rng.choice([0xD800, 0xDBFF, 0xDC00, 0xDFFF])] + [0x62] * rng.randint(0, 3)
    return ",".join(f"{u:04x}" for u in units)


def write_set(out, rng, set_no, nodes, keys, lone=0):
    out.write(f"S {set_no} {rng.randrange(2**53)}\n")
    for id_, weight, domain in nodes:
        out.write(f"N {hx(id_)} {weight} {'-' if domain is None else hx(domain)}\n")
    for k in keys:
        out.write(f"K {hx(k)} {rng.choice([1, 2, 3, 5, 64])}\n")
    for _ in range(lone):
        out.write(f"L {lone_surrogate(rng)}\n")
    out.write("E\n")


def main(path: str, sets: int, keys_per_set: int) -> None:
    rng = random.Random(SEED)
    with open(path, "w") as out:
        set_no = 0
        for _ in range(sets):
            n = rng.choice([1, 2, 3, 5, 8, 13, 40])
            use_domains = rng.random() < 0.4
            binary_ids = rng.random() < 0.3
            labels = [straddling(rng) for _ in range(3)] + [unicode_text(rng, 6), b"\x00\xfe"]
            nodes = []
            for i in range(n):
                domain = rng.choice(labels) if use_domains and rng.random() < 0.8 else None
                nodes.append((node_id(rng, i, binary_ids), rng.choice(WEIGHTS_VALID[:-1]) if i == 0 else rng.choice(WEIGHTS_VALID), domain))
            write_set(out, rng, set_no, nodes, [key(rng) for _ in range(keys_per_set)], lone=3)
            set_no += 1
        # Sets that must fail the same way everywhere.
        base = [(b"a", "1", None), (b"b", "2", None)]
        for weight in WEIGHTS_INVALID:
            write_set(out, rng, set_no, base + [(b"c", weight, None)], [b"k"])
            set_no += 1
        for bad in [
            [(b"", "1", None)],  # empty id
            [(b"x" * 65536, "1", None)],  # id too long
            [(("é" * 32768).encode(), "1", None)],  # 65,536 bytes
            [(("é" * 32767 + "a").encode(), "1", None)],  # 65,535 bytes: valid
            [(b"dup", "1", None), (b"dup", "2", None)],
            [(("é" * 128 + "x").encode(), "1", None), (("é" * 128 + "y").encode(), "1", None)],  # distinct
            [(b"a", "1", b"z" * 65536)],  # label too long
            [(b"a", "0", None), (b"b", "0", None)],  # nothing eligible
        ]:
            write_set(out, rng, set_no, bad, [b"k", ("é" * 200).encode()])
            set_no += 1


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40, int(sys.argv[3]) if len(sys.argv) > 3 else 100)
