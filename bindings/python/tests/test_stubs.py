"""The shipped .pyi stubs match the compiled module."""

import subprocess
import sys


def test_stubtest_passes():
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "longstraw"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_stubs_type_check_a_user_program(tmp_path):
    program = tmp_path / "user.py"
    program.write_text(
        "import longstraw\n"
        "r = longstraw.Rendezvous(['a', b'b'], weights=[1.0, 2], seed=3)\n"
        "owner: str | bytes = r.owner('key')\n"
        "ids: list[str | bytes] = r.top_k(b'key', 2)\n"
        "snap: longstraw.Snapshot[str | bytes] = r.snapshot()\n"
        "n: int = snap.owner_index(bytearray(b'k'))\n"
        "r.add('c', 0.5, domain='rack-1')\n"
        "t = longstraw.Rendezvous.table(['a', 'b'], partition_bits=10, replicas=2, domains=['r', None])\n"
        "p: int = t.partition('key') + (t.partition_bits or 0) + (t.snapshot().partitions or 0)\n"
        "mode: str = t.mode\n"
        "sk = longstraw.Rendezvous.skeleton(['a'], fanout_bits=2, levels=1)\n"
        "spread: list[str] = sk.top_k_distinct('key', 2)\n"
        "sk_snap: longstraw.Snapshot[str] = sk.snapshot()\n"
        "r.owner(3)\n"  # the one error mypy must report
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(program)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    out = done.stdout
    assert "user.py:14: error" in out, out
    assert out.count(": error") == 1, out
