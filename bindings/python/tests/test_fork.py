"""`os.fork()` while another thread changes the set: the child's changes work."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

SCRIPT = """
import os, sys, threading, time
import longstraw

table = longstraw.Rendezvous.table([f"node-{i}" for i in range(4000)], partition_bits=12, replicas=2)
flat = longstraw.Rendezvous([f"node-{i}" for i in range(4000)])

def churn(s):
    i = 0
    while True:
        s.add(f"extra-{i}")
        s.set_weight(f"extra-{i}", 2.0)
        s.remove(f"extra-{i}")
        i += 1

for s in (table, flat):
    threading.Thread(target=churn, args=(s,), daemon=True).start()
time.sleep(0.05)

hung = failed = 0
for _ in range(45):
    pid = os.fork()
    if pid == 0:
        # The child: every set is whole, and its changes complete. It exits
        # through the normal path, so its atexit hooks run too.
        try:
            for s in (table, flat):
                n = len(s)
                s.add("child-node", 3.0)
                s.set_weight("child-node", 2.0)
                s.remove("child-node")
                assert len(s) == n and all(str(x).startswith(("node-", "extra-")) for x in s.nodes)
                s.owner("some key")
        except BaseException as e:
            print("child error:", repr(e), flush=True)
            os._exit(3)
        sys.exit(0)
    deadline = time.monotonic() + 10
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            failed += status != 0
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            hung += 1
            break
        time.sleep(0.002)
print(f"hung={hung} failed={failed}", flush=True)
os._exit(0)
"""


def test_45_forks_while_another_thread_changes_the_set():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "hung=0 failed=0" in done.stdout, done.stdout + done.stderr[-500:]
