"""tests/vectors/bounded-v1.json (SPEC.md section 16) through the Python API:
scripted single-threaded acquire / release / add / remove / set_weight
sequences, with the node each acquire must return and the in-flight total
after every step. The expected values come from tests/spec (the independent
implementation of the spec)."""

import struct

from conftest import load_vectors

from longstraw import BoundedLoad, Lease, NoEligibleNodeError


def weight(entry: dict) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(entry["weight_bits"]))[0]
    return value


def build(case: dict) -> BoundedLoad:
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    weights = [weight(n) for n in case["nodes"]]
    factor = struct.unpack(">d", bytes.fromhex(case["balance_factor_bits"]))[0]
    if case["secret_hex"] is not None:
        return BoundedLoad(ids, balance_factor=factor, weights=weights, secret=bytes.fromhex(case["secret_hex"]))
    return BoundedLoad(ids, balance_factor=factor, weights=weights, seed=int(case["seed"]))


def test_bounded_v1_vectors() -> None:
    v = load_vectors("bounded")
    assert v["placement"] == "bounded-v1"
    checked = 0
    for case in v["cases"]:
        name = case["name"]
        b = build(case)
        leases: dict[int, Lease] = {}
        for i, op in enumerate(case["ops"]):
            kind = op["op"]
            where = f"{name}, op {i}"
            if kind == "acquire":
                key = bytes.fromhex(op["key_hex"])
                if op["node_hex"] is None:
                    try:
                        b.acquire(key)
                    except NoEligibleNodeError:
                        pass
                    else:
                        raise AssertionError(f"{where}: acquire succeeded with no eligible node")
                else:
                    lease = b.acquire(key)
                    assert lease.node == bytes.fromhex(op["node_hex"]), where
                    leases[i] = lease
            elif kind == "release":
                leases.pop(op["acquire"]).release()
            elif kind == "add":
                b.add(bytes.fromhex(op["id_hex"]), weight(op))
            elif kind == "remove":
                b.remove(bytes.fromhex(op["id_hex"]))
            elif kind == "set_weight":
                b.set_weight(bytes.fromhex(op["id_hex"]), weight(op))
            else:
                raise AssertionError(f"{where}: unknown op {kind}")
            assert b.in_flight() == op["in_flight"], f"{where}: in_flight"
            checked += 1
        for lease in leases.values():
            lease.release()
    assert checked > 1000
