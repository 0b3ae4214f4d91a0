"""Independent reimplementation of longstraw placement v1, written from docs/SPEC.md alone.

Pure Python apart from the PyPI ``xxhash`` package (XXH3-64, SPEC §3). Integers are Python ints, so
every u64 operation is masked explicitly (SPEC "Notation": u64 arithmetic wraps modulo 2^64), and the
fixed-point logarithm of §5.2 uses unbounded ints with the same floor semantics the spec states.

Public API:
    key_hash(key, seed)                      §3
    node_hash(node_id, seed)                 §3
    mix(z)                                   §4
    score(key_hash, node_hash)               §4
    neg_ln_q64(m)                            §5.2 (fixed point)
    ln_u(score)                              §5.2 (f64)
    weighted_score(score, weight)            §5.1
    validate_weight(w)                       §2
    NodeSet(nodes, seed)                     §1, §2 (ids, weights, node hashes)
        .owner(key), .top_k(key, k), .rank(key)      §6, §7
"""

import math
import struct

import xxhash

PLACEMENT_VERSION = 1

U64 = (1 << 64) - 1  # SPEC "Notation": u64 arithmetic wraps modulo 2^64.


# ---------------------------------------------------------------------------------------------------
# §1: text is encoded as UTF-8; a string that cannot be encoded (lone surrogate) is an error.
# ---------------------------------------------------------------------------------------------------
def as_bytes(value):
    if isinstance(value, str):
        # strict: a lone surrogate raises UnicodeEncodeError (never replaced).
        return value.encode("utf-8", "strict")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError("key / node id must be bytes or str")


def _check_seed(seed):
    # §2: seed is any u64.
    if not isinstance(seed, int) or not 0 <= seed <= U64:
        raise ValueError("seed must be a u64")
    return seed


# ---------------------------------------------------------------------------------------------------
# §3: key hash and node hash (XXH3_64bits_withSeed).
# ---------------------------------------------------------------------------------------------------
NODE_SEED_OFFSET = 0x9E3779B97F4A7C15


def key_hash(key, seed=0):
    """§3: key_hash(key) = XXH3_64bits_withSeed(key, seed)."""
    return xxhash.xxh3_64_intdigest(as_bytes(key), seed=_check_seed(seed))


def node_hash(node_id, seed=0):
    """§3: node_hash(id) = XXH3_64bits_withSeed(id, seed + 0x9E3779B97F4A7C15), addition mod 2^64."""
    return xxhash.xxh3_64_intdigest(
        as_bytes(node_id), seed=(_check_seed(seed) + NODE_SEED_OFFSET) & U64
    )


# ---------------------------------------------------------------------------------------------------
# §4: pair score.
# ---------------------------------------------------------------------------------------------------
def mix(z):
    """§4: Stafford Mix13 / SplitMix64 finalizer; all u64, multiplication mod 2^64."""
    z &= U64
    z ^= z >> 30
    z = (z * 0xBF58476D1CE4E5B9) & U64
    z ^= z >> 27
    z = (z * 0x94D049BB133111EB) & U64
    z ^= z >> 31
    return z


def score(kh, nh):
    """§4: score(key, node) = mix(key_hash(key) ^ node_hash(node))."""
    return mix(kh ^ nh)


# ---------------------------------------------------------------------------------------------------
# §5.2: ln_u, fixed-point natural logarithm.
# ---------------------------------------------------------------------------------------------------
LN2_Q64 = 0xB17217F7D1CF79AC  # round(ln(2) * 2^64)
assert LN2_Q64 == 12786308645202655660
C = [(1 << 64) // (2 * j + 1) for j in range(21)]  # C[j] = floor(2^64 / (2j + 1)), j = 0..20
assert C[0] == 1 << 64
TWO_63 = 1 << 63
TWO_53 = 1 << 53
_TWO_M64 = 2.0 ** -64  # exact power of two; multiplying by it is exact (§5.2)


def neg_ln_q64(m):
    """§5.2: ~ 2^64 * -ln(m / 2^53) for m in [1, 2^53], as a non-negative integer < 2^70."""
    if not 1 <= m <= TWO_53:
        raise ValueError("m out of range [1, 2^53]")
    e = m.bit_length() - 1  # floor(log2(m)): index of the highest set bit, 0..53
    X = m << (63 - e)  # in [2^63, 2^64): x = X / 2^63 in [1, 2)
    num = X - TWO_63
    den = X + TWO_63  # < 2^65
    s = (num << 64) // den  # floor(2^64 (x-1)/(x+1)), < 2^64/3
    t = (s * s) >> 64
    acc = C[20]
    for j in range(19, -1, -1):  # j = 19, 18, ..., 0 (Horner)
        acc = ((acc * t) >> 64) + C[j]
    ln_x = (s * acc) >> 63  # ~ 2^64 ln(x) = 2^64 * 2 atanh(s / 2^64)
    return (53 - e) * LN2_Q64 - ln_x


def ln_u(sc):
    """§5.2: ln_u(score), an f64 approximating ln(u) with u = ((score >> 11) + 1) / 2^53."""
    q = neg_ln_q64((sc >> 11) + 1)
    if q == 0:
        return 0.0  # +0.0, only when m = 2^53 (u = 1)
    # to_f64(q): nearest f64, ties to even -- Python's int -> float conversion is correctly rounded.
    return -(float(q) * _TWO_M64)


# ---------------------------------------------------------------------------------------------------
# §2: weight validation.
# ---------------------------------------------------------------------------------------------------
_W_MIN = 2.0 ** -64
_W_MAX = 2.0 ** 64


def validate_weight(w):
    """§2: +0.0, or a finite f64 in [2^-64, 2^64]. NaN, inf, negative (incl. -0.0), subnormal,
    below 2^-64 or above 2^64 is an error. Nothing is rounded or clamped. Returns w unchanged."""
    if isinstance(w, bool) or not isinstance(w, (float, int)):
        raise TypeError("weight must be a number")
    if isinstance(w, int):
        f = float(w)
        if f != w:  # "Nothing is rounded": an int that is not exactly an f64 is rejected.
            raise ValueError("weight is not exactly representable as f64")
        w = f
    if math.isnan(w) or math.isinf(w):
        raise ValueError("weight must be finite")
    if w == 0.0:
        if math.copysign(1.0, w) < 0:
            raise ValueError("weight -0.0 is not allowed")
        return 0.0
    if w < 0.0:
        raise ValueError("weight must not be negative")
    if not _W_MIN <= w <= _W_MAX:  # also excludes every subnormal (all < 2^-1022 < 2^-64)
        raise ValueError("weight outside [2^-64, 2^64]")
    return w


def weight_from_bits(hex16):
    """Vectors encode weights as their f64 bit pattern (16 hex digits, SPEC §9)."""
    return struct.unpack(">d", bytes.fromhex(hex16))[0]


# ---------------------------------------------------------------------------------------------------
# §5.1 weighted score and §6 total order.
# ---------------------------------------------------------------------------------------------------
def weighted_score(sc, w):
    """§5.1: ln_u(score) / w, one f64 division. Only defined for eligible nodes (w != 0)."""
    return ln_u(sc) / w


def order_key(sc, w, nh):
    """§6: rank descending by (weighted_score, score, node_hash). weighted_score is never NaN and
    only +0.0 occurs as zero, so Python float comparison is the IEEE comparison the spec wants."""
    return (weighted_score(sc, w), sc, nh)


# ---------------------------------------------------------------------------------------------------
# §1, §2, §7: a node set and its operations.
# ---------------------------------------------------------------------------------------------------
MAX_ID_LEN = 65535
MAX_NODES = (1 << 32) - 1


class NodeSet:
    """A node set: list of (id, weight) plus seed. Results are indices into the given node list."""

    def __init__(self, nodes=(), seed=0, version=PLACEMENT_VERSION):
        if version != PLACEMENT_VERSION:
            raise ValueError("only placement v1 is implemented")
        self.seed = _check_seed(seed)
        self.ids = []
        self.weights = []
        self.hashes = []
        self._id_set = set()
        self._hash_set = set()
        for node_id, w in nodes:
            self.add(node_id, w)

    def add(self, node_id, w):
        """§2: ids 1..65535 bytes, pairwise distinct; node hashes pairwise distinct (a node whose
        hash equals another's is rejected when it joins); weight validated; at most 2^32-1 nodes."""
        b = as_bytes(node_id)
        if not 1 <= len(b) <= MAX_ID_LEN:
            raise ValueError("node id must be 1 to 65535 bytes")
        if b in self._id_set:
            raise ValueError("duplicate node id")
        if len(self.ids) >= MAX_NODES:
            raise ValueError("too many nodes")
        w = validate_weight(w)
        nh = node_hash(b, self.seed)  # §3: computed once, when the node joins
        if nh in self._hash_set:
            raise ValueError("node hash collides with an existing node")
        self.ids.append(b)
        self.weights.append(w)
        self.hashes.append(nh)
        self._id_set.add(b)
        self._hash_set.add(nh)
        return len(self.ids) - 1

    def rank(self, key):
        """§7 rank: every eligible (non-zero weight) node, in the §6 order."""
        kh = key_hash(key, self.seed)
        keyed = []
        for i, (w, nh) in enumerate(zip(self.weights, self.hashes)):
            if w == 0.0:
                continue  # drained: never appears in any ranking (§1, §2)
            keyed.append((order_key(score(kh, nh), w, nh), i))
        keyed.sort(reverse=True)  # keys are distinct in a valid set (§6 step 3 never reached)
        return [i for _, i in keyed]

    def top_k(self, key, k):
        """§7 top_k: first min(k, eligible) nodes of the ranking."""
        if k < 0:
            raise ValueError("k must be non-negative")
        if k == 0:
            return []
        return self.rank(key)[:k]

    def owner(self, key):
        """§7 owner: first node of the ranking; an error when no node is eligible."""
        r = self.rank(key)
        if not r:
            raise LookupError("no eligible node")
        return r[0]
