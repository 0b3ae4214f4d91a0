"""The C ABI's calls, laid out in an instance's linear memory (wasm32: pointers and size_t are 4 bytes).

Each function takes an instance and handles in it, copies its arguments into the instance's scratch
buffer, calls the export and reads the out-parameters back. A failure raises the library's error
(``_errors.check``); a trap raises ``_runtime.Trap``.
"""

from __future__ import annotations

import array
import struct
from collections.abc import Sequence

from ._errors import BUFFER_TOO_SMALL, check
from ._runtime import ARGS, Instance

MODES = ("flat", "table", "skeleton")
AUTO = 255
OPTIONS_SIZE = 56
DISTINCT_DOMAINS = 1


class ModeOptions:
    """The mode and its shape: None fields are the library's defaults."""

    __slots__ = ("mode", "partition_bits", "replicas", "distinct_domains", "balance", "fanout_bits", "levels")

    def __init__(self, mode: int = 0) -> None:
        self.mode = mode
        self.partition_bits: int | None = None
        self.replicas = 1
        self.distinct_domains = False
        self.balance: float | None = None
        self.fanout_bits: int | None = None
        self.levels: int | None = None


def write_options(
    inst: Instance, seed: int | None, secret: bytes | None, placement: int, m: ModeOptions | None
) -> int:
    """longstraw_options in the scratch buffer (defaults from longstraw_options_init); its address."""
    secret_p, p = inst.put_args(secret, bytes(OPTIONS_SIZE))
    check(inst, inst.code("longstraw_options_init", p, OPTIONS_SIZE))
    b = bytearray(inst.read(p, OPTIONS_SIZE))
    struct.pack_into("<IQI", b, 4, placement, seed or 0, 0 if seed is None else 1)
    if secret is not None and len(secret) == 0:
        secret_p = p  # non-NULL with length 0: an empty secret, which the library refuses
    struct.pack_into("<III", b, 24, secret_p, len(secret) if secret is not None else 0, 0)
    if m is not None:
        struct.pack_into("<I", b, 20, m.mode)
        struct.pack_into("<IdI", b, 36, min(m.replicas, 0xFFFFFFFF), m.balance or 0.0,
                         DISTINCT_DOMAINS if m.distinct_domains else 0)
        b[52] = AUTO if m.partition_bits is None else m.partition_bits
        b[53] = AUTO if m.fanout_bits is None else m.fanout_bits
        b[54] = AUTO if m.levels is None else m.levels
    inst.write(p, b)
    return p


def _offsets(parts: Sequence[bytes]) -> bytes:
    offs = [0]
    for x in parts:
        offs.append(offs[-1] + len(x))
    return struct.pack(f"<{len(offs)}Q", *offs)


def new_set(
    inst: Instance,
    seed: int | None,
    secret: bytes | None,
    placement: int,
    m: ModeOptions,
    ids: Sequence[bytes],
    weights: Sequence[float],
    domains: Sequence[bytes | None] | None,
) -> int:
    """A set of any mode with its nodes: a flat set, its nodes added in one batch, then (for a table
    or a skeleton) the mode's set made from its snapshot, so defaults see the initial node count."""
    p = write_options(inst, seed, secret, placement, None)
    out = inst.out(0)
    check(inst, inst.code("longstraw_rendezvous_new", p, out))
    flat = inst.u32(out)
    try:
        if ids:
            add_batch(inst, flat, ids, weights, domains)
        if m.mode == 0:
            s, flat = flat, 0
            return s
        check(inst, inst.code("longstraw_rendezvous_snapshot", flat, out))
        snap = inst.u32(out)
        try:
            p = write_options(inst, None, None, placement, m)  # seed and secret come from the snapshot
            check(inst, inst.code("longstraw_rendezvous_new_from", snap, p, inst.out(0)))
            return inst.u32(inst.out(0))
        finally:
            inst.call("longstraw_snapshot_free", snap)
    finally:
        if flat:
            inst.call("longstraw_rendezvous_free", flat)


def add_batch(
    inst: Instance, s: int, ids: Sequence[bytes], weights: Sequence[float], domains: Sequence[bytes | None] | None
) -> None:
    blob = b"".join(ids)
    offs = _offsets(ids)
    ws = struct.pack(f"<{len(weights)}d", *weights)
    if domains is not None:
        if any(d is not None and not d for d in domains):
            check_label(inst, b"")
        labels = [d or b"" for d in domains]
        dblob, doffs = b"".join(labels), _offsets(labels)
    else:
        dblob, doffs = None, None
    a = inst.put_args(offs, ws, doffs, blob, dblob)
    check(inst, inst.code(
        "longstraw_rendezvous_add_batch", s, a[3], len(blob), a[0], len(ids) + 1, a[1], len(weights),
        a[4], len(dblob) if dblob is not None else 0, a[2], len(ids) + 1 if doffs is not None else 0,
    ))


def load_bytes(inst: Instance, data: bytes, origin: str, secret_path: str | None, secret: bytes | None) -> int:
    """A set from membership file content (read by the host; origin names it in errors) that reads no
    secret file, or whose secret the host has: with secret (what the first copy read, see secret_of) the
    secret source is remembered, not read again. secret_path is where the host resolved the file's
    secret.file (see _files.secret_file_path); None keeps it as written (text the module rendered)."""
    sp = None if secret_path is None else secret_path.encode() + b"\0"
    if secret is None:
        p, q, r = inst.put_args(data, origin.encode() + b"\0", sp)
        check(inst, inst.code("longstraw_wasm_load_bytes_read", p, len(data), q, r, 0, 0, 0, inst.out(0)))
    else:
        p, q, r, t = inst.put_args(data, origin.encode() + b"\0", sp, secret)
        check(inst, inst.code("longstraw_wasm_load_bytes_keyed", p, len(data), q, r, t, len(secret), inst.out(0)))
    return inst.u32(inst.out(0))


def secret_of(inst: Instance, s: int) -> bytes | None:
    """A keyed set's secret (None for an unkeyed set), to build the other copies with. Never shown."""
    code = inst.code("longstraw_wasm_rendezvous_secret", s, inst.out(0), 16)
    if code:
        return None
    return inst.read(inst.out(0), 16)


def check_label(inst: Instance, label: bytes) -> None:
    """The C ABI reads an empty label as no label; a label given empty is refused here, with the set's
    message (Python tells None, no label, from an empty one)."""
    check(inst, inst.code("longstraw_wasm_check_label", len(label)))


def add(inst: Instance, s: int, id_: bytes, w: float, domain: bytes | None) -> int:
    if domain is not None and not domain:
        check_label(inst, domain)
    if domain is None:
        (p,) = inst.put_args(id_)
        check(inst, inst.code("longstraw_rendezvous_add", s, p, len(id_), w))
    else:
        p, q = inst.put_args(id_, domain)
        check(inst, inst.code("longstraw_rendezvous_add_in_domain", s, p, len(id_), w, q, len(domain)))
    return s


def remove(inst: Instance, s: int, id_: bytes) -> int:
    (p,) = inst.put_args(id_)
    check(inst, inst.code("longstraw_rendezvous_remove", s, p, len(id_)))
    return s


def set_weight(inst: Instance, s: int, id_: bytes, w: float) -> int:
    (p,) = inst.put_args(id_)
    check(inst, inst.code("longstraw_rendezvous_set_weight", s, p, len(id_), w))
    return s


def set_domain(inst: Instance, s: int, id_: bytes, domain: bytes | None) -> int:
    if domain is not None and not domain:
        check_label(inst, domain)
    p, q = inst.put_args(id_, domain)
    check(inst, inst.code("longstraw_rendezvous_set_domain", s, p, len(id_), q, len(domain or b"")))
    return s


def save_bytes(inst: Instance, s: int, origin: str, secret_file: str | None, secret_env: str | None) -> bytes:
    a = inst.put_args(
        origin.encode() + b"\0",
        None if secret_file is None else secret_file.encode() + b"\0",
        None if secret_env is None else secret_env.encode() + b"\0",
    )
    check(inst, inst.code("longstraw_rendezvous_save_bytes", s, a[0], a[1], a[2], inst.out(0), inst.out(1)))
    p, n = inst.u32(inst.out(0)), inst.u32(inst.out(1))
    text = inst.read(p, n)
    inst.call("longstraw_bytes_free", p, n)
    return text


# -- snapshots ----------------------------------------------------------------------------------------
class Info:
    """What a snapshot says about itself, read once per version."""

    __slots__ = ("mode", "len", "eligible", "generation", "seed", "placement", "keyed", "backend",
                 "ids", "weights", "domains", "table", "skeleton", "index")

    mode: str
    len: int
    eligible: int
    generation: int
    seed: int
    placement: int
    keyed: bool
    backend: str
    ids: list[bytes]
    weights: list[float]
    domains: list[bytes | None] | None
    table: tuple[int, int, bool, float | None] | None
    skeleton: tuple[int, int] | None
    index: dict[bytes, int]


def info(inst: Instance, h: int) -> Info:
    o = inst.out
    i = Info()
    check(inst, inst.code("longstraw_snapshot_mode", h, o(0)))
    i.mode = MODES[inst.u32(o(0))]
    check(inst, inst.code("longstraw_snapshot_len", h, o(0)))
    n = i.len = inst.u32(o(0))
    check(inst, inst.code("longstraw_snapshot_eligible", h, o(0)))
    i.eligible = inst.u32(o(0))
    check(inst, inst.code("longstraw_snapshot_generation", h, o(0)))
    i.generation = inst.u64(o(0))
    check(inst, inst.code("longstraw_snapshot_seed", h, o(0)))
    i.seed = inst.u64(o(0))
    check(inst, inst.code("longstraw_snapshot_placement", h, o(0)))
    i.placement = inst.u32(o(0))
    check(inst, inst.code("longstraw_snapshot_is_keyed", h, o(0)))
    i.keyed = inst.u32(o(0)) != 0
    check(inst, inst.code("longstraw_snapshot_backend", h, o(0)))
    i.backend = inst.cstring(inst.u32(o(0))).decode()
    i.table = i.skeleton = None
    if i.mode == "table":
        check(inst, inst.code("longstraw_snapshot_table_shape", h, o(0), o(1), o(2), o(3)))
        bal = inst.f64(o(3))
        i.table = (inst.read(o(0), 1)[0], inst.u32(o(1)), inst.u32(o(2)) & DISTINCT_DOMAINS != 0, bal or None)
    elif i.mode == "skeleton":
        check(inst, inst.code("longstraw_snapshot_skeleton_shape", h, o(0), o(1)))
        sb = inst.read(o(0), 9)
        i.skeleton = (sb[0], sb[8])
    check(inst, inst.code("longstraw_wasm_snapshot_members", h, o(0), o(1)))
    p, size = inst.u32(o(0)), inst.u32(o(1))
    try:
        raw = inst.read(p, size)
    finally:
        inst.call("longstraw_wasm_free", p, size)
    ids: list[bytes] = []
    weights: list[float] = []
    labels: list[bytes | None] = []
    labelled = False
    at = 0
    unpack = struct.unpack_from
    for _ in range(n):
        (ln,) = unpack("<I", raw, at)
        at += 4
        ids.append(raw[at : at + ln])
        at += ln
        w, dl = unpack("<dI", raw, at)
        at += 12
        weights.append(w)
        if dl:
            labelled = True
            labels.append(raw[at : at + dl])
            at += dl
        else:
            labels.append(None)
    i.ids, i.weights = ids, weights
    i.domains = labels if labelled else None
    i.index = {b: k for k, b in enumerate(ids)}
    return i


def owner(inst: Instance, h: int, key: bytes) -> int:
    (p,) = inst.put_args(key)
    o = inst.scratch
    code = inst.code("longstraw_snapshot_owner", h, p, len(key), o, o + 8, o + 16)
    if code:
        check(inst, code)
    return inst.u32(o)


def top_k(inst: Instance, h: int, key: bytes, k: int, distinct: bool) -> list[int]:
    kp, outp = inst.put_args(key, bytes(4 * k))
    name = "longstraw_snapshot_top_k_distinct" if distinct else "longstraw_snapshot_top_k"
    check(inst, inst.code(name, h, kp, len(key), outp, k, inst.out(0)))
    n = inst.u32(inst.out(0))
    return list(struct.unpack(f"<{n}I", inst.read(outp, 4 * n)))


def partition(inst: Instance, h: int, key: bytes) -> int:
    (p,) = inst.put_args(key)
    check(inst, inst.code("longstraw_snapshot_partition", h, p, len(key), inst.out(0)))
    return inst.u32(inst.out(0))


def owners(inst: Instance, h: int, blob: bytes, offsets: bytes | array.array[int], n: int) -> bytes:
    """The owner index of each of n keys (blob + n+1 u64 offsets, little-endian) as n little-endian u32."""
    size = len(offsets) if isinstance(offsets, bytes) else offsets.itemsize * len(offsets)
    base = inst.grow(size + 4 * n + len(blob)) + ARGS
    offp, outp, keyp = base, base + size, base + size + 4 * n
    inst.write(offp, offsets)
    inst.write(keyp, blob)
    check(inst, inst.code("longstraw_snapshot_owners", h, keyp, len(blob), offp, n + 1, outp, n))
    return inst.read(outp, 4 * n)


def index_of(inst: Instance, h: int, id_: bytes) -> int | None:
    (p,) = inst.put_args(id_)
    code = inst.code("longstraw_snapshot_index_of", h, p, len(id_), inst.out(0))
    if code:
        return None
    return inst.u32(inst.out(0))


__all__ = ["BUFFER_TOO_SMALL"]
