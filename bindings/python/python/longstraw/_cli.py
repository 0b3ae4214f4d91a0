"""The ``longstraw`` console script: the command line of the Rust binary, run in this process.

The command is part of the native wheels only. The pure wheel (``py3-none-any``, the portable
WebAssembly build) installs the same script, which says so and exits with status 1.
"""

from __future__ import annotations

import signal
import sys
from typing import NoReturn

NO_COMMAND = (
    "longstraw: the longstraw command is part of the native wheels (CPython on Linux x86_64 and aarch64);"
    " this installation is the portable build (WebAssembly), which has the Python API but no command line."
    " Install the command with `cargo install longstraw-cli`."
)


def main() -> NoReturn:
    try:
        from ._longstraw import _cli_main
    except ModuleNotFoundError as e:
        if e.name != f"{__package__}._longstraw":
            raise
        print(NO_COMMAND, file=sys.stderr)
        sys.exit(1)
    # The command runs in Rust without returning to the interpreter, so
    # Python's SIGINT handler (which only sets a flag) would leave Ctrl-C
    # without effect: give SIGINT its default action, as the binary has.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_cli_main(["longstraw", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
