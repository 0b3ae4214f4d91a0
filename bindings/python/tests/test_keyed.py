"""keyed-v1 (docs/SPEC.md §15) through the Python API: the frozen vectors, the secret's hygiene (repr,
errors, pickling) and the attack the secret defeats."""

import copy
import os
import pickle
import sys
from pathlib import Path

import pytest

import longstraw
from conftest import REPO, load_vectors, weight_from_bits

sys.path.insert(0, str(REPO / "tests" / "attack"))
import attack  # noqa: E402  (the runnable example of docs/THREAT-MODEL.md)

SECRET = bytes(range(16))


def build(case):
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    weights = [weight_from_bits(n["weight_bits"]) for n in case["nodes"]]
    domains = [None if n["domain_hex"] is None else bytes.fromhex(n["domain_hex"]) for n in case["nodes"]]
    kw = dict(weights=weights, domains=domains, secret=bytes.fromhex(case["secret_hex"]))
    if case["mode"] == "flat":
        return longstraw.Rendezvous(ids, **kw), ids
    if case["mode"] == "table":
        return longstraw.Rendezvous.table(ids, partition_bits=case["bits"], replicas=case["depth"], **kw), ids
    return longstraw.Rendezvous.skeleton(ids, fanout_bits=case["fanout_bits"], levels=case["levels"], **kw), ids


def test_every_keyed_vector():
    vectors = load_vectors("keyed")
    assert vectors["placement"] == "keyed-v1"
    checked = 0
    for case in vectors["cases"]:
        placer, ids = build(case)
        assert placer.keyed and placer.seed is None
        snap = placer.snapshot()
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            where = "%s: key %s" % (case["name"], k["key_hex"][:32])
            if k["owner"] is None:
                with pytest.raises(longstraw.NoEligibleNodeError):
                    placer.owner(key)
            else:
                assert snap.owner_index(key) == k["owner"], where
            assert placer.top_k(key, case["depth"]) == [ids[i] for i in k["ranked"]], where
            assert placer.top_k_distinct(key, case["k"]) == [ids[i] for i in k["distinct"]], where
            if "partition" in k:
                assert placer.partition(key) == k["partition"], where
            checked += 1
        owned = [k for k in case["keys"] if k["owner"] is not None]
        if owned:
            keys = [bytes.fromhex(k["key_hex"]) for k in owned]
            assert placer.owners(keys) == [ids[k["owner"]] for k in owned], case["name"]
    assert checked == sum(len(c["keys"]) for c in vectors["cases"])


@pytest.mark.parametrize("cls", [longstraw.Rendezvous, longstraw.Rendezvous.table, longstraw.Rendezvous.skeleton])
def test_secret_is_exclusive_with_seed_and_exactly_16_bytes(cls):
    with pytest.raises(ValueError, match="not both"):
        cls(["a"], seed=0, secret=SECRET)
    with pytest.raises(ValueError, match="not both"):
        cls(["a"], seed=7, secret=SECRET)
    for bad in (b"", bytes(15), bytes(17), bytes(32)):
        with pytest.raises(ValueError, match="exactly 16 bytes"):
            cls(["a"], secret=bad)
    with pytest.raises(TypeError, match="not str"):
        cls(["a"], secret="sixteen-char-str")
    with pytest.raises(TypeError):
        cls(["a"], secret=12345)
    for ok in (SECRET, bytearray(SECRET), memoryview(SECRET)):
        assert cls(["a", "b"], secret=ok).keyed


@pytest.mark.parametrize("cls", [longstraw.Rendezvous, longstraw.Rendezvous.table, longstraw.Rendezvous.skeleton])
def test_the_secret_never_leaks(cls):
    secret = bytes([0xA7]) * 16
    placer = cls(["a", "b"], secret=secret)
    shown = [repr(placer), repr(placer.snapshot()), str(placer.snapshot())]
    try:
        placer.add("a")
    except ValueError as e:
        shown.append(str(e))
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(placer)
    with pytest.raises(TypeError, match="cannot be pickled"):
        copy.deepcopy(placer)
    with pytest.raises(TypeError):
        pickle.dumps(placer.snapshot())
    for text in shown:
        for leak in (secret.hex(), repr(secret), "a7a7", str(int.from_bytes(secret[:8], "little"))):
            assert leak not in text, text
    assert "secret=<hidden>" in repr(placer) and "seed=" not in repr(placer)


def test_v1_sets_still_pickle_with_their_seed():
    r = longstraw.Rendezvous(["a", "b"], seed=9)
    assert not r.keyed and r.seed == 9
    assert pickle.loads(pickle.dumps(r)).seed == 9


def test_two_secrets_agree_on_about_one_key_in_n():
    # P(same owner) = 1/n = 0.1 for independent secrets; sd = sqrt(0.09 / 50000) = 0.00134; allow 6 sd.
    keys = ["object-%d" % i for i in range(50_000)]
    a = longstraw.Rendezvous(attack.NODES, secret=os.urandom(16)).owners(keys)
    b = longstraw.Rendezvous(attack.NODES, secret=os.urandom(16)).owners(keys)
    rate = sum(x == y for x, y in zip(a, b)) / len(keys)
    assert abs(rate - 0.1) < 6 * (0.09 / len(keys)) ** 0.5, rate


@pytest.mark.parametrize("family", ["brute force", "xxh3 collisions"])
def test_attack_keys_spread_evenly_under_a_secret(family):
    if family == "brute force":
        keys = attack.brute_force(0, attack.NODES[3], 5000)
    else:
        keys = attack.xxh3_colliding_family(0, 5000)
    v1 = attack.counts(longstraw.Rendezvous(attack.NODES), keys)
    assert max(v1) == len(keys)  # the attack works against the known seed
    for _ in range(3):
        cs = attack.counts(longstraw.Rendezvous(attack.NODES, secret=os.urandom(16)), keys)
        # 9 degrees of freedom: mean 9, sd sqrt(18); 9 + 6 sd = 34.5 (exceeded with p < 1e-6).
        assert attack.chi_square(cs) < attack.BOUND, cs


def test_attack_example_runs():
    assert attack.main(["--keys", "2000", "--seed", "12345"]) == 0
