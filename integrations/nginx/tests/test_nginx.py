"""The nginx module end to end: real nginx on 127.0.0.1 in front of small local backends.

Expected owners come from tests/spec (the independent Python implementation of docs/SPEC.md), never
from the module or the library under test. Every phase is bounded in requests and time; nginx and
the backends stop when the test ends, whatever happens.

Usage: test_nginx.py MODULE_SO WORK_DIR
"""

from __future__ import annotations

import asyncio
import http.client
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "spec"))
import spec_keyed  # noqa: E402
import spec_reimpl  # noqa: E402

DEADLINE = time.monotonic() + 200  # the whole test, seconds
KEYS = 10_000
SEED = 7
BASE_PORT = 19100 + (os.getpid() % 200) * 10
NGINX_PORT = BASE_PORT - 5000
FAILURES: list[str] = []


def check(cond: bool, what: str) -> None:
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def left() -> float:
    remaining = DEADLINE - time.monotonic()
    if remaining <= 0:
        raise TimeoutError("the nginx test ran past its time limit")
    return remaining


# ---------------------------------------------------------------------------------------------
# Backends: one asyncio loop in a thread; each answers with its own id and counts in-flight peaks.
# ---------------------------------------------------------------------------------------------
class Backends:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.servers: dict[str, asyncio.base_events.Server] = {}
        self.delay = 0.0
        self.in_flight: Counter[str] = Counter()
        self.peak: Counter[str] = Counter()
        self.served: Counter[str] = Counter()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def _run(self, coro):  # type: ignore[no-untyped-def]
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=10)

    def start(self, node_id: str) -> None:
        host, port = node_id.rsplit(":", 1)

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
                writer.close()
                return
            self.in_flight[node_id] += 1
            self.served[node_id] += 1
            self.peak[node_id] = max(self.peak[node_id], self.in_flight[node_id])
            if self.delay:
                await asyncio.sleep(self.delay)
            self.in_flight[node_id] -= 1
            body = node_id.encode()
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
            try:
                await writer.drain()
            except ConnectionError:
                pass
            writer.close()

        async def serve() -> asyncio.base_events.Server:
            return await asyncio.start_server(handle, host, int(port), reuse_address=True, backlog=256)

        self.servers[node_id] = self._run(serve())

    def stop(self, node_id: str) -> None:
        server = self.servers.pop(node_id)

        async def close() -> None:
            server.close()
            await server.wait_closed()

        self._run(close())

    def reset_counts(self) -> None:
        async def reset() -> None:
            self.in_flight.clear()
            self.peak.clear()
            self.served.clear()

        self._run(reset())

    def shutdown(self) -> None:
        for node_id in list(self.servers):
            self.stop(node_id)
        self.loop.call_soon_threadsafe(self.loop.stop)


# ---------------------------------------------------------------------------------------------
# nginx: one master in the foreground (daemon off), reloaded with SIGHUP, stopped with SIGQUIT.
# ---------------------------------------------------------------------------------------------
class Nginx:
    def __init__(self, module: Path, work: Path) -> None:
        self.module = module
        self.work = work
        self.proc: subprocess.Popen[bytes] | None = None

    def conf(self, upstream: str, workers: int = 2, marker: str = "1") -> Path:
        w = self.work
        text = f"""
load_module {self.module};
daemon off;
worker_processes {workers};
pid {w}/nginx.pid;
error_log {w}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {w}/body; proxy_temp_path {w}/proxy; fastcgi_temp_path {w}/fastcgi;
    uwsgi_temp_path {w}/uwsgi; scgi_temp_path {w}/scgi;
    upstream app {{
{upstream}
    }}
    server {{
        listen 127.0.0.1:{NGINX_PORT} reuseport;
        keepalive_requests 100000;
        location / {{
            proxy_pass http://app;
            proxy_buffering off;
            proxy_connect_timeout 2s;
            proxy_read_timeout 10s;
            add_header X-Conf {marker} always;
            add_header X-Admission $longstraw_admission always;
        }}
    }}
}}
"""
        path = w / "nginx.conf"
        path.write_text(text)
        return path

    def test_conf(self, upstream: str) -> subprocess.CompletedProcess[str]:
        path = self.conf(upstream)
        return subprocess.run(
            ["nginx", "-t", "-q", "-p", str(self.work), "-c", str(path)],
            capture_output=True, text=True, timeout=30,
        )

    def start(self, upstream: str, workers: int = 2) -> None:
        path = self.conf(upstream, workers)
        self.proc = subprocess.Popen(
            ["nginx", "-p", str(self.work), "-c", str(path)],
            stdout=subprocess.DEVNULL, stderr=open(self.work / "stderr.log", "ab"),
        )
        self.wait_marker("1")

    def reload(self, upstream: str, marker: str) -> None:
        assert self.proc is not None
        self.conf(upstream, 2, marker)
        self.proc.send_signal(signal.SIGHUP)
        self.wait_marker(marker)
        time.sleep(0.5)  # old workers finish; new connections go to new workers only

    def wait_marker(self, marker: str) -> None:
        end = time.monotonic() + min(20.0, left())
        while time.monotonic() < end:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.work / 'stderr.log').read_text()[-2000:]}")
            try:
                c = http.client.HTTPConnection("127.0.0.1", NGINX_PORT, timeout=2)
                c.request("GET", "/ready")
                r = c.getresponse()
                r.read()
                c.close()
                if r.getheader("X-Conf") == marker:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"nginx did not serve configuration {marker}")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGQUIT)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


def fetch_all(paths: list[str], threads: int = 4) -> list[str]:
    """The id of the backend that answered each path (keep-alive connections, a few threads)."""

    def run(chunk: list[str]) -> list[str]:
        out = []
        c = http.client.HTTPConnection("127.0.0.1", NGINX_PORT, timeout=10)
        for p in chunk:
            left()
            c.request("GET", p)
            r = c.getresponse()
            body = r.read().decode()
            out.append(body if r.status == 200 else f"HTTP {r.status}")
        c.close()
        return out

    size = math.ceil(len(paths) / threads)
    chunks = [paths[i : i + size] for i in range(0, len(paths), size)]
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(run, chunks))
    return [x for chunk in results for x in chunk]


def upstream_block(servers: list[tuple[str, int]], options: str, extra: str = "") -> str:
    lines = [f"        {extra}"] if extra else []
    lines.append(f"        longstraw $uri {options};")
    lines += [f"        server {sid} weight={w} max_fails=1 fail_timeout=30s;" for sid, w in servers]
    return "\n".join(lines)


def test_config_errors(ng: Nginx) -> None:
    """Configuration errors fail `nginx -t`, naming the directive and the reason, never the secret."""
    servers = [(f"127.0.0.1:{BASE_PORT + 1}", 1)]
    secret = "5ec2e75ec2e75ec2e75ec2e75ec2e7zz"  # not hex: refused, and never printed
    (ng.work / "bad_secret").write_text(secret + "\n")
    cases = [
        (upstream_block(servers, "seed=1 colour=red"), 'unknown option "colour=red"'),
        (upstream_block(servers, "balance=1.0", "zone app 64k;"), "invalid balance factor 1.0"),
        (upstream_block(servers, "balance=fast", "zone app 64k;"), 'invalid balance "balance=fast"'),
        (upstream_block(servers, "balance=1.25"), 'balance= needs a "zone"'),
        (upstream_block(servers, "secret_file=no_such_file"), "cannot read secret file"),
        (upstream_block(servers, "secret_file=bad_secret"), "must hold the secret as 32 hexadecimal digits"),
        (upstream_block(servers, "seed=x"), 'invalid seed "seed=x"'),
        (upstream_block(servers, "seed=1 secret_file=bad_secret"), "seed= and secret_file= cannot be used together"),
        ("        longstraw $uri;\n        server 127.0.0.1:1 backup;", "no primary servers"),
        (upstream_block(servers + servers, "seed=1"), "duplicate node"),
    ]
    for upstream, want in cases:
        r = ng.test_conf(upstream)
        text = r.stderr + r.stdout
        check(r.returncode != 0, f"nginx -t accepted a bad configuration ({want})")
        check("longstraw" in text and want in text, f"nginx -t said {text.strip()!r}, wanted {want!r}")
        check(secret[:8] not in text, "a secret file's content appeared in nginx -t output")
    r = ng.test_conf(upstream_block(servers, "seed=1 balance=1.25", "zone app 64k;"))
    check(r.returncode == 0, f"nginx -t refused a good configuration: {r.stderr.strip()}")
    # The README's example upstream block is a valid configuration.
    readme = (ROOT / "integrations" / "nginx" / "README.md").read_text()
    block = readme.split("upstream app {", 1)[1].split("\n    }", 1)[0]
    r = ng.test_conf(block)
    check(r.returncode == 0 and "longstraw $request_uri" in block, f"the README's upstream block: {r.stderr.strip()}")
    print(f"nginx: {len(cases)} bad configurations fail nginx -t with their reason")


def main() -> int:
    module, work = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    backends = Backends()
    ng = Nginx(module, work)
    try:
        test_config_errors(ng)
        run_placement(ng, backends)
        run_keyed(ng, backends)
        run_bounded(ng, backends)
    finally:
        ng.stop()
        backends.shutdown()
    if FAILURES:
        print(f"test_nginx: {len(FAILURES)} checks FAILED", file=sys.stderr)
        return 1
    print("test_nginx: all checks passed")
    return 0


def ids_of(servers: list[tuple[str, int]]) -> list[str]:
    return [sid for sid, _ in servers]


def run_placement(ng: Nginx, backends: Backends) -> None:
    servers = [(f"127.0.0.1:{BASE_PORT + i}", w) for i, w in enumerate([2, 1, 1, 3])]
    for sid, _ in servers:
        backends.start(sid)
    spec = spec_reimpl.NodeSet([(sid.encode(), float(w)) for sid, w in servers], seed=SEED)
    paths = [f"/k/{i}" for i in range(KEYS)]
    rankings = [[servers[j][0] for j in spec.rank(p.encode())] for p in paths]

    ng.start(upstream_block(servers, f"seed={SEED}"))
    got = fetch_all(paths)
    agree = sum(g == r[0] for g, r in zip(got, rankings))
    print(f"nginx: {agree} of {KEYS} keys answered by the spec's owner")
    check(agree == KEYS, f"only {agree} of {KEYS} keys went to their owner")

    # Stop one backend: exactly its keys move, each to the next node of its ranking.
    victim = servers[3][0]
    backends.stop(victim)
    after = fetch_all(paths)
    moved = [i for i in range(KEYS) if after[i] != got[i]]
    want_moved = [i for i in range(KEYS) if rankings[i][0] == victim]
    check(moved == want_moved, f"{len(moved)} keys moved after a backend stopped; want its {len(want_moved)}")
    wrong = sum(after[i] != rankings[i][1] for i in want_moved)
    check(wrong == 0, f"{wrong} of the stopped backend's keys did not go to their second node")
    print(f"nginx: stopping {victim} moved exactly its {len(want_moved)} keys to their next node")
    backends.start(victim)

    # A reload adding a server: only the keys it wins move, and they move to it.
    added = (f"127.0.0.1:{BASE_PORT + 4}", 2)
    backends.start(added[0])
    bigger = servers + [added]
    spec2 = spec_reimpl.NodeSet([(sid.encode(), float(w)) for sid, w in bigger], seed=SEED)
    ng.reload(upstream_block(bigger, f"seed={SEED}"), "2")
    before = fetch_all(paths)  # the old servers, back after the stop (max_fails state is per config)
    check(before == fetch_all(paths), "answers are not stable between two passes")
    wins = [i for i, p in enumerate(paths) if spec2.owner(p.encode()) == 4]
    moved = [i for i in range(KEYS) if before[i] != got[i]]
    check(moved == wins, f"{len(moved)} keys moved on adding a server; it wins {len(wins)}")
    check(all(before[i] == added[0] for i in wins), "a key the new server wins went elsewhere")
    print(f"nginx: a reload adding {added[0]} moved only the {len(wins)} keys it wins")
    ng.stop()
    for sid, _ in bigger:
        backends.stop(sid)
    run_down_and_backup(ng, backends)


def run_down_and_backup(ng: Nginx, backends: Backends) -> None:
    """`down` drains a server (its keys go to their next node); backups answer only when every primary
    is down or failing, by the backups' own ranking."""
    primary = [f"127.0.0.1:{BASE_PORT + i}" for i in range(3)]
    backup = [f"127.0.0.1:{BASE_PORT + 3 + i}" for i in range(2)]
    for sid in primary + backup:
        backends.start(sid)
    upstream = "\n".join(
        [f"        longstraw $uri seed={SEED};", f"        server {primary[0]} down;"]
        + [f"        server {sid} max_fails=1 fail_timeout=30s;" for sid in primary[1:]]
        + [f"        server {sid} backup;" for sid in backup]
    )
    live = spec_reimpl.NodeSet([(primary[0].encode(), 0.0)] + [(s.encode(), 1.0) for s in primary[1:]], seed=SEED)
    backups = spec_reimpl.NodeSet([(s.encode(), 1.0) for s in backup], seed=SEED)
    paths = [f"/b/{i}" for i in range(2000)]
    ng.start(upstream)
    got = fetch_all(paths)
    want = [primary[live.owner(p.encode())] for p in paths]
    check(got == want, f"down: {sum(g != w for g, w in zip(got, want))} keys not at their owner among the live primaries")
    for sid in primary[1:]:
        backends.stop(sid)
    got = fetch_all(paths)
    want = [backup[backups.owner(p.encode())] for p in paths]
    check(got == want, f"backup: {sum(g != w for g, w in zip(got, want))} keys not at their backup owner")
    print(f"nginx: down drains a server; with every primary failing, {len(paths)} keys go to their backup owner")
    ng.stop()
    for sid in [primary[0]] + backup:
        backends.stop(sid)


def run_keyed(ng: Nginx, backends: Backends) -> None:
    """secret_file=: keyed placement agrees with the spec's keyed-v1."""
    secret = bytes(range(16))
    (ng.work / "secret").write_text(secret.hex() + "\n")
    servers = [(f"127.0.0.1:{BASE_PORT + i}", 1) for i in range(3)]
    for sid, _ in servers:
        backends.start(sid)
    spec = spec_keyed.KeyedNodeSet([(sid.encode(), 1.0) for sid, _ in servers], secret=secret)
    paths = [f"/u/{i}" for i in range(2000)]
    ng.start(upstream_block(servers, "secret_file=secret"))
    got = fetch_all(paths)
    agree = sum(g == servers[spec.owner(p.encode())][0] for g, p in zip(got, paths))
    check(agree == len(paths), f"keyed: only {agree} of {len(paths)} keys went to their owner")
    log = (ng.work / "error.log").read_text() if (ng.work / "error.log").exists() else ""
    check(secret.hex() not in log, "the secret appeared in nginx's error log")
    print(f"nginx: keyed placement, {agree} of {len(paths)} keys answered by the spec's keyed owner")
    ng.stop()
    for sid, _ in servers:
        backends.stop(sid)


def run_bounded(ng: Nginx, backends: Backends) -> None:
    """4 workers, slow backends, one hot key. Every admission obeys SPEC.md §16.1's test against the
    upstream zone's counts (the module admits under the zone's lock, §16.7), checked here from the
    module's $longstraw_admission ("T load") with the cap computed in Python; every backend's peak
    in-flight count stays within ceil(c * T_max * w_i / W); and the hot key's overflow spreads."""
    clients, factor, delay, per_client = 40, 1.25, 0.15, 12
    servers = [(f"127.0.0.1:{BASE_PORT + i}", w) for i, w in enumerate([1, 1, 1, 1, 2])]
    weight = {sid: float(w) for sid, w in servers}
    total_w = sum(weight.values())
    for sid, _ in servers:
        backends.start(sid)
    backends.delay = delay
    ng.start(upstream_block(servers, f"seed={SEED} balance={factor}", "zone app 256k;"), workers=4)
    backends.reset_counts()

    def cap(sid: str, t: int) -> int:
        # SPEC.md §16.1's order: share = c * (w / W), then share * T, then ceil.
        return math.ceil((factor * (weight[sid] / total_w)) * t)

    spec = spec_reimpl.NodeSet([(sid.encode(), w) for sid, w in weight.items()], seed=SEED)
    owner = servers[spec.owner(b"/hot")][0]

    def client(_: int) -> list[tuple[str, int, int]]:
        seen = []
        for _ in range(per_client):
            left()
            c = http.client.HTTPConnection("127.0.0.1", NGINX_PORT, timeout=10)
            c.request("GET", "/hot")
            r = c.getresponse()
            body = r.read().decode() if r.status == 200 else f"HTTP {r.status}"
            t, load = (int(x) for x in (r.getheader("X-Admission") or "0 0").split())
            seen.append((body, t, load))
            c.close()
        return seen

    with ThreadPoolExecutor(clients) as pool:
        seen = [x for chunk in pool.map(client, range(clients)) for x in chunk]
    backends.delay = 0.0
    peaks = dict(backends.peak)
    t_max = max(t for _, t, _ in seen)
    caps = {sid: cap(sid, t_max) for sid in weight}
    spread = Counter(body for body, _, _ in seen)
    print(f"nginx: bounded loads, {clients} clients on one hot key over 4 workers: answers {dict(spread)}")
    print(f"nginx: peak in-flight per backend {peaks}; T at most {t_max}, caps at that T {caps}")
    check(len(seen) == clients * per_client and all(b in weight for b in spread), f"bad answers: {spread}")
    bad = [(b, t, load) for b, t, load in seen if b in weight and not load + 1 <= cap(b, t)]
    check(not bad, f"{len(bad)} admissions broke the rule, e.g. {bad[:3]}")
    check(all(0 < t <= 2 * clients for _, t, _ in seen), "an admission saw an impossible total")
    for sid in weight:
        check(peaks.get(sid, 0) <= caps[sid], f"{sid} peaked at {peaks.get(sid, 0)}, above its cap {caps[sid]}")
    # The rule really acted: the owner filled up and the overflow went to the other backends.
    check(peaks.get(owner, 0) >= cap(owner, clients) - 1, f"the owner {owner} peaked at {peaks.get(owner, 0)} only")
    check(len([s for s in spread if s != owner]) >= 3, f"the overflow reached only {spread}")
    ng.stop()
    for sid, _ in servers:
        backends.stop(sid)


if __name__ == "__main__":
    sys.exit(main())
