"""Checks the independent SPEC.md reimplementation (spec_reimpl.py) against the golden vectors, plus
accuracy and monotonicity properties of ln_u (SPEC §5.2).

Run either way:
    python tests/spec/test_spec_reimpl.py        # prints "N passed, M failed"; exit 1 on any failure
    pytest tests/spec/test_spec_reimpl.py

Vectors: tests/vectors/placement-v1.json under the repo root, or the file named by $LONGSTRAW_VECTORS.
"""

import json
import math
import os
import random
import struct
import sys
import time
from decimal import Decimal, localcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_reimpl as S  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_VECTORS = REPO_ROOT / "tests" / "vectors" / "placement-v1.json"

TWO_53 = 1 << 53


class Results:
    """Counts individual checks; keeps the first few failure messages."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.messages = []
        self.notes = []

    def check(self, ok, msg):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            if len(self.messages) < 50:
                self.messages.append(msg() if callable(msg) else msg)
        return ok


def vectors_path():
    return Path(os.environ.get("LONGSTRAW_VECTORS") or DEFAULT_VECTORS)


_VECTORS = None


def load_vectors():
    global _VECTORS
    if _VECTORS is None:
        with open(vectors_path(), "rb") as f:
            _VECTORS = json.load(f)
    return _VECTORS


def f64_bits(x):
    return struct.pack(">d", x).hex()


# ---------------------------------------------------------------------------------------------------
# Golden vectors (SPEC §9)
# ---------------------------------------------------------------------------------------------------
def check_header(r):
    v = load_vectors()
    r.check(v.get("placement") == 1, "vectors file is not placement v1")
    for sec in ("key_hashes", "node_hashes", "pair_scores", "ln", "cases"):
        r.check(len(v.get(sec, [])) > 0, "vectors section %r missing or empty" % sec)


def check_key_hashes(r):
    for e in load_vectors()["key_hashes"]:
        got = S.key_hash(bytes.fromhex(e["key_hex"]), int(e["seed"]))
        r.check(got == int(e["key_hash"]), lambda: "key_hash %r: got %d" % (e, got))


def check_node_hashes(r):
    for e in load_vectors()["node_hashes"]:
        got = S.node_hash(bytes.fromhex(e["id_hex"]), int(e["seed"]))
        r.check(got == int(e["node_hash"]), lambda: "node_hash %r: got %d" % (e, got))


def check_pair_scores(r):
    for e in load_vectors()["pair_scores"]:
        got = S.score(int(e["key_hash"]), int(e["node_hash"]))
        r.check(got == int(e["score"]), lambda: "score %r: got %d" % (e, got))


def check_ln(r):
    for e in load_vectors()["ln"]:
        x = S.ln_u(int(e["score"]))
        r.check(f64_bits(x) == e["ln_u_bits"],
                lambda: "ln_u(%s): got %s (%r)" % (e["score"], f64_bits(x), x))
        w3 = S.weighted_score(int(e["score"]), 3.0)
        r.check(f64_bits(w3) == e["weighted_by_3"],
                lambda: "ln_u(%s)/3: got %s" % (e["score"], f64_bits(w3)))


def check_cases(r):
    for case in load_vectors()["cases"]:
        name = case["name"]
        nodes = [(bytes.fromhex(n["id_hex"]), S.weight_from_bits(n["weight_bits"]))
                 for n in case["nodes"]]
        ns = S.NodeSet(nodes, int(case["seed"]))
        depth = case["depth"]
        for k in case["keys"]:
            key = bytes.fromhex(k["key_hex"])
            ranking = ns.rank(key)
            if k["owner"] is None:
                try:
                    ns.owner(key)
                    ok = False
                except LookupError:
                    ok = True
                r.check(ok and ranking == [],
                        lambda: "%s key %s: expected no owner" % (name, k["key_hex"]))
            else:
                r.check(ns.owner(key) == k["owner"],
                        lambda: "%s key %s: owner %r != %r"
                        % (name, k["key_hex"], ns.owner(key), k["owner"]))
            r.check(ns.top_k(key, depth) == k["ranked"],
                    lambda: "%s key %s: ranked %r != %r"
                    % (name, k["key_hex"], ns.top_k(key, depth), k["ranked"]))


# ---------------------------------------------------------------------------------------------------
# ln_u accuracy (SPEC §5.2 "Accuracy") against decimal at 80 digits
# ---------------------------------------------------------------------------------------------------
FIXED_BOUND_UNITS = 16  # 2^-60 absolute = 16 units of 2^-64
# Below this |ln u| the spec's "within 1 ulp" does not hold ("very close to u = 1, where the absolute
# bound, not the relative one, applies"). 2^-8 is where the 2^-60 absolute bound itself implies 1 ulp
# (ulp(ln u) >= 2^-60). Measured: 1 ulp holds down to 2^-9 but fails for many values in [2^-11, 2^-9).
ULP_THRESHOLD = 2.0 ** -8


def accuracy_sample():
    ms = set()
    for e in range(54):  # both sides of every power of two 2^e, e = 0..53
        for d in range(-100, 101):
            m = (1 << e) + d
            if 1 <= m <= TWO_53:
                ms.add(m)
    rng = random.Random(0x5BEC)
    n_boundary = len(ms)
    # values close to u = 1, |ln u| log-uniform in [2^-40, 2^-4]: exercises the ulp threshold
    while len(ms) < n_boundary + 3000:
        a = 2.0 ** rng.uniform(-40, -4)
        m = int(TWO_53 * math.exp(-a))
        if 1 <= m < TWO_53:
            ms.add(m)
    while len(ms) < 20000:  # uniform random m
        ms.add(rng.randint(1, TWO_53))
    return sorted(ms)


def check_ln_accuracy(r):
    max_err = Decimal(0)
    worst_m = None
    n_ulp = n_abs = 0
    with localcontext() as ctx:
        ctx.prec = 80
        ln2 = Decimal(2).ln()
        two64 = Decimal(2) ** 64
        bound_abs = Decimal(2) ** -60
        for m in accuracy_sample():
            true_ln_u = Decimal(m).ln() - 53 * ln2  # ln(m / 2^53) <= 0
            q = S.neg_ln_q64(m)
            err = abs(Decimal(q) + true_ln_u * two64)  # |q - (-ln u) 2^64|, units of 2^-64
            if err > max_err:
                max_err, worst_m = err, m
            r.check(err < FIXED_BOUND_UNITS,
                    lambda: "neg_ln_q64(%d): error %s units of 2^-64 >= 2^-60" % (m, err))

            f = S.ln_u((m - 1) << 11)  # any score with (score >> 11) + 1 == m
            if m == TWO_53:
                r.check(f == 0.0 and math.copysign(1.0, f) > 0, "ln_u at u = 1 must be +0.0")
                continue
            cr = float(true_ln_u)  # Decimal -> float is correctly rounded
            if abs(cr) >= ULP_THRESHOLD:
                n_ulp += 1
                r.check(abs(f - cr) <= math.ulp(cr),
                        lambda: "ln_u(m=%d) = %r, correctly rounded %r: %g ulp"
                        % (m, f, cr, (f - cr) / math.ulp(cr)))
            else:
                # absolute bound applies: fixed-point error < 2^-60 plus the final to_f64 rounding
                n_abs += 1
                dev = abs(Decimal(f) - true_ln_u)
                r.check(dev < bound_abs + Decimal(math.ulp(f)) / 2,
                        lambda: "ln_u(m=%d) = %r: |error| %s > 2^-60 + ulp/2" % (m, f, dev))
    r.notes.append("ln accuracy: max fixed-point error %.4f units of 2^-64 (bound 16 = 2^-60) at m=%d; "
                   "%d values checked to 1 ulp (|ln u| >= 2^-8), %d to the absolute bound"
                   % (max_err, worst_m, n_ulp, n_abs))
    return float(max_err)


# ---------------------------------------------------------------------------------------------------
# ln_u monotonicity (SPEC §5.2 "Monotone")
# ---------------------------------------------------------------------------------------------------
def _ln_u_of_m(m):
    return S.ln_u((m - 1) << 11)


def check_ln_monotone(r):
    bad = []
    for e in range(54):
        lo = max(1, (1 << e) - 2000)
        hi = min(TWO_53, (1 << e) + 2000)
        prev_q = S.neg_ln_q64(lo)
        prev_f = _ln_u_of_m(lo)
        for m in range(lo + 1, hi + 1):
            q = S.neg_ln_q64(m)
            f = -(float(q) * 2.0 ** -64) if q else 0.0  # == ln_u, without recomputing q
            if not (q < prev_q and prev_f <= f):
                bad.append(m)
            prev_q, prev_f = q, f
    rng = random.Random(0x40707)
    for _ in range(100000):
        m = rng.randint(1, TWO_53 - 1)
        if not (S.neg_ln_q64(m + 1) < S.neg_ln_q64(m) and _ln_u_of_m(m) <= _ln_u_of_m(m + 1)):
            bad.append(m)
    r.check(not bad, lambda: "ln_u not monotone (or neg_ln_q64 not strictly decreasing) at m in %r"
            % bad[:10])
    # the ln_u shortcut used above must equal ln_u itself
    r.check(all(_ln_u_of_m(m) == (-(float(S.neg_ln_q64(m)) * 2.0 ** -64) or 0.0)
                for m in (1, 2, 3, 1 << 52, TWO_53 - 1)), "ln_u shortcut mismatch")


# ---------------------------------------------------------------------------------------------------
# §2 validation and §7 operation semantics (not covered by vectors)
# ---------------------------------------------------------------------------------------------------
def check_validation(r):
    good = [0.0, 2.0 ** -64, 2.0 ** 64, 1.0, 1e-9, 1e9, 3]
    bad = [-0.0, math.nan, math.inf, -math.inf, -1.0, 5e-324, 2.0 ** -1030,
           math.nextafter(2.0 ** -64, 0.0), math.nextafter(2.0 ** 64, math.inf), 2 ** 64 + 1]
    for w in good:
        try:
            S.validate_weight(w)
            ok = True
        except ValueError:
            ok = False
        r.check(ok, "weight %r must be accepted" % (w,))
    for w in bad:
        try:
            S.validate_weight(w)
            ok = False
        except ValueError:
            ok = True
        r.check(ok, "weight %r must be rejected" % (w,))

    def rejected(nodes):
        try:
            S.NodeSet(nodes)
            return False
        except ValueError:
            return True

    r.check(rejected([(b"", 1.0)]), "empty id must be rejected")
    r.check(rejected([(b"x" * 65536, 1.0)]), "65536-byte id must be rejected")
    r.check(not rejected([(b"x" * 65535, 1.0)]), "65535-byte id must be accepted")
    r.check(rejected([(b"a", 1.0), (b"a", 2.0)]), "duplicate id must be rejected")
    try:
        S.key_hash("\ud800")
        ok = False
    except UnicodeEncodeError:
        ok = True
    r.check(ok, "lone surrogate key must be an error")
    r.check(S.key_hash("é") == S.key_hash("é".encode("utf-8")), "text is hashed as UTF-8")


def check_operations(r):
    nodes = [("node-%d" % i, [1.0, 2.0, 0.0, 0.5][i % 4]) for i in range(12)]
    ns = S.NodeSet(nodes, seed=7)
    rev = S.NodeSet(list(reversed(nodes)), seed=7)
    n = len(nodes)
    ok_perm = ok_topk = ok_drained = True
    for i in range(300):
        key = "key-%d" % i
        ranking = ns.rank(key)
        ok_drained &= len(ranking) == 9 and all(nodes[j][1] != 0.0 for j in ranking)
        # §1: the order of nodes in the set has no influence on any result
        ok_perm &= [n - 1 - j for j in rev.rank(key)] == ranking
        # §7: top_k is a prefix of the ranking; top_k[0] is the owner; k = 0 is empty
        ok_topk &= (ns.top_k(key, 3) == ranking[:3] and ns.top_k(key, 100) == ranking
                    and ns.top_k(key, 0) == [] and ns.top_k(key, 1)[0] == ns.owner(key))
    r.check(ok_perm, "node order changed a ranking")
    r.check(ok_topk, "top_k / owner inconsistent with rank")
    r.check(ok_drained, "drained node appeared in a ranking")
    for empty in (S.NodeSet([]), S.NodeSet([("a", 0.0), ("b", 0.0)])):
        r.check(empty.top_k("k", 5) == [] and empty.rank("k") == [], "empty set: top_k must be []")
        try:
            empty.owner("k")
            ok = False
        except LookupError:
            ok = True
        r.check(ok, "owner() on a set with no eligible node must be an error")


CHECKS = [
    check_header,
    check_key_hashes,
    check_node_hashes,
    check_pair_scores,
    check_ln,
    check_cases,
    check_ln_accuracy,
    check_ln_monotone,
    check_validation,
    check_operations,
]


# ---------------------------------------------------------------------------------------------------
# pytest entry points: one test per check function
# ---------------------------------------------------------------------------------------------------
def _run_one(fn):
    r = Results()
    fn(r)
    for note in r.notes:
        print(note)
    assert r.failed == 0, "%d failed:\n%s" % (r.failed, "\n".join(r.messages))


def test_header():
    _run_one(check_header)


def test_key_hashes():
    _run_one(check_key_hashes)


def test_node_hashes():
    _run_one(check_node_hashes)


def test_pair_scores():
    _run_one(check_pair_scores)


def test_ln_vectors():
    _run_one(check_ln)


def test_cases():
    _run_one(check_cases)


def test_ln_accuracy():
    _run_one(check_ln_accuracy)


def test_ln_monotone():
    _run_one(check_ln_monotone)


def test_validation():
    _run_one(check_validation)


def test_operations():
    _run_one(check_operations)


# ---------------------------------------------------------------------------------------------------
# script entry point
# ---------------------------------------------------------------------------------------------------
def main():
    start = time.perf_counter()
    print("vectors: %s" % vectors_path())
    total = Results()
    for fn in CHECKS:
        r = Results()
        t0 = time.perf_counter()
        try:
            fn(r)
        except Exception as exc:  # a crash counts as one failure of that check
            r.check(False, "%s raised %s: %s" % (fn.__name__, type(exc).__name__, exc))
        status = "ok" if r.failed == 0 else "FAIL"
        print("%-20s %-4s %6d passed %4d failed  %.2fs"
              % (fn.__name__, status, r.passed, r.failed, time.perf_counter() - t0))
        for msg in r.messages[:10]:
            print("    " + msg)
        for note in r.notes:
            print("    " + note)
        total.passed += r.passed
        total.failed += r.failed
    print("total time %.2fs" % (time.perf_counter() - start))
    print("%d passed, %d failed" % (total.passed, total.failed))
    return 1 if total.failed else 0


if __name__ == "__main__":
    sys.exit(main())
