"""Checks the independent SPEC.md §17 reimplementation (spec_balanced.py) against
tests/vectors/table-balanced-caps-v1.json (or the file in $LONGSTRAW_VECTOR_DIR), and shows that the file
pins §17.2's exact caps: caps computed in f64 must FAIL both its `caps` and its `cases` (rows).

Run either way:
    python tests/spec/test_spec_balanced_caps.py     # prints "N passed, M failed"; exit 1 on any failure
    pytest tests/spec/test_spec_balanced_caps.py
"""

import json
import math
import os
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_balanced as B  # noqa: E402
import spec_reimpl as S  # noqa: E402
from spec_checks import run_checks  # noqa: E402
import spec_scale as X  # noqa: E402
import test_spec_balanced as TB  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
FILE = "table-balanced-caps-v1.json"


def vectors():
    d = Path(os.environ.get("LONGSTRAW_VECTOR_DIR") or REPO_ROOT / "tests" / "vectors")
    with open(d / FILE, "rb") as f:
        return json.load(f)


# --- deliberately wrong readings of §17.2; each must fail the file -----------------------------------
def caps_all_f64(weights, bits, millionths):
    """W as an f64 sum and the cap in f64: ceil(b * P * w_i / W)."""
    P = 1 << X._check_bits(bits)
    W = 0.0
    for w in weights:
        W += w
    return [0 if w == 0 else math.ceil(millionths / 1e6 * P * w / W) for w in weights]


def caps_f64_quotient(weights, bits, millionths):
    """W exact, but the quotient rounded to f64 before the ceiling."""
    P = 1 << X._check_bits(bits)
    total = sum((Fraction(w) for w in weights), Fraction(0))
    return [0 if w == 0 else math.ceil(float(Fraction(millionths * P) * Fraction(w) / (1_000_000 * total)))
            for w in weights]


WRONG = [("W and the cap in f64", caps_all_f64), ("the quotient in f64", caps_f64_quotient)]


def rows_of(case):
    ns = S.NodeSet([(bytes.fromhex(n["id_hex"]), S.weight_from_bits(n["weight_bits"])) for n in case["nodes"]],
                   int(case["seed"]))
    return B.BalancedTable(ns, case["bits"], case["replicas"], case["balance_millionths"]).rows


def fails(fn, v):
    try:
        fn(v)
    except AssertionError:
        return True
    return False


def check_wrong_variants(v):
    right = B.caps
    try:
        for name, wrong in WRONG:
            B.caps = wrong
            assert fails(TB.check_caps, v), "%s passes the caps of %s" % (name, FILE)
            assert fails(TB.check_cases, v), "%s passes the cases (rows) of %s" % (name, FILE)
            # every case depends on a cap: its rows, or (where its name says so) its over_cap count
            for c in v["cases"]:
                assert fails(TB.check_cases, dict(v, cases=[c])), "%s passes case %r" % (name, c["name"])
                if "rows depend" in c["name"]:
                    assert rows_of(c) != c["rows"], "%s: the rows of %r do not depend on it" % (name, c["name"])
    finally:
        B.caps = right
    assert sum("rows depend" in c["name"] for c in v["cases"]) >= 1
    return len(WRONG)


def test_caps():
    TB.check_caps(vectors())


def test_cases():
    TB.check_cases(vectors())


def test_wrong_variants_fail():
    check_wrong_variants(vectors())


def main():
    v = vectors()
    return run_checks((("caps", lambda: TB.check_caps(v)), ("cases", lambda: TB.check_cases(v)),
                     ("wrong", lambda: check_wrong_variants(v))))


if __name__ == "__main__":
    sys.exit(main())
