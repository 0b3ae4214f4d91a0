"""Checks the independent SPEC.md §16 reimplementation (spec_bounded.py) against
tests/vectors/bounded-v1.json (or the file in $LONGSTRAW_VECTOR_DIR), and shows that the file pins the
rule: each deliberately wrong reading of §16.1 below must FAIL it.

Run either way:
    python tests/spec/test_spec_bounded.py     # prints "N passed, M failed"; exit 1 on any failure
    pytest tests/spec/test_spec_bounded.py
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_bounded as SB  # noqa: E402
import spec_reimpl as S  # noqa: E402
from spec_checks import run_checks  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]


def vectors():
    d = Path(os.environ.get("LONGSTRAW_VECTOR_DIR") or REPO_ROOT / "tests" / "vectors")
    with open(d / "bounded-v1.json", "rb") as f:
        return json.load(f)


def mismatches(v, cls=SB.BoundedSet):
    """The (case, op index) pairs where `cls` disagrees with the file."""
    bad = []
    for case in v["cases"]:
        for n in case["nodes"]:
            assert float(n["weight"]) == S.weight_from_bits(n["weight_bits"]), "weight / weight_bits disagree"
        assert float(case["balance_factor"]) == S.weight_from_bits(case["balance_factor_bits"])
        try:
            got = SB.run_script(case, cls)
        except (AssertionError, ValueError, KeyError) as e:  # a wrong variant may find no room at all
            if cls is SB.BoundedSet:
                raise
            bad.append((case["name"], None, None, repr(e)))
            continue
        for i, (op, exp) in enumerate(zip(case["ops"], got)):
            want = {k: op[k] for k in exp}
            if want != exp:
                bad.append((case["name"], i, want, exp))
                break  # later ops follow from this one
    return bad


def check_file(v):
    assert v["placement"] == "bounded-v1"
    assert len(v["cases"]) > 0, "no cases in the vectors"
    bad = mismatches(v)
    assert not bad, "disagrees with the file: %r" % bad[:3]
    return sum(len(c["ops"]) for c in v["cases"])


# --- deliberately wrong readings of §16.1; each must fail the file -----------------------------------
class WInInsertionOrder(SB.BoundedSet):
    """W as an f64 running sum in the order the nodes were added."""

    def w_sum(self, weights):
        total = 0.0
        for w in weights:
            total += w
        return total


class PlusOneTwice(SB.BoundedSet):
    """The request counted twice: T = total + 2 (announced in total, then + 1 again)."""

    t_extra = 2


class NoPlusOne(SB.BoundedSet):
    """The request not counted at all: T = total."""

    t_extra = 0


class FailedAcquireLeaks(SB.BoundedSet):
    """A failed acquire (no eligible node) that keeps its announcement in the total."""

    def acquire(self, key):
        if not self.rank(key):
            self.total += 1
        return super().acquire(key)


class LoadAtMostCap(SB.BoundedSet):
    """Admitting while load <= share * T (one more than the cap allows)."""

    def may_take(self, node, W):
        if node.weight == 0.0:
            return False
        return float(node.load) <= self.factor * (node.weight / W) * float(self.total + 1)


WRONG = [
    ("W summed in insertion order", WInInsertionOrder),
    ("the +1 carried twice", PlusOneTwice),
    ("no +1", NoPlusOne),
    ("a failed acquire keeps its announcement", FailedAcquireLeaks),
    ("load <= share * T", LoadAtMostCap),
]


def check_wrong_variants(v):
    for name, cls in WRONG:
        assert mismatches(v, cls), "the wrong variant %r passes bounded-v1.json" % name
    # The order case: the insertion-order W fails exactly one of the two orders (the other happens to
    # sum to the nearest value), and the correct W passes both.
    order_cases = [c for c in v["cases"] if c["name"].startswith("W independent of node order")]
    assert len(order_cases) == 2
    failing = [c["name"] for c in order_cases if mismatches({"cases": [c]}, WInInsertionOrder)]
    assert len(failing) == 1, failing
    return len(WRONG)


def test_file():
    check_file(vectors())


def test_wrong_variants_fail():
    check_wrong_variants(vectors())


def main():
    v = vectors()
    return run_checks((("file", lambda: check_file(v)), ("wrong", lambda: check_wrong_variants(v))))


if __name__ == "__main__":
    sys.exit(main())
