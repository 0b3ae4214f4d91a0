"""Saving keyed sets: the file names where the secret comes from, never the secret."""

import pytest

import longstraw

SECRET = bytes.fromhex("c22e5a9d71fb048e3ca6d157e910b46f")
NODES = [f"cache-{i}" for i in range(9)]
KEYS = [f"user:{i}" for i in range(2000)]

CLASSES = [
    lambda **kw: longstraw.Rendezvous(NODES, **kw),
    lambda **kw: longstraw.Rendezvous.table(NODES, partition_bits=8, replicas=2, **kw),
    lambda **kw: longstraw.Rendezvous.skeleton(NODES, fanout_bits=1, levels=2, **kw),
]


def keyed_file(tmp_path, mode, source):
    shape = {"flat": "", "table": "[table]\nbits = 8\nreplicas = 2\n", "skeleton": "[skeleton]\nfanout_bits = 1\nlevels = 2\n"}
    path = tmp_path / f"{mode}.toml"
    path.write_text(f'mode = "{mode}"\n{shape[mode]}[secret]\n{source}\n' + "".join(f'[[nodes]]\nid = "{n}"\n' for n in NODES))
    return path


def assert_secret_absent(text: str) -> None:
    assert SECRET.hex() not in text.lower()
    for i in range(0, 32 - 8):
        assert SECRET.hex()[i : i + 8] not in text.lower()


@pytest.mark.parametrize("make", CLASSES)
@pytest.mark.parametrize("by", ["file", "env"])
def test_a_loaded_keyed_set_saves_its_source_again(tmp_path, monkeypatch, make, by):
    mode = make().mode
    if by == "file":
        (tmp_path / "secret.hex").write_text(SECRET.hex() + "\n")
        source = 'file = "secret.hex"'
    else:
        monkeypatch.setenv("LONGSTRAW_SAVE_TEST_SECRET", SECRET.hex())
        source = 'env = "LONGSTRAW_SAVE_TEST_SECRET"'
    loaded = longstraw.Rendezvous.load(keyed_file(tmp_path, mode, source))
    assert loaded.keyed
    out = tmp_path / "elsewhere" / "saved.toml"
    out.parent.mkdir()
    loaded.save(out)  # no argument: the source the file named
    text = out.read_text()
    assert_secret_absent(text)
    assert "[secret]" in text
    again = longstraw.Rendezvous.load(out)
    in_code = make(secret=SECRET)
    assert again.keyed
    assert [again.owner(k) for k in KEYS] == [loaded.owner(k) for k in KEYS] == [in_code.owner(k) for k in KEYS]


@pytest.mark.parametrize("make", CLASSES)
def test_a_keyed_set_built_in_code_saves_with_a_named_source(tmp_path, monkeypatch, make):
    keyed = make(secret=SECRET)
    (tmp_path / "secret.hex").write_text(SECRET.hex())
    by_file = tmp_path / "by_file.toml"
    keyed.save(by_file, secret_file="secret.hex")  # relative to the saved file's folder
    monkeypatch.setenv("LONGSTRAW_SAVE_TEST_SECRET2", SECRET.hex())
    by_env = tmp_path / "by_env.toml"
    keyed.save(by_env, secret_env="LONGSTRAW_SAVE_TEST_SECRET2")
    expected = [keyed.owner(k) for k in KEYS]
    for path in (by_file, by_env):
        assert_secret_absent(path.read_text())
        again = longstraw.Rendezvous.load(path)
        assert [again.owner(k) for k in KEYS] == expected
    # An unkeyed set with the same nodes places differently: the source was really used.
    assert sum(a == b for a, b in zip(expected, (make().owner(k) for k in KEYS))) < len(KEYS) // 2


@pytest.mark.parametrize("make", CLASSES)
def test_saving_a_keyed_set_needs_exactly_one_source(tmp_path, make):
    keyed = make(secret=SECRET)
    path = tmp_path / "out.toml"
    with pytest.raises(ValueError, match="needs a secret source") as no_source:
        keyed.save(path)
    with pytest.raises(ValueError, match="not both") as both:
        keyed.save(path, secret_file="s.hex", secret_env="VAR")
    with pytest.raises(ValueError, match="empty"):
        keyed.save(path, secret_env="")
    with pytest.raises(ValueError, match="not keyed"):
        make().save(path, secret_file="s.hex")
    assert not path.exists()
    for err in (no_source, both):
        assert_secret_absent(str(err.value))
    # An unkeyed set saves with no source, and the file names none.
    make().save(path)
    assert "[secret]" not in path.read_text()


def test_a_source_given_to_save_overrides_the_loaded_one(tmp_path, monkeypatch):
    (tmp_path / "secret.hex").write_text(SECRET.hex())
    loaded = longstraw.Rendezvous.load(keyed_file(tmp_path, "flat", 'file = "secret.hex"'))
    out = tmp_path / "out.toml"
    loaded.save(out, secret_env="LONGSTRAW_SAVE_TEST_OTHER")
    assert 'env = "LONGSTRAW_SAVE_TEST_OTHER"' in out.read_text()
    monkeypatch.setenv("LONGSTRAW_SAVE_TEST_OTHER", SECRET.hex())
    assert longstraw.Rendezvous.load(out).owners(KEYS) == loaded.owners(KEYS)
