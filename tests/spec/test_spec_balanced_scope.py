"""Checks the independent SPEC.md §17.5 reimplementation (spec_balanced.py over spec_keyed.py) against
tests/vectors/table-balanced-scope-v1.json (or the file in $LONGSTRAW_VECTOR_DIR): keyed balanced tables
and top_k_distinct on a balanced table. Wrong readings must FAIL the file: a keyed table whose pairs use
the unkeyed partition key hash, and top_k_distinct over the §6 ranking instead of the row.

Run either way:
    python tests/spec/test_spec_balanced_scope.py     # prints "N passed, M failed"; exit 1 on any failure
    pytest tests/spec/test_spec_balanced_scope.py
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_balanced as B  # noqa: E402
import spec_keyed as K  # noqa: E402
import spec_reimpl as S  # noqa: E402
from spec_checks import run_checks  # noqa: E402
import spec_scale as X  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]


def vectors():
    d = Path(os.environ.get("LONGSTRAW_VECTOR_DIR") or REPO_ROOT / "tests" / "vectors")
    with open(d / "table-balanced-scope-v1.json", "rb") as f:
        return json.load(f)


class UnkeyedPartitionHash(B.BalancedTable):
    """Wrong: the pairs of a keyed table scored with §10's unkeyed partition key hash (seed 0)."""

    def __init__(self, ns, bits, replicas, millionths):
        self._unkeyed = True
        super().__init__(ns, bits, replicas, millionths)
        self._unkeyed = False

    def _key_hash(self, key):
        if getattr(self, "_unkeyed", False):
            return S.key_hash(key, 0)
        return super()._key_hash(key)


class DistinctOverRanking(B.BalancedTable):
    """Wrong: top_k_distinct walks the partition's §6 ranking, as on a plain table."""

    def top_k_distinct(self, key, domains, k):
        return X.top_k_distinct(self.ns.rank(X.partition_key(self.partition_of(key))), domains, k)


def mismatches(v, cls=B.BalancedTable):
    bad = []
    for case in v["cases"]:
        name = case["name"]
        pairs = [(bytes.fromhex(n["id_hex"]), S.weight_from_bits(n["weight_bits"])) for n in case["nodes"]]
        if case["secret_hex"] is not None:
            ns = K.KeyedNodeSet(pairs, bytes.fromhex(case["secret_hex"]))
        else:
            ns = S.NodeSet(pairs, int(case["seed"]))
        t = cls(ns, case["bits"], case["replicas"], case["balance_millionths"])
        domains = X.domain_keys([bytes.fromhex(n["domain_hex"]) if n["domain_hex"] is not None else None
                                 for n in case["nodes"]])
        if t.rows != case["rows"] or t.over_cap != case["over_cap"]:
            bad.append((name, "rows"))
            continue
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            got = (t.partition_of(key), t.list(key), t.top_k_distinct(key, domains, case["k"]))
            if got != (k["partition"], k["list"], k["distinct"]):
                bad.append((name, k["key_hex"]))
                break
    return bad


def check_file(v):
    assert v["placement"] == "table-balanced-scope-v1"
    assert any(c["secret_hex"] for c in v["cases"]) and any(
        n["domain_hex"] for c in v["cases"] for n in c["nodes"])
    bad = mismatches(v)
    assert not bad, "disagrees with the file: %r" % bad[:3]
    return sum(len(c["keys"]) for c in v["cases"])


def check_wrong_variants(v):
    for name, cls in (("unkeyed partition key hash", UnkeyedPartitionHash),
                      ("top_k_distinct over the ranking", DistinctOverRanking)):
        assert mismatches(v, cls), "the wrong variant %r passes the file" % name
    return 2


def test_file():
    check_file(vectors())


def test_wrong_variants_fail():
    check_wrong_variants(vectors())


def main():
    v = vectors()
    return run_checks((("file", lambda: check_file(v)), ("wrong", lambda: check_wrong_variants(v))))


if __name__ == "__main__":
    sys.exit(main())
