"""The cost of one peer choice inside the nginx module, measured in the module: a build with
-DNGX_HTTP_UPSTREAM_LONGSTRAW_TIMING=1 reads the monotonic clock around each choice and gives the
nanoseconds in $longstraw_pick_ns: the request's choice as it happens (cold caches: the request's own
processing runs in between; one pair of clock reads included), and the same choice repeated 64 times in
a row (warm caches; the clock reads spread over the 64). Upstreams of 10 and 100 servers, without and
with bounded loads; random keys, one request at a time.

Usage: cost.py TIMED_MODULE_SO OUT_JSON
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
FIRST, CONTROL, PORT = 21300, 21290, 21280
REQUESTS = 3000


def main() -> int:
    module, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    work = ROOT / "build" / "nginx" / "cost"
    work.mkdir(parents=True, exist_ok=True)
    backends = subprocess.Popen([sys.executable, str(HERE / "backends.py"), str(CONTROL), str(FIRST), "100"])
    cases = [(n, balance) for n in (10, 100) for balance in (False, True)]
    ups, locs = [], []
    for n, balance in cases:
        name = f"u{n}{'b' if balance else ''}"
        head = f"zone {name} 512k; longstraw $uri seed=7 balance=1.25;" if balance else "longstraw $uri seed=7;"
        srv = " ".join(f"server 127.0.0.1:{FIRST + i};" for i in range(n))
        ups.append(f"upstream {name} {{ {head} {srv} }}")
        locs.append(f"location /{name}/ {{ proxy_pass http://{name}; add_header X-Pick-Ns $longstraw_pick_ns; }}")
    conf = work / "nginx.conf"
    conf.write_text(f"""
load_module {module};
daemon off;
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {work}/body; proxy_temp_path {work}/proxy; fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
    {' '.join(ups)}
    server {{ listen 127.0.0.1:{PORT}; keepalive_requests 1000000; {' '.join(locs)} }}
}}
""")
    nginx = subprocess.Popen(["nginx", "-p", str(work), "-c", str(conf)], stderr=open(work / "stderr.log", "ab"))
    values: dict[str, float] = {}
    try:
        time.sleep(1.0)
        load_before = os.getloadavg()
        rng = random.Random(1)
        c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        for n, balance in cases:
            name = f"u{n}{'b' if balance else ''}"
            cold, warm = [], []
            for _ in range(REQUESTS):
                c.request("GET", f"/{name}/k/{rng.randrange(10**9)}")
                r = c.getresponse()
                r.read()
                a, b = (int(x) for x in r.getheader("X-Pick-Ns", "0 0").split())
                cold.append(a)
                warm.append(b)
            label = f"n{n}/{'bounded' if balance else 'plain'}"
            for kind, ns in (("cold", sorted(cold)), ("warm", sorted(warm))):
                values[f"{label}/{kind}_median_ns"] = statistics.median(ns)
                values[f"{label}/{kind}_p10_ns"] = ns[len(ns) // 10]
                values[f"{label}/{kind}_p90_ns"] = ns[9 * len(ns) // 10]
            print(f"cost: {label}: cold median {values[f'{label}/cold_median_ns']} ns, "
                  f"warm median {values[f'{label}/warm_median_ns']} ns (p10 {values[f'{label}/warm_p10_ns']}, "
                  f"p90 {values[f'{label}/warm_p90_ns']})")
        c.close()
        load_after = os.getloadavg()
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait(timeout=15)
        try:
            hc = http.client.HTTPConnection("127.0.0.1", CONTROL, timeout=5)
            hc.request("GET", "/quit")
            hc.getresponse().read()
        except OSError:
            pass
        backends.wait(timeout=20)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    out.write_text(json.dumps({
        "run": out.stem,
        "command": "make bench-nginx-cost",
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "cpu": f"{os.cpu_count()} cores, shared with other jobs",
        "backend": "default",
        "load_average": f"{load_before[0]:.2f} before, {load_after[0]:.2f} after (1-minute)",
        "commit": commit,
        "provenance": "integrations/nginx/bench/cost.py: nginx 1.22.1 with the module built with "
                      "-DNGX_HTTP_UPSTREAM_LONGSTRAW_TIMING=1; a cold figure includes one pair of clock reads, a warm one spreads a pair over 64 choices",
        "setup": {"requests_per_case": REQUESTS, "workers": 1, "keys": "random, one request at a time"},
        # Times as "N ns" strings, the form tools/doctest/perf_lint.py reads.
        "values": {k: f"{v:g} ns" for k, v in values.items()},
    }, indent=1) + "\n")
    print(f"cost: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
