"""Python driver: runs the cases through the longstraw package, as bytes and as str."""

import os
import sys

from cases import read_sets

import longstraw

# LONGSTRAW_EXPECT_TARGET=wasm32-simd128: the run must be the WebAssembly backend (longstraw._wasm), never
# the native extension, so that the python-wasm column cannot silently test the native one.
if os.environ.get("LONGSTRAW_EXPECT_TARGET"):
    wasm = sys.modules.get("longstraw._wasm")
    loaded = wasm.TARGET if wasm is not None and wasm.Rendezvous is longstraw.Rendezvous else "native"
    if loaded != os.environ["LONGSTRAW_EXPECT_TARGET"]:
        sys.exit(f"driver.py: expected the {os.environ['LONGSTRAW_EXPECT_TARGET']} backend, loaded {loaded}")


def error_class(e: BaseException) -> str:
    if isinstance(e, longstraw.NoEligibleNodeError):
        return "no_eligible"
    if isinstance(e, UnicodeError):
        return "invalid_string"
    text = str(e)
    for word, cls in [("duplicate node", "duplicate_node"), ("weight", "invalid_weight"),
                      ("domain label", "invalid_domain"), ("node id", "invalid_node_id"),
                      ("same hash", "hash_collision")]:
        if word in text:
            return cls
    return f"other:{type(e).__name__}"


def hexid(x) -> str:
    return (x.encode() if isinstance(x, str) else bytes(x)).hex() or "."


def text(b: bytes):
    try:
        return b.decode()
    except UnicodeDecodeError:
        return None


def run(out, form, set_no, seed, nodes, keys, lones):
    convert = (lambda b: b) if form == "b" else text
    r = longstraw.Rendezvous([], seed=seed)
    try:
        for id_, weight, domain in nodes:
            r.add(convert(id_), float(weight), None if domain is None else convert(domain))
    except Exception as e:  # noqa: BLE001 - every failure becomes its class
        out.write(f"{form} {set_no} BUILD {error_class(e)}\n")
        return
    for i, (key, k) in enumerate(keys):
        given = convert(key)
        if given is None:
            continue
        try:
            owner = hexid(r.owner(given))
            top = ",".join(hexid(x) for x in r.top_k(given, k)) or "-"
            distinct = ",".join(hexid(x) for x in r.top_k_distinct(given, k)) or "-"
            out.write(f"{form} {set_no} K{i} {owner} {top} {distinct}\n")
        except Exception as e:  # noqa: BLE001
            out.write(f"{form} {set_no} K{i} ERR {error_class(e)}\n")
    if form == "s":
        for i, s in enumerate(lones):
            try:
                r.owner(s)
                out.write(f"{form} {set_no} L{i} accepted\n")
            except Exception as e:  # noqa: BLE001
                out.write(f"{form} {set_no} L{i} ERR {error_class(e)}\n")


def main(path):
    out = sys.stdout
    for set_no, seed, nodes, keys, lones in read_sets(path):
        run(out, "b", set_no, seed, nodes, keys, lones)
        if all(text(i) is not None and (d is None or text(d) is not None) for i, _, d in nodes):
            run(out, "s", set_no, seed, nodes, keys, lones)


if __name__ == "__main__":
    main(sys.argv[1])
