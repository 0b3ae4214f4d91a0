"""`sh` blocks: each Markdown file's shell blocks run as one bash script (`set -euo pipefail`) from the repo
root, in reading order, with the `longstraw` command on PATH.

`cargo install` in a block installs into build/doctest/cargo-home (never the user's ~/.cargo) and reuses
the workspace's target/, so it costs a link, not a rebuild. A command line ending in `# => TEXT` must print
TEXT as one whole line of its output (the rest of the output is shown, not checked).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

EXPECT = re.compile(r"^(?P<cmd>.*\S)\s+# => (?P<text>.*\S)\s*$")


def shell_line(text: str, where: str) -> str:
    m = EXPECT.match(text)
    if not m or text.lstrip().startswith("#"):
        return text
    want = m.group("text")
    return (f"__out=$({m.group('cmd')}); printf '%s\\n' \"$__out\"; "
            f"grep -qxF -- {shlex.quote(want)} <<<\"$__out\" || "
            f"{{ echo {shlex.quote(f'{where}: the document shows the line {want!r}, the output has no such line')} >&2; exit 1; }}")


def script_for(path: Path, root: Path, blocks) -> str:
    rel = path.relative_to(root)
    lines = ["set -euo pipefail"]
    for b in blocks:
        lines.append(f"echo '--- {rel}:{b.line}' >&2")
        pending, start = "", 0
        for k, text in enumerate(b.lines):
            if not pending:
                start = k
            if text.endswith("\\"):  # a continued command: check its output once it is whole
                pending += text[:-1] + " "
                continue
            lines.append(shell_line(pending + text, f"{rel}:{b.line + start}"))
            pending = ""
        if pending:
            lines.append(pending)
    return "\n".join(lines) + "\n"


def env_for(root: Path) -> dict[str, str]:
    import os

    home = root / "build" / "doctest" / "cargo-home"
    return {
        # The workspace's fresh build comes first, so a binary a block once installed never shadows it.
        "PATH": f"{root / 'target' / 'release'}:{home / 'bin'}:{os.environ.get('PATH', '')}",
        "CARGO_INSTALL_ROOT": str(home),
        "CARGO_TARGET_DIR": str(root / "target"),
    }
