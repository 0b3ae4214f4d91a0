import json
import os
import pathlib
import struct

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def vectors_path() -> pathlib.Path:
    """tests/vectors/placement-v1.json, or $LONGSTRAW_VECTORS while the file
    has not landed on this branch."""
    override = os.environ.get("LONGSTRAW_VECTORS")
    return pathlib.Path(override) if override else REPO / "tests" / "vectors" / "placement-v1.json"


@pytest.fixture(scope="session")
def vectors():
    path = vectors_path()
    if not path.exists():
        pytest.fail(f"golden vectors not found at {path} (set LONGSTRAW_VECTORS to override)")
    with path.open() as f:
        return json.load(f)


def weight_from_bits(bits_hex: str) -> float:
    """The exact f64 of a vector's weight_bits."""
    return struct.unpack(">d", bytes.fromhex(bits_hex))[0]


def load_vectors(name: str):
    """tests/vectors/<name>-v1.json (table, skeleton, domains), read at test time."""
    path = REPO / "tests" / "vectors" / f"{name}-v1.json"
    if not path.exists():
        pytest.fail(f"golden vectors not found at {path}")
    with path.open() as f:
        return json.load(f)


# Tests of the native extension only, skipped (with their reason, which -rs prints) when the suite runs
# against the WebAssembly backend (make test-python-wasm). Nothing else is skipped there.
WASM_SKIPS = {
    "test_cli.py": "the `longstraw` console script is the native extension's (_cli_main); the pure wheel has no CLI",
    "test_fork.py": "os.fork() during changes is the native extension's fork gate (fork.rs); wasmtime stores are "
    "not fork-safe, so the wasm backend does not promise it",
    "test_gil_stall.py": "the native extension's GIL release around Rust work (exit_guard.rs detach) at 10^6 nodes",
    "test_hardening.py::test_out_of_memory_is_a_memory_error_under_a_2gb_limit": "wasmtime reserves 4 GiB + "
    "64 MiB of address space (0x104000000 bytes, the linear memory and its guard) for every new instance, so "
    "under RLIMIT_AS = 2 GiB a set made after the limit fails to instantiate (mmap ENOMEM) before the library "
    "can report out of memory",
    "test_stubs.py::test_stubtest_passes": "stubtest checks the stubs against the native module longstraw._longstraw",
}


def wasm_backend() -> bool:
    import sys

    try:
        import longstraw
    except ImportError:
        return False
    wasm = sys.modules.get("longstraw._wasm")
    return wasm is not None and getattr(wasm, "Rendezvous", None) is longstraw.Rendezvous


def pytest_collection_modifyitems(config, items):
    if not wasm_backend():
        return
    for item in items:
        path = item.nodeid.split("/")[-1]
        reason = WASM_SKIPS.get(path.split("::")[0]) or WASM_SKIPS.get(path.split("[")[0])
        if reason:
            item.add_marker(pytest.mark.skip(reason=f"wasm backend: {reason}"))
