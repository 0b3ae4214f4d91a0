#!/usr/bin/env python3
"""Writes bench/results/2026-12-01-bounded-sim.json from the raw JSON that
`cargo run --release -p longstraw-bench --bin bounded_sim -- --full` wrote
(bench/runs/2026-12-01-bounded/bounded-sim-full.json, log next to it), so that the docs can cite those
numbers with results keys. Nothing is re-run. Keys: params/FIELD and STRATEGY/FIELD, e.g.
longstraw_bounded/p99_max_over_avg ("x" for a max/mean ratio, " s" for wall time)."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RAW = ROOT / "bench" / "runs" / "2026-12-01-bounded" / "bounded-sim-full.json"


def value(field, v):
    if v is None:
        return "n/a"
    if field.endswith("_over_avg"):
        return f"{v}x"
    if field == "seconds":
        return f"{v} s"
    return f"{v}"


d = json.loads(RAW.read_text())
values = {f"params/{k}": str(v) for k, v in d.items() if k != "strategies"}
rows = []
for name, s in d["strategies"].items():
    for k, v in s.items():
        values[f"{name}/{k}"] = value(k, v)
    rows.append([name, value("p50_max_over_avg", s["p50_max_over_avg"]), value("p99_max_over_avg", s["p99_max_over_avg"]),
                 value("peak_max_over_avg", s["peak_max_over_avg"]), f"{s['owner_served_fraction']:.5f}",
                 "n/a" if s["cap_violations"] is None else str(s["cap_violations"])])

out = {
    "run": "2026-12-01-bounded-sim",
    "command": "cargo run --release -p longstraw-bench --bin bounded_sim -- --full",
    "date": "2026-12-01",
    "cpu": "not recorded by the run",
    "backend": "default (simulation: placement quality, not speed)",
    "load_average": "not recorded; only the seconds column depends on it",
    "commit": "5af7b42 (the commit that added the raw output)",
    "provenance": ("converted from bench/runs/2026-12-01-bounded/bounded-sim-full.json (moved there from bench/results/) "
                   "by this script; not re-run"),
    "tables": {
        "strategies": {
            "title": (f"{d['nodes']} nodes, Zipf({d['zipf_s']}) over {d['keys']} keys, {d['mean_in_flight_per_node']} "
                      f"requests in flight per node, {d['requests']} requests: busiest node over the average"),
            "header": ["strategy", "p50 max/avg", "p99 max/avg", "peak max/avg", "served by owner", "cap violations"],
            "rows": rows,
        },
    },
    "values": values,
}
(ROOT / "bench" / "results" / "2026-12-01-bounded-sim.json").write_text(json.dumps(out, indent=2) + "\n")
