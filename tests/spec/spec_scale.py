"""Independent reimplementation of longstraw's scale placement modes, written from docs/SPEC.md alone
(§10 table-v1, §11 skeleton-v1, §12 domains-v1). Builds on spec_reimpl.py (placement v1, §1-§9).

Public API:
    partition(key_hash, bits)                §10 (top `bits` bits of the key hash)
    partition_key(p)                         §10 (4-byte little-endian u32)
    partition_key_hash(p, seed)              §10
    Table(nodeset, bits)                     §10: .partition_of(key), .rank_partition(p), .rank(key),
                                                  .owner(key), .top_k(key, k)
    group_hash(level, prefix, seed)          §11.2
    Skeleton(nodeset, fanout_bits, levels)   §11: .groups (level, prefix, W) and .rank/.owner/.top_k
    top_k_distinct(ranking, domains, k)      §12 (CRUSH firstn over any mode's ranking)

Results are node indices into the node list of the NodeSet, as in spec_reimpl.
"""

import struct

import spec_reimpl as S

U64 = S.U64

# ---------------------------------------------------------------------------------------------------
# §10: partition table (table-v1)
# ---------------------------------------------------------------------------------------------------
MAX_BITS = 24


def _check_bits(bits):
    # §10: bits is an integer in [0, 24].
    if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= MAX_BITS:
        raise ValueError("bits must be an integer in [0, 24]")
    return bits


def partition(kh, bits):
    """§10: partition(key) = key_hash >> (64 - bits) if bits > 0, else 0."""
    _check_bits(bits)
    if bits == 0:
        return 0
    return (kh & U64) >> (64 - bits)


def partition_key(p):
    """§10: the 4 bytes of p as an unsigned 32-bit little-endian integer."""
    return struct.pack("<I", p)


def partition_key_hash(p, seed=0):
    """§10: XXH3_64bits_withSeed(le32(p), seed)."""
    return S.key_hash(partition_key(p), seed)


def default_bits(n):
    """§10 library default (not part of placement): clamp(ceil(log2(n)) + 6, 10, 20);
    ceil(log2(n)) = 0 for n <= 1."""
    c = 0 if n <= 1 else (n - 1).bit_length()
    return max(10, min(20, c + 6))


class Table:
    """§10 table over a v1 NodeSet. Rankings are computed on demand per partition (a partition's
    ranking is ordinary v1 placement of its 4-byte key), memoised; no full build is needed."""

    def __init__(self, nodeset, bits):
        self.ns = nodeset
        self.bits = _check_bits(bits)
        self.P = 1 << bits
        self._rows = {}

    def partition_of(self, key):
        return partition(S.key_hash(key, self.ns.seed), self.bits)

    def rank_partition(self, p):
        if not 0 <= p < self.P:
            raise ValueError("partition out of range")
        row = self._rows.get(p)
        if row is None:
            row = self._rows[p] = self.ns.rank(partition_key(p))
        return list(row)

    def rank(self, key):
        return self.rank_partition(self.partition_of(key))

    def top_k(self, key, k):
        if k < 0:
            raise ValueError("k must be non-negative")
        return self.rank(key)[:k]

    def owner(self, key):
        r = self.rank(key)
        if not r:
            raise LookupError("no eligible node")
        return r[0]


# ---------------------------------------------------------------------------------------------------
# §11: skeleton HRW (skeleton-v1)
# ---------------------------------------------------------------------------------------------------
GROUP_SEED_OFFSET = 0x5851F42D4C957F2D


def group_hash(level, prefix, seed=0):
    """§11.2: mix( mix((l << 32) | prefix) ^ (seed + 0x5851F42D4C957F2D) ), all u64."""
    return S.mix(S.mix(((level << 32) | prefix) & U64) ^ ((seed + GROUP_SEED_OFFSET) & U64))


def _race(items):
    """§6 order (also §11.3 for groups): items are (score, weight, hash, payload) with weight > 0;
    returns payloads ordered by (weighted_score, score, hash) descending."""
    keyed = [((S.ln_u(sc) / w, sc, h), payload) for sc, w, h, payload in items]
    keyed.sort(key=lambda t: t[0], reverse=True)
    return [payload for _, payload in keyed]


class _Group:
    __slots__ = ("level", "prefix", "hash", "weight", "children", "nodes")

    def __init__(self, level, prefix, ghash):
        self.level = level
        self.prefix = prefix
        self.hash = ghash
        self.weight = 0.0
        self.children = []  # child groups (level < L)
        self.nodes = []  # node indices of all descendant nodes (for W, and leaves at level L)


class Skeleton:
    """§11 skeleton over a v1 NodeSet with fanout_bits f in [1, 6] and levels L in [0, 5]."""

    def __init__(self, nodeset, fanout_bits, levels):
        if isinstance(levels, bool) or not isinstance(levels, int) or not 0 <= levels <= 5:
            raise ValueError("levels must be in [0, 5]")
        if levels > 0 and (isinstance(fanout_bits, bool) or not isinstance(fanout_bits, int)
                           or not 1 <= fanout_bits <= 6):
            raise ValueError("fanout_bits must be in [1, 6]")
        # §11: with L = 0 the skeleton is flat placement v1 and f is ignored.
        self.ns = nodeset
        self.f = fanout_bits
        self.L = levels
        seed = nodeset.seed
        self._by_key = {}  # (level, prefix) -> _Group
        self.top = []  # level-1 groups (children of the root)
        if levels == 0:
            return
        f = fanout_bits
        # §11.1: the tree is a function of node hashes alone; only non-empty groups exist.
        order = sorted(range(len(nodeset.ids)), key=lambda i: nodeset.hashes[i])  # ascending hash
        for i in order:
            nh = nodeset.hashes[i]
            parent = None
            for lvl in range(1, levels + 1):
                prefix = nh >> (64 - lvl * f)
                g = self._by_key.get((lvl, prefix))
                if g is None:
                    g = self._by_key[(lvl, prefix)] = _Group(lvl, prefix, group_hash(lvl, prefix, seed))
                    if parent is None:
                        self.top.append(g)
                    else:
                        parent.children.append(g)
                g.nodes.append(i)
                parent = g
        # §11.1: W = sum of the group's nodes' weights as f64, ascending node_hash order, from +0.0,
        # each addition correctly rounded (Python float addition). g.nodes is already in that order.
        for g in self._by_key.values():
            w = 0.0
            for i in g.nodes:
                w = w + nodeset.weights[i]
            g.weight = w

    @property
    def groups(self):
        """Every group as (level, prefix, W), in level then prefix order (as the vectors list them)."""
        return [(g.level, g.prefix, g.weight) for _, g in sorted(self._by_key.items())]

    def _rank_groups(self, kh, groups, out):
        # §11.3: every group child with W > 0 races; §6 rules with group_hash in place of node_hash.
        items = [(S.score(kh, g.hash), g.weight, g.hash, g) for g in groups if g.weight > 0.0]
        for g in _race(items):
            self._rank_group(kh, g, out)  # §11.4: ranking(C) for each child C, concatenated

    def _rank_group(self, kh, g, out):
        if g.level < self.L:
            self._rank_groups(kh, g.children, out)
        else:
            self._rank_nodes(kh, g.nodes, out)

    def _rank_nodes(self, kh, nodes, out):
        # §11.3: children of a level-L group are nodes, ordered exactly as §6 (weight 0 skipped).
        ns = self.ns
        items = [(S.score(kh, ns.hashes[i]), ns.weights[i], ns.hashes[i], i)
                 for i in nodes if ns.weights[i] != 0.0]
        out.extend(_race(items))

    def rank(self, key):
        if self.L == 0:
            return self.ns.rank(key)  # §11: L = 0 is flat placement v1
        kh = S.key_hash(key, self.ns.seed)
        out = []
        self._rank_groups(kh, self.top, out)
        return out

    def top_k(self, key, k):
        if k < 0:
            raise ValueError("k must be non-negative")
        return self.rank(key)[:k]

    def owner(self, key):
        r = self.rank(key)
        if not r:
            raise LookupError("no eligible node")
        return r[0]


# ---------------------------------------------------------------------------------------------------
# §12: failure domains (domains-v1)
# ---------------------------------------------------------------------------------------------------
MAX_LABEL_LEN = 65535


def domain_keys(labels):
    """§12: a label is 1..65535 bytes; a node without a label (None) is a domain of its own.
    Returns one hashable domain identity per node."""
    out = []
    for i, lab in enumerate(labels):
        if lab is None:
            out.append(("own", i))
        else:
            b = S.as_bytes(lab)
            if not 1 <= len(b) <= MAX_LABEL_LEN:
                raise ValueError("domain label must be 1 to 65535 bytes")
            out.append(("label", b))
    return out


def top_k_distinct(ranking, domains, k):
    """§12: walk the ranking from the start, keep a node iff no kept node has the same domain,
    stop after k kept nodes. `domains` is the output of domain_keys (indexed by node)."""
    if k < 0:
        raise ValueError("k must be non-negative")
    kept, used = [], set()
    for i in ranking:
        if len(kept) >= k:
            break
        d = domains[i]
        if d in used:
            continue
        used.add(d)
        kept.append(i)
    return kept
