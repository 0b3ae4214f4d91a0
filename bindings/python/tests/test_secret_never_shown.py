"""No error, repr or str shows any part of a secret.

Every way a secret reaches the package (constructor arguments of every type
and length, secret files and variables of the wrong shape) is tried, and every
message and repr is searched for any 8 consecutive characters of the secret
as hex, as text and as bytes.
"""

import os
import pickle

import pytest

import longstraw

SECRET = bytes.fromhex("c22e5a9d71fb048e3ca6d157e910b46f")

CLASSES = [
    lambda secret: longstraw.Rendezvous(["a", "b", "c"], secret=secret),
    lambda secret: longstraw.Rendezvous.table(["a", "b", "c"], partition_bits=6, secret=secret),
    lambda secret: longstraw.Rendezvous.skeleton(["a", "b", "c"], fanout_bits=1, levels=1, secret=secret),
    lambda secret: longstraw.BoundedLoad(["a", "b", "c"], secret=secret),
]


def fragments(secret_text: str) -> list[str]:
    return [secret_text[i : i + 8] for i in range(len(secret_text) - 7)]


def assert_hidden(text: str, *secrets: object) -> None:
    lowered = text.lower()
    for s in secrets:
        if isinstance(s, (bytes, bytearray, memoryview)):
            raw = bytes(s)
            forms = [raw.hex(), repr(raw)[2:-1].lower(), raw.decode("latin-1").lower()]
        else:
            forms = [str(s).lower()]
        for form in forms:
            for piece in fragments(form):
                assert piece not in lowered, f"{piece!r} of the secret appears in {text!r}"


WRONG = [
    SECRET.hex(),  # the hex text a user may pass by mistake
    SECRET.hex().upper(),
    "my password is hunter2-and-more",
    SECRET[:15],
    SECRET + b"\x01",
    SECRET * 2,
    bytearray(SECRET[:15]),
    memoryview(SECRET + b"\xff\xee"),
    memoryview(bytearray(SECRET))[:12],
    list(SECRET),
    int.from_bytes(SECRET, "big"),
]


@pytest.mark.parametrize("make", CLASSES)
@pytest.mark.parametrize("wrong", WRONG, ids=[type(w).__name__ + str(i) for i, w in enumerate(WRONG)])
def test_a_wrong_secret_is_refused_without_showing_it(make, wrong):
    with pytest.raises((TypeError, ValueError)) as err:
        make(wrong)
    shown = str(err.value) + repr(err.value) + "".join(str(a) for a in err.value.args)
    assert_hidden(shown, wrong, SECRET)


@pytest.mark.parametrize("make", CLASSES)
@pytest.mark.parametrize("form", [bytes, bytearray, memoryview])
def test_reprs_of_keyed_sets_and_snapshots_hide_the_secret(make, form):
    keyed = make(form(SECRET))
    shown = [repr(keyed), str(keyed)]
    if hasattr(keyed, "snapshot"):
        snap = keyed.snapshot()
        shown += [repr(snap), str(snap)]
    for text in shown:
        assert_hidden(text, SECRET)
    if not isinstance(keyed, longstraw.BoundedLoad):
        assert "secret=<hidden>" in repr(keyed)
        with pytest.raises(TypeError) as err:
            pickle.dumps(keyed)
        assert_hidden(str(err.value), SECRET)


@pytest.mark.parametrize(
    "content",
    [
        SECRET.hex()[:31],  # one digit short
        SECRET.hex() + "0",
        SECRET.hex()[:30] + "zz",
        "secret = " + SECRET.hex(),
        SECRET.decode("latin-1"),
    ],
)
def test_a_secret_source_of_the_wrong_shape_is_refused_without_showing_it(tmp_path, monkeypatch, content):
    (tmp_path / "secret.txt").write_bytes(content.encode("latin-1"))
    nodes = "".join(f'[[nodes]]\nid = "n{i}"\n' for i in range(3))
    by_file = tmp_path / "by_file.toml"
    by_file.write_text('[secret]\nfile = "secret.txt"\n' + nodes)
    with pytest.raises(ValueError) as err:
        longstraw.Rendezvous.load(by_file)
    assert_hidden(str(err.value), content, SECRET)
    if "\x00" not in content and all(ord(c) < 128 for c in content):
        monkeypatch.setenv("LONGSTRAW_SHOWN_TEST", content)
        by_env = tmp_path / "by_env.toml"
        by_env.write_text('[secret]\nenv = "LONGSTRAW_SHOWN_TEST"\n' + nodes)
        with pytest.raises(ValueError) as env_err:
            longstraw.Rendezvous.load(by_env)
        assert_hidden(str(env_err.value), content, SECRET)


def test_a_loaded_keyed_set_shows_no_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("LONGSTRAW_SHOWN_TEST", SECRET.hex())
    path = tmp_path / "keyed.toml"
    path.write_text('mode = "table"\n[secret]\nenv = "LONGSTRAW_SHOWN_TEST"\n[[nodes]]\nid = "a"\n[[nodes]]\nid = "b"\n')
    table = longstraw.Rendezvous.load(path)
    for text in (repr(table), str(table), repr(table.snapshot())):
        assert_hidden(text, SECRET)
    assert os.environ["LONGSTRAW_SHOWN_TEST"] == SECRET.hex()
