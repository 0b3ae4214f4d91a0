#!/usr/bin/env python3
"""Every performance number in the docs comes from bench/results/*.json, and says which value it is.

A performance number is a time (``21.7 ns``, ``0.25 µs``, ``34 ms``, ``2.7 s``) or a ratio (``2.9x``),
outside code blocks and inline code, together with any number joined to it by ``-``, ``–``, ``/`` or ``to``
(``21-35 ns`` is two numbers), and any number in a table column whose header names a time unit
(``scalar ns/score``). Each one must be either

* inside a generated table: ``<!-- table:RUN:TABLE -->`` ... ``<!-- /table -->``, whose body must be
  exactly what ``--write`` renders from ``tables[TABLE]`` of ``bench/results/RUN.json``; or
* followed by a tag naming its value: ``21.7 ns<!--r:RUN:KEY-->``, or for a ratio of two values
  ``2.9x<!--r:RUN:KEY over RUN:KEY-->``; ``KEY#2`` is the second number of a value such as
  ``14.18 µs (53.1x)``. The number must equal the value rounded to the number's own
  precision, after unit conversion (``0.27 µs`` agrees with ``267.2 ns``; ``about 8 ns`` with ``8.06 ns``);
  or, for a target rather than a measurement, followed by ``<!--goal-->`` (``goal: <= 10 ns<!--goal-->``).

``python3 tools/doctest/perf_lint.py`` checks every *.md git knows of (bench/runs/, raw output, excepted);
``--write`` regenerates the tables first. ``--keys RUN`` lists a run's keys, to find the one to cite.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"
TO_NS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
NUM = r"\d[\d,]*(?:\.\d+)?"
UNIT = r"(?:ns|µs|us|ms|s)\b|x\b"
TAG = re.compile(r"(?P<num>" + NUM + r")(?P<sp>\s?)(?P<unit>" + UNIT + r")?\**\s*<!--\s*r:(?P<ref>.*?)\s*-->")
PERF = re.compile(r"(?<![\w.^])(?<![A-Za-z]-)(" + NUM + r")\s?(" + UNIT + r")")
ORPHAN = re.compile(r"(?<![\w.\-/^])(" + NUM + r")\s*(?:-|–|/|to)\s*\x00")
GOAL = re.compile(r"(?P<num>" + NUM + r")\s?(?:" + UNIT + r")?\**\s*<!--\s*goal\s*-->")
REGION = re.compile(r"<!--\s*table:(?P<run>[^:\s]+):(?P<table>\S+)\s*-->\n(?P<body>.*?)<!--\s*/table\s*-->", re.S)
FENCE = re.compile(r"^\s*(```|~~~)")


def load_runs() -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(RESULTS.glob("*.json"))}


def render(table: dict) -> str:
    lines = ["| " + " | ".join(table["header"]) + " |", "|" + "---|" * len(table["header"])]
    lines += ["| " + " | ".join(row) + " |" for row in table["rows"]]
    return "\n".join(lines) + "\n"


def parse_value(text: str, nth: int = 1) -> tuple[float, str]:
    """The nth number of a value ('14.18 µs (53.1x)': 1 is the time, 2 the ratio) and its unit."""
    found = list(re.finditer(r"(" + NUM + r")\s?(" + UNIT + r")?", text))
    if len(found) < nth:
        raise ValueError(f"no number {nth} in {text!r}")
    m = found[nth - 1]
    return float(m.group(1).replace(",", "")), (m.group(2) or "")


def resolve(runs: dict[str, dict], ref: str) -> tuple[float, str]:
    def one(r: str) -> tuple[float, str]:
        run, _, key = r.strip().partition(":")
        key, _, nth = key.partition("#")
        if run not in runs:
            raise KeyError(f"no bench/results/{run}.json")
        if key not in runs[run]["values"]:
            raise KeyError(f"{run}.json has no value {key!r}")
        value, unit = parse_value(runs[run]["values"][key], int(nth or 1))
        column = re.search(r"-(ns|us|ms)$", key.rsplit("/", 1)[-1])
        return value, unit or (column.group(1) if column else "")

    if " over " in ref:
        (a, ua), (b, ub) = (one(r) for r in ref.split(" over ", 1))
        a *= TO_NS.get(ua, 1.0)
        b *= TO_NS.get(ub, 1.0)
        return a / b, "x"
    return one(ref)


def agrees(shown: str, unit: str, value: float, vunit: str) -> bool:
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    d = float(shown.replace(",", ""))
    if unit in TO_NS and vunit in TO_NS:
        value = value * TO_NS[vunit] / TO_NS[unit]
    elif unit and vunit and unit != vunit and not (unit == "x" and vunit in ("", "x")):
        return False
    return abs(value - d) <= 0.5 * 10 ** -decimals * (1 + 1e-9) + 1e-12


TIMED_HEADER = re.compile(r"(?<![\w-])(ns|µs|us|ms)(?![\w-])")
BARE = re.compile(r"(?<![\w.^])(?<![A-Za-z]-)(" + NUM + r")(?![\d.])")


def timed_cells(header: str, row: str) -> list[str]:
    """The cells of a table row whose column header names a time unit (``scalar ns/score``)."""
    head = [c.strip() for c in header.strip().strip("|").split("|")]
    cells = row.strip().strip("|").split("|")
    return [cell for h, cell in zip(head, cells) if TIMED_HEADER.search(h)]


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) outside fenced blocks and generated tables, inline code blanked."""
    out: list[tuple[int, str]] = []
    in_fence = in_region = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if re.search(r"<!--\s*table:", line):
            in_region = True
        if re.search(r"<!--\s*/table\s*-->", line):
            in_region = False
            continue
        if in_fence or in_region:
            continue
        out.append((n, re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), line)))
    return out


def check_file(path: Path, runs: dict[str, dict], write: bool) -> list[str]:
    rel = path.relative_to(ROOT)
    text = path.read_text(encoding="utf-8")
    problems: list[str] = []

    def regenerate(m: re.Match[str]) -> str:
        run, table = m["run"], m["table"]
        try:
            body = render(runs[run]["tables"][table])
        except KeyError:
            problems.append(f"{rel}: no table {table!r} in bench/results/{run}.json")
            return m.group(0)
        if body != m["body"]:
            if not write:
                line = text[: m.start()].count("\n") + 1
                problems.append(f"{rel}:{line}: the table from {run}:{table} is not what the results say "
                                "(run tools/doctest/perf_lint.py --write)")
            return f"<!-- table:{run}:{table} -->\n{body}<!-- /table -->"
        return m.group(0)

    new = REGION.sub(regenerate, text)
    if write and new != text:
        path.write_text(new, encoding="utf-8")
        text = new

    lines = prose_lines(text)
    header = ""
    for i, (n, line) in enumerate(lines):
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|\s*$", lines[i + 1][1]):
            header = line
        elif not line.startswith("|"):
            header = ""
        is_body_row = bool(header) and line is not header and not re.match(r"^\|[\s:|-]+\|\s*$", line)

        def check_tag(m: re.Match[str]) -> str:
            try:
                value, vunit = resolve(runs, m["ref"])
            except (KeyError, ValueError) as e:
                problems.append(f"{rel}:{n}: {m.group(0).strip()}: {e}")
                return "\x00"
            if not agrees(m["num"], m["unit"] or "", value, vunit):
                problems.append(f"{rel}:{n}: {m['num']}{m['sp']}{m['unit'] or ''} disagrees with its key "
                                f"{m['ref']} = {value:g}{(' ' + vunit) if vunit not in ('', 'x') else vunit}")
            return "\x00"

        rest = GOAL.sub("\x00", TAG.sub(check_tag, line))
        if is_body_row:
            for cell in timed_cells(header, rest):
                for m in BARE.finditer(cell):
                    problems.append(f"{rel}:{n}: {m.group(1)} is in a column of times and has no results key")
        for m in PERF.finditer(rest):
            problems.append(f"{rel}:{n}: {m.group(0)} has no results key (tag it <!--r:RUN:KEY-->)")
        for m in ORPHAN.finditer(rest):
            problems.append(f"{rel}:{n}: {m.group(1)} (part of a range or list of numbers) has no results key")
        if "<!--" in rest and "r:" in rest.split("<!--", 1)[1][:6]:
            problems.append(f"{rel}:{n}: a results tag that follows no number")
    return problems


def markdown_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()
    return sorted(ROOT / p for p in out if not p.startswith("bench/runs/") and (ROOT / p).is_file())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--write", action="store_true", help="regenerate the tables from bench/results first")
    ap.add_argument("--keys", metavar="RUN", help="print RUN's keys and values, and exit")
    args = ap.parse_args()
    runs = load_runs()
    if args.keys:
        for key, value in runs[args.keys]["values"].items():
            print(f"{key}\t{value}")
        return 0
    files = [Path(f).resolve() for f in args.files] or markdown_files()
    problems = [p for f in files for p in check_file(f, runs, args.write)]
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"perf-lint: {len(problems)} problem(s) in the performance numbers of the docs", file=sys.stderr)
        return 1
    print(f"perf-lint: every performance number in {len(files)} Markdown files has a results key "
          f"and agrees with it ({len(runs)} result files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
