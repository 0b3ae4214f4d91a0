#!/usr/bin/env python3
"""Every link and image of the built guide resolves: `make test-guide`.

Walks every HTML page of the site (build/guide/ by default) and checks each `href` and `src`:
  * a relative target must be a file of the site (a folder must have an index.html);
  * a `#fragment` must be an `id` (or `name`) on the target page;
  * every <img> must point at an existing, non-empty file, and an SVG must parse as XML;
  * no ``` appears in running text (a code block that rendered as prose).
External links (http, https, mailto) cannot be followed offline: they are counted and listed, not checked.
Standard library only.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str]] = []  # (kind, url): kind is "link" or "image"
        self.in_code = 0
        self.stray_fences = 0  # ``` in running text: a code block the Markdown renderer did not recognise

    def handle_endtag(self, tag: str) -> None:
        if tag in ("pre", "code", "script") and self.in_code:
            self.in_code -= 1

    def handle_data(self, data: str) -> None:
        if not self.in_code and "```" in data:
            self.stray_fences += 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v for k, v in attrs if v is not None}
        if tag in ("pre", "code", "script"):
            self.in_code += 1
        for key in ("id", "name"):
            if key in a and tag != "meta":
                self.ids.add(a[key])
        if tag == "a" and "href" in a:
            self.refs.append(("link", a["href"]))
        elif tag == "link" and "href" in a:
            self.refs.append(("link", a["href"]))
        elif tag in ("img", "script") and "src" in a:
            self.refs.append(("image" if tag == "img" else "link", a["src"]))


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def main() -> int:
    site = Path(sys.argv[1] if len(sys.argv) > 1 else "build/guide").resolve()
    pages = sorted(site.rglob("*.html"))
    if not pages:
        print(f"check_site: no HTML pages under {site}: build the guide first (make guide)")
        return 1
    parsed = {p: parse(p) for p in pages}
    errors: list[str] = []
    external: set[str] = set()
    links = images = 0
    for path, page in parsed.items():
        where = path.relative_to(site)
        if page.stray_fences:
            errors.append(f"{where}: {page.stray_fences} code fence(s) rendered as text (a block the renderer did not parse)")
        for kind, url in page.refs:
            parts = urlsplit(url)
            if parts.scheme in ("http", "https", "mailto") or url.startswith("//"):
                external.add(url)
                continue
            if parts.scheme:
                errors.append(f"{where}: unexpected URL scheme in {url!r}")
                continue
            if not parts.path:
                target = path
            elif parts.path.startswith("/"):  # site-root absolute (MkDocs' 404 page): the site is the root
                target = (site / unquote(parts.path).lstrip("/")).resolve()
            else:
                target = (path.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                errors.append(f"{where}: {kind} {url!r} -> {target.relative_to(site) if target.is_relative_to(site) else target} does not exist")
                continue
            if kind == "image":
                images += 1
                if target.stat().st_size == 0:
                    errors.append(f"{where}: image {url!r} is empty")
                elif target.suffix == ".svg":
                    try:
                        ET.parse(target)
                    except ET.ParseError as e:
                        errors.append(f"{where}: image {url!r} is not valid SVG: {e}")
            else:
                links += 1
            if parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else parse(target).ids
                if unquote(parts.fragment) not in ids:
                    errors.append(f"{where}: link {url!r}: no id {parts.fragment!r} in {target.relative_to(site)}")
    for e in errors:
        print("check_site: " + e)
    print(f"check_site: {len(pages)} pages, {links} internal links and {images} images checked, "
          f"{len(errors)} broken; {len(external)} external links not followed (offline): {sorted(external)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
