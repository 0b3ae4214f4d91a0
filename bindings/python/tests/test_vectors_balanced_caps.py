"""table-balanced-caps-v1.json (SPEC.md §17.2: caps computed exactly, where
f64 arithmetic would differ) through the Python API: every key lists its
partition's row. The expected values come from tests/spec."""

import longstraw
from conftest import load_vectors
from test_balanced import build


def test_exact_caps_vectors() -> None:
    v = load_vectors("table-balanced-caps")
    assert v["placement"] == "table-balanced-v1"
    checked = 0
    for case in v["cases"]:
        ids, table = build(case)
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            assert table.partition(key) == k["partition"], case["name"]
            assert table.top_k(key, case["replicas"] + 2) == [ids[i] for i in k["list"]], case["name"]
            checked += 1
        assert table.mode == "table" and table.balance is not None
    assert checked == sum(len(c["keys"]) for c in v["cases"]) > 0
