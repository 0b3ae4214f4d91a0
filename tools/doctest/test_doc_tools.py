#!/usr/bin/env python3
"""Unit tests of the docs tooling: the docs runner's C and Java rules and the guide's rendering hook.

Run with `python3 tools/doctest/test_doc_tools.py` (part of `make test-docs`); standard library only.
"""

from __future__ import annotations

import os
import sys
import unittest
from unittest import mock
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "doctest"))
sys.path.insert(0, str(ROOT / "docs" / "guide"))

import hooks  # noqa: E402
import run_docs  # noqa: E402


def block(lines: list[str], info: str = "c") -> run_docs.Block:
    return run_docs.Block(ROOT / "README.md", 2, info.split(), lines)


class CBlocks(unittest.TestCase):
    def test_a_whole_program_is_compiled_as_shown(self) -> None:
        self.assertEqual(run_docs.c_kind(block(["#include <stdio.h>", "int main(void) {", "  return 0;", "}"])),
                         "program")

    def test_a_fragment_must_say_so_on_its_first_line(self) -> None:
        self.assertEqual(run_docs.c_kind(block(["/* fragment: inside main() */", "int x = 1;"])), "fragment")
        self.assertEqual(run_docs.c_kind(block(["// a fragment of the program above", "int x = 1;"])), "fragment")

    def test_statements_without_main_or_a_fragment_mark_are_refused(self) -> None:
        self.assertEqual(run_docs.c_kind(block(["#include <longstraw.h>", "longstraw_rendezvous *set;",
                                                "longstraw_rendezvous_new(NULL, &set);"])), "")
        # "fragment" later in the block is not a visible mark at its top
        self.assertEqual(run_docs.c_kind(block(["int x = 1;", "/* fragment */"])), "")


class JavaBlocks(unittest.TestCase):
    def test_blocks_are_scopes_of_one_main_with_imports_hoisted_and_outputs_expected(self) -> None:
        first = run_docs.Block(ROOT / "README.md", 10, ["java"],
                               ["import java.time.Duration;", "int x = 1;", "System.out.println(x); // => 1"])
        second = run_docs.Block(ROOT / "README.md", 20, ["java"], ["int x = 2;  // the same name, another scope"])
        src, lines, expected = run_docs.java_program([first, second])
        code = src.splitlines()
        self.assertEqual(expected, ["1"])
        self.assertLess(code.index("import java.time.Duration;"), code.index("public class DocBlocks {"))
        self.assertIn("System.out.println(x);", [c.strip() for c in code])
        # a generated line maps back to the document's line
        self.assertEqual(lines[code.index("int x = 1;") + 1], 11)
        self.assertEqual(lines[code.index("int x = 2;  // the same name, another scope") + 1], 20)
        self.assertEqual(src.count("{"), src.count("}"))

    def test_no_jdk_22_is_a_reason_to_report_not_a_silent_pass(self) -> None:
        with mock.patch.object(run_docs, "JAVA_HOMES", []), \
                mock.patch.dict(os.environ, {"PATH": "/nonexistent", "LONGSTRAW_JAVA_HOME": "/nonexistent"}), \
                mock.patch.object(run_docs.shutil, "which", return_value=None):
            os.environ.pop("JAVA_HOME", None)
            java, why = run_docs.find_java()
        self.assertIsNone(java)
        self.assertIn("no JDK 22+ found", why)


class GuideHook(unittest.TestCase):
    def test_markers_after_the_language_are_dropped(self) -> None:
        self.assertEqual(hooks.on_page_markdown("```js esm\nx\n```"), "```js\nx\n```")

    def test_runner_notes_of_a_not_run_block_are_not_rendered(self) -> None:
        src = "```sh not-run\n# not run by the docs runner: dist/ is not built\nmkdir -p /opt/x\n```"
        self.assertEqual(hooks.on_page_markdown(src), "```sh\nmkdir -p /opt/x\n```")
        src = "```go not-run\n// Not run here: it needs Redis\nring := 1\n```"
        self.assertEqual(hooks.on_page_markdown(src), "```go\nring := 1\n```")

    def test_other_comments_and_runnable_blocks_are_kept(self) -> None:
        src = "```sh not-run\n# point go.mod at the module\ngo build\n```"
        self.assertEqual(hooks.on_page_markdown(src), "```sh\n# point go.mod at the module\ngo build\n```")
        src = "```python\n# not run: this block runs, so its comment is the author's\nx = 1\n```"
        self.assertEqual(hooks.on_page_markdown(src), src)


if __name__ == "__main__":
    unittest.main(verbosity=1)
