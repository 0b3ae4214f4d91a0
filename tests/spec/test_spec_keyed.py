"""Checks the independent keyed-v1 reimplementation (spec_keyed.py, written from docs/SPEC.md §15)
against tests/vectors/keyed-v1.json (or $LONGSTRAW_VECTOR_DIR/keyed-v1.json).

Run either way:
    python tests/spec/test_spec_keyed.py        # prints "N passed, M failed"; exit 1 on any failure
    pytest tests/spec/test_spec_keyed.py
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_keyed as K  # noqa: E402
import spec_reimpl as S  # noqa: E402
import spec_scale as X  # noqa: E402

DEFAULT_VECTOR_DIR = Path(__file__).resolve().parents[2] / "tests" / "vectors"


def load():
    d = Path(os.environ.get("LONGSTRAW_VECTOR_DIR") or DEFAULT_VECTOR_DIR)
    with open(d / "keyed-v1.json", "rb") as f:
        return json.load(f)


def test_prf_is_siphash24_reference():
    # The SipHash paper's Appendix A (key 00..0f, message 00..0e): the PRF library is the real thing.
    assert K.siphash24(bytes(range(16)), bytes(range(15))) == 0xA129CA6149BE45E5
    assert K.siphash24(bytes(range(16)), b"") == 0x726FDB47DD0E0E31


def test_derived_keys():
    v = load()
    assert v["placement"] == "keyed-v1" and v["secret_len"] == K.SECRET_LEN
    for e in v["derived"]:
        d = K.Derived(bytes.fromhex(e["secret_hex"]))
        assert d.node_key.hex() == e["node_key_hex"], e
        assert d.group_seed == int(e["group_seed"]), e


def test_component_hashes():
    v = load()
    for e in v["key_hashes"]:
        assert K.key_hash(bytes.fromhex(e["key_hex"]), bytes.fromhex(e["secret_hex"])) == int(e["key_hash"]), e
    for e in v["node_hashes"]:
        assert K.node_hash(bytes.fromhex(e["id_hex"]), bytes.fromhex(e["secret_hex"])) == int(e["node_hash"]), e
    for e in v["partition_key_hashes"]:
        got = K.partition_key_hash(e["partition"], bytes.fromhex(e["secret_hex"]))
        assert got == int(e["key_hash"]), e
    for e in v["group_hashes"]:
        got = K.group_hash(e["level"], int(e["prefix"]), bytes.fromhex(e["secret_hex"]))
        assert got == int(e["group_hash"]), e


def _mode(case, ns):
    if case["mode"] == "flat":
        return ns
    if case["mode"] == "table":
        return K.KeyedTable(ns, case["bits"])
    return K.KeyedSkeleton(ns, case["fanout_bits"], case["levels"])


def test_cases():
    checked = 0
    for case in load()["cases"]:
        secret = bytes.fromhex(case["secret_hex"])
        nodes = [(bytes.fromhex(n["id_hex"]), S.weight_from_bits(n["weight_bits"])) for n in case["nodes"]]
        labels = [None if n["domain_hex"] is None else bytes.fromhex(n["domain_hex"]) for n in case["nodes"]]
        ns = K.KeyedNodeSet(nodes, secret)
        mode = _mode(case, ns)
        domains = X.domain_keys(labels)
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            ranking = mode.rank(key)
            where = "%s key %s" % (case["name"], k["key_hex"][:32])
            assert ranking[: case["depth"]] == k["ranked"], where
            assert (ranking[0] if ranking else None) == k["owner"], where
            assert X.top_k_distinct(ranking, domains, case["k"]) == k["distinct"], where
            if case["mode"] == "table":
                assert mode.partition_of(key) == k["partition"], where
            checked += 1
    assert checked > 0


def test_secret_length_is_checked():
    for bad in (b"", bytes(15), bytes(17), bytes(32)):
        try:
            K.Derived(bad)
        except ValueError:
            continue
        raise AssertionError("accepted a %d-byte secret" % len(bad))


TESTS = [v for k, v in sorted(globals().items()) if k.startswith("test_")]


def main():
    passed = failed = 0
    for t in TESTS:
        try:
            t()
            passed += 1
            print("%-36s ok" % t.__name__)
        except Exception as exc:  # a crash counts as one failure of that check
            failed += 1
            print("%-36s FAIL %s: %s" % (t.__name__, type(exc).__name__, exc))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
