#!/usr/bin/env python3
"""Writes bench/results/2026-12-01-keyed.json from the raw keyed-v1 measurements in
bench/runs/2026-12-01-keyed/ (keyed-cost.md: fastest-batch figures; criterion-keyed-loaded.txt: criterion
means under load; README.md says how they were taken), so that the docs can cite those numbers with
results keys. Nothing is re-run. Keys: prf/BYTES/PRF, owner/LANG/n-N/{v1,keyed,extra},
v1-unchanged/n-N/{main,keyed-branch}-{1,2} and criterion-loaded/NAME (the criterion mean). All in ns."""
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RAW = ROOT / "bench" / "runs" / "2026-12-01-keyed"
PRFS = ["xxh3_seeded", "siphash24", "blake3_keyed_trunc64"]
LANGS = {"Rust core": "rust", "Python": "python", "Node": "node", "Go": "go", "C": "c"}


def tables(md):
    """(heading, header cells, rows of cells) of each Markdown table, under its nearest ## or ### heading."""
    out, heading, cur = [], "", None
    for line in md.splitlines():
        if line.startswith("#"):
            heading, cur = line.lstrip("#").strip(), None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cur is None:
                cur = (heading, cells, [])
                out.append(cur)
            elif not re.match(r"^[\s:-]+$", "".join(cells)):
                cur[2].append(cells)
        else:
            cur = None
    return out


values, out_tables, section = {}, {}, ""
for heading, header, rows in tables((RAW / "keyed-cost.md").read_text()):
    if heading.startswith("PRF"):
        out_tables["prf"] = {"title": "PRF cost, ns per key (fastest batch of 64)", "header": ["key bytes", "XXH3-64 seeded (v1)", "SipHash-2-4", "keyed BLAKE3, 64 bits"], "rows": []}
        for r in rows:
            for prf, cell in zip(PRFS, r[1:]):
                values[f"prf/{r[0]}/{prf}"] = f"{cell} ns"
            out_tables["prf"]["rows"].append([r[0]] + [f"{c} ns" for c in r[1:]])
    elif heading.startswith("owner(key)") or heading.split(":")[0] in LANGS:
        lang = "rust" if heading.startswith("owner(key)") else LANGS[heading.split(":")[0]]
        t = out_tables[f"owner-{lang}"] = {"title": f"{lang}: {heading}; 16-byte keys, ns per lookup (fastest batch of 64)",
                                           "header": ["n", "v1", "keyed-v1", "extra"], "rows": []}
        for r in rows:
            for col, cell in zip(["v1", "keyed", "extra"], r[1:]):
                values[f"owner/{lang}/n-{r[0]}/{col}"] = f"{cell.lstrip('+')} ns"
            t["rows"].append([r[0]] + [f"{c.lstrip('+')} ns" for c in r[1:]])
    elif header[:2] == ["n", "main"]:
        t = out_tables["v1-unchanged"] = {"title": "v1 owner() on main (7fdec5e) and on the keyed branch, two runs each, ns per lookup",
                                          "header": ["n", "main", "keyed branch (v1 set)"], "rows": []}
        for r in rows:
            for col, cell in zip(["main", "keyed-branch"], r[1:]):
                for i, v in enumerate(cell.split(","), 1):
                    values[f"v1-unchanged/n-{r[0]}/{col}-{i}"] = f"{v.strip()} ns"
            t["rows"].append([r[0]] + [", ".join(f"{v.strip()} ns" for v in c.split(",")) for c in r[1:]])
# keyed-cost.md's owner tables come in order: Rust core first (heading "owner(key)..."), then one per binding.
assert {"owner-rust", "owner-python", "owner-node", "owner-go", "owner-c", "prf", "v1-unchanged"} <= set(out_tables), out_tables.keys()

crit = {"title": "criterion means under load average ~15 (5-20x the fastest-batch figures; owner16 is noise)", "header": ["benchmark", "mean"], "rows": []}
for line in (RAW / "criterion-keyed-loaded.txt").read_text().splitlines():
    m = re.match(r"^(\S+)\s+time:\s*\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
    if m:
        values[f"criterion-loaded/{m[1]}"] = f"{m[2]} {m[3]}"
        crit["rows"].append([m[1], f"{m[2]} {m[3]}"])
out_tables["criterion-loaded"] = crit

first = (RAW / "keyed-cost.md").read_text().splitlines()[0]
out = {
    "run": "2026-12-01-keyed",
    "command": "cargo run --release -p longstraw-bench --bin keyed_cost, bindings' keyed benches (see bench/runs/2026-12-01-keyed/README.md); cargo bench -p longstraw-bench --bench keyed",
    "date": "2026-12-01",
    "cpu": "the shared 2-core AVX-512 box (bench/runs/2026-12-01-keyed/README.md)",
    "backend": "avx512",
    "load_average": f"{first.split('load average ')[-1]} (keyed-cost.md), ~15 (criterion): fastest batches, compare within the run",
    "commit": "keyed branch (v1 compared against main 7fdec5e)",
    "provenance": "converted from bench/runs/2026-12-01-keyed/keyed-cost.md and criterion-keyed-loaded.txt by this script; not re-run",
    "tables": out_tables,
    "values": values,
}
(ROOT / "bench" / "results" / "2026-12-01-keyed.json").write_text(json.dumps(out, indent=2) + "\n")
