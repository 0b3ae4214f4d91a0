"""Writes a Go module as a module proxy would serve it (GOPROXY layout):
    OUT/<module>/@v/list, VERSION.info, VERSION.mod, VERSION.zip
so that `GOPROXY=file://OUT` (or any static file server) can serve the release.
The zip follows the module zip format: every path starts with <module>@<version>/.

usage: go_module_zip.py MODULE_DIR MODULE_PATH VERSION OUT
"""

import json
import pathlib
import sys
import zipfile

MAX_ZIP_BYTES = 500 << 20  # the go command refuses larger module zips


def main() -> None:
    module_dir, module_path, version, out = sys.argv[1:]
    src = pathlib.Path(module_dir)
    at_v = pathlib.Path(out, *module_path.split("/"), "@v")
    at_v.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in src.rglob("*") if p.is_file())
    nested = [p for p in files if p.name == "go.mod" and p.parent != src]
    if nested:
        sys.exit(f"go_module_zip: nested modules are left out of a module zip: {nested}")
    zip_path = at_v / f"{version}.zip"
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
        for p in files:
            info = zipfile.ZipInfo(f"{module_path}@{version}/{p.relative_to(src).as_posix()}", (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, p.read_bytes())
    if zip_path.stat().st_size > MAX_ZIP_BYTES:
        sys.exit(f"go_module_zip: {zip_path} is over the go command's 500 MB limit")
    (at_v / f"{version}.mod").write_bytes((src / "go.mod").read_bytes())
    (at_v / f"{version}.info").write_text(json.dumps({"Version": version, "Time": "1980-01-01T00:00:00Z"}) + "\n")
    (at_v / "list").write_text(version + "\n")
    print(f"go_module_zip: {zip_path} ({len(files)} files, {zip_path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
