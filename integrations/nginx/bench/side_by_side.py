"""nginx + longstraw, nginx `hash $uri consistent` and HAProxy `balance uri` + `hash-type consistent` +
`hash-balance-factor 125`, side by side on loopback, on the same request stream.

For each load balancer:
- key-space share: a sample of distinct keys, one request at a time, through an unbounded path (the
  owner of each key); the share per backend (CV, max/mean);
- keys moved when an 11th backend is added and when one of the 10 is removed, against the optimum;
- a Zipf(1.1) stream over 10^5 keys (fixed seed) from concurrent clients to slow backends, through the
  bounded path: the share of requests per backend, the busiest backend's in-flight count over the
  average (p99 and peak of samples), owner affinity (requests served by the key's owner), and how many
  backends absorb the hottest key's overflow, and how unevenly.

Usage: side_by_side.py MODULE_SO OUT_JSON [--quick]
"""

from __future__ import annotations

import bisect
import http.client
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BACKENDS = 10
FIRST = 21100
CONTROL = 21090
LB_PORT = 21080
LB_PORT_KS = 21081
SEED = 20261201
KEYSPACE = 100_000


def zipf_stream(n_keys: int, s: float, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    weights = [1.0 / (k + 1) ** s for k in range(n_keys)]
    cum, acc = [], 0.0
    for w in weights:
        acc += w
        cum.append(acc)
    order = list(range(n_keys))
    rng.shuffle(order)  # key ids are not popularity ranks
    return [order[bisect.bisect_left(cum, rng.random() * acc)] for _ in range(count)]


def ids(n: int, skip: int | None = None) -> list[str]:
    return [f"127.0.0.1:{FIRST + i}" for i in range(n) if i != skip]


def control(path: str) -> bytes:
    c = http.client.HTTPConnection("127.0.0.1", CONTROL, timeout=30)
    c.request("GET", path)
    body = c.getresponse().read()
    c.close()
    return body


class Lb:
    """One load balancer process (nginx or HAProxy), restarted for each membership."""

    def __init__(self, kind: str, module: Path, work: Path) -> None:
        self.kind, self.module, self.work, self.proc = kind, module, work, None

    def nginx_conf(self, servers: list[str]) -> str:
        w = self.work
        if self.kind == "longstraw":
            bounded = "zone app 256k;\n        longstraw $uri seed=7 balance=1.25;"
            plain = "longstraw $uri seed=7;"
        else:
            bounded = plain = "hash $uri consistent;"
        srv = "\n".join(f"        server {s} max_fails=0;" for s in servers)
        return f"""
load_module {self.module};
daemon off;
worker_processes 2;
pid {w}/nginx.pid;
error_log {w}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {w}/body; proxy_temp_path {w}/proxy; fastcgi_temp_path {w}/fastcgi;
    uwsgi_temp_path {w}/uwsgi; scgi_temp_path {w}/scgi;
    keepalive_requests 1000000;
    upstream bounded {{
        {bounded}
{srv}
    }}
    upstream plain {{
        {plain}
{srv}
    }}
    server {{ listen 127.0.0.1:{LB_PORT}; location / {{ proxy_pass http://bounded; }} }}
    server {{ listen 127.0.0.1:{LB_PORT_KS}; location / {{ proxy_pass http://plain; }} }}
}}
"""

    def haproxy_conf(self, servers: list[str]) -> str:
        # An explicit id per server: HAProxy's consistent hash places a server by its id, which is
        # otherwise its position, so that removing the first server would move every key.
        srv = "\n".join(f"    server s{s.rsplit(':', 1)[1]} {s} id {s.rsplit(':', 1)[1]}" for s in servers)
        return f"""
global
    maxconn 4096
defaults
    mode http
    timeout connect 5s
    timeout client 30s
    timeout server 30s
frontend bounded
    bind 127.0.0.1:{LB_PORT}
    default_backend bounded
frontend plain
    bind 127.0.0.1:{LB_PORT_KS}
    default_backend plain
backend bounded
    balance uri
    hash-type consistent
    hash-balance-factor 125
{srv}
backend plain
    balance uri
    hash-type consistent
{srv}
"""

    def start(self, servers: list[str]) -> None:
        self.stop()
        if self.kind == "haproxy":
            conf = self.work / "haproxy.cfg"
            conf.write_text(self.haproxy_conf(servers))
            cmd = ["haproxy", "-db", "-f", str(conf)]
        else:
            conf = self.work / "nginx.conf"
            conf.write_text(self.nginx_conf(servers))
            cmd = ["nginx", "-p", str(self.work), "-c", str(conf)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(self.work / "lb.log", "ab"))
        for _ in range(100):
            try:
                for port in (LB_PORT, LB_PORT_KS):
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                    c.request("GET", "/ready")
                    c.getresponse().read()
                    c.close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.kind} did not start: {(self.work / 'lb.log').read_text()[-1500:]}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM if self.kind == "haproxy" else signal.SIGQUIT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


def fetch(port: int, paths: list[str], threads: int) -> list[str]:
    def run(chunk: list[str]) -> list[str]:
        out = []
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for p in chunk:
            c.request("GET", p)
            r = c.getresponse()
            out.append(r.read().decode())
        c.close()
        return out

    # Interleaved chunks keep the order of the stream per thread.
    chunks = [paths[i::threads] for i in range(threads)]
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(run, chunks))
    out: list[str] = [""] * len(paths)
    for t, chunk in enumerate(results):
        out[t::threads] = chunk
    return out


def spread(counts: list[int]) -> dict[str, float]:
    mean = statistics.fmean(counts)
    return {"cv": statistics.pstdev(counts) / mean, "max_over_mean": max(counts) / mean}


def measure(kind: str, module: Path, work: Path, sample_keys: list[int], stream: list[int], clients: int,
            delay: float) -> dict[str, float]:
    lb = Lb(kind, module, work)
    base = ids(BACKENDS)
    sample_paths = [f"/k/{k}" for k in sample_keys]
    v: dict[str, float] = {}
    try:
        control(f"/reset?delay=0&n={BACKENDS}")
        lb.start(base)
        owners = fetch(LB_PORT_KS, sample_paths, 8)
        by = Counter(owners)
        s = spread([by[i] for i in base])
        v["keyspace_cv"], v["keyspace_max_over_mean"] = s["cv"], s["max_over_mean"]
        # The stream's keys' owners, for affinity.
        distinct = sorted(set(stream))
        owner_of = dict(zip(distinct, fetch(LB_PORT_KS, [f"/k/{k}" for k in distinct], 8)))

        # The Zipf stream, bounded path, slow backends.
        control(f"/reset?delay={delay}&n={BACKENDS}")
        t0 = time.monotonic()
        served = fetch(LB_PORT, [f"/k/{k}" for k in stream], clients)
        v["stream_seconds"] = time.monotonic() - t0
        stats = json.loads(control("/stats"))
        samples = sorted(stats["samples"])
        by = Counter(served)
        s = spread([by[i] for i in base])
        v["requests_cv"], v["requests_max_over_mean"] = s["cv"], s["max_over_mean"]
        v["inflight_p99_max_over_avg"] = samples[int(0.99 * (len(samples) - 1))] if samples else 0.0
        v["inflight_peak_max_over_avg"] = samples[-1] if samples else 0.0
        v["inflight_samples"] = len(samples)
        v["owner_affinity"] = sum(served[i] == owner_of[k] for i, k in enumerate(stream)) / len(stream)
        hot = Counter(stream).most_common(1)[0][0]
        hot_served = Counter(served[i] for i, k in enumerate(stream) if k == hot)
        overflow = {b: c for b, c in hot_served.items() if b != owner_of[hot]}
        v["hot_key_requests"] = sum(hot_served.values())
        v["hot_overflow_backends"] = len(overflow)
        v["hot_overflow_share"] = sum(overflow.values()) / sum(hot_served.values())
        v["hot_overflow_max_over_mean"] = (
            max(overflow.values()) / statistics.fmean(overflow.values()) if overflow else 0.0
        )
        control(f"/reset?delay=0&n={BACKENDS}")

        # Moves: an 11th backend added, then backend 0 removed, against the optimum.
        lb.start(ids(BACKENDS + 1))
        added = fetch(LB_PORT_KS, sample_paths, 8)
        v["moved_on_add"] = sum(a != b for a, b in zip(owners, added)) / len(owners)
        v["moved_on_add_optimum"] = 1 / (BACKENDS + 1)
        lb.start(ids(BACKENDS, skip=0))
        removed = fetch(LB_PORT_KS, sample_paths, 8)
        v["moved_on_remove"] = sum(a != b for a, b in zip(owners, removed)) / len(owners)
        v["moved_on_remove_optimum"] = 1 / BACKENDS
        v["moved_on_remove_not_from_removed"] = sum(
            a != b and a != base[0] for a, b in zip(owners, removed)
        ) / len(owners)
    finally:
        lb.stop()
    return v


def main() -> int:
    module, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    quick = "--quick" in sys.argv
    work = ROOT / "build" / "nginx" / "bench"
    work.mkdir(parents=True, exist_ok=True)
    n_sample, n_stream, clients, delay = (4000, 4000, 32, 0.05) if quick else (20_000, 20_000, 32, 0.05)
    rng = random.Random(SEED)
    sample_keys = rng.sample(range(KEYSPACE), n_sample)
    stream = zipf_stream(KEYSPACE, 1.1, n_stream, SEED)
    backends = subprocess.Popen([sys.executable, str(HERE / "backends.py"), str(CONTROL), str(FIRST), str(BACKENDS + 1)])
    try:
        for _ in range(100):
            try:
                control("/reset")
                break
            except OSError:
                time.sleep(0.1)
        load_before = os.getloadavg()
        values: dict[str, float] = {}
        for kind in ("longstraw", "ketama", "haproxy"):
            print(f"side-by-side: {kind} ...", flush=True)
            for key, value in measure(kind, module, work, sample_keys, stream, clients, delay).items():
                values[f"{kind}/{key}"] = round(value, 4) if isinstance(value, float) else value
        load_after = os.getloadavg()
    finally:
        try:
            control("/quit")
        except OSError:
            pass
        backends.wait(timeout=20)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    result = {
        "run": out.stem,
        "command": "make bench-nginx" + (" (--quick)" if quick else ""),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "cpu": f"{os.cpu_count()} cores, shared with other jobs",
        "backend": "default",
        "load_average": f"{load_before[0]:.2f} before, {load_after[0]:.2f} after (1-minute)",
        "commit": commit,
        "provenance": "integrations/nginx/bench/side_by_side.py on loopback: nginx 1.22.1, HAProxy 2.6, Python backends",
        "setup": {
            "backends": BACKENDS, "keyspace": KEYSPACE, "keyspace_sample": n_sample, "zipf_s": 1.1,
            "stream_requests": n_stream, "clients": clients, "backend_delay_s": delay, "seed": SEED,
            "balance": "longstraw balance=1.25; HAProxy hash-balance-factor 125; nginx hash consistent has none",
        },
        "values": values,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    for k, v in values.items():
        print(f"  {k}: {v}")
    print(f"side-by-side: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
