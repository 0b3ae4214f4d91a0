"""``python -m longstraw``: the ``longstraw`` command line."""

from ._cli import main

if __name__ == "__main__":
    main()
