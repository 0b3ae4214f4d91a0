"""Checks the independent SPEC.md §17 reimplementation (spec_balanced.py) against
tests/vectors/table-balanced-v1.json (or the file in $LONGSTRAW_VECTOR_DIR).

Run either way:
    python tests/spec/test_spec_balanced.py     # prints "N passed, M failed"; exit 1 on any failure
    pytest tests/spec/test_spec_balanced.py
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_balanced as B  # noqa: E402
import spec_reimpl as S  # noqa: E402
from spec_checks import run_checks  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]


def vectors():
    d = Path(os.environ.get("LONGSTRAW_VECTOR_DIR") or REPO_ROOT / "tests" / "vectors")
    with open(d / "table-balanced-v1.json", "rb") as f:
        return json.load(f)


def weights_of(entries):
    ws = [S.weight_from_bits(e["weight_bits"]) for e in entries]
    # the readable weight must agree with the bit pattern (a vector-file sanity check)
    assert all(float(e["weight"]) == w for e, w in zip(entries, ws)), "weight / weight_bits disagree"
    return ws


def check_caps(v):
    count = 0
    assert v["placement"] == "table-balanced-v1"
    assert len(v["caps"]) > 0, "no caps in the vectors"
    for c in v["caps"]:
        ws = weights_of(c["weights"]) * c["repeat"]
        got = B.caps(ws, c["bits"], c["balance_millionths"])
        want = c["caps"] * c["repeat"] if c["repeat"] > 1 else c["caps"]
        assert got == want, "caps %r: %r != %r" % (c, got, want)
        count += 1
    return count


def check_cases(v):
    count = 0
    assert len(v["cases"]) > 0, "no cases in the vectors"
    for case in v["cases"]:
        name = case["name"]
        nodes = [(bytes.fromhex(n["id_hex"]), w) for n, w in zip(case["nodes"], weights_of(case["nodes"]))]
        ns = S.NodeSet(nodes, int(case["seed"]))
        t = B.BalancedTable(ns, case["bits"], case["replicas"], case["balance_millionths"])
        assert t.rows == case["rows"], "%s: rows differ at partitions %r" % (
            name, [p for p, (a, b) in enumerate(zip(t.rows, case["rows"])) if a != b][:8])
        assert t.over_cap == case["over_cap"], "%s: over_cap %d != %d" % (name, t.over_cap, case["over_cap"])
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            assert t.partition_of(key) == k["partition"], "%s key %s: partition" % (name, k["key_hex"])
            assert t.list(key) == k["list"], "%s key %s: list" % (name, k["key_hex"])
        count += 1
    return count


def check_balance_conversion():
    assert B.balance_millionths(1.05) == 1_050_000
    assert B.balance_millionths(1.0000005) == 1_000_001
    assert B.balance_millionths(1.0000004) == 1_000_000
    # §17: the range check applies to B, after the conversion
    assert B.balance_millionths(0.9999996) == 1_000_000
    assert B.balance_millionths(4.0000004) == 4_000_000
    for bad in (float("nan"), float("inf"), float("-inf"), 0.99, 0.9999994, 4.0000006):
        try:
            B.balance_millionths(bad)
        except ValueError:
            continue
        raise AssertionError("balance %r was accepted" % bad)
    return 1


def test_caps():
    check_caps(vectors())


def test_cases():
    check_cases(vectors())


def test_balance_conversion():
    check_balance_conversion()


def main():
    v = vectors()
    return run_checks((("caps", lambda: check_caps(v)), ("cases", lambda: check_cases(v)),
                     ("balance", check_balance_conversion)))


if __name__ == "__main__":
    sys.exit(main())
