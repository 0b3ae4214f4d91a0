"""Writes the pure Python wheel, longstraw-V-py3-none-any.whl: the package's Python sources, its typed stub
and py.typed, and liblongstraw.wasm (the C ABI for wasm32-wasip1) at longstraw/_wasm/liblongstraw.wasm,
which the package runs under wasmtime where the native extension is absent. It never carries the native
extension.

Its core metadata (METADATA) is the sdist's PKG-INFO, byte for byte: maturin wrote that from
bindings/python/pyproject.toml, and writes the same into every native wheel, so every file of a version
declares the same Requires-Dist (lockers such as uv and poetry need that; check_python_dists.py checks
it). The console script and the license files come from pyproject.toml, as maturin takes them. The
archive is reproducible: sorted entries, fixed timestamps and modes.

usage: pure_wheel.py PYPROJECT PACKAGE_DIR WASM SDIST OUT_DIR
  PACKAGE_DIR  the `longstraw` package directory (bindings/python/python/longstraw); the files taken are
               those git tracks or would track (git ls-files --cached --others --exclude-standard)
  SDIST        the sdist maturin wrote (longstraw-V.tar.gz); the wheel's version is its version
"""

from __future__ import annotations

import base64
import hashlib
import pathlib
import email.parser
import subprocess
import sys
import tarfile
import tomllib
import zipfile

# Where the module goes in the wheel, and what the package's loader opens.
WASM_IN_WHEEL = "longstraw/_wasm/liblongstraw.wasm"
# Any of these in the package directory would be a native build's leftover, never wheel content.
NATIVE_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")
# 1980-01-01, the earliest time a zip entry can carry: the same bytes on every build.
EPOCH = (1980, 1, 1, 0, 0, 0)


def fail(message: str) -> None:
    print(f"pure_wheel: {message}", file=sys.stderr)
    sys.exit(1)


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def main() -> None:
    if len(sys.argv) != 6:
        fail(__doc__.split("usage: ", 1)[1].split("\n", 1)[0])
    pyproject_path, package_dir, wasm_path, sdist, out_dir = (pathlib.Path(a) for a in sys.argv[1:])
    pyproject = tomllib.loads(pyproject_path.read_text())
    project = pyproject["project"]
    name = project["name"]
    binding = pyproject_path.parent
    with tarfile.open(sdist) as tf:
        top = tf.getnames()[0].split("/", 1)[0]
        pkg_info_file = tf.extractfile(f"{top}/PKG-INFO")
        if pkg_info_file is None:
            fail(f"{sdist} has no {top}/PKG-INFO")
        assert pkg_info_file is not None
        pkg_info = pkg_info_file.read()
    headers = email.parser.BytesParser().parsebytes(pkg_info, headersonly=True)
    version = str(headers["Version"])
    if headers["Name"] != name or f"{name}-{version}" != top:
        fail(f"{sdist}: PKG-INFO names {headers['Name']} {version}, the archive {top}, pyproject.toml {name}")

    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "."],
        cwd=package_dir, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    files: dict[str, bytes] = {}
    for rel in sorted(f for f in listed if f):
        src = package_dir / rel
        if not src.is_file():
            continue  # deleted but still in the index
        if src.suffix in NATIVE_SUFFIXES or ".so." in src.name:
            fail(f"{src} is a native library: the pure wheel must not carry one")
        if rel.endswith(".wasm"):
            continue  # the module comes from WASM only
        files[f"{package_dir.name}/{rel}"] = src.read_bytes()
    for needed in ("longstraw/__init__.py", "longstraw/_longstraw.pyi", "longstraw/py.typed"):
        if needed not in files:
            fail(f"{needed} is missing from {package_dir}")
    wasm = wasm_path.read_bytes()
    if wasm[:4] != b"\0asm":
        fail(f"{wasm_path} is not a WebAssembly module")
    files[WASM_IN_WHEEL] = wasm

    dist_info = f"{name}-{version}.dist-info"
    license_files = list(project.get("license-files", []))
    for lic in license_files:
        files[f"{dist_info}/licenses/{lic}"] = (binding / lic).read_bytes()
    for lic in license_files:
        if f"License-File: {lic}" not in pkg_info.decode():
            fail(f"{sdist}: PKG-INFO does not name the license file {lic}")
    files[f"{dist_info}/METADATA"] = pkg_info
    files[f"{dist_info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: longstraw tools/dist/pure_wheel.py\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    ).encode()
    scripts = project.get("scripts", {})
    if scripts:
        body = "".join(f"{k} = {v}\n" for k, v in scripts.items())
        files[f"{dist_info}/entry_points.txt"] = f"[console_scripts]\n{body}".encode()

    record_name = f"{dist_info}/RECORD"
    record = "".join(f"{path},{record_hash(data)},{len(data)}\n" for path, data in files.items())
    files[record_name] = (record + f"{record_name},,\n").encode()

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        # The dist-info goes last, RECORD at the very end, as the wheel spec recommends.
        for path in sorted(files, key=lambda p: (p.startswith(dist_info), p == record_name, p)):
            info = zipfile.ZipInfo(path, date_time=EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, files[path])
    print(f"dist: {wheel}: {wheel.stat().st_size} bytes ({len(files)} files, {WASM_IN_WHEEL}: {len(wasm)} bytes)")


if __name__ == "__main__":
    main()
