"""Reads the case file written by gen_cases.py (shared by the Python driver and the checker)."""


def unhex(field: str) -> bytes:
    return b"" if field == "." else bytes.fromhex(field)


def read_sets(path):
    """Yields (set_no, seed, nodes, keys, lones): nodes are (id, weight str, domain or None)."""
    current = None
    with open(path) as f:
        for line in f:
            tag, *rest = line.split()
            if tag == "S":
                current = (int(rest[0]), int(rest[1]), [], [], [])
            elif tag == "N":
                current[2].append((unhex(rest[0]), rest[1], None if rest[2] == "-" else unhex(rest[2])))
            elif tag == "K":
                current[3].append((unhex(rest[0]), int(rest[1])))
            elif tag == "L":
                current[4].append("".join(chr(int(u, 16)) for u in rest[0].split(",")))
            elif tag == "E":
                yield current
