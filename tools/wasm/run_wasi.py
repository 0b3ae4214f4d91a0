#!/usr/bin/env python3
"""Runs a WASI (wasm32-wasip1) command module under wasmtime, the way cargo runs a target's test
binaries through CARGO_TARGET_<TRIPLE>_RUNNER: the module's path, then its arguments.

    run_wasi.py [--dir PATH]... MODULE.wasm [ARG]...

Each --dir PATH is visible to the module at the same absolute path (tests read files under
CARGO_MANIFEST_DIR). The module gets the RUST_*, PROPTEST_* and LONGSTRAW_* environment variables
and this process's stdout and stderr; the exit status is the module's.
"""

from __future__ import annotations

import os
import sys

from wasmtime import Engine, ExitTrap, Linker, Module, Store, WasiConfig

PASSED_ENV = ("RUST_", "PROPTEST_", "LONGSTRAW_")


def main(argv: list[str]) -> int:
    dirs: list[str] = []
    while len(argv) >= 2 and argv[0] == "--dir":
        dirs.append(os.path.abspath(argv[1]))
        argv = argv[2:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    path, args = argv[0], argv[1:]
    engine = Engine()
    linker = Linker(engine)
    linker.define_wasi()
    module = Module.from_file(engine, path)
    wasi = WasiConfig()
    wasi.argv = [os.path.basename(path), *args]
    wasi.env = [(k, v) for k, v in os.environ.items() if k.startswith(PASSED_ENV)]
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    for d in dirs:
        wasi.preopen_dir(d, d)
    store = Store(engine)
    store.set_wasi(wasi)
    instance = linker.instantiate(store, module)
    start = instance.exports(store)["_start"]
    try:
        start(store)
    except ExitTrap as e:
        return int(e.code)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
