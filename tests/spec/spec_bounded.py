"""Independent reimplementation of bounded loads (docs/SPEC.md §16), single-threaded, written from the
spec text alone, on top of spec_reimpl.py (§1-§9) and spec_keyed.py (§15).

Public API:
    weight_sum(weights)                        §16.1: W, the f64 nearest the exact sum of the weights
    BoundedSet(nodes, factor, seed=0, secret=None)
        .acquire(key) -> Lease                 §16.1 (LookupError when no node is eligible)
        .release(lease)
        .add(id, w), .remove(id), .set_weight(id, w)
        .in_flight, .load_of(id)
    run_script(case) -> ops with expectations  drives a bounded-v1.json case

Knobs for the deliberately wrong variants that tests/spec/test_spec_bounded.py must see fail:
    BoundedSet.w_sum     how W is computed (default: weight_sum)
    BoundedSet.t_extra   what is added to `total` to get T (default 1: the request itself)

It is a model: every acquire ranks every node.
"""

import math
from fractions import Fraction

import spec_keyed as K
import spec_reimpl as S

MIN_FACTOR = 1.0 + 2.0 ** -16


def validate_factor(c):
    """§16.1: c is a finite f64 of at least 1 + 2^-16."""
    c = float(c)
    if not math.isfinite(c) or c < MIN_FACTOR:
        raise ValueError("balance factor must be finite and at least 1 + 2^-16")
    return c


def weight_sum(weights):
    """§16.1: W = the f64 nearest to the exact real sum of the eligible weights (ties to even). A
    weight's Fraction is its exact value; float(Fraction) rounds correctly, ties to even."""
    return float(sum((Fraction(w) for w in weights if w != 0.0), Fraction(0)))


class _Node:
    """One node of the set, with its own in-flight counter (§16.1: a removed node's counter is
    private, and a node added again under the same id starts a new one)."""

    def __init__(self, node_id, weight, nh):
        self.id = node_id
        self.weight = weight
        self.hash = nh
        self.load = 0


class Lease:
    def __init__(self, node, owner):
        self.node = node
        self.node_id = node.id
        self.owner = owner
        self.released = False


class BoundedSet:
    """§16 with one thread: acquire is exact (§16.3's last paragraph)."""

    t_extra = 1

    def __init__(self, nodes=(), factor=1.25, seed=0, secret=None):
        self.factor = validate_factor(factor)
        self.seed = S._check_seed(seed)
        self.derived = K.Derived(secret) if secret is not None else None
        self.nodes = []  # insertion order (removal keeps the others' order); §1: order never matters
        self.total = 0
        for node_id, w in nodes:
            self.add(node_id, w)

    # --- hashes (§3, or §15.2 with a secret) -------------------------------------------------------
    def _key_hash(self, key):
        if self.derived is not None:
            return K.siphash24(self.derived.secret, S.as_bytes(key))
        return S.key_hash(key, self.seed)

    def _node_hash(self, node_id):
        if self.derived is not None:
            return K.siphash24(self.derived.node_key, node_id)
        return S.node_hash(node_id, self.seed)

    # --- membership (§2) ---------------------------------------------------------------------------
    def _find(self, node_id):
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError("unknown node")

    def add(self, node_id, w):
        b = S.as_bytes(node_id)
        if not 1 <= len(b) <= S.MAX_ID_LEN:
            raise ValueError("node id must be 1 to 65535 bytes")
        if any(n.id == b for n in self.nodes):
            raise ValueError("duplicate node id")
        nh = self._node_hash(b)
        if any(n.hash == nh for n in self.nodes):
            raise ValueError("node hash collides with an existing node")
        self.nodes.append(_Node(b, S.validate_weight(w), nh))

    def remove(self, node_id):
        n = self._find(S.as_bytes(node_id))
        self.nodes.remove(n)  # its leases keep their counter and still count in total

    def set_weight(self, node_id, w):
        self._find(S.as_bytes(node_id)).weight = S.validate_weight(w)

    def w_sum(self, weights):
        return weight_sum(weights)

    # --- §16.1 -------------------------------------------------------------------------------------
    def rank(self, key):
        kh = self._key_hash(key)
        keyed = [(S.order_key(S.score(kh, n.hash), n.weight, n.hash), k)
                 for k, n in enumerate(self.nodes) if n.weight != 0.0]
        keyed.sort(reverse=True)
        return [self.nodes[k] for _, k in keyed]

    def may_take(self, node, W):
        """load_i + 1 <= ceil(share_i * T), T = total + 1, share_i = c * (w_i / W): the same as
        load_i < share_i * T for an integer load, compared in f64."""
        if node.weight == 0.0:
            return False
        share = self.factor * (node.weight / W)
        T = float(self.total + self.t_extra)
        return float(node.load) < share * T

    def acquire(self, key):
        ranking = self.rank(key)
        if not ranking:
            raise LookupError("no eligible node")  # nothing changes: total stays as it was
        W = self.w_sum([n.weight for n in self.nodes])
        for r, node in enumerate(ranking):
            if self.may_take(node, W):
                node.load += 1
                self.total += 1
                return Lease(node, r == 0)
        raise AssertionError("§16.3: some eligible node always has room")

    def release(self, lease):
        if lease.released:
            raise ValueError("lease released twice")
        lease.released = True
        lease.node.load -= 1
        self.total -= 1

    @property
    def in_flight(self):
        return self.total


def build(case, cls=BoundedSet):
    """A BoundedSet (or a variant class) for a bounded-v1.json case."""
    nodes = [(bytes.fromhex(n["id_hex"]), S.weight_from_bits(n["weight_bits"])) for n in case["nodes"]]
    factor = S.weight_from_bits(case["balance_factor_bits"])
    if case.get("secret_hex") is not None:
        return cls(nodes, factor, secret=bytes.fromhex(case["secret_hex"]))
    return cls(nodes, factor, seed=int(case["seed"]))


def run_script(case, cls=BoundedSet):
    """Runs a case's ops and returns what the spec says: per op, the acquired node's id (hex, or None
    when no node is eligible; only for acquires) and the in-flight total after it."""
    b = build(case, cls)
    leases = {}
    out = []
    for i, op in enumerate(case["ops"]):
        kind = op["op"]
        node_hex = None
        if kind == "acquire":
            try:
                lease = b.acquire(bytes.fromhex(op["key_hex"]))
            except LookupError:
                pass
            else:
                leases[i] = lease
                node_hex = lease.node_id.hex()
        elif kind == "release":
            b.release(leases.pop(op["acquire"]))
        elif kind == "add":
            b.add(bytes.fromhex(op["id_hex"]), S.weight_from_bits(op["weight_bits"]))
        elif kind == "remove":
            b.remove(bytes.fromhex(op["id_hex"]))
        elif kind == "set_weight":
            b.set_weight(bytes.fromhex(op["id_hex"]), S.weight_from_bits(op["weight_bits"]))
        else:
            raise ValueError("unknown op %r" % kind)
        out.append({"node_hex": node_hex, "in_flight": b.in_flight} if kind == "acquire"
                   else {"in_flight": b.in_flight})
    return out
