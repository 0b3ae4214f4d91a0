"""The workspace version (Cargo.toml [workspace.package]) is the one source of every version a release
carries: crates, the Python wheel (maturin reads Cargo.toml), npm packages, the C header macros (and so
the SONAME and the Go module, which take theirs from the header and the workspace). Fails on any
disagreement, naming the file.

usage: check_versions.py REPO_ROOT
"""

import json
import pathlib
import re
import sys
import tomllib

root = pathlib.Path(sys.argv[1])
passed: list[str] = []
failed: list[str] = []


def check(ok: bool, what: str) -> None:
    (passed if ok else failed).append(what)
    if not ok:
        print(f"version-check: FAILED: {what}")


cargo = tomllib.loads((root / "Cargo.toml").read_text())
version = cargo["workspace"]["package"]["version"]
major, minor, patch = (int(x) for x in version.split("."))

for name in ("longstraw", "longstraw-set"):
    dep = cargo["workspace"]["dependencies"][name]
    check(dep.get("version") == version, f"Cargo.toml [workspace.dependencies] {name} = {dep.get('version')} (want {version})")

for member in cargo["workspace"]["members"]:
    pkg = tomllib.loads((root / member / "Cargo.toml").read_text())["package"]
    v = pkg.get("version")
    check(v == {"workspace": True} or v == version, f"{member}/Cargo.toml version is {v} (want version.workspace = true)")

pyproject = tomllib.loads((root / "bindings/python/pyproject.toml").read_text())["project"]
check(
    "version" not in pyproject and "version" in pyproject.get("dynamic", []),
    "bindings/python/pyproject.toml takes its version from Cargo.toml (dynamic = [\"version\"], no static version)",
)

node = root / "bindings/node"
pkg = json.loads((node / "package.json").read_text())
check(pkg["version"] == version, f"bindings/node/package.json version {pkg['version']} (want {version})")
lock = json.loads((node / "package-lock.json").read_text())
check(lock["version"] == version, f"bindings/node/package-lock.json version {lock['version']} (want {version})")
check(
    lock["packages"][""]["version"] == version,
    f"bindings/node/package-lock.json packages[''] version {lock['packages']['']['version']} (want {version})",
)
for platform_pkg in sorted((node / "npm").glob("*/package.json")):
    v = json.loads(platform_pkg.read_text())["version"]
    check(v == version, f"{platform_pkg.relative_to(root)} version {v} (want {version})")

# package.json lists exactly the release targets (tools/dist/platforms.tsv: make dist builds the host's,
# make dist-cross every one), each has its platform package, and make dist builds only listed targets.
dist_mk = (root / "mk/dist.mk").read_text()
built = re.search(r"^DIST_TRIPLES \?= (.*)$", dist_mk, re.M).group(1).split()
platforms = {
    row.split("\t")[0]: row.split("\t")[1]
    for row in (root / "tools/dist/platforms.tsv").read_text().splitlines()
    if row and not row.startswith("#")
}
check(set(built) <= set(platforms), f"mk/dist.mk DIST_TRIPLES {built} (want triples listed in tools/dist/platforms.tsv)")
# Node has one more package, built by make dist on every host: the WebAssembly addon (mk/node.mk).
node_platforms = {**platforms, "wasm32-wasip1-threads": "wasm32-wasi"}
targets = pkg["napi"]["targets"]
check(
    sorted(targets) == sorted(node_platforms),
    f"bindings/node/package.json napi.targets {targets} (want the release targets: {sorted(node_platforms)})",
)
# And the WebAssembly build without threads (wasm32-wasip1), which napi.targets does not list: make dist-node
# builds it with a napi build of its own (mk/node.mk).
npm_packages = sorted([*node_platforms.values(), "wasm32-wasip1"])
npm_dirs = sorted(p.name for p in (node / "npm").iterdir() if p.is_dir())
check(
    npm_dirs == npm_packages,
    f"bindings/node/npm/ holds {npm_dirs} (want one package per release target: {npm_packages})",
)

for header in ("include/longstraw.h", "bindings/go/include/longstraw.h"):
    text = (root / header).read_text()
    for part, want in (("MAJOR", major), ("MINOR", minor), ("PATCH", patch)):
        m = re.search(rf"^#define LONGSTRAW_VERSION_{part} (\d+)$", text, re.M)
        check(m is not None and int(m.group(1)) == want, f"{header} LONGSTRAW_VERSION_{part} (want {want})")

rust = (root / "ffi/src/version.rs").read_text()
for part, want in (("MAJOR", major), ("MINOR", minor), ("PATCH", patch)):
    m = re.search(rf"pub const LONGSTRAW_VERSION_{part}: u32 = (\d+);", rust)
    check(m is not None and int(m.group(1)) == want, f"ffi/src/version.rs LONGSTRAW_VERSION_{part} (want {want})")

print(f"version-check: {version}: {len(passed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
