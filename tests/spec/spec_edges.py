"""Checks an implementation of docs/SPEC.md against tests/vectors/placement-v1-edges.json (SPEC §14).

``check_edges(impl)`` runs every entry of the file through ``impl`` and returns a ``Report``: how many
checks passed, and which failed, grouped by what they pin ("key_hashes", "neg_ln_q64", "ln_u",
a case rule for a key's ranking: "tie", "group-sum", "seed", "id-length", "key-length", or
"<rule> groups" for a skeleton case's group weights). ``impl`` is a namespace with

    key_hash(key, seed), node_hash(id, seed), neg_ln_q64(m), ln_u(score)
    nodeset(nodes, seed)                    -> object with .rank(key)
    skeleton(nodeset, fanout_bits, levels)  -> object with .rank(key) and .groups

``spec_impl()`` is the reimplementation in spec_reimpl.py / spec_scale.py; test_spec_edges.py also
builds deliberately broken ones to show that each rule of the file bites.
"""

import json
import os
import struct
from pathlib import Path
from types import SimpleNamespace

import spec_reimpl as S
import spec_scale as X

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_EDGES = REPO_ROOT / "tests" / "vectors" / "placement-v1-edges.json"


def edges_path():
    d = os.environ.get("LONGSTRAW_VECTOR_DIR")
    return Path(d) / "placement-v1-edges.json" if d else DEFAULT_EDGES


_EDGES = None


def load_edges():
    global _EDGES
    if _EDGES is None:
        with open(edges_path(), "rb") as f:
            _EDGES = json.load(f)
    return _EDGES


def generated_bytes(length, start):
    """A '*_gen' rule {len, start}: byte i is (start + i) mod 251 (the file's _comment)."""
    period = bytes((start + i) % 251 for i in range(251))
    reps = length // 251 + 1
    return (period * reps)[:length]


def entry_bytes(entry, what):
    """An entry's '<what>_hex' or '<what>_gen' as bytes."""
    if what + "_hex" in entry:
        return bytes.fromhex(entry[what + "_hex"])
    g = entry[what + "_gen"]
    return generated_bytes(g["len"], g["start"])


def f64_bits(x):
    return struct.pack(">d", x).hex()


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = {}  # what -> list of short descriptions

    def check(self, ok, what, where):
        if ok:
            self.passed += 1
        else:
            self.failed.setdefault(what, []).append(where)

    @property
    def failures(self):
        return sum(len(v) for v in self.failed.values())

    def summary(self):
        return ", ".join("%s: %d" % (k, len(v)) for k, v in sorted(self.failed.items())) or "none"


def spec_impl():
    return SimpleNamespace(
        key_hash=lambda key, seed: S.key_hash(key, seed),
        node_hash=lambda node_id, seed: S.node_hash(node_id, seed),
        neg_ln_q64=lambda m: S.neg_ln_q64(m),
        ln_u=lambda sc: S.ln_u(sc),
        nodeset=lambda nodes, seed: S.NodeSet(nodes, seed),
        skeleton=lambda ns, f, levels: X.Skeleton(ns, f, levels),
    )


def check_edges(impl, v=None):
    v = v or load_edges()
    rep = Report()
    if v.get("placement") != "placement-v1-edges":
        rep.check(False, "header", "placement is %r" % v.get("placement"))
    for e in v["key_hashes"]:
        got = impl.key_hash(entry_bytes(e, "key"), int(e["seed"]))
        rep.check(got == int(e["key_hash"]), "key_hashes",
                  "len %d seed %s" % (len(entry_bytes(e, "key")), e["seed"]))
    for e in v["node_hashes"]:
        got = impl.node_hash(entry_bytes(e, "id"), int(e["seed"]))
        rep.check(got == int(e["node_hash"]), "node_hashes",
                  "id len %d seed %s" % (len(entry_bytes(e, "id")), e["seed"]))
    for e in v["neg_ln_q64"]:
        m = int(e["m"])
        rep.check(impl.neg_ln_q64(m) == int(e["neg_ln_q64"]), "neg_ln_q64", "m=%d" % m)
        rep.check(f64_bits(impl.ln_u((m - 1) << 11)) == e["ln_u_bits"], "ln_u", "m=%d" % m)
    for case in v["cases"]:
        seed = int(case["seed"])
        nodes = [(entry_bytes(n, "id"), S.weight_from_bits(n["weight_bits"])) for n in case["nodes"]]
        ns = impl.nodeset(nodes, seed)
        where = case["name"]
        if case["mode"] == "skeleton":
            ranker = impl.skeleton(ns, case["fanout_bits"], case["levels"])
            got_groups = [(lvl, pfx, f64_bits(w)) for lvl, pfx, w in ranker.groups]
            want_groups = [(g["level"], int(g["prefix"]), g["weight_bits"]) for g in case["groups"]]
            rep.check(got_groups == want_groups, case["rule"] + " groups", where)
        else:
            ranker = ns
        for k in case["keys"]:
            key = entry_bytes(k, "key")
            ranking = ranker.rank(key)
            owner = ranking[0] if ranking else None
            ok = owner == k["owner"] and ranking[: case["depth"]] == k["ranked"]
            rep.check(ok, case["rule"], "%s: key of %d bytes" % (where, len(key)))
    return rep
