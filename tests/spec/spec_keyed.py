"""Independent reimplementation of keyed placement (keyed-v1, docs/SPEC.md §15), written from the spec
text alone, on top of spec_reimpl.py (§1-§9) and spec_scale.py (§10-§12). The PRF is SipHash-2-4 from
the PyPI `siphash24` package (not longstraw's code).

Public API:
    siphash24(key16, data)               the PRF, as a u64 (little-endian digest)
    Derived(secret)                      §15.2: .node_key (16 bytes), .group_seed (u64)
    key_hash(key, secret)                §15.2
    node_hash(node_id, secret)           §15.2
    partition_key_hash(p, secret)        §15.3 (§10 with the keyed key hash)
    group_hash(level, prefix, secret)    §15.3 (§11.2 with the group seed)
    KeyedNodeSet(nodes, secret)          a §7 node set whose hashes are keyed
    KeyedTable(nodeset, bits)            §10 over a KeyedNodeSet
    KeyedSkeleton(nodeset, f, L)         §11 over a KeyedNodeSet
"""

from siphash24 import siphash24 as _siphash24

import spec_reimpl as S
import spec_scale as X

SECRET_LEN = 16  # §15.1: the secret is SipHash-2-4's 128-bit key, exactly 16 bytes
NODE_KEY_LABELS = (b"longstraw/keyed-v1/node-key/0", b"longstraw/keyed-v1/node-key/1")
GROUP_SEED_LABEL = b"longstraw/keyed-v1/group-seed"


def _check_secret(secret):
    if not isinstance(secret, (bytes, bytearray)) or len(secret) != SECRET_LEN:
        raise ValueError("a keyed-v1 secret is exactly 16 bytes")
    return bytes(secret)


def siphash24(key16, data):
    """SipHash-2-4 with the reference key encoding; the 8-byte output read as a little-endian u64."""
    return int.from_bytes(_siphash24(bytes(data), key=bytes(key16)).digest(), "little")


class Derived:
    """§15.2: node_key = le64(PRF_K(label0)) || le64(PRF_K(label1)); group_seed = PRF_K(label)."""

    def __init__(self, secret):
        k = _check_secret(secret)
        self.secret = k
        self.node_key = b"".join(siphash24(k, label).to_bytes(8, "little") for label in NODE_KEY_LABELS)
        self.group_seed = siphash24(k, GROUP_SEED_LABEL)


def key_hash(key, secret):
    """§15.2: key_hash(key) = SipHash-2-4(K, key)."""
    return siphash24(_check_secret(secret), S.as_bytes(key))


def node_hash(node_id, secret):
    """§15.2: node_hash(id) = SipHash-2-4(node_key, id)."""
    return siphash24(Derived(secret).node_key, S.as_bytes(node_id))


def partition_key_hash(p, secret):
    """§15.3: §10's partition key hash is the keyed key hash of le32(p)."""
    return key_hash(X.partition_key(p), secret)


def group_hash(level, prefix, secret):
    """§15.3: §11.2's group hash with the group seed in place of the seed."""
    return X.group_hash(level, prefix, Derived(secret).group_seed)


class KeyedNodeSet(S.NodeSet):
    """A §7 node set whose key and node hashes are §15.2's. Everything after the hashes (§4-§7) is
    spec_reimpl's v1 code."""

    def __init__(self, nodes=(), secret=None):
        self.derived = Derived(secret)
        super().__init__((), seed=0)
        # §15.3: the group seed takes the seed's place in §11.2; spec_scale.Skeleton reads it from
        # `.seed`. No other reader of `.seed` remains: add() and rank() below use the keyed hashes.
        self.seed = self.derived.group_seed
        for node_id, w in nodes:
            self.add(node_id, w)

    def key_hash(self, key):
        return siphash24(self.derived.secret, S.as_bytes(key))

    def add(self, node_id, w):
        b = S.as_bytes(node_id)
        if not 1 <= len(b) <= S.MAX_ID_LEN:
            raise ValueError("node id must be 1 to 65535 bytes")
        if b in self._id_set:
            raise ValueError("duplicate node id")
        w = S.validate_weight(w)
        nh = siphash24(self.derived.node_key, b)
        if nh in self._hash_set:
            raise ValueError("node hash collides with an existing node")
        self.ids.append(b)
        self.weights.append(w)
        self.hashes.append(nh)
        self._id_set.add(b)
        self._hash_set.add(nh)
        return len(self.ids) - 1

    def rank(self, key):
        kh = self.key_hash(key)
        keyed = [(S.order_key(S.score(kh, nh), w, nh), i)
                 for i, (w, nh) in enumerate(zip(self.weights, self.hashes)) if w != 0.0]
        keyed.sort(reverse=True)
        return [i for _, i in keyed]


class KeyedTable(X.Table):
    """§10 over a KeyedNodeSet: partition(key) takes the keyed key hash's top bits; each partition is
    ranked as the KeyedNodeSet ranks its 4-byte key (X.Table.rank_partition does exactly that)."""

    def partition_of(self, key):
        return X.partition(self.ns.key_hash(key), self.bits)


class KeyedSkeleton(X.Skeleton):
    """§11 over a KeyedNodeSet: the tree uses keyed node hashes and group hashes under the group
    seed (both via the node set); the races use the keyed key hash."""

    def rank(self, key):
        if self.L == 0:
            return self.ns.rank(key)
        out = []
        self._rank_groups(self.ns.key_hash(key), self.top, out)
        return out
