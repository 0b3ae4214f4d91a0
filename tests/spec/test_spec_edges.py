"""tests/vectors/placement-v1-edges.json (SPEC §14) against the spec reimplementation, and against
deliberately broken variants of it: each variant must FAIL the file, which shows that the file pins
the rule the variant breaks.

Run either way:
    python tests/spec/test_spec_edges.py     # prints every variant's failures by rule; exit 1 on error
    pytest tests/spec/test_spec_edges.py
"""

import math
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_edges as E  # noqa: E402
import spec_reimpl as S  # noqa: E402
import spec_scale as X  # noqa: E402

TWO_53 = 1 << 53
TWO_63 = 1 << 63


# ---------------------------------------------------------------------------------------------------
# Broken orders (§6 rule 2)
# ---------------------------------------------------------------------------------------------------
def _signed(x):
    return x - (1 << 64) if x >= TWO_63 else x


def _race_with(key_of):
    def race(items):
        keyed = [(key_of(sc, w, h), payload) for sc, w, h, payload in items]
        keyed.sort(key=lambda t: t[0], reverse=True)
        return [payload for _, payload in keyed]
    return race


@contextmanager
def order_variant(key_of):
    """§6's order replaced in flat placement (order_key) and in skeleton races (_race)."""
    with mock.patch.object(S, "order_key", key_of), mock.patch.object(X, "_race", _race_with(key_of)):
        yield


def reversed_tie(sc, w, nh):
    """Rule 2 backwards: on equal weighted scores, the SMALLER raw score first."""
    return (S.ln_u(sc) / w, -sc, nh)


def signed_tie(sc, w, nh):
    """Rule 2 as a signed 64-bit comparison (Java's Long.compare instead of compareUnsigned)."""
    return (S.ln_u(sc) / w, _signed(sc), nh)


class SignedShortcutNodeSet(S.NodeSet):
    """§6's equal-weight shortcut (rank by raw score alone) with a signed comparison."""

    def rank(self, key):
        eligible = [i for i, w in enumerate(self.weights) if w != 0.0]
        if len({self.weights[i] for i in eligible}) > 1:
            return super().rank(key)
        kh = S.key_hash(key, self.seed)
        return sorted(eligible, key=lambda i: _signed(S.score(kh, self.hashes[i])), reverse=True)


# ---------------------------------------------------------------------------------------------------
# Broken group sums (§11.1): one node at a time, ascending node_hash, from +0.0
# ---------------------------------------------------------------------------------------------------
def _sequential(ws):
    total = 0.0
    for w in ws:
        total = total + w
    return total


def _pairwise(ws):
    if len(ws) <= 1:
        return ws[0] if ws else 0.0
    return _pairwise(ws[: len(ws) // 2]) + _pairwise(ws[len(ws) // 2:])


def _numpy_pairwise(ws):
    """numpy's pairwise_sum for n <= 128: a plain loop below 8, else 8 interleaved accumulators."""
    if len(ws) < 8:
        return _sequential(ws)
    r = list(ws[:8])
    i = 8
    while i + 8 <= len(ws):
        for j in range(8):
            r[j] += ws[i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for w in ws[i:]:
        res += w
    return res


def _neumaier(ws):
    """Python 3.12's sum() of floats (Neumaier compensation)."""
    total, comp = 0.0, 0.0
    for w in ws:
        t = total + w
        comp += (total - t) + w if abs(total) >= abs(w) else (w - t) + total
        total = t
    return total + comp


def _kahan(ws):
    """Java's DoubleStream.sum() style Kahan summation."""
    total, comp = 0.0, 0.0
    for w in ws:
        y = w - comp
        t = total + y
        comp = (t - total) - y
        total = t
    return total


SUMS = {
    "descending node_hash order": lambda ns, nodes: _sequential([ns.weights[i] for i in reversed(nodes)]),
    "node-list order": lambda ns, nodes: _sequential([ns.weights[i] for i in sorted(nodes)]),
    "pairwise": lambda ns, nodes: _pairwise([ns.weights[i] for i in nodes]),
    "numpy pairwise": lambda ns, nodes: _numpy_pairwise([ns.weights[i] for i in nodes]),
    "compensated (Neumaier, Python 3.12 sum)": lambda ns, nodes: _neumaier([ns.weights[i] for i in nodes]),
    "Kahan": lambda ns, nodes: _kahan([ns.weights[i] for i in nodes]),
    "exact (math.fsum)": lambda ns, nodes: math.fsum(ns.weights[i] for i in nodes),
}


def sum_variant_skeleton(how):
    class SumVariant(X.Skeleton):
        def __init__(self, nodeset, fanout_bits, levels):
            super().__init__(nodeset, fanout_bits, levels)
            for g in self._by_key.values():
                g.weight = how(nodeset, g.nodes)  # g.nodes: ascending node_hash order
    return SumVariant


class ChildTotalsSkeleton(X.Skeleton):
    """A group's weight as the sum of its children's weights instead of its nodes' weights."""

    def __init__(self, nodeset, fanout_bits, levels):
        super().__init__(nodeset, fanout_bits, levels)
        for g in sorted(self._by_key.values(), key=lambda g: -g.level):
            if g.level < levels:
                g.weight = _sequential([c.weight for c in g.children])


# ---------------------------------------------------------------------------------------------------
# Broken logarithms (§5.2)
# ---------------------------------------------------------------------------------------------------
def neg_ln_q64_with(c=None, round_s=False):
    """§5.2's neg_ln_q64 with other series constants `c` (C[0..len-1]) or a rounded `s`."""
    c = c or S.C

    def neg_ln_q64(m):
        e = m.bit_length() - 1
        x = m << (63 - e)
        num, den = x - TWO_63, x + TWO_63
        s = ((num << 64) + (den // 2 if round_s else 0)) // den
        t = (s * s) >> 64
        acc = c[-1]
        for cj in reversed(c[:-1]):
            acc = ((acc * t) >> 64) + cj
        return (53 - e) * S.LN2_Q64 - ((s * acc) >> 63)
    return neg_ln_q64


ROUNDED_C = [((1 << 64) + (2 * j + 1) // 2) // (2 * j + 1) for j in range(21)]


def float_ln_u(sc):
    """ln_u from the platform's double-precision log instead of the fixed-point algorithm."""
    return math.log(((sc >> 11) + 1) / TWO_53)


# ---------------------------------------------------------------------------------------------------
# The variants, what each must fail, and the runner
# ---------------------------------------------------------------------------------------------------
def _impl(**overrides):
    impl = E.spec_impl()
    for name, fn in overrides.items():
        setattr(impl, name, fn)
    return impl


@contextmanager
def nothing():
    yield


# name -> (context, impl, the rules of the file that must catch it)
VARIANTS = {
    "reversed tie": (lambda: order_variant(reversed_tie), _impl, {"tie"}),
    "signed rule-2 comparison": (lambda: order_variant(signed_tie), _impl, {"tie"}),
    "signed comparison in the equal-weight shortcut": (
        nothing, lambda: _impl(nodeset=lambda nodes, seed: SignedShortcutNodeSet(nodes, seed)), {"tie"}),
    "children's totals as group weight": (
        nothing, lambda: _impl(skeleton=lambda ns, f, lv: ChildTotalsSkeleton(ns, f, lv)), {"group-sum groups"}),
    "float log": (lambda: mock.patch.object(S, "ln_u", float_ln_u), _impl, {"ln_u"}),
    "rounded C[j]": (lambda: mock.patch.object(S, "neg_ln_q64", neg_ln_q64_with(c=ROUNDED_C)), _impl,
                     {"neg_ln_q64", "ln_u"}),
    "dropped series term C[20]": (lambda: mock.patch.object(S, "neg_ln_q64", neg_ln_q64_with(c=S.C[:20])),
                                  _impl, {"neg_ln_q64"}),
    "rounded s": (lambda: mock.patch.object(S, "neg_ln_q64", neg_ln_q64_with(round_s=True)), _impl,
                  {"neg_ln_q64", "ln_u"}),
}
for _name, _how in SUMS.items():
    VARIANTS["group sum: " + _name] = (
        nothing, (lambda how: lambda: _impl(skeleton=lambda ns, f, lv: sum_variant_skeleton(how)(ns, f, lv)))(_how),
        {"group-sum", "group-sum groups"})


def run_variant(name):
    context, make_impl, _ = VARIANTS[name]
    with context():
        return E.check_edges(make_impl())


def test_spec_passes_every_edge():
    rep = E.check_edges(E.spec_impl())
    assert rep.failures == 0, rep.summary()
    assert rep.passed > 2000


def _check_variant_fails(name):
    rep = run_variant(name)
    must = VARIANTS[name][2]
    assert must <= set(rep.failed), "%s: expected failures in %s, got %s" % (name, sorted(must), rep.summary())


def test_each_broken_variant_fails():
    for name in VARIANTS:
        _check_variant_fails(name)


def test_equal_weight_ties_leave_a_signed_comparison_unseen():
    """Equal-weight ties share their top 53 bits (§5: equal m gives equal ln_u), so their sign bit:
    a signed rule-2 comparison orders them as the unsigned one does. Only the unequal-weight ties,
    whose raw scores lie on both sides of 2^63, catch it (test_each_broken_variant_fails)."""
    v = E.load_edges()
    equal_only = dict(v, cases=[c for c in v["cases"] if c["rule"] == "tie" and "unequal" not in c["name"]])
    with order_variant(signed_tie):
        rep = E.check_edges(E.spec_impl(), equal_only)
    assert rep.failures == 0, rep.summary()
    unequal = dict(v, cases=[c for c in v["cases"] if "unequal" in c["name"]])
    assert len(unequal["cases"]) >= 2
    with order_variant(signed_tie):
        rep = E.check_edges(E.spec_impl(), unequal)
    assert rep.failures > 0


def main():
    status = 0
    rep = E.check_edges(E.spec_impl())
    print("spec reimplementation: %d passed, %d failed (%s)" % (rep.passed, rep.failures, rep.summary()))
    status |= rep.failures != 0
    for name in VARIANTS:
        rep = run_variant(name)
        must = VARIANTS[name][2]
        ok = must <= set(rep.failed)
        print("%-50s %s  fails: %s" % (name, "ok  " if ok else "MISS", rep.summary()))
        if "-v" in sys.argv:
            for what, where in sorted(rep.failed.items()):
                print("        %s: %s" % (what, "; ".join(sorted(set(where)))))
        status |= not ok
    return status


if __name__ == "__main__":
    sys.exit(main())
