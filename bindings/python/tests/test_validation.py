"""tests/validation/rules.json: every input rule, with the exception type and a message fragment.

The table is shared by every language's tests; this file maps its operations onto the Python API.
"""

import builtins
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import longstraw

TABLE = json.loads((Path(__file__).resolve().parents[3] / "tests" / "validation" / "rules.json").read_text())
LANG = "python"


def cases():
    out = []
    for rule in TABLE["rules"]:
        for i, case in enumerate(rule["cases"]):
            if LANG in case.get("langs", rule["langs"]):
                out.append(pytest.param(rule, case, id="%s-%d" % (rule["rule"], i)))
    return out


def bytes_of(v):
    return b"x" * v["len"] if isinstance(v, dict) else v.encode()


def weight_of(v):
    if isinstance(v, str):
        if v in ("nan", "inf", "-inf", "-0.0"):
            return float(v)
        return float.fromhex(v)
    return float(v)


def expr(case):
    e = case["expr"]
    e = e[LANG] if isinstance(e, dict) else e
    return eval(e, {"np": np, "Decimal": Decimal, "Fraction": Fraction})  # noqa: S307 (test data)


def run(op, case):
    R = longstraw.Rendezvous
    if op == "ids":
        return R([bytes_of(i) for i in case["ids"]])
    if op == "remove":
        return R(["a"]).remove(bytes_of(case["id"]))
    if op == "weight":
        w = expr(case) if "expr" in case else weight_of(case["weight"])
        return R(["a"], weights=[w])
    if op == "seed":
        return R(["a"], seed=expr(case))
    if op == "k":
        r = R(["a", "b"])
        got = r.top_k("key", case["k"])
        got_distinct = r.top_k_distinct("key", case["k"])
        assert got == got_distinct[: len(got)]
        return got
    if op == "partition_bits":
        return longstraw.Rendezvous.table(["a"], partition_bits=case["bits"])
    if op == "replicas":
        return longstraw.Rendezvous.table(["a"], replicas=case["replicas"])
    if op == "shape":
        f, levels = case["shape"]
        return longstraw.Rendezvous.skeleton(["a"], fanout_bits=f, levels=levels)
    if op == "domain":
        return R(["a"], domains=[bytes_of(case["label"])])
    if op == "placement":
        return R(["a"], placement=case["placement"])
    if op == "offsets":
        offsets = expr(case) if "expr" in case else case["offsets"]
        return R(["a"]).snapshot().owner_indices(case["bytes"].encode(), offsets)
    if op == "key":
        return R(["a"]).owner(expr(case))
    raise AssertionError("unknown op %r" % op)


def fragment(case):
    m = case.get("message", "")
    return m.get(LANG, m.get("default", "")) if isinstance(m, dict) else m


@pytest.mark.parametrize("rule, case", cases())
def test_rule(rule, case):
    if case.get("ok"):
        got = run(rule["op"], case)
        if "result" in case:
            assert got == case["result"]
        return
    exc_name = TABLE["classes"][case["error"]][LANG]
    exc = getattr(builtins, exc_name, None) or getattr(longstraw, exc_name)
    with pytest.raises(Exception) as info:
        run(rule["op"], case)
    assert type(info.value) is exc, "%s: raised %r, want %s" % (rule["rule"], info.value, exc_name)
    assert fragment(case) in str(info.value), "%s: message %r lacks %r" % (rule["rule"], str(info.value), fragment(case))


def test_table_covers_every_class_for_python():
    used = {c["error"] for r in TABLE["rules"] for c in r["cases"]
            if "error" in c and LANG in c.get("langs", r["langs"])}
    assert used <= {k for k, v in TABLE["classes"].items() if LANG in v}
    assert len(cases()) >= 60
