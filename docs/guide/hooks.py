"""MkDocs hook: render the docs runner's fences as plain code blocks.

1. Keep only the language of a fence's info string. The docs runner (tools/doctest) reads markers after
   the language (```python not-run, ```js esm), but Python-Markdown's fenced_code takes an info string of
   one word only and would render such a block as prose.
2. Drop the runner's own notes from a block marked not-run: leading comment lines that start with
   "not run" (`# not run ...`, `// not run ...`). They tell a maintainer why the runner skips the block;
   the page's prose tells the reader what they need.

The runner reads the Markdown sources, so changing only the rendered copy is safe.
"""

import re

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```|~~~)(?P<info>[^\n]*)$")
RUNNER_NOTE = re.compile(r"^[ \t]*(#|//|/\*)[ \t]*not run\b", re.I)


def strip_markers(markdown):
    out = []
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if not m or not m["info"].strip():
            out.append(line)
            i += 1
            continue
        info = m["info"].split()
        lang = info[0] if re.fullmatch(r"[\w+-]+", info[0]) else None
        out.append(f"{m['indent']}{m['fence']}{lang}" if lang else line)
        i += 1
        if "not-run" in info[1:]:
            while i < len(lines) and RUNNER_NOTE.match(lines[i]):
                i += 1
    return "\n".join(out)


def on_page_markdown(markdown, **kwargs):
    return strip_markers(markdown)
