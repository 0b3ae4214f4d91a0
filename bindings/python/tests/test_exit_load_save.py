"""Exiting while daemon threads are inside `load()` or `save()`.

Both release the GIL for their file work; at exit the interpreter must wait
for them (as for lookups and changes) instead of tearing down a thread that
is still inside Rust, which crashed the process (SIGSEGV or abort).
"""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

EXIT_SCRIPT = """
import sys, threading, time
import longstraw

folder, what = sys.argv[1], sys.argv[2]
table = longstraw.Rendezvous.table([f"node-{i}" for i in range(3000)], partition_bits=12, replicas=2)
table.save(f"{folder}/start.toml")

def loads():
    while True:
        longstraw.Rendezvous.load(f"{folder}/start.toml")

def saves(i):
    while True:
        table.save(f"{folder}/saved-{i}.toml")

for i in range(4):
    if what == "load":
        threading.Thread(target=loads, daemon=True).start()
    else:
        threading.Thread(target=saves, args=(i,), daemon=True).start()
time.sleep(0.05)
"""

RUNS = 20


@pytest.mark.parametrize("what", ["load", "save"])
def test_exit_with_daemon_threads_in_load_or_save_is_clean(tmp_path, what):
    def run(i):
        folder = tmp_path / f"run-{i}"
        folder.mkdir()
        return subprocess.run(
            [sys.executable, "-c", EXIT_SCRIPT, str(folder), what],
            capture_output=True,
            text=True,
            timeout=120,
        )

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, range(RUNS)))
    codes = [p.returncode for p in results]
    failures = [(p.returncode, p.stderr[-300:]) for p in results if p.returncode != 0 or "FATAL" in p.stderr]
    assert not failures, f"{len(failures)} of {RUNS} exits failed (codes {codes}), e.g. {failures[:2]}"
    assert min(codes) >= 0
