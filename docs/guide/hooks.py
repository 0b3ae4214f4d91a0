"""MkDocs hook: keep only the language of a fence's info string.

The docs runner (tools/doctest) reads markers after the language (```python not-run, ```js esm), but
Python-Markdown's fenced_code takes an info string of one word only and would render such a block as
prose. The runner reads the Markdown sources, so dropping the markers from the rendered copy is safe.
"""

import re

FENCE_WITH_MARKERS = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```|~~~)(?P<lang>[\w+-]+)[ \t]+[^\n{]*$", re.M)


def on_page_markdown(markdown, **kwargs):
    return FENCE_WITH_MARKERS.sub(r"\g<indent>\g<fence>\g<lang>", markdown)
