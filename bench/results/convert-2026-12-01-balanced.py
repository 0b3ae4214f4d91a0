#!/usr/bin/env python3
"""Writes bench/results/2026-12-01-balanced.json from the raw JSON lines in bench/runs/2026-12-01-balanced/
(balance-report.jsonl, balance-build.jsonl), so that the docs can cite those numbers with results keys.
Nothing is re-run. Keys: report/n-N-bits-B/balance-X/FIELD and build/n-N-bits-B-replicas-R/balance-X/FIELD."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RAW = ROOT / "bench" / "runs" / "2026-12-01-balanced"
UNITS = {"build_ms": " ms", "add_ms": " ms", "lookup_ns": " ns", "plain_ms": " ms", "balanced_ms": " ms",
         "plain_lookup_ns": " ns", "balanced_lookup_ns": " ns", "ratio": "x"}


def value(field, v):
    unit = UNITS.get(field, "x" if "over" in field else "")
    return f"{v}{unit}"


values, report_rows, build_rows = {}, [], []
for line in (RAW / "balance-report.jsonl").read_text().splitlines():
    d = json.loads(line)
    base = f"report/n-{d['n']}-bits-{d['bits']}/balance-{d['balance'] or 'plain'}"
    for k, v in d.items():
        if k not in ("n", "bits", "balance"):
            values[f"{base}/{k}"] = value(k, v)
    report_rows.append([str(d["n"]), str(d["bits"]), str(d["balance"] or "plain"), value("max_over_mean", d["max_over_mean"])])
for line in (RAW / "balance-build.jsonl").read_text().splitlines():
    d = json.loads(line)
    base = f"build/n-{d['n']}-bits-{d['bits']}-replicas-{d['replicas']}/balance-{d['balance']}"
    for k, v in d.items():
        if k not in ("n", "bits", "balance", "replicas", "backend"):
            values[f"{base}/{k}"] = value(k, v)
    build_rows.append([str(d["n"]), str(d["bits"]), str(d["replicas"]), str(d["balance"]), value("ratio", d["ratio"])])

out = {
    "run": "2026-12-01-balanced",
    "command": "cargo run --release -p longstraw-bench-scale --bin balance-report / --bin balance-build",
    "date": "2026-12-01",
    "cpu": "AMD EPYC (Zen 4, AVX-512), 2 vCPUs shared with other sessions' builds, 24 GiB",
    "backend": "avx512",
    "load_average": "13-16 (eight builds at once): compare ratios within the run",
    "commit": "balanced branch (ad5f5eb)",
    "provenance": "converted from bench/runs/2026-12-01-balanced/*.jsonl by this script; not re-run",
    "tables": {
        "report": {"title": "max/mean partitions per node, plain and balanced", "header": ["n", "bits", "balance", "max/mean"], "rows": report_rows},
        "build": {"title": "balanced build time over the plain build, one thread", "header": ["n", "bits", "replicas", "balance", "balanced/plain"], "rows": build_rows},
    },
    "values": values,
}
(ROOT / "bench" / "results" / "2026-12-01-balanced.json").write_text(json.dumps(out, indent=2) + "\n")
