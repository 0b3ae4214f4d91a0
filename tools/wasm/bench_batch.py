#!/usr/bin/env python3
"""The batch lookup at one table size: natively, and in the wasm32-wasip1 builds without and with simd128
under Node's node:wasi and (when the `wasmtime` module imports) wasmtime, in one run. Prints Markdown
tables (for bench/record.py): ns per key on every backend, the speed-ups the simd128 kernel has to reach,
and the stripped modules' sizes.

    bench_batch.py --native BIN --scalar SCALAR.wasm --simd SIMD.wasm [N KEYS SAMPLES]

BIN and the modules are builds of bench/wasm (longstraw-bench-wasm); make bench-wasm builds them.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
Times = dict[tuple[str, str], float]  # (layout, backend) -> minimum ns per key


def run(cmd: list[str]) -> tuple[str, Times]:
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    times: Times = {}
    header = ""
    for line in out.splitlines():
        if line.startswith("# "):
            header = line[2:]
        elif line.startswith("batch "):
            _, layout, backend, low, _median = line.split()
            times[(layout, backend)] = float(low)
    if not times:
        raise SystemExit(f"no results from {' '.join(cmd)}:\n{out}")
    return header, times


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--native", required=True)
    p.add_argument("--scalar", required=True, help="the wasm32-wasip1 build without simd128")
    p.add_argument("--simd", required=True, help="the wasm32-wasip1 build with simd128")
    p.add_argument("args", nargs="*", default=["4096", "128", "15"], help="N KEYS SAMPLES")
    a = p.parse_args()
    args = a.args
    runtimes: list[tuple[str, list[str]]] = []
    if shutil.which("node"):
        runtimes.append(("node " + subprocess.check_output(["node", "--version"], text=True).strip(),
                         ["node", "--no-warnings", str(HERE / "run_wasi.mjs")]))
    else:
        print("bench_batch: node is missing: no Node column", file=sys.stderr)
    if importlib.util.find_spec("wasmtime"):
        from importlib.metadata import version

        runtimes.append((f"wasmtime {version('wasmtime')} (Python)", [sys.executable, str(HERE / "run_wasi.py")]))
    else:
        print("bench_batch: the wasmtime module is missing: no wasmtime column (make bench-wasm installs it)",
              file=sys.stderr)
    if not runtimes:
        raise SystemExit("bench_batch: no WASI runtime (node or the wasmtime module)")

    header, native = run([a.native, *args])
    print(f"Batch lookup (`owners`), {header}. Times: ns per key, the mean over the keys of each key's"
          " fastest call.\n")
    print("## Native\n")
    print("| backend | plain | weighted4 |\n|---|---|---|")
    backends = sorted({b for _, b in native}, key=lambda b: native[("plain", b)], reverse=True)
    for b in backends:
        print(f"| {b} | {native[('plain', b)]:.0f} ns | {native[('weighted4', b)]:.0f} ns |")
    ratios: list[tuple[str, float, float]] = []
    if ("plain", "sse2") in native:
        ratios.append(("native: sse2 over scalar",
                       native[("plain", "scalar")] / native[("plain", "sse2")],
                       native[("weighted4", "scalar")] / native[("weighted4", "sse2")]))
    for name, cmd in runtimes:
        _, scalar = run([*cmd, a.scalar, *args])
        _, simd = run([*cmd, a.simd, *args])
        print(f"\n## {name}\n")
        print("| build, backend | plain | weighted4 |\n|---|---|---|")
        rows = [("no simd128, scalar", scalar, "scalar"), ("simd128, scalar", simd, "scalar"),
                ("simd128, simd128", simd, "simd128")]
        for label, t, b in rows:
            print(f"| {label} | {t[('plain', b)]:.0f} ns | {t[('weighted4', b)]:.0f} ns |")
        ratios.append((f"{name}: simd128 over the build without simd128",
                       scalar[("plain", "scalar")] / simd[("plain", "simd128")],
                       scalar[("weighted4", "scalar")] / simd[("weighted4", "simd128")]))
        ratios.append((f"{name}: simd128 over the scalar backend of the same build",
                       simd[("plain", "scalar")] / simd[("plain", "simd128")],
                       simd[("weighted4", "scalar")] / simd[("weighted4", "simd128")]))
    print("\n## Speed-ups\n")
    print("| comparison | plain | weighted4 |\n|---|---|---|")
    for label, plain, weighted in ratios:
        print(f"| {label} | {plain:.2f}x | {weighted:.2f}x |")
    print("\n## Stripped module sizes\n")
    print("| module | bytes |\n|---|---|")
    for label, path in (("longstraw-bench-wasm, no simd128", a.scalar), ("longstraw-bench-wasm, simd128", a.simd)):
        print(f"| {label} | {os.path.getsize(path)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
