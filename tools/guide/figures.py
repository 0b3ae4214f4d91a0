#!/usr/bin/env python3
"""The guide's pictures, as SVG, from measured data only: `make guide-figures`.

Inputs (nothing is typed in by hand):
  * the JSON of `longstraw lab --json` on tools/guide/fleet.toml (shares per node, keys moved per change);
  * bench/results/*.json (lookup time against n per mode and per peer, from n = 8);
  * bench/results/2026-12-01-bounded-sim.json (the bounded-load simulation: busiest node over the average).
  * bench/results/2026-12-01-nginx-side-by-side.json (nginx + longstraw, nginx's ring and HAProxy on one stream);
  * bench/results/2026-12-01-nginx-pick-cost.json (the time of one peer choice inside nginx).

Usage: figures.py --lab LAB.json --out docs/guide/src/img
Standard library only, so that it runs anywhere `make test` runs.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"

PALETTE = ["#1f5fa8", "#d9822b", "#3a9a4a", "#b8383b", "#7a5ab0", "#8c6d3f", "#c55aa0", "#5f6b77"]
FONT = 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif"'


def esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Svg:
    """A fixed-size canvas with a white background; every chart below draws on one."""

    def __init__(self, width: int, height: int, title: str, subtitle: str):
        self.width, self.height = width, height
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" {FONT} font-size="13">',
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
            f'<text x="16" y="24" font-size="16" font-weight="bold">{esc(title)}</text>',
            f'<text x="16" y="44" fill="#444">{esc(subtitle)}</text>',
        ]

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, s: str, anchor: str = "start", extra: str = "") -> None:
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {extra}>{esc(s)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#999", extra: str = "") -> None:
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" {extra}/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str) -> None:
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{max(h, 0):.1f}" fill="{fill}"/>')

    def legend(self, x: float, y: float, names: list[str], colours: list[str]) -> None:
        for i, (name, colour) in enumerate(zip(names, colours)):
            self.rect(x, y + i * 18 - 10, 12, 12, colour)
            self.text(x + 18, y + i * 18, name)

    def legend_row(self, x: float, y: float, names: list[str], colours: list[str]) -> None:
        """One row of swatches under the subtitle; the width of a label is estimated at 7 px a character."""
        for name, colour in zip(names, colours):
            self.rect(x, y - 10, 12, 12, colour)
            self.text(x + 18, y, name)
            x += 18 + 7 * len(name) + 24

    def write(self, path: Path) -> None:
        path.write_text("\n".join(self.parts + ["</svg>"]) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def lab_row(lab: dict, name: str) -> dict:
    for row in lab["rows"]:
        if row["name"] == name:
            return row
    raise SystemExit(f"the lab output has no row {name!r}; rows: {[r['name'] for r in lab['rows']]}")


def share_per_node(lab: dict, out: Path) -> None:
    """Grouped bars: each node's share of the keys over its fair share, HRW against rings."""
    series = ["longstraw flat", "ring V=100", "ring V=256"]
    rows = [lab_row(lab, s) for s in series]
    nodes = lab["nodes"]
    ratios = [[share / fair for share, fair in zip(r["shares"], lab["weight_shares"])] for r in rows]
    top = max(1.3, math.ceil(max(max(r) for r in ratios) * 10) / 10)
    bottom = min(0.7, math.floor(min(min(r) for r in ratios) * 10) / 10)
    svg = Svg(820, 420, "Share of keys per node, relative to its fair share (1.0 is perfect)",
              f"{lab['keys']:,} keys over {len(nodes)} equal nodes; bars go up (more than fair) "
              "or down (less) from 1.0; from `longstraw lab`")
    svg.legend_row(16, 68, [f"{s} (max/mean {r['max_over_mean']:.3f})" for s, r in zip(series, rows)], PALETTE)
    x0, x1, y0, y1 = 60, 800, 90, 370
    scale = lambda v: y1 - (v - bottom) / (top - bottom) * (y1 - y0)  # noqa: E731
    tick = bottom
    while tick <= top + 1e-9:
        svg.line(x0, scale(tick), x1, scale(tick), "#e3e3e3")
        svg.text(x0 - 8, scale(tick) + 4, f"{tick:.1f}", "end")
        tick += 0.1
    svg.line(x0, scale(1.0), x1, scale(1.0), "#333", 'stroke-dasharray="5,3"')
    group = (x1 - x0) / len(nodes)
    bar = group * 0.8 / len(series)
    for i, node in enumerate(nodes):
        for j, r in enumerate(ratios):
            v = r[i]
            top_y, base = (scale(v), scale(1.0)) if v >= 1 else (scale(1.0), scale(v))
            svg.rect(x0 + i * group + group * 0.1 + j * bar, top_y, bar - 1, base - top_y, PALETTE[j])
        svg.text(x0 + (i + 0.5) * group, y1 + 18, node.replace("cache-", "#"), "middle")
    svg.write(out / "share-per-node.svg")


def moves(lab: dict, out: Path) -> None:
    """Horizontal bars: keys moved per change and placement, with the optimum as a tick."""
    changes = [("add", "add one node"), ("remove", "remove one node"), ("reweight", "double one weight")]
    rows = [r for r in lab["rows"]]
    svg = Svg(820, 100 + len(rows) * 3 * 15 + len(rows) * 14, "Keys moved by one membership change, against the optimum",
              "bar = keys whose owner changed; black tick = the least any placement must move; from `longstraw lab`")
    x0, x1 = 170, 490
    svg.legend_row(16, 68, [c[1] for c in changes], PALETTE)
    svg.line(480, 56, 480, 72, "#000", 'stroke-width="2"')
    svg.text(488, 68, "optimum")
    top = max(r[c]["moved"] for r in rows for c, _ in changes if r[c] is not None)
    top = min(1.0, math.ceil(top * 10) / 10) or 1.0
    y = 88
    for r in rows:
        svg.text(x0 - 10, y + 22, f"{r['name']}", "end", 'font-weight="bold"')
        for k, (change, _) in enumerate(changes):
            m = r[change]
            if m is None:  # the lab gives None where a placement has no such operation (jump: no weights)
                svg.text(x0 + 4, y + k * 15 + 10, "cannot do this change", extra='font-size="11" fill="#777"')
                continue
            w = m["moved"] / top * (x1 - x0)
            svg.rect(x0, y + k * 15, w, 12, PALETTE[k])
            ox = x0 + m["optimum"] / top * (x1 - x0)
            svg.line(ox, y + k * 15 - 2, ox, y + k * 15 + 14, "#000", 'stroke-width="2"')
            note = f"{m['moved'] * 100:.1f}%"
            if m["stray"] > 0.0005:  # keys moved between two nodes the change did not touch
                note += f" ({m['stray'] * 100:.1f}% between untouched nodes)"
            svg.text(max(x0 + w, ox) + 6, y + k * 15 + 10, note, extra='font-size="11"')
        y += 3 * 15 + 14
    svg.write(out / "moves.svg")


# The lookup picture: ns per key against n, on log axes, from two runs on the same machine:
#   * the peer comparison of the core benchmark (n = 8 to 4096): longstraw flat next to a ring, jump hash and
#     maglev, where small fleets are (the crates a Rust user would pick instead, in one criterion group);
#   * the scale benchmark (n = 1,000 to 100,000): the table and skeleton modes.
# The x axis starts at n = LOOKUP_AXIS_FROM whatever the smallest measured n is, so small fleets have room.
LOOKUP_AXIS_FROM = 4
SMALL_RUN = "2026-11-29-rust-core-f344840"
SMALL_SERIES = [
    ("longstraw", "longstraw flat"),
    ("hashring-100vn", "ring, 100 vnodes (peer)"),
    ("jump-xxh3", "jump (peer)"),
    ("maglev", "maglev (peer)"),
]
LOOKUP_RUN = "2026-11-29-scale-lookup"
LOOKUP_SERIES = [
    ("table", "longstraw table"),
    ("skeleton-default", "longstraw skeleton"),
]
TO_NS = {"ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6}


def lookup_points(run: dict, series: str) -> list[tuple[int, float]]:
    """criterion/lookup/<series>/<n>/per-element of the scale benchmark."""
    points = []
    for key, value in run["values"].items():
        parts = key.split("/")
        if len(parts) == 5 and parts[:2] == ["criterion", "lookup"] and parts[2] == series and parts[4] == "per-element":
            number, unit = value.split()
            points.append((int(parts[3]), float(number) * TO_NS[unit]))
    return sorted(points)


def peer_points(run: dict, series: str) -> list[tuple[int, float]]:
    """peers-single/<series>/n-<n> of the core benchmark: "29.2 ns (2.2x)" is 29.2 ns per key."""
    points = []
    for key, value in run["values"].items():
        parts = key.split("/")
        if len(parts) == 3 and parts[0] == "peers-single" and parts[1] == series and parts[2].startswith("n-"):
            number, unit = value.split()[:2]
            points.append((int(parts[2][2:]), float(number) * TO_NS[unit]))
    return sorted(points)


def lookup_time(out: Path) -> None:
    small = json.loads((RESULTS / f"{SMALL_RUN}.json").read_text(encoding="utf-8"))
    scale = json.loads((RESULTS / f"{LOOKUP_RUN}.json").read_text(encoding="utf-8"))
    data = [(label, peer_points(small, key)) for key, label in SMALL_SERIES]
    data += [(label, lookup_points(scale, key)) for key, label in LOOKUP_SERIES]
    data = [(label, pts) for label, pts in data if pts]
    ns = sorted({n for _, pts in data for n, _ in pts})
    n_lo, n_hi = min(LOOKUP_AXIS_FROM, ns[0]), ns[-1]
    lo_t = 10.0 ** math.floor(math.log10(min(t for _, pts in data for _, t in pts)))
    hi_t = 10.0 ** math.ceil(math.log10(max(t for _, pts in data for _, t in pts)))
    if small["cpu"] != scale["cpu"]:
        raise SystemExit(f"{SMALL_RUN} and {LOOKUP_RUN} ran on different machines: one picture would mislead")
    svg = Svg(820, 470, "Lookup time per key against the number of nodes (log-log)",
              f"{small['cpu']}; longstraw's AVX-512 backend; lower is better")
    notes = [
        f"n = 8 to 4,096 (flat and peers): bench/results/{SMALL_RUN}.json, load average {small.get('load_average', '?')}",
        f"table and skeleton: bench/results/{LOOKUP_RUN}.json, load average {scale.get('load_average', '?')}",
        f"A shared machine: read the shape and the crossings, not exact times. Smallest n measured: {ns[0]}.",
    ]
    for k, note in enumerate(notes):
        svg.text(16, 420 + k * 17, note, extra='fill="#444" font-size="12"')
    x0, x1, y0, y1 = 80, 560, 70, 370
    lx = lambda n: x0 + (math.log10(n) - math.log10(n_lo)) / (math.log10(n_hi) - math.log10(n_lo)) * (x1 - x0)  # noqa: E731
    ly = lambda t: y1 - (math.log10(t) - math.log10(lo_t)) / (math.log10(hi_t) - math.log10(lo_t)) * (y1 - y0)  # noqa: E731
    decade = lo_t
    while decade <= hi_t:
        svg.line(x0, ly(decade), x1, ly(decade), "#e3e3e3")
        label = f"{decade:g} ns" if decade < 1000 else f"{decade / 1000:g} µs"
        svg.text(x0 - 8, ly(decade) + 4, label, "end")
        decade *= 10
    for n in sorted({n_lo, *ns}):
        svg.line(lx(n), y0, lx(n), y1, "#e3e3e3")
        svg.text(lx(n), y1 + 18, f"{n:,}", "middle", 'font-size="11"')
    svg.text((x0 + x1) / 2, y1 + 34, "nodes (n)", "middle")
    for i, (label, pts) in enumerate(data):
        colour = PALETTE[i % len(PALETTE)]
        dash = '' if label.startswith("longstraw") else ' stroke-dasharray="6,3"'
        path = " ".join(f"{'M' if k == 0 else 'L'}{lx(n):.1f},{ly(t):.1f}" for k, (n, t) in enumerate(pts))
        svg.add(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>')
        for n, t in pts:
            svg.add(f'<circle cx="{lx(n):.1f}" cy="{ly(t):.1f}" r="3.5" fill="{colour}"/>')
    svg.legend(x1 + 30, 90, [label for label, _ in data], [PALETTE[i % len(PALETTE)] for i in range(len(data))])
    svg.text(x1 + 30, 90 + len(data) * 18 + 10, "solid: longstraw; dashed: peers", extra='fill="#444"')
    svg.text(x1 + 30, 90 + len(data) * 18 + 28, "a missing point: not measured", extra='fill="#444"')
    svg.text(x1 + 30, 90 + len(data) * 18 + 46, "at that n in that run", extra='fill="#444"')
    svg.write(out / "lookup-vs-n.svg")


BOUNDED_RUN = "2026-12-01-bounded-sim"
BOUNDED_SERIES = [("p50_max_over_avg", "p50"), ("p99_max_over_avg", "p99"), ("peak_max_over_avg", "peak")]
BOUNDED_LABELS = {"hrw": "HRW (plain)", "ring": "ring, 100 points", "ring_bounded": "ring, bounded",
                  "longstraw_bounded": "longstraw bounded"}


def ratio(value: str) -> float:
    return float(value.rstrip("x"))


def bounded_load(out: Path) -> None:
    """The busiest node's load over the average, per strategy, in the bounded-load simulation.

    The results file holds percentiles over the run's samples (p50, p99, peak), not a time series, so
    this draws those as grouped bars on a log scale, with the fraction of requests served by the owner.
    """
    run = json.loads((RESULTS / f"{BOUNDED_RUN}.json").read_text(encoding="utf-8"))
    values = run["values"]
    strategies = [row[0] for row in run["tables"]["strategies"]["rows"]]
    p = lambda k: values[f"params/{k}"]  # noqa: E731
    svg = Svg(820, 430, "Bounded loads: the busiest node's in-flight load over the average",
              f"bench/results/{BOUNDED_RUN}.json: {p('nodes')} nodes, Zipf {p('zipf_s')} over "
              f"{int(p('keys')):,} keys, {p('mean_in_flight_per_node')} in flight per node, "
              f"c = {p('balance_factor')}")
    colours = PALETTE[:len(BOUNDED_SERIES)]
    svg.legend_row(80, 70, [f"{label} of max/avg over the run" for _, label in BOUNDED_SERIES], colours)
    x0, x1, y0, y1 = 80, 800, 95, 350
    lo, hi = 1.0, 10.0 ** math.ceil(math.log10(max(ratio(values[f"{s}/{k}"]) for s in strategies
                                                      for k, _ in BOUNDED_SERIES)))
    ly = lambda v: y1 - math.log10(v / lo) / math.log10(hi / lo) * (y1 - y0)  # noqa: E731
    for tick in (1, 2, 5, 10, 20, 50, 100):
        if lo <= tick <= hi:
            svg.line(x0, ly(tick), x1, ly(tick), "#e3e3e3")
            svg.text(x0 - 8, ly(tick) + 4, f"{tick:g}x", "end")
    svg.line(x0, ly(float(p("balance_factor"))), x1, ly(float(p("balance_factor"))), "#b8383b",
             'stroke-dasharray="4,3"')
    svg.text(x0 - 8, ly(float(p("balance_factor"))) + 4, f"c = {p('balance_factor')}", "end",
             'fill="#b8383b" font-size="12"')
    group = (x1 - x0) / len(strategies)
    bar = group * 0.7 / len(BOUNDED_SERIES)
    for i, s in enumerate(strategies):
        gx = x0 + i * group + group * 0.15
        for j, (k, _) in enumerate(BOUNDED_SERIES):
            v = ratio(values[f"{s}/{k}"])
            svg.rect(gx + j * bar, ly(v), bar - 2, y1 - ly(v), colours[j])
            svg.text(gx + j * bar + (bar - 2) / 2, ly(v) - 4, f"{v:.2f}", "middle", 'font-size="11"')
        cx = x0 + (i + 0.5) * group
        svg.text(cx, y1 + 18, BOUNDED_LABELS.get(s, s), "middle", 'font-weight="bold"')
        served = float(values[f"{s}/owner_served_fraction"])
        svg.text(cx, y1 + 36, f"served by owner: {served:.1%}", "middle", 'fill="#444" font-size="12"')
    svg.line(x0, y1, x1, y1, "#666")
    svg.text(16, 415, f"lower is better; {int(p('requests')):,} requests; {run['command']}", extra='fill="#444" font-size="12"')
    svg.write(out / "bounded-load.svg")


NGINX_RUN = "2026-12-01-nginx-side-by-side"
NGINX_LBS = [("longstraw", "nginx + longstraw, balance=1.25"), ("ketama", "nginx hash consistent (no bound)"),
             ("haproxy", "HAProxy 2.6, hash-balance-factor 125")]
NGINX_PANELS = [  # (value, title, what the number is, as a percentage)
    ("keyspace_cv", "key-space share", "CV, lower is better", False),
    ("requests_cv", "request share", "CV, lower is better", False),
    ("inflight_p99_max_over_avg", "in flight, p99", "busiest / average", False),
    ("inflight_peak_max_over_avg", "in flight, peak", "busiest / average", False),
    ("owner_affinity", "owner affinity", "served by the owner", True),
]


def nginx_side_by_side(out: Path) -> None:
    """One small panel per figure of the side-by-side run, each on its own axis from 0, three bars a panel."""
    run = json.loads((RESULTS / f"{NGINX_RUN}.json").read_text(encoding="utf-8"))
    values, setup = run["values"], run["setup"]
    svg = Svg(820, 420, "nginx + longstraw, nginx's ring and HAProxy's bounded ring on the same stream",
              f"{setup['backends']} backends on loopback; Zipf({setup['zipf_s']}) over {setup['keyspace']:,} keys, "
              f"{setup['stream_requests']:,} requests from {setup['clients']} clients; each panel has its own axis")
    colours = PALETTE[:len(NGINX_LBS)]
    svg.legend_row(16, 68, [label for _, label in NGINX_LBS], colours)
    x0, y0, y1 = 16, 140, 330
    width = (820 - 2 * x0) / len(NGINX_PANELS)
    for i, (key, title, unit, percent) in enumerate(NGINX_PANELS):
        vs = [float(values[f"{lb}/{key}"]) for lb, _ in NGINX_LBS]
        top = max(vs) * 1.1  # the tallest bar fills its panel, its number printed above it
        px = x0 + i * width
        svg.text(px + width / 2, 100, title, "middle", 'font-weight="bold"')
        svg.text(px + width / 2, 116, unit, "middle", 'fill="#444" font-size="11"')
        svg.line(px + 10, y1, px + width - 10, y1, "#666")
        bar = (width - 30) / len(vs)
        for j, v in enumerate(vs):
            h = v / top * (y1 - y0)
            bx = px + 15 + j * bar
            svg.rect(bx, y1 - h, bar - 4, h, colours[j])
            svg.text(bx + (bar - 4) / 2, y1 - h - 4, f"{v:.1%}" if percent else f"{v:.3f}", "middle",
                     'font-size="11"')
    notes = [
        "key-space share: a sample of "
        f"{setup['keyspace_sample']:,} keys (CV about 0.02 is that sample's floor); request share: the stream's requests",
        "in flight: the busiest backend's count over the average, sampled at the backends about every 2 ms (p99 of",
        "the samples, and the largest); nginx's ring has no bound, HAProxy and longstraw bound at the same factor",
        f"bench/results/{NGINX_RUN}.json ({run['command']}); load average {run['load_average']}:",
        "the in-flight panels are noisy on a busy machine, the key-space panel does not depend on timing",
    ]
    for k, note in enumerate(notes):
        svg.text(16, 352 + k * 15, note, extra='fill="#444" font-size="12"')
    svg.write(out / "nginx-side-by-side.svg")


def nginx_hot_key(out: Path) -> None:
    """Per load balancer, the hottest key's requests split into served by its owner and overflowed."""
    run = json.loads((RESULTS / f"{NGINX_RUN}.json").read_text(encoding="utf-8"))
    values, setup = run["values"], run["setup"]
    hot = {int(values[f"{lb}/hot_key_requests"]) for lb, _ in NGINX_LBS}
    if len(hot) != 1:
        raise SystemExit(f"{NGINX_RUN}: the load balancers saw different hot-key counts {sorted(hot)}")
    svg = Svg(820, 250, "The hottest key: where its requests went",
              f"{hot.pop():,} of the {setup['stream_requests']:,} requests carry the hottest key; "
              "bar = all of them, split into served by its owner and sent elsewhere")
    svg.legend_row(16, 68, ["served by the key's owner", "overflow, to other backends"], ["#5f6b77", PALETTE[3]])
    x0, x1, y = 310, 520, 90
    for lb, label in NGINX_LBS:
        share = float(values[f"{lb}/hot_overflow_share"])
        backends = int(values[f"{lb}/hot_overflow_backends"])
        svg.text(x0 - 10, y + 15, label, "end", 'font-weight="bold"')
        kept = (1 - share) * (x1 - x0)
        svg.rect(x0, y, kept, 22, "#5f6b77")
        svg.rect(x0 + kept, y, (x1 - x0) - kept, 22, PALETTE[3])
        svg.text(x0 + 4, y + 15, f"{1 - share:.1%}", extra='fill="#fff" font-size="11"')
        if backends:
            spread = float(values[f"{lb}/hot_overflow_max_over_mean"])
            svg.text(x1 + 8, y + 10, f"{share:.1%} overflowed to {backends} of {setup['backends'] - 1} others,",
                     extra='font-size="12"')
            svg.text(x1 + 8, y + 24, f"the busiest of them {spread:.2f}x their mean", extra='font-size="12"')
        else:
            svg.text(x1 + 8, y + 15, "none: no bound, the owner took them all", extra='font-size="12"')
        y += 40
    svg.text(16, 222, "longstraw's overflow follows the key's own ranking, HAProxy's walks the ring clockwise.",
             extra='fill="#444" font-size="12"')
    svg.text(16, 238, f"bench/results/{NGINX_RUN}.json; load average {run['load_average']}",
             extra='fill="#444" font-size="12"')
    svg.write(out / "nginx-hot-key.svg")


COST_RUN = "2026-12-01-nginx-pick-cost"
COST_MODES = [("plain", "longstraw"), ("bounded", "longstraw balance=1.25")]
COST_PANELS = [("warm", "warm caches: the same choice repeated in a row"),
               ("cold", "inside a request: caches cold from its processing")]


def ns_value(value: str) -> float:
    number, unit = value.split()[:2]
    return float(number) * TO_NS[unit]


def nginx_pick_cost(out: Path) -> None:
    """The time of one peer choice in the module, median bars with p10 to p90 whiskers, warm and cold."""
    run = json.loads((RESULTS / f"{COST_RUN}.json").read_text(encoding="utf-8"))
    values = run["values"]
    sizes = sorted({int(k.split("/")[0][1:]) for k in values})
    svg = Svg(820, 430, "The time of one peer choice inside nginx (the module's own clock)",
              "bar = median, whisker = p10 to p90; each panel has its own axis, from 0; lower is better")
    colours = PALETTE[:len(COST_MODES)]
    svg.legend_row(16, 68, [label for _, label in COST_MODES], colours)
    y0, y1 = 110, 320
    width = (820 - 32) / len(COST_PANELS)
    for i, (phase, title) in enumerate(COST_PANELS):
        px = 16 + i * width

        def get(n: int, mode: str, stat: str, phase: str = phase) -> float:
            return ns_value(values[f"n{n}/{mode}/{phase}_{stat}_ns"])

        top = max(get(n, m, "p90") for n in sizes for m, _ in COST_MODES) * 1.1

        def ly(v: float, top: float = top) -> float:
            return y1 - v / top * (y1 - y0)

        svg.text(px + width / 2, 96, title, "middle", 'font-weight="bold"')
        svg.line(px + 50, y1, px + width - 10, y1, "#666")
        svg.line(px + 50, y0, px + 50, y1, "#666")
        svg.text(px + 44, y1 + 4, "0 ns", "end", 'font-size="11"')
        group = (width - 70) / len(sizes)
        bar = group * 0.7 / len(COST_MODES)
        for g, n in enumerate(sizes):
            gx = px + 60 + g * group + group * 0.15
            for j, (mode, _) in enumerate(COST_MODES):
                med, lo, hi = (get(n, mode, stat) for stat in ("median", "p10", "p90"))
                bx = gx + j * bar
                svg.rect(bx, ly(med), bar - 6, y1 - ly(med), colours[j])
                cx = bx + (bar - 6) / 2
                svg.line(cx, ly(lo), cx, ly(hi), "#222", 'stroke-width="1.5"')
                svg.line(cx - 5, ly(hi), cx + 5, ly(hi), "#222", 'stroke-width="1.5"')
                svg.line(cx - 5, ly(lo), cx + 5, ly(lo), "#222", 'stroke-width="1.5"')
                svg.text(cx, ly(hi) - 6, f"{med:,.0f} ns", "middle", 'font-size="11"')
            svg.text(px + 60 + (g + 0.5) * group, y1 + 18, f"{n} servers", "middle")
    setup = run["setup"]
    notes = [f"bench/results/{COST_RUN}.json ({run['command']}): {setup['requests_per_case']:,} requests a case, "
             f"{setup['workers']} nginx worker", f"load average {run['load_average']}"]
    notes += run["provenance"].split("; ")  # the tool and build, then what a figure includes
    for k, note in enumerate(notes):
        svg.text(16, 360 + k * 16, note, extra='fill="#444" font-size="12"')
    svg.write(out / "nginx-pick-cost.svg")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lab", required=True, help="the output of `longstraw lab --json` on tools/guide/fleet.toml")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    lab = json.loads(Path(args.lab).read_text(encoding="utf-8"))
    share_per_node(lab, out)
    moves(lab, out)
    lookup_time(out)
    bounded_load(out)
    nginx_side_by_side(out)
    nginx_hot_key(out)
    nginx_pick_cost(out)


if __name__ == "__main__":
    main()
