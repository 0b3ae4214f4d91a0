#!/usr/bin/env python3
"""Run every fenced code block in the repository's Markdown, in reading order, and check shown outputs.

The rules (also in tools/doctest/README.md):

* A block's info string picks its runner: ``python``; ``js`` (CommonJS) or ``js esm`` (an ES module);
  ``js browser`` (an ES module run in headless Chromium on a cross-origin isolated page and on one that is
  not, where ``longstraw`` is the Node package's browser entry: bindings/node/test-browser/run.mjs; without
  Chromium the blocks are SKIPPED, listed, and with CI=true they fail); ``go``; ``c``; ``rust`` (run by rustdoc:
  the file must be pulled into a crate with ``include_str!``, which this runner checks). ``text`` is prose laid out as a block (file trees,
  formulas, recorded output); it is counted, not run.
* Any block can say ``not-run`` in its info string (```` ```sh not-run ````); it is counted and listed, never
  skipped silently. A block in any other language without ``not-run``, or with no info string, fails.
* Python and JavaScript blocks of one file run as one program, in reading order (later blocks use names
  earlier ones defined). ``EXPR  # => VALUE`` (``// => VALUE`` in JS) checks that EXPR equals VALUE,
  both evaluated as expressions of that language (deep, type-strict equality; typed/NumPy arrays compare
  as lists).
* A C block that defines ``main`` is a whole program: it is compiled and run exactly as shown. Any other C
  block must say so on its first line (a comment containing "fragment"); the fragments of one file
  become one ``main``, each block in its own scope, as Go blocks do. A C block that is neither fails.
* Go blocks of one file become one ``main``, each block in its own scope (so each is self-contained). A
  line that prints ends with ``// => LINE``: the program's output must be exactly those lines, in order.
* Java blocks of one file become one ``main`` the same way (``import`` lines hoisted), run by the JDK's
  single-file source launcher over the binding's classes (``make build-java``) and its Maven classpath
  (kafka-clients); ``// => LINE`` as in Go. With no JDK 22+ found (and no ``--java`` given) the Java
  blocks are listed as SKIPPED, with the reason, in the report.

Errors point at the Markdown file and line: programs are padded so that their line numbers are the
document's (Python, JS), or carry ``#line``/``//line`` directives (C, Go); a Java error's line in the
generated source is rewritten to the document's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tokenize
import tomllib
import io
from dataclasses import dataclass, field
from pathlib import Path

import shell  # noqa: E402  (tools/doctest/shell.py: the `sh` blocks)

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
RUNNABLE = {"python", "js", "go", "c", "java", "rust", "sh"}
ALIASES = {"py": "python", "javascript": "js", "mjs": "js", "cjs": "js", "golang": "go"}


@dataclass
class Block:
    path: Path
    line: int  # 1-based line of the first code line
    info: list[str]
    lines: list[str]

    @property
    def lang(self) -> str:
        first = self.info[0].lower() if self.info else ""
        return ALIASES.get(first, first)

    @property
    def no_run(self) -> bool:
        return "not-run" in self.info

    @property
    def esm(self) -> bool:
        return "esm" in self.info or (self.info and self.info[0] == "mjs")

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line - 1}"


@dataclass
class Tally:
    ran: dict[str, int] = field(default_factory=dict)
    no_run: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # runnable blocks this machine could not run
    skip_why: dict[str, str] = field(default_factory=dict)  # language -> why its blocks were skipped
    text: int = 0
    failures: list[str] = field(default_factory=list)

    def count(self, lang: str, n: int) -> None:
        self.ran[lang] = self.ran.get(lang, 0) + n


def markdown_files(explicit: list[str]) -> list[Path]:
    if explicit:
        return [Path(p).resolve() for p in explicit]
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()
    return sorted({ROOT / p for p in out if (ROOT / p).is_file()})


def parse_blocks(path: Path) -> list[Block]:
    blocks: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m["indent"]), m["fence"], m["info"].strip()
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            close = FENCE.match(lines[j])
            if close and close["fence"].startswith(fence[0]) and len(close["fence"]) >= len(fence) \
                    and not close["info"].strip():
                break
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        else:
            raise SystemExit(f"{path.relative_to(ROOT)}:{i + 1}: unclosed code fence")
        blocks.append(Block(path, i + 2, info.split(), body))
        i = j + 1
    return blocks


def split_expectation(line: str, marker: str) -> tuple[str, str] | None:
    """Splits 'CODE  <marker> => VALUE' into (CODE, VALUE) using the last marker on the line."""
    at = line.rfind(marker + " =>")
    if at < 0:
        return None
    return line[:at].rstrip(), line[at + len(marker) + 3:].strip()


def python_expectation(line: str) -> tuple[str, str] | None:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(line).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    for tok in tokens:
        if tok.type == tokenize.COMMENT and tok.string.startswith("# =>"):
            return line[: tok.start[1]].rstrip(), tok.string[4:].strip()
    return None


PY_PRELUDE = '''\
def __doc_expect(actual, expected, where):
    plain = (str, bytes, int, float, bool, list, tuple, dict, set, type(None))
    if not isinstance(actual, plain) and hasattr(actual, "tolist"):
        actual = actual.tolist()
    if type(actual) is not type(expected) or actual != expected:
        raise AssertionError(f"{where}: the document shows {expected!r}, the code gives {actual!r}")
'''

JS_PRELUDE = (
    "const __docExpect = (actual, expected, where) => {"
    " const view = ArrayBuffer.isView(actual) && Array.isArray(expected) ? Array.from(actual, (v) => v) : actual;"
    " if (!require_util().isDeepStrictEqual(view, expected)) {"
    " throw new Error(`${where}: the document shows ${require_util().inspect(expected)}, the code gives ${require_util().inspect(actual)}`) } };"
)


def padded_program(path: Path, blocks: list[Block], marker: str, wrap) -> str:
    """One program with the blocks at their own line numbers, other lines blank."""
    total = len(path.read_text(encoding="utf-8").splitlines())
    out = [""] * (total + 1)
    rel = path.relative_to(ROOT)
    for b in blocks:
        for k, text in enumerate(b.lines):
            lineno = b.line + k
            exp = python_expectation(text) if marker == "#" else split_expectation(text, marker)
            if exp and exp[0].strip():
                indent = text[: len(text) - len(text.lstrip())]
                text = indent + wrap(exp[0].strip(), exp[1], f"{rel}:{lineno}")
            out[lineno - 1] = text
    return "\n".join(out) + "\n"


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True)


def report(tally: Tally, what: str, proc: subprocess.CompletedProcess[str], n: int, lang: str) -> bool:
    if proc.returncode != 0:
        tally.failures.append(f"{what}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
        print(f"  FAIL {what}")
        return False
    tally.count(lang, n)
    print(f"  ok   {what} ({n} block{'s' if n != 1 else ''})")
    return True


def run_python(path: Path, blocks: list[Block], work: Path, args, tally: Tally) -> None:
    src = padded_program(path, blocks, "#", lambda code, exp, where: f"__doc_expect(({code}), ({exp}), {where!r})")
    script = work / (slug(path) + ".py")
    script.write_text(src)
    runner = work / (slug(path) + "_run.py")
    runner.write_text(
        "ns = {'__name__': '__main__'}\n"
        f"exec(compile({PY_PRELUDE!r}, 'doctest-prelude', 'exec'), ns)\n"
        f"exec(compile(open({str(script)!r}).read(), {str(path.relative_to(ROOT))!r}, 'exec'), ns)\n"
    )
    proc = run([args.python, str(runner)], ROOT)
    report(tally, f"python {path.relative_to(ROOT)}", proc, len(blocks), "python")


def require_util_shim(esm: bool) -> str:
    if esm:
        return "import { createRequire as __cr } from 'node:module'; const require_util = () => __cr(import.meta.url)('node:util');"
    return "const require_util = () => require('node:util');"


def run_js(path: Path, blocks: list[Block], esm: bool, work: Path, args, tally: Tally) -> None:
    src = padded_program(path, blocks, "//", lambda code, exp, where: f"__docExpect(({code}), ({exp}), {where!r});")
    # Helpers on the first line, which is never inside a code block (a fence precedes every block).
    lines = src.split("\n")
    lines[0] = require_util_shim(esm) + " " + JS_PRELUDE
    node_dir = work / "node"
    node_dir.mkdir(parents=True, exist_ok=True)
    link(node_dir / "node_modules" / "longstraw", ROOT / "bindings" / "node")
    link(node_dir / "bindings", ROOT / "bindings")
    script = node_dir / (slug(path) + (".mjs" if esm else ".cjs"))
    script.write_text("\n".join(lines))
    proc = run([args.node, str(script)], node_dir)
    kind = "js esm" if esm else "js cjs"
    report(tally, f"{kind} {path.relative_to(ROOT)}", proc, len(blocks), kind)


# `// => VALUE` in a browser block: compared as JSON (BigInts as `<digits>n`, typed arrays as lists), types too.
JS_BROWSER_PRELUDE = (
    "const __docJson = (v) => JSON.stringify(v, (k, x) => typeof x === 'bigint' ? `${x}n` :"
    " ArrayBuffer.isView(x) ? Array.from(x) : x);"
    " const __docExpect = (actual, expected, where) => {"
    " if (typeof actual !== typeof expected || __docJson(actual) !== __docJson(expected)) {"
    " throw new Error(`${where}: the document shows ${__docJson(expected)}, the code gives ${__docJson(actual)}`) } };"
)
BROWSER_SKIP = 77  # run.mjs's exit status when there is no Chromium and CI is not set


def run_js_browser(path: Path, blocks: list[Block], work: Path, args, tally: Tally) -> None:
    src = padded_program(path, blocks, "//", lambda code, exp, where: f"__docExpect(({code}), ({exp}), {where!r});")
    lines = src.split("\n")
    lines[0] = JS_BROWSER_PRELUDE
    script = work / "browser" / (slug(path) + ".mjs")
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text("\n".join(lines))
    what = f"js browser {path.relative_to(ROOT)}"
    proc = run([args.node, str(ROOT / "bindings" / "node" / "test-browser" / "run.mjs"), "--module", str(script)],
               ROOT / "bindings" / "node")
    if proc.returncode == BROWSER_SKIP:
        tally.skipped.extend(f"{b.where()} (js browser)" for b in blocks)
        tally.skip_why["js browser"] = proc.stderr.strip().strip("!").strip()
        print(f"  SKIPPED {what} ({len(blocks)} block{'s' if len(blocks) != 1 else ''}): no Chromium")
        return
    report(tally, what, proc, len(blocks), "js browser")


def scoped_program(path: Path, blocks: list[Block], line_directive) -> tuple[list[str], list[str], list[str]]:
    """(hoisted lines, body lines, expected output) for Go and C: each block in its own scope."""
    hoisted: list[str] = []
    body: list[str] = []
    expected: list[str] = []
    rel = path.relative_to(ROOT)
    for b in blocks:
        body.append("{")
        for k, text in enumerate(b.lines):
            if text.startswith("#include"):
                hoisted.append(text)
                continue
            exp = split_expectation(text, "//")
            if exp and exp[0].strip():
                expected.append(exp[1])
                text = exp[0]
            body.append(line_directive(rel, b.line + k))
            body.append(text)
        body.append("}")
    return hoisted, body, expected


def check_output(tally: Tally, what: str, proc, expected: list[str], n: int, lang: str) -> None:
    if proc.returncode == 0:
        got = proc.stdout.splitlines()
        if got != expected:
            proc = subprocess.CompletedProcess(proc.args, 1, "", (
                "the document shows:\n" + "\n".join(f"  {e}" for e in expected)
                + "\nthe code prints:\n" + "\n".join(f"  {g}" for g in got) + "\n"))
    report(tally, what, proc, n, lang)


C_MAIN = re.compile(r"^\s*int\s+main\s*\(")
C_FRAGMENT = re.compile(r"^\s*(/\*|//).*\bfragment\b", re.I)


def c_kind(block: Block) -> str:
    """'program' (the block defines main: compiled exactly as shown), 'fragment' (its first line is a
    comment saying so: compiled inside a main of the runner's), or '' (neither: a failure, since a reader
    could not compile it as shown)."""
    if any(C_MAIN.match(line) for line in block.lines):
        return "program"
    if block.lines and C_FRAGMENT.match(block.lines[0]):
        return "fragment"
    return ""


def compile_and_run_c(src: str, name: str, work: Path, what: str, expected: list[str], n: int, tally: Tally) -> None:
    cfile = work / (name + ".c")
    cfile.write_text(src)
    exe = work / name
    libdir = ROOT / "target" / "release" if not os.environ.get("CARGO_TARGET_DIR") else Path(os.environ["CARGO_TARGET_DIR"]) / "release"
    compile_ = run([os.environ.get("CC", "cc"), "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic",
                    f"-I{ROOT / 'include'}", str(cfile), "-o", str(exe), f"-L{libdir}", "-llongstraw",
                    f"-Wl,-rpath,{libdir}", "-lm"], ROOT)
    if compile_.returncode != 0:
        report(tally, what, compile_, n, "c")
        return
    check_output(tally, what, run([str(exe)], ROOT), expected, n, "c")


def run_c(path: Path, blocks: list[Block], work: Path, args, tally: Tally) -> None:
    rel = path.relative_to(ROOT)
    fragments: list[Block] = []
    for b in blocks:
        kind = c_kind(b)
        if kind == "program":  # compiled exactly as shown, on its own
            expected: list[str] = []
            lines = [f'#line {b.line} "{rel}"']
            for text in b.lines:
                exp = split_expectation(text, "//")
                if exp and exp[0].strip():
                    expected.append(exp[1])
                lines.append(text)
            compile_and_run_c("\n".join(lines) + "\n", f"{slug(path)}_{b.line}", work,
                              f"c {rel}:{b.line - 1} (a whole program)", expected, 1, tally)
        elif kind == "fragment":
            fragments.append(b)
        else:
            tally.failures.append(
                f"{b.where()}: a ```c block must compile as shown: give it `int main(void)`, or make its first "
                "line a comment that says it is a fragment (`/* fragment: ... */`), which the runner wraps in a main")
    if fragments:
        hoisted, body, expected = scoped_program(path, fragments, lambda rel, n: f'#line {n} "{rel}"')
        src = "\n".join(hoisted + ["int main(void) {"] + body + ["return 0;", "}"]) + "\n"
        compile_and_run_c(src, slug(path), work, f"c {rel} (fragments, inside one main)", expected,
                          len(fragments), tally)


# The packages every Go block may use without importing them: import path -> one of its names (which keeps
# the import used when no block needs it).
GO_IMPORTS = {"crypto/rand": "rand.Read", "encoding/hex": "hex.EncodeToString", "errors": "errors.Is",
              "fmt": "fmt.Println", "log": "log.Fatal", "os": "os.MkdirTemp", "path/filepath": "filepath.Join",
              "strings": "strings.Join"}


def run_go(path: Path, blocks: list[Block], work: Path, args, tally: Tally) -> None:
    _, body, expected = scoped_program(path, blocks, lambda rel, n: f"//line {rel}:{n}")
    mod = work / "go" / slug(path)
    mod.mkdir(parents=True, exist_ok=True)
    imports = "\n".join(f'\t"{p}"' for p in GO_IMPORTS)
    uses = "\n".join(f"var _ = {name}" for name in GO_IMPORTS.values())
    (mod / "main.go").write_text(
        f"package main\n\nimport (\n{imports}\n\n\t\"github.com/longstraw/longstraw/bindings/go\"\n)\n\n"
        f"var _ = longstraw.New\n{uses}\n\nfunc main() {{\n" + "\n".join(body) + "\n}\n")
    go_dir = ROOT / "bindings" / "go"
    (mod / "go.mod").write_text(
        "module longstraw.doctest/run\n\ngo 1.22\n\n"
        "require github.com/longstraw/longstraw/bindings/go v0.0.0\n\n"
        f"replace github.com/longstraw/longstraw/bindings/go => {go_dir}\n")
    shutil.copy(go_dir / "go.sum", mod / "go.sum")
    env = {"GOMODCACHE": str(ROOT / "build" / "go" / "mod"), "GOFLAGS": "-modcacherw -mod=mod",
           "GOTOOLCHAIN": "local", "CGO_ENABLED": "1", "CGO_LDFLAGS": f"-L{ROOT / 'build' / 'go' / 'lib'}"}
    build = run([args.go, "build", "-o", "doc-program", "."], mod, env)
    what = f"go {path.relative_to(ROOT)}"
    if build.returncode != 0:
        report(tally, what, build, len(blocks), "go")
        return
    check_output(tally, what, run([str(mod / "doc-program")], mod), expected, len(blocks), "go")


# Java: the JDK the binding is built with (mk/java.mk looks in the same places), the classes `make build-java`
# compiles, and the Maven classpath it writes beside them (kafka-clients, for the Kafka partitioner).
JAVA_MIN = 22
JAVA_DIR = ROOT / "bindings" / "java"
JAVA_CLASSES = JAVA_DIR / "target" / "classes"
JAVA_CLASSPATH = JAVA_DIR / "target" / "classpath.txt"
# The names every Java block may use without importing them.
# Where mk/java.mk looks for JDK 25 (glob patterns).
JAVA_HOMES = ["/usr/lib/jvm/temurin-25-jdk-amd64", "/usr/lib/jvm/java-25-openjdk-amd64", "/usr/lib/jvm/jdk-25*"]
JAVA_IMPORTS = ["io.github.longstraw.*", "java.nio.charset.StandardCharsets", "java.nio.file.*", "java.util.*"]


def java_major(java: str) -> int | None:
    """The feature release of a `java` binary (25 for "25.0.1"), or None if it does not run."""
    try:
        proc = subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True, text=True,
                              timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"^\s*java\.specification\.version = (\d+)", proc.stderr, re.M)
    return int(m[1]) if m else None


def find_java() -> tuple[str | None, str]:
    """(a java of JDK 22+, '') or (None, why not): LONGSTRAW_JAVA_HOME, the JDK 25 folders mk/java.mk
    looks in, JAVA_HOME, then PATH."""
    found = [str(p) for pattern in JAVA_HOMES for p in sorted(Path("/").glob(pattern.lstrip("/")))]
    homes = [os.environ.get("LONGSTRAW_JAVA_HOME", ""), *found, os.environ.get("JAVA_HOME", "")]
    candidates = [str(Path(h) / "bin" / "java") for h in homes if h] + [shutil.which("java") or ""]
    checked: set[str] = set()
    seen: list[str] = []
    for java in candidates:
        if not java or java in checked or not Path(java).is_file():
            continue
        checked.add(java)
        major = java_major(java)
        if major is not None and major >= JAVA_MIN:
            return java, ""
        seen.append(f"{java} (JDK {major})" if major is not None else f"{java} (does not run)")
    tried = ", ".join(seen) if seen else "none at LONGSTRAW_JAVA_HOME, /usr/lib/jvm/*-25*, JAVA_HOME or on PATH"
    return None, f"no JDK {JAVA_MIN}+ found (tried: {tried}); install JDK 25 or pass --java"


def java_program(blocks: list[Block]) -> tuple[str, dict[int, int], list[str]]:
    """(source, generated line -> document line, expected output): each block in its own scope of one main."""
    imports: list[tuple[str, int]] = []
    body: list[tuple[str, int]] = []
    expected: list[str] = []
    for b in blocks:
        body.append(("{", b.line - 1))
        for k, text in enumerate(b.lines):
            if text.startswith("import "):
                imports.append((text, b.line + k))
                continue
            exp = split_expectation(text, "//")
            if exp and exp[0].strip():
                expected.append(exp[1])
                text = exp[0]
            body.append((text, b.line + k))
        body.append(("}", b.line + len(b.lines)))
    out: list[tuple[str, int]] = [(f"import {name};", 0) for name in JAVA_IMPORTS] + imports
    out.append(("public class DocBlocks {", 0))
    out.append(("public static void main(String[] args) throws Exception {", 0))
    out += body
    out += [("}", 0), ("}", 0)]
    lines = {i + 1: doc for i, (_, doc) in enumerate(out) if doc}
    return "\n".join(text for text, _ in out) + "\n", lines, expected


def run_java(path: Path, blocks: list[Block], work: Path, args, tally: Tally) -> None:
    rel = path.relative_to(ROOT)
    what = f"java {rel}"
    if args.java is None:
        tally.skipped.extend(f"{b.where()} (java)" for b in blocks)
        tally.skip_why["java"] = args.java_missing
        print(f"  SKIPPED {what} ({len(blocks)} block{'s' if len(blocks) != 1 else ''}): {args.java_missing}")
        return
    if not JAVA_CLASSES.is_dir():
        tally.failures.append(f"{what}: {JAVA_CLASSES.relative_to(ROOT)} does not exist: run `make build-java` first")
        print(f"  FAIL {what}")
        return
    src, lines, expected = java_program(blocks)
    folder = work / "java" / slug(path)  # one folder per program: the launcher compiles nothing beside it
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "DocBlocks.java").write_text(src)
    classpath = [str(JAVA_CLASSES)]
    if JAVA_CLASSPATH.is_file():
        classpath += [p for p in JAVA_CLASSPATH.read_text().strip().split(os.pathsep) if p]
    libdir = Path(os.environ["CARGO_TARGET_DIR"]) / "release" if os.environ.get("CARGO_TARGET_DIR") else ROOT / "target" / "release"
    proc = run([args.java, "--enable-native-access=ALL-UNNAMED", f"-Dlongstraw.library={libdir / 'liblongstraw.so'}",
                "-cp", os.pathsep.join(classpath), "DocBlocks.java"], folder)

    def to_doc(text: str) -> str:  # DocBlocks.java:N -> the Markdown file and line
        return re.sub(r"DocBlocks\.java:(\d+)",
                      lambda m: f"{rel}:{lines[int(m[1])]}" if int(m[1]) in lines else m[0], text)

    proc = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout if proc.returncode == 0 else to_doc(proc.stdout),
                                       to_doc(proc.stderr))
    check_output(tally, what, proc, expected, len(blocks), "java")


def run_sh(path: Path, blocks: list[Block], work: Path, tally: Tally) -> None:
    script = work / (slug(path) + ".sh")
    script.write_text(shell.script_for(path, ROOT, blocks))
    proc = run(["bash", str(script)], ROOT, shell.env_for(ROOT))
    report(tally, f"sh {path.relative_to(ROOT)}", proc, len(blocks), "sh")


def rustdoc_covered() -> set[Path]:
    """Markdown files pulled into some crate's rustdoc with include_str!."""
    covered: set[Path] = set()
    for rs in ROOT.glob("**/src/**/*.rs"):
        if any(part in ("target", "node_modules", "build") for part in rs.parts):
            continue
        for rel in re.findall(r'include_str!\("([^"]+\.md)"\)', rs.read_text(encoding="utf-8")):
            covered.add((rs.parent / rel).resolve())
    return covered


def slug(path: Path) -> str:
    return str(path.relative_to(ROOT)).replace("/", "__").replace(".", "_")


def link(at: Path, target: Path) -> None:
    at.parent.mkdir(parents=True, exist_ok=True)
    if at.is_symlink() or at.exists():
        return
    at.symlink_to(target)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="Markdown files (default: every *.md git knows of)")
    ap.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    ap.add_argument("--node", default="node")
    ap.add_argument("--go", default=shutil.which("go") or "/usr/local/go/bin/go")
    ap.add_argument("--java", help="the JDK 22+ `java` for the Java blocks; given, a missing or older JDK fails "
                    "the run; not given, one is looked for and the Java blocks are SKIPPED (listed) if none is found")
    ap.add_argument("--only", help="comma-separated languages to run (python,js,go,c,java,sh); others are listed")
    ap.add_argument("--summary", help="write the counts as JSON here")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else RUNNABLE
    args.java_missing = ""
    if args.java is not None:
        major = java_major(args.java)
        if major is None or major < JAVA_MIN:
            found = "does not run" if major is None else f"is JDK {major}"
            raise SystemExit(f"--java {args.java} {found}: the Java blocks need JDK {JAVA_MIN}+ (CI uses 25)")
    elif "java" in only:
        args.java, args.java_missing = find_java()

    work = ROOT / "build" / "doctest"
    work.mkdir(parents=True, exist_ok=True)
    tally = Tally()
    covered = rustdoc_covered()

    for path in markdown_files(args.files):
        blocks = parse_blocks(path)
        if not blocks:
            continue
        by_lang: dict[tuple[str, bool], list[Block]] = {}
        for b in blocks:
            if b.no_run:
                tally.no_run.append(f"{b.where()} ({' '.join(b.info)})")
            elif b.lang == "text":
                tally.text += 1
            elif b.lang == "toml":  # a file's contents (membership files): it must at least parse
                try:
                    tomllib.loads("\n".join(b.lines))
                    tally.count("toml (parsed)", 1)
                except tomllib.TOMLDecodeError as e:
                    tally.failures.append(f"{b.where()}: this ```toml block does not parse: {e}")
            elif b.lang not in RUNNABLE:
                tally.failures.append(
                    f"{b.where()}: a ```{' '.join(b.info)} block is neither runnable here nor marked: "
                    "give it a language this runner knows (python, js, js esm, go, c, java, rust, sh), `toml` for a file, "
                    "`text` for prose, or add `not-run`")
            elif b.lang == "rust":
                if path.resolve() not in covered:
                    tally.failures.append(f"{b.where()}: a rust block in a file no crate includes with include_str!")
                else:
                    tally.count("rust (rustdoc)", 1)
            elif b.lang == "js" and "browser" in b.info:
                by_lang.setdefault(("js browser", True), []).append(b)
            else:
                by_lang.setdefault((b.lang, b.esm), []).append(b)
        for (lang, esm), group in by_lang.items():
            if lang.split()[0] not in only:
                tally.no_run.extend(f"{b.where()} (not requested: --only {args.only})" for b in group)
                continue
            if lang == "python":
                run_python(path, group, work, args, tally)
            elif lang == "js browser":
                run_js_browser(path, group, work, args, tally)
            elif lang == "js":
                run_js(path, group, esm, work, args, tally)
            elif lang == "c":
                run_c(path, group, work, args, tally)
            elif lang == "go":
                run_go(path, group, work, args, tally)
            elif lang == "java":
                run_java(path, group, work, args, tally)
            elif lang == "sh":
                run_sh(path, group, work, tally)

    print("\ncode blocks run, by language:")
    for lang, n in sorted(tally.ran.items()):
        note = " (counted here, run by `cargo test --doc`)" if lang.startswith("rust") else ""
        print(f"  {lang}: {n}{note}")
    print(f"  text (prose in a block, not code): {tally.text}")
    print(f"marked not-run ({len(tally.no_run)}):")
    for item in tally.no_run:
        print(f"  {item}")
    if tally.skipped:
        print(f"\n!!! SKIPPED ({len(tally.skipped)}): runnable blocks this machine could not run !!!")
        for lang, why in sorted(tally.skip_why.items()):
            print(f"  {lang}: {why}")
        for item in tally.skipped:
            print(f"  SKIPPED {item}")
    if args.summary:
        Path(args.summary).write_text(json.dumps({"ran": tally.ran, "no_run": tally.no_run, "text": tally.text,
                                                  "skipped": tally.skipped, "failures": len(tally.failures)},
                                                 indent=2) + "\n")
    if tally.failures:
        print(f"\n{len(tally.failures)} failure(s):", file=sys.stderr)
        for f in tally.failures:
            print(f"--- {f}", file=sys.stderr)
        return 1
    if tally.skipped:
        print(f"docs: every block that ran showed what the document says; {len(tally.skipped)} SKIPPED (above)")
        return 0
    print("docs: every code block ran and showed what the document says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
