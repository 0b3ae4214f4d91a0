"""The stubs are precise for a user's program: mypy --strict and pyright (strict, pinned in
tools/typecheck/package.json) accept typecheck/user_program.py, which uses every public API, and reject
each mistake in typecheck/wrong_program.py, under Python 3.11's rules (the oldest the wheel supports)."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "typecheck"
ROOT = Path(__file__).resolve().parents[3]
PYRIGHT = Path(os.environ.get("LONGSTRAW_PYRIGHT", ROOT / "tools/typecheck/node_modules/.bin/pyright"))
# The lines of wrong_program.py that carry a mistake.
WRONG_LINES = {6, 7, 8, 9, 10, 11, 12, 13, 14}


def mypy(program: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.11", "--no-incremental", str(program)],
        capture_output=True, text=True, cwd=HERE,
    )


def pyright(program: Path) -> subprocess.CompletedProcess[str]:
    if not PYRIGHT.exists() or shutil.which("node") is None:
        pytest.skip(f"pyright is not installed at {PYRIGHT} (make test-python installs it with npm)")
    return subprocess.run(
        [str(PYRIGHT), "--pythonpath", sys.executable, "-p", str(HERE / "pyrightconfig.json"), str(program)],
        capture_output=True, text=True, cwd=HERE,
    )


def error_lines(output: str, name: str) -> set[int]:
    return {int(n) for n in re.findall(re.escape(name) + r":(\d+)(?::\d+)?:? -? ?error", output)}


def test_user_program_runs():
    done = subprocess.run([sys.executable, str(HERE / "user_program.py")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_accepts_the_user_program():
    done = mypy(HERE / "user_program.py")
    assert done.returncode == 0 and "Success: no issues found" in done.stdout, done.stdout + done.stderr


def test_mypy_strict_rejects_each_mistake():
    done = mypy(HERE / "wrong_program.py")
    assert error_lines(done.stdout, "wrong_program.py") == WRONG_LINES, done.stdout


def test_pyright_strict_accepts_the_user_program():
    done = pyright(HERE / "user_program.py")
    assert done.returncode == 0 and "0 errors" in done.stdout, done.stdout + done.stderr


def test_pyright_strict_rejects_each_mistake():
    done = pyright(HERE / "wrong_program.py")
    assert error_lines(done.stdout, "wrong_program.py") == WRONG_LINES, done.stdout


def test_generic_aliases_work_at_run_time():
    import longstraw

    for cls in (longstraw.Rendezvous, longstraw.Snapshot):
        alias = cls[str]
        assert alias.__origin__ is cls and alias.__args__ == (str,)
