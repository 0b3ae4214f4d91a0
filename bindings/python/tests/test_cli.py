"""The wheel's ``longstraw`` console script runs the same command line as the
Rust binary: vector answers through membership files, clap's exit codes, and
Ctrl-C that stops it."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

import longstraw

ROOT = pathlib.Path(__file__).resolve().parents[3]
SCRIPT = pathlib.Path(sys.executable).parent / "longstraw"


def _run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(SCRIPT), *args], input=stdin, capture_output=True, timeout=60)


def test_the_script_is_installed_next_to_the_interpreter():
    assert SCRIPT.is_file(), f"no console script at {SCRIPT}"
    done = _run("--version")
    assert done.returncode == 0
    assert done.stdout.decode().split() == ["longstraw", longstraw.__version__]


def test_top_k_through_membership_files_gives_the_vector_answers():
    manifest = json.loads((ROOT / "tests/membership/manifest.json").read_text())
    checked = 0
    for fixture in manifest["fixtures"]:
        if fixture["vectors"] == "domains-v1.json":
            continue
        case = json.loads((ROOT / "tests/vectors" / fixture["vectors"]).read_text())["cases"][fixture["case"]]
        ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
        # Keys with a newline cannot travel as lines; every other byte string can.
        keys = [
            (bytes.fromhex(k["key_hex"]), k)
            for k in case["keys"]
            if k["owner"] is not None and b"\n" not in bytes.fromhex(k["key_hex"])
            and not bytes.fromhex(k["key_hex"]).endswith(b"\r")
        ]
        if not keys:
            continue
        done = _run(
            "top-k", "-m", str(ROOT / "tests/membership" / fixture["file"]), "-k", "3", "-f", "json",
            stdin=b"".join(k + b"\n" for k, _ in keys),
        )
        assert done.returncode == 0, done.stderr.decode()
        lines = [json.loads(line) for line in done.stdout.splitlines() if line]
        assert len(lines) == len(keys)
        for (_, want), got in zip(keys, lines):
            nodes = [n.encode() if isinstance(n, str) else bytes.fromhex(n["hex"]) for n in got["nodes"]]
            assert nodes == [ids[i] for i in want["ranked"][:3]], fixture["file"]
            checked += 1
    assert checked > 500, f"only {checked} keys checked"


def test_usage_errors_exit_2_and_file_errors_exit_1(tmp_path):
    done = _run("owner")
    assert done.returncode == 2 and b"--members" in done.stderr
    done = _run("owner", "-m", str(tmp_path / "missing.toml"), "k")
    assert done.returncode == 1 and done.stderr.startswith(b"longstraw: ")


@pytest.mark.skipif(os.name != "posix", reason="SIGINT delivery to a child is POSIX-only")
def test_ctrl_c_stops_a_command_waiting_on_stdin():
    members = ROOT / "tests/membership" / "placement-v1-000.toml"
    child = subprocess.Popen([str(SCRIPT), "owner", "-m", str(members)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        child.stdin.write(b"a\n")  # type: ignore[union-attr]
        child.stdin.flush()  # type: ignore[union-attr]
        time.sleep(1.0)  # past interpreter start-up, inside the Rust read loop
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=20) == -signal.SIGINT
    finally:
        child.kill()
        child.wait()
