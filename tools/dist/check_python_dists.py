"""Checks dist/python as one release: every wheel (native and pure) and the sdist declare the same core
metadata that installers and lockers read (name, version, Requires-Python, Requires-Dist, Provides-Extra:
uv and poetry require every file of a version to agree), and the pure wheel is what it claims to be:
tagged py3-none-any, no native extension, its RECORD matching every file, the typed stub and py.typed,
and liblongstraw.wasm byte-identical to the dist module. The native wheels carry the same module (for
LONGSTRAW_PYTHON_BACKEND=wasm); the sdist carries none.

usage: check_python_dists.py DIST_PYTHON_DIR VERSION WASM
"""

from __future__ import annotations

import base64
import email.parser
import hashlib
import pathlib
import sys
import tarfile
import zipfile

FIELDS = ("Name", "Version", "Requires-Python", "Requires-Dist", "Provides-Extra")


def fail(message: str) -> None:
    print(f"dist: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def member(zf: zipfile.ZipFile, name: str) -> bytes:
    try:
        return zf.read(name)
    except KeyError:
        fail(f"{zf.filename} lacks {name}")
        raise


def declared(text: str) -> dict[str, list[str]]:
    msg = email.parser.Parser().parsestr(text, headersonly=True)
    return {f: sorted(msg.get_all(f) or []) for f in FIELDS}


def main() -> None:
    out, version, wasm_path = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
    wheels = sorted(out.glob("*.whl"))
    sdists = sorted(out.glob("*.tar.gz"))
    pure = out / f"longstraw-{version}-py3-none-any.whl"
    if pure not in wheels:
        fail(f"{pure} is missing")
    if len(wheels) < 2 or len(sdists) != 1:
        fail(f"want the pure wheel, at least one native wheel and one sdist in {out}: {[p.name for p in out.iterdir()]}")

    found: dict[str, dict[str, list[str]]] = {}
    for w in wheels:
        with zipfile.ZipFile(w) as zf:
            found[w.name] = declared(member(zf, f"longstraw-{version}.dist-info/METADATA").decode())
            if w != pure and member(zf, "longstraw/_wasm/liblongstraw.wasm") != wasm_path.read_bytes():
                fail(f"{w.name}: longstraw/_wasm/liblongstraw.wasm is not {wasm_path}")
    with tarfile.open(sdists[0]) as tf:
        if any(n.endswith(".wasm") for n in tf.getnames()):
            fail(f"{sdists[0].name} carries a .wasm (build output)")
        pkg_info = tf.extractfile(f"longstraw-{version}/PKG-INFO")
        assert pkg_info is not None
        found[sdists[0].name] = declared(pkg_info.read().decode())
    want = found[pure.name]
    if want["Version"] != [version] or want["Name"] != ["longstraw"]:
        fail(f"{pure.name} declares {want['Name']} {want['Version']}")
    if not any("wasmtime" in r for r in want["Requires-Dist"]) or "wasm" not in want["Provides-Extra"]:
        fail(f"{pure.name} declares no wasmtime requirement or no `wasm` extra: {want}")
    for name, got in found.items():
        if got != want:
            diff = {f: (got[f], want[f]) for f in FIELDS if got[f] != want[f]}
            fail(f"{name} declares other metadata than {pure.name}: {diff}")

    with zipfile.ZipFile(pure) as zf:
        names = set(zf.namelist())
        wheel_meta = member(zf, f"longstraw-{version}.dist-info/WHEEL").decode()
        if "Tag: py3-none-any" not in wheel_meta or "Root-Is-Purelib: true" not in wheel_meta:
            fail(f"{pure.name}: WHEEL says {wheel_meta!r}")
        native = [n for n in names if n.endswith((".so", ".pyd", ".dylib", ".dll")) or ".so." in n]
        if native:
            fail(f"{pure.name} carries native code: {native}")
        for needed in ("longstraw/__init__.py", "longstraw/_longstraw.pyi", "longstraw/py.typed", "longstraw/_cli.py"):
            if needed not in names:
                fail(f"{pure.name} lacks {needed}")
        if member(zf, "longstraw/_wasm/liblongstraw.wasm") != wasm_path.read_bytes():
            fail(f"{pure.name}: longstraw/_wasm/liblongstraw.wasm is not {wasm_path}")
        record_name = f"longstraw-{version}.dist-info/RECORD"
        rows = [line.rsplit(",", 2) for line in zf.read(record_name).decode().splitlines()]
        recorded = {path for path, _, _ in rows}
        if recorded != names:
            fail(f"{pure.name}: RECORD lists {sorted(recorded ^ names)} differently from the archive")
        for path, digest, size in rows:
            if path == record_name:
                continue
            data = zf.read(path)
            want_digest = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            if digest != want_digest or int(size) != len(data):
                fail(f"{pure.name}: RECORD's hash or size of {path} is wrong")
    print(
        f"dist: {len(wheels)} wheels and the sdist declare the same Requires-Dist "
        f"({'; '.join(want['Requires-Dist'])}); {pure.name}: {len(names)} files, RECORD verified, no native code"
    )


if __name__ == "__main__":
    main()
