"""The shipped .pyi stubs match the compiled module."""

import ast
import subprocess
import sys
from pathlib import Path


# stubtest checks `**options: Unpack[_SetOptions]` against the keywords of the run-time signature for a
# plain function (BoundedLoad), but merges an overloaded one without unpacking the TypedDict. So for the
# overloaded Rendezvous constructors it reports each set-wide keyword as missing from the stub, and the
# stub's **options as missing at run time: exactly those reports, for exactly _SetOptions' keys, are
# expected. tests/test_options.py checks that every constructor's run-time signature shows those keys.
OVERLOADED = ("Rendezvous.__new__", "Rendezvous.table", "Rendezvous.skeleton")
TYPECHECK = Path(__file__).parent / "typecheck"


def set_options_keys() -> set[str]:
    import longstraw

    stub = ast.parse((Path(longstraw.__file__).parent / "_longstraw.pyi").read_text())
    found = [n for n in ast.walk(stub) if isinstance(n, ast.ClassDef) and n.name == "_SetOptions"]
    assert len(found) == 1
    return {item.target.id for item in found[0].body if isinstance(item, ast.AnnAssign)}


def test_stubtest_passes():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy.stubtest",
            "--concise",
            "--mypy-config-file",
            str(TYPECHECK / "stubtest.ini"),
            "--allowlist",
            str(TYPECHECK / "stubtest-allowlist.txt"),
            "--ignore-unused-allowlist",
            "longstraw",
        ],
        capture_output=True,
        text=True,
    )
    expected = {
        f'longstraw._longstraw.{f} is inconsistent, stub does not have parameter "{key}"'
        for f in OVERLOADED
        for key in set_options_keys()
    } | {f'longstraw._longstraw.{f} is inconsistent, runtime does not have **kwargs parameter "options"' for f in OVERLOADED}
    reported = [line for line in done.stdout.splitlines() if line.strip()]
    assert done.returncode in (0, 1) and not done.stderr, done.stdout + done.stderr
    assert [line for line in reported if line not in expected] == [], done.stdout


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
