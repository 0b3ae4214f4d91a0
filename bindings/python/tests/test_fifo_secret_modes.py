"""A keyed table or skeleton file whose secret is in a FIFO (it can be read once) loads."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")

# In a child process: a load that opened the FIFO twice would wait forever, and
# the timeout fails the test instead of freezing the test run.
SCRIPT = """
import os, sys, threading
import longstraw

folder, mode = sys.argv[1], sys.argv[2]
secret = bytes.fromhex("8899aabbccddeeff0011223344556677")
nodes = [f"node-{i}" for i in range(30)]
shape = {"table": "[table]\\nbits = 7\\nreplicas = 2\\n", "skeleton": "[skeleton]\\nfanout_bits = 2\\nlevels = 1\\n"}[mode]
os.mkfifo(f"{folder}/secret.fifo")
with open(f"{folder}/keyed.toml", "w") as f:
    f.write(f'mode = "{mode}"\\n{shape}[secret]\\nfile = "secret.fifo"\\n' + "".join(f'[[nodes]]\\nid = "{n}"\\n' for n in nodes))

def write_once():
    with open(f"{folder}/secret.fifo", "w") as f:
        f.write(secret.hex() + "\\n")

writer = threading.Thread(target=write_once)
writer.start()
loaded = longstraw.Rendezvous.load(f"{folder}/keyed.toml")
writer.join()
if mode == "table":
    built = longstraw.Rendezvous.table(nodes, partition_bits=7, replicas=2, secret=secret)
else:
    built = longstraw.Rendezvous.skeleton(nodes, fanout_bits=2, levels=1, secret=secret)
keys = [f"key-{i}" for i in range(1000)]
assert loaded.mode == mode and loaded.keyed
assert loaded.owners(keys) == built.owners(keys)
print("loaded", flush=True)
"""


@pytest.mark.parametrize("mode", ["table", "skeleton"])
def test_a_keyed_file_with_its_secret_in_a_fifo_loads(tmp_path, mode):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path), mode], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "loaded" in done.stdout
