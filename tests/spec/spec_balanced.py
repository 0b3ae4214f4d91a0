"""Independent reimplementation of longstraw's balanced partition table (table-balanced-v1), written
from docs/SPEC.md §17 alone, on top of spec_reimpl.py (§1-§9) and spec_scale.py (§10).

Public API:
    balance_millionths(b)                          §17 (float balance -> integer millionths)
    caps(weights, bits, millionths)                §17.2 (exact, with fractions)
    BalancedTable(nodeset, bits, replicas, millionths)
        .rows, .over_cap                           §17.4 (the greedy over all pairs, then leftovers)
        .partition_of(key), .list(key), .owner(key), .top_k(key, k)    §17.5
        .top_k_distinct(key, domains, k)                                §17.5 (§12 over the row)

A BalancedTable over a spec_keyed.KeyedNodeSet uses the keyed hashes (§15.3).

It is a model, not a fast implementation: the greedy sorts all P * n pairs.
"""

from fractions import Fraction

import spec_reimpl as S
import spec_scale as X

MIN_B = 1_000_000
MAX_B = 4_000_000
MAX_REPLICAS = 32


def balance_millionths(b):
    """§17: B = floor(b * 1e6 + 0.5), one IEEE multiplication then exact rounding half up."""
    scaled = float(b) * 1e6
    if scaled != scaled or not (MIN_B - 0.5 <= scaled < MAX_B + 0.5):
        raise ValueError("balance must be in [1, 4]")
    return int(Fraction(scaled) + Fraction(1, 2))


def caps(weights, bits, millionths):
    """§17.2: cap_i = ceil(B * P * w_i / (10^6 * W)), W the exact real sum of the weights."""
    if not MIN_B <= millionths <= MAX_B:
        raise ValueError("balance out of range")
    P = 1 << X._check_bits(bits)
    exact = [Fraction(w) for w in weights]  # a float's Fraction is its exact value
    total = sum(exact, Fraction(0))
    out = []
    for w in exact:
        if w == 0:
            out.append(0)
            continue
        q = Fraction(millionths * P) * w / (1_000_000 * total)
        out.append(-((-q.numerator) // q.denominator))  # ceil
    return out


class BalancedTable:
    """§17 over a v1 NodeSet."""

    def __init__(self, nodeset, bits, replicas, millionths):
        if isinstance(replicas, bool) or not isinstance(replicas, int) or not 1 <= replicas <= MAX_REPLICAS:
            raise ValueError("replicas must be in [1, 32]")
        self.ns = nodeset
        self.bits = X._check_bits(bits)
        self.P = 1 << bits
        self.R = replicas
        self.cap = caps(nodeset.weights, bits, millionths)
        eligible = [i for i, w in enumerate(nodeset.weights) if w != 0.0]
        # §17.1 / §17.3: every pair with its order key; sorting the keys ascending puts pairs in order.
        pairs = []
        for p in range(self.P):
            kh = self._key_hash(X.partition_key(p))
            for i in eligible:
                sc = S.score(kh, nodeset.hashes[i])
                ws = S.weighted_score(sc, nodeset.weights[i])
                pairs.append(((-ws, -sc, -nodeset.hashes[i], p), p, i))
        pairs.sort()
        rankings = [nodeset.rank(X.partition_key(p)) for p in range(self.P)]
        rows = [[] for _ in range(self.P)]
        self.over_cap = 0
        for r in range(min(replicas, len(eligible))):
            load = [0] * len(nodeset.weights)
            # §17.4 step 1: the greedy.
            for _, p, i in pairs:
                if len(rows[p]) == r and i not in rows[p] and load[i] < self.cap[i]:
                    rows[p].append(i)
                    load[i] += 1
            # §17.4 step 2: leftovers take their best allowed node over its cap.
            for p in range(self.P):
                if len(rows[p]) == r:
                    allowed = [i for i in rankings[p] if i not in rows[p]]
                    if allowed:
                        rows[p].append(allowed[0])
                        self.over_cap += 1
        self.rows = rows

    def _key_hash(self, key):
        """§3's key hash, or §15.2's keyed one for a keyed node set (§15.3: a keyed table takes the keyed
        key hash for partition(key) and partition_key_hash(p))."""
        if hasattr(self.ns, "derived"):
            return self.ns.key_hash(key)
        return S.key_hash(key, self.ns.seed)

    def partition_of(self, key):
        return X.partition(self._key_hash(key), self.bits)

    def top_k_distinct(self, key, domains, k):
        """§17.5: §12's filter over the partition's row (the row is the whole list), `domains` as
        spec_scale.domain_keys gives them."""
        return X.top_k_distinct(self.list(key), domains, k)

    def list(self, key):
        """§17.5: the partition's row is the whole list."""
        return list(self.rows[self.partition_of(key)])

    def top_k(self, key, k):
        if k < 0:
            raise ValueError("k must be non-negative")
        return self.list(key)[:k]

    def owner(self, key):
        row = self.list(key)
        if not row:
            raise LookupError("no eligible node")
        return row[0]
