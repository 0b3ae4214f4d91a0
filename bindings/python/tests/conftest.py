import json
import os
import pathlib
import struct

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def vectors_path() -> pathlib.Path:
    """tests/vectors/placement-v1.json, or $LONGSTRAW_VECTORS while the file
    has not landed on this branch."""
    override = os.environ.get("LONGSTRAW_VECTORS")
    return pathlib.Path(override) if override else REPO / "tests" / "vectors" / "placement-v1.json"


@pytest.fixture(scope="session")
def vectors():
    path = vectors_path()
    if not path.exists():
        pytest.fail(f"golden vectors not found at {path} (set LONGSTRAW_VECTORS to override)")
    with path.open() as f:
        return json.load(f)


def weight_from_bits(bits_hex: str) -> float:
    """The exact f64 of a vector's weight_bits."""
    return struct.unpack(">d", bytes.fromhex(bits_hex))[0]


def load_vectors(name: str):
    """tests/vectors/<name>-v1.json (table, skeleton, domains), read at test time."""
    path = REPO / "tests" / "vectors" / f"{name}-v1.json"
    if not path.exists():
        pytest.fail(f"golden vectors not found at {path}")
    with path.open() as f:
        return json.load(f)
