"""longstraw as pymemcache's hasher, against real memcached servers on loopback.

Three servers, keys set through HashClient, one server stopped: every key
whose server survived must still hit. The same run with a `hash mod n`
hasher shows what a modulo client loses.
"""

import os
import shutil
import socket
import subprocess
import time
import zlib

import pytest

from longstraw import Rendezvous
from longstraw.pymemcache import LongstrawHash

pymemcache = pytest.importorskip("pymemcache")
from pymemcache.client.base import Client  # noqa: E402
from pymemcache.client.hash import HashClient  # noqa: E402

MEMCACHED = shutil.which("memcached") or (
    "/usr/bin/memcached" if os.path.exists("/usr/bin/memcached") else None
)
KEYS = [f"user:{i}" for i in range(3000)]


class ModuloHash:
    """What a naive client does: crc32(key) mod the number of servers."""

    def __init__(self):
        self.nodes = []

    def add_node(self, node):
        if node not in self.nodes:
            self.nodes.append(node)

    def remove_node(self, node):
        self.nodes.remove(node)

    def get_node(self, key):
        if not self.nodes:
            return None
        data = key.encode() if isinstance(key, str) else key
        return self.nodes[zlib.crc32(data) % len(self.nodes)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_memcached():
    port = free_port()
    cmd = [MEMCACHED, "-l", "127.0.0.1", "-p", str(port), "-U", "0", "-m", "16", "-t", "1"]
    if os.geteuid() == 0:
        cmd += ["-u", "root"]  # memcached refuses to run as root otherwise
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"memcached exited: {proc.stderr.read().decode()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"memcached did not listen on port {port}")


@pytest.fixture
def servers(request):
    if MEMCACHED is None:
        pytest.skip(
            "SKIPPED LOUDLY: memcached is not installed (make prereqs installs it); "
            "the pymemcache integration did not run"
        )
    procs = []

    def start(n):
        out = []
        for _ in range(n):
            proc, port = start_memcached()
            procs.append(proc)
            out.append((proc, ("127.0.0.1", port)))
        return out

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def scenario(servers, hasher):
    """Sets KEYS through a HashClient, stops the first server, reads back.
    Returns (owner before, hit or not) per key, and the stopped server's name."""
    addrs = [addr for _, addr in servers]
    client = HashClient(
        addrs,
        hasher=hasher,
        connect_timeout=1,
        timeout=1,
        retry_attempts=0,  # the first failure takes a server out of the hash
        dead_timeout=3600,
        ignore_exc=True,
    )
    before = {}
    for i, key in enumerate(KEYS):
        client.set(key, str(i).encode(), noreply=False)
        before[key] = client.hasher.get_node(key)
    # The keys really are where the hasher said.
    for (host, port) in addrs:
        direct = Client((host, port))
        mine = [k for k in KEYS if before[k] == f"{host}:{port}"]
        assert mine, "every server got keys"
        got = direct.get_many(mine[:200])
        assert len(got) == len(mine[:200])
        direct.close()
    victim_proc, (host, port) = servers[0]
    victim = f"{host}:{port}"
    victim_proc.kill()
    victim_proc.wait()
    hits = {}
    for i, key in enumerate(KEYS):
        value = client.get(key)
        hits[key] = value == str(i).encode()
    assert victim not in client.hasher.nodes if hasattr(client.hasher, "nodes") else True
    client.close()
    return before, hits, victim


def test_only_the_stopped_servers_keys_miss(servers, capsys):
    before, hits, victim = scenario(servers(3), LongstrawHash)
    lost = [k for k in KEYS if before[k] == victim]
    kept = [k for k in KEYS if before[k] != victim]
    # 3000 keys over 3 servers: each share is 1000 +- 26 (1 sd); 20%..47% is > 10 sd.
    assert 0.20 * len(KEYS) < len(lost) < 0.47 * len(KEYS)
    assert all(hits[k] for k in kept), "a key on a surviving server missed"
    assert not any(hits[k] for k in lost), "a key of the stopped server cannot hit"

    m_before, m_hits, m_victim = scenario(servers(3), ModuloHash)
    m_kept = [k for k in KEYS if m_before[k] != m_victim]
    m_hit_kept = sum(m_hits[k] for k in m_kept)

    ratio = sum(hits.values()) / len(KEYS)
    m_ratio = sum(m_hits.values()) / len(KEYS)
    with capsys.disabled():
        print(
            f"\n[pymemcache] 3 memcached, {len(KEYS)} keys, 1 server stopped: "
            f"hit ratio longstraw {ratio:.3f} ({len(kept)}/{len(kept)} keys on survivors hit), "
            f"modulo {m_ratio:.3f} ({m_hit_kept}/{len(m_kept)} keys on survivors hit)"
        )
    # Modulo keeps a key only if crc % 3 == crc % 2 maps it to the same server:
    # about 1/3 of all keys (sd ~0.9%); longstraw keeps every survivor's key (~2/3).
    assert m_ratio < 0.45
    assert ratio > m_ratio + 0.15


def test_hasher_protocol_without_servers():
    h = LongstrawHash()
    assert h.get_node("k") is None
    h.add_node("a:1")
    h.add_node("a:1")  # HashClient re-adds revived servers
    h.add_node("b:2")
    assert h.nodes == ["a:1", "b:2"]
    r = Rendezvous(["a:1", "b:2"])
    assert all(h.get_node(k) == r.owner(k) for k in KEYS[:200])
    assert h.get_node(b"bytes-key") == r.owner(b"bytes-key")
    h.remove_node("a:1")
    assert all(h.get_node(k) == "b:2" for k in KEYS[:50])
    with pytest.raises(ValueError, match="No such node a:1 to remove"):
        h.remove_node("a:1")
    seeded = LongstrawHash(["a:1", "b:2"], seed=5)
    assert [seeded.get_node(k) for k in KEYS[:200]] == Rendezvous(["a:1", "b:2"], seed=5).owners(KEYS[:200])
