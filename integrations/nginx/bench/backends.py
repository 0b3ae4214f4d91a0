"""Slow local backends for the side-by-side run, in their own process (so the client's threads do not
share their interpreter lock). Each answers with its own id after DELAY seconds and counts requests in
flight; a sampler records, every few milliseconds while the backends hold at least one request each
on average, the busiest backend's
in-flight count over the average of the backends in use.

Usage: backends.py CONTROL_PORT FIRST_PORT COUNT. Control (HTTP on CONTROL_PORT): /reset?delay=S&n=N,
/stats (JSON of the samples since the last reset), /quit.
"""

from __future__ import annotations

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlsplit


async def main() -> None:
    control_port, first, count = (int(x) for x in sys.argv[1:4])
    ids = [f"127.0.0.1:{first + i}" for i in range(count)]
    state = {"delay": 0.0, "n": count, "in_flight": {i: 0 for i in ids}, "samples": [], "peak": {i: 0 for i in ids}}
    done = asyncio.Event()

    def handler(node_id: str):  # type: ignore[no-untyped-def]
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                while True:
                    await reader.readuntil(b"\r\n\r\n")
                    state["in_flight"][node_id] += 1
                    state["peak"][node_id] = max(state["peak"][node_id], state["in_flight"][node_id])
                    if state["delay"]:
                        await asyncio.sleep(state["delay"])
                    state["in_flight"][node_id] -= 1
                    body = node_id.encode()
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                    await writer.drain()
            except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
                pass
            writer.close()

        return handle

    async def sampler() -> None:
        while not done.is_set():
            loads = [state["in_flight"][i] for i in ids[: state["n"]]]
            total = sum(loads)
            # Only when the backends hold at least one request each on average: below that, max/avg
            # measures how few requests there are, not how they are spread.
            if total >= len(loads):
                state["samples"].append(max(loads) / (total / len(loads)))
            await asyncio.sleep(0.002)

    async def control(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode()
        url = urlsplit(head.split()[1])
        q = parse_qs(url.query)
        body = b"ok"
        if url.path == "/reset":
            state["delay"] = float(q.get("delay", ["0"])[0])
            state["n"] = int(q.get("n", [str(count)])[0])
            state["samples"] = []
            state["peak"] = {i: 0 for i in ids}
        elif url.path == "/stats":
            body = json.dumps({"samples": state["samples"], "peak": state["peak"]}).encode()
        elif url.path == "/quit":
            done.set()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()

    servers = [await asyncio.start_server(handler(i), "127.0.0.1", first + k, backlog=512) for k, i in enumerate(ids)]
    servers.append(await asyncio.start_server(control, "127.0.0.1", control_port))
    task = asyncio.create_task(sampler())
    try:
        await asyncio.wait_for(done.wait(), timeout=900)
    except asyncio.TimeoutError:
        pass
    task.cancel()
    for s in servers:
        s.close()


if __name__ == "__main__":
    asyncio.run(main())
