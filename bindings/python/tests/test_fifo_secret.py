"""A secret held in a FIFO: read once, and waiting for it never freezes Python."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")

# Run in a child process, so that a load that holds the GIL while it waits
# fails the test by its timeout instead of freezing the test run.
SCRIPT = """
import os, sys, threading, time
import longstraw

folder = sys.argv[1]
secret = bytes.fromhex("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
nodes = [f"node-{i}" for i in range(50)]
os.mkfifo(f"{folder}/secret.fifo")
with open(f"{folder}/keyed.toml", "w") as f:
    f.write('[secret]\\nfile = "secret.fifo"\\n' + "".join(f'[[nodes]]\\nid = "{n}"\\n' for n in nodes))

result = {}
def load():
    result["set"] = longstraw.Rendezvous.load(f"{folder}/keyed.toml")
loader = threading.Thread(target=load)
loader.start()

# While the load waits for a writer, this thread keeps running.
ticks, start = 0, time.monotonic()
while time.monotonic() - start < 0.5:
    time.sleep(0.005)
    ticks += 1
print("ticks while waiting:", ticks, flush=True)
assert loader.is_alive(), "the load finished before the secret was written"

# One write of the secret completes the load (the FIFO is read exactly once).
with open(f"{folder}/secret.fifo", "w") as f:
    f.write(secret.hex() + "\\n")
loader.join(timeout=20)
assert not loader.is_alive(), "the load did not finish after the secret was written"
loaded = result["set"]
keys = [f"key-{i}" for i in range(1000)]
assert loaded.keyed
assert loaded.owners(keys) == longstraw.Rendezvous(nodes, secret=secret).owners(keys)
print("loaded", flush=True)
"""


def test_a_load_waiting_on_a_fifo_secret_leaves_other_threads_running(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    ticks = int(done.stdout.split("ticks while waiting:")[1].split()[0])
    # 0.5 s of 5 ms sleeps is about 100 ticks; a frozen interpreter gives 0 or 1.
    assert ticks >= 20, done.stdout
    assert "loaded" in done.stdout
