"""The ``longstraw`` console script: the command line of the Rust binary, run in this process."""

from __future__ import annotations

import signal
import sys
from typing import NoReturn

from ._longstraw import _cli_main


def main() -> NoReturn:
    # The command runs in Rust without returning to the interpreter, so
    # Python's SIGINT handler (which only sets a flag) would leave Ctrl-C
    # without effect: give SIGINT its default action, as the binary has.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_cli_main(["longstraw", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
