"""Saves racing each other and a reader: every save succeeds, and a reader
only ever sees a whole file (one of the memberships saved)."""

import threading

import longstraw

SAVERS = 4
SAVES_EACH = 60


def test_four_threads_save_one_path_and_a_reader_never_sees_half_a_file(tmp_path):
    path = tmp_path / "shared.toml"
    # Each saver writes its own membership, so a whole file is one of these texts.
    sets = [longstraw.Rendezvous([f"saver-{s}-node-{i}" for i in range(400)], seed=s) for s in range(SAVERS)]
    sets[0].save(path)
    whole = set()
    for s in sets:
        own = tmp_path / f"own-{s.seed}.toml"
        s.save(own)
        whole.add(own.read_text())
    errors: list[BaseException] = []
    partial: list[int] = []
    done = threading.Event()

    def saver(s: longstraw.Rendezvous[str]) -> None:
        try:
            for _ in range(SAVES_EACH):
                s.save(path)
        except BaseException as e:  # noqa: BLE001 - every failed save is reported
            errors.append(e)

    def reader() -> None:
        reads = 0
        while not done.is_set() or reads < 10:
            text = path.read_text()
            reads += 1
            if text not in whole:
                partial.append(len(text))

    threads = [threading.Thread(target=saver, args=(s,)) for s in sets]
    watcher = threading.Thread(target=reader)
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    watcher.join()
    assert not errors, f"{len(errors)} of {SAVERS * SAVES_EACH} saves failed, e.g. {errors[:2]!r}"
    assert not partial, f"the reader saw {len(partial)} partial files"
    assert path.read_text() in whole
    assert len(longstraw.Rendezvous.load(path)) == 400
