"""The portable backend's own sources (longstraw/_wasm, the pure-Python face over liblongstraw.wasm) pass
mypy --strict under Python 3.11's rules (the oldest the wheel supports). A user's program is checked
against the stubs (test_typing.py); this checks the code behind them. It needs wasmtime's type hints,
so it runs where wasmtime is installed (make test-python-wasm, dist-check-python-wasm) and skips
elsewhere."""

import subprocess
import sys
from pathlib import Path

import pytest

SOURCES = Path(__file__).resolve().parents[1] / "python" / "longstraw" / "_wasm"


def test_the_wasm_backend_sources_pass_mypy_strict():
    pytest.importorskip("wasmtime", reason="wasmtime is not installed (make test-python-wasm installs it)")
    pytest.importorskip("mypy", reason="mypy is not installed (make python-venv installs it)")
    if not (SOURCES / "_runtime.py").exists():
        pytest.skip(f"the sources are not beside these tests ({SOURCES}): a copy of the tests")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.11", "--no-incremental", str(SOURCES)],
        capture_output=True, text=True, cwd=SOURCES.parent.parent,
    )
    assert done.returncode == 0 and "Success: no issues found" in done.stdout, done.stdout + done.stderr
