#!/usr/bin/env python3
"""Record one benchmark run as bench/results/<run>.json, the only source of the numbers the docs quote.

    <benchmark command> | python3 bench/record.py --run python --command 'make bench-python'

reads the benchmark's output from stdin (echoing it), and writes the file with the run's metadata (UTC
date, commit, backend, CPU, load average before and after) and every value it printed:

* each Markdown table becomes ``tables[<id>]`` (the id is the slug of the heading or line above it, made
  unique with -2, -3...), and each cell a value keyed ``<id>/<row label slug>/<column slug>``;
* each other line with times in it (``- floor: ... costs 16.9 ns per key``) gives ``note/<its first six
  words, slugged>/<k>`` for its k-th time;
* each criterion result line (``name  time: [lo median hi]`` plus its ``thrpt:`` line) becomes
  ``criterion/<name>`` (the median) and ``criterion/<name>/per-element`` (1 / median throughput, with the
  time unit: per key, or per node-score, whatever the benchmark counts as an element), and each criterion
  group ``group/function/n`` a table ``criterion-<group>`` of those per-element times (n by function).

``--from FILE`` converts output recorded earlier instead; then the metadata comes from ``--meta key=value``
and ``--provenance`` says where the numbers came from. The run id gets the date prepended
(``2026-11-29-python``) unless ``--exact-id`` is given.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
TIME = re.compile(r"^\s*(\S.*?)?\s*time:\s*\[(\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\]")
THRPT = re.compile(r"^\s*thrpt:\s*\[(\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\]")
TO_NS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
NOTE_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:ns|µs|us|ms|s)\b")
SCALE = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9}


def slug(text: str) -> str:
    text = text.replace("^", "e").replace("10^", "1e")
    return re.sub(r"[^a-z0-9.]+", "-", re.sub(r"[`'’]", "", text.lower())).strip("-.") or "x"


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def fmt_ns(ns: float) -> str:
    """A time as criterion-like text with 4 significant digits."""
    for unit, f in (("ns", 1.0), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)):
        if ns < f * 1000 or unit == "s":
            v = ns / f
            return f"{v:.4g} {unit}" if v >= 1 else f"{v:.3f} {unit}"
    raise AssertionError


def parse(lines: list[str]) -> tuple[dict, dict]:
    tables: dict[str, dict] = {}
    values: dict[str, str] = {}
    heading, plain, heading_fresh = "table", "table", False
    i = 0
    pending: str | None = None
    while i < len(lines):
        line = lines[i].rstrip("\n")
        m = TIME.match(line)
        if m:
            name = (m.group(1) or pending or "").strip()
            values[f"criterion/{name}"] = f"{m.group(4)} {m.group(5)}"
            if i + 1 < len(lines) and (t := THRPT.match(lines[i + 1])):
                per_s = float(t.group(3)) * SCALE[t.group(4)[0] if t.group(4)[0] in "KMG" else ""]
                values[f"criterion/{name}/per-element"] = fmt_ns(1e9 / per_s)
            pending = None
            i += 1
            continue
        if re.match(r"^\S+/\S+\s*$", line) and i + 1 < len(lines) and TIME.match(lines[i + 1]):
            pending = line.strip()
            i += 1
            continue
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|\s*$", lines[i + 1]):
            header = cells(line)
            rows = []
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                rows.append(cells(lines[j]))
                j += 1
            title = heading if heading_fresh else plain
            heading_fresh = False
            tid = base = "-".join(slug(title).split("-")[:6])
            n = 2
            while tid in tables:
                tid, n = f"{base}-{n}", n + 1
            tables[tid] = {"title": title, "header": header, "rows": rows}
            # Rows are named by their first cell, or by the first two when the first repeats.
            firsts = [slug(r[0]) for r in rows]
            two = len(set(firsts)) < len(firsts)
            for row in rows:
                label = slug(f"{row[0]} {row[1]}") if two and len(row) > 1 else slug(row[0])
                for col, cell in zip(header[1:], row[1:]):
                    values[f"{tid}/{label}/{slug(col) if col else 'value'}"] = cell
            i = j
            continue
        timed = [m for m in NOTE_NUMBER.finditer(line)] if not line.startswith("|") else []
        if timed:
            stem = slug(" ".join(re.sub(r"[^\w\s]", " ", line[: timed[0].start()]).split()[:6]))
            for k, m in enumerate(timed):
                values.setdefault(f"note/{stem}/{k}", m.group(0).strip())
        if line.startswith("#"):
            heading, heading_fresh = re.sub(r"^#+\s*", "", line.strip()), True
        elif line.strip() and not line.startswith("|"):
            plain = line.strip().lstrip("-* ").strip()
        i += 1
    pivot_criterion(tables, values)
    return tables, values


def pivot_criterion(tables: dict, values: dict) -> None:
    """criterion ids group/function/n become a table per group: one row per n, one column per function."""
    groups: dict[str, dict[str, dict[str, str]]] = {}
    for key, value in values.items():
        parts = key.split("/")
        if len(parts) == 5 and parts[0] == "criterion" and parts[4] == "per-element":
            groups.setdefault(parts[1], {}).setdefault(parts[3], {})[parts[2]] = value
    for group, by_n in groups.items():
        funcs = list(dict.fromkeys(f for row in by_n.values() for f in row))
        rows = [[n] + [by_n[n].get(f, "-") for f in funcs] for n in sorted(by_n, key=lambda x: float(x))]
        tables[f"criterion-{group}"] = {"title": f"criterion group {group}, time per element (median)",
                                        "header": ["n", *funcs], "rows": rows}


def git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def live_meta() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    return {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": git("rev-parse", "--short", "HEAD") + dirty,
        "backend": os.environ.get("LONGSTRAW_BACKEND", "dispatched (the best this CPU has)"),
        "cpu": f"{cpu}, {os.cpu_count()} logical CPUs, {platform.machine()}",
        "load_average_before": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True, help="short name: python, node, go, rust, scale-lookup, ...")
    ap.add_argument("--command", required=True, help="the command that produced the output")
    ap.add_argument("--from", dest="source", help="convert this recorded output instead of reading stdin")
    ap.add_argument("--meta", action="append", default=[], help="key=value metadata (with --from)")
    ap.add_argument("--provenance", default="recorded live by bench/record.py")
    ap.add_argument("--exact-id", action="store_true", help="use --run as the id as is")
    ap.add_argument("--out-dir", default=str(RESULTS))
    args = ap.parse_args()

    if args.source:
        lines = Path(args.source).read_text(encoding="utf-8").splitlines()
        meta: dict[str, str] = {}
    else:
        meta = live_meta()
        lines = []
        for line in sys.stdin:
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line.rstrip("\n"))
        meta["load_average_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    for kv in args.meta:
        key, _, value = kv.partition("=")
        meta[key] = value
    date = meta.get("date", "")[:10] or dt.date.today().isoformat()
    run_id = args.run if args.exact_id else f"{date}-{args.run}"
    tables, values = parse(lines)
    if not values:
        print(f"record.py: no table or criterion result in the output of {args.command!r}", file=sys.stderr)
        return 1
    out = {"run": run_id, "command": args.command, **meta, "provenance": args.provenance,
           "tables": tables, "values": values}
    path = Path(args.out_dir) / f"{run_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"record.py: {len(values)} values, {len(tables)} tables -> {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
