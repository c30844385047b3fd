"""Attack round 36 (docs/security.md "Attack, round 36"): imports racing across processes and servers, then what
round 35 added (the key check at open, `expected_version`, id prefixes) and the doors earlier rounds did not try.

- **Two imports of one file at once stored lines twice** (round 35's strict xfail, fixed here): each run read the
  import keys already in the namespace once, before writing. Now a line's memory takes an id derived from its
  namespace and key and the write path stores it only if that id is not in the store, checked under the namespace
  lock every process and server sees: two processes on one SQLite file, two servers on one PostgreSQL, and an
  importer killed with SIGKILL mid-file beside another each leave every line stored once.
- **Two processes opening a new file at once: one failed to start** (`trigger vectors_added already exists`):
  `migrate` read the schema version before taking the write lock.
- **Two keys could split a store with no private memory yet**: round 35's check at open had nothing to tell a key
  by; the first value sealed now claims the store for its key (a canary in the meta table).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder

import hindsight
from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine

TESTS = Path(__file__).resolve().parent
SRC = Path(hindsight.__file__).resolve().parent.parent  # the hindsight this test runs (a child imports the same)
LINES = [json.dumps({"id": f"src_{i}", "content": f"Shelf {i} in aisle {i % 7} holds item number {i * 13}",
                     "namespace": "ops"}) for i in range(40)]
#: a bound on waiting for a child (liveness only, never a timing check)
WAIT_S = 300.0

# ------------------------------------------------------------------ 1. two imports of one file at once

#: one importer process: reads the done keys, says so (`<me>.ready`), waits for the other importer to have read them
#: too (`<other>.ready`), then writes; with `stall`, it stops for good after its first chunk (`<me>.stalled`)
IMPORTER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    sys.path[:0] = [sys.argv[1], sys.argv[2]]
    from bag_embedder import BagEmbedder
    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine
    db, lines, me, other, stall = sys.argv[3:]
    settings = HindsightSettings(db=Path(db), guard="off")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    write_many, chunks = engine.writer.write_many, []
    def gated(items, actor, restores=None, **kwargs):
        if not chunks:
            Path(me + ".ready").touch()
            while not Path(other + ".ready").exists():
                time.sleep(0.02)
        out = write_many(items, actor, restores, **kwargs)
        chunks.append(len(items))
        if stall == "stall" and len(chunks) == 1:
            Path(me + ".stalled").touch()
            time.sleep(3600)
        return out
    engine.writer.write_many = gated
    report = engine.import_report(Path(lines).read_text().splitlines(), "import-" + Path(me).name)
    print(json.dumps({"written": len(report.outcomes), "skipped": report.skipped}))
    engine.close()
""")


def _importer(tmp: Path, me: str, other: str, stall: bool = False) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HINDSIGHT_")}
    return subprocess.Popen([sys.executable, "-c", IMPORTER, str(SRC), str(TESTS), str(tmp / "m.db"),
                             str(tmp / "lines.jsonl"), str(tmp / me), str(tmp / other), "stall" if stall else "-"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _wait_for(path: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not path.exists():
        assert proc.poll() is None, proc.communicate()[1][-3000:]
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.05)


def _finished(proc: subprocess.Popen[str]) -> dict[str, int]:
    out, err = proc.communicate(timeout=WAIT_S)
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _stored(db: Path) -> list[str]:
    """The import key of every memory in `ops` (a line stored twice shows twice)."""
    settings = HindsightSettings(db=db, guard="off")
    engine = MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True))
    try:
        return sorted(str(r.metadata.get("imported_from")) for r in engine.store.iter_all("ops"))
    finally:
        engine.close()


@pytest.fixture
def lines_file(tmp_path: Path) -> Path:
    """The lines, and the store they go to (created here: two processes opening a new file at once is its own
    finding, `test_two_processes_opening_a_new_file_at_once_both_open`)."""
    (tmp_path / "lines.jsonl").write_text("\n".join(LINES) + "\n")
    assert _stored(tmp_path / "m.db") == []
    return tmp_path


def test_two_processes_importing_one_file_at_once_store_each_line_once(lines_file: Path) -> None:
    """Both processes read the done keys before either writes (on main: 80 memories, each line twice)."""
    a, b = _importer(lines_file, "a", "b"), _importer(lines_file, "b", "a")
    first, second = _finished(a), _finished(b)
    assert _stored(lines_file / "m.db") == sorted(f"src_{i}" for i in range(40))
    assert first["written"] + second["written"] == 40 and first["skipped"] + second["skipped"] == 40


def test_an_importer_killed_mid_file_beside_another_then_rerun_stores_each_line_once(lines_file: Path) -> None:
    """`a` is killed with SIGKILL after its first chunk while `b` imports the whole file; `a`'s rerun resumes.
    On main: 56 memories (a's first 16 lines twice)."""
    a, b = _importer(lines_file, "a", "b", stall=True), _importer(lines_file, "b", "a")
    _wait_for(lines_file / "a.stalled", a)
    assert _finished(b)["written"] in range(24, 41)
    a.send_signal(signal.SIGKILL)
    a.communicate(timeout=WAIT_S)
    rerun = _finished(_importer(lines_file, "c", "c"))
    assert rerun == {"written": 0, "skipped": 40}
    assert _stored(lines_file / "m.db") == sorted(f"src_{i}" for i in range(40))


def test_two_processes_opening_a_new_file_at_once_both_open(tmp_path: Path) -> None:
    """`migrate` read the schema version, then took the write lock per step: a second process that read the version
    before the first finished ran the first's migration again and failed to open ("trigger vectors_added already
    exists"; seen live as an importer of the two-process test dying at start, once in about ten runs). Here the other process
    migrates the whole file between this one's read and its first step."""
    import sqlite3

    from hindsight.storage.migrations import SCHEMA_VERSION, migrate

    path = tmp_path / "new.db"
    mine, other = sqlite3.connect(path, isolation_level=None), sqlite3.connect(path, isolation_level=None)

    class OtherMigratesMeanwhile:
        """This process's connection; after its first read of the version, the other process migrates."""

        def __init__(self) -> None:
            self.read = False

        def execute(self, sql: str, *args: Any) -> Any:
            result = mine.execute(sql, *args)
            if sql.startswith("PRAGMA user_version") and not self.read:
                self.read = True
                rows = result.fetchall()
                migrate(other)

                class Rows:
                    def fetchone(self) -> Any:
                        return rows[0]
                return Rows()
            return result

    try:
        assert migrate(OtherMigratesMeanwhile()) == 0  # type: ignore[arg-type]
        assert mine.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        mine.close()
        other.close()


@pytest.fixture
def two_pg_servers(pg_url: str) -> Iterator[tuple[MemoryEngine, MemoryEngine]]:
    """Two engines, each with its own connection pool to one PostgreSQL database: two servers."""
    settings = HindsightSettings(db=pg_url, guard="off")
    first = MemoryEngine.open(pg_url, settings=settings, embedder=BagEmbedder(words=True))
    second = MemoryEngine.open(pg_url, settings=settings, embedder=BagEmbedder(words=True))
    yield first, second
    first.close()
    second.close()


def test_two_servers_on_one_postgres_importing_one_file_store_each_line_once(
        two_pg_servers: tuple[MemoryEngine, MemoryEngine]) -> None:
    """The second server's import runs whole after the first read its done keys, before its first chunk lands
    (on main: 80 memories)."""
    first, second = two_pg_servers
    write_many = first.writer.write_many
    raced: list[int] = []

    def second_server_meanwhile(items: Any, actor: str, restores: Any, **kwargs: Any) -> Any:
        if not raced:
            raced.append(len(second.import_jsonl(LINES, "import-b")))
        return write_many(items, actor, restores, **kwargs)

    first.writer.write_many = second_server_meanwhile  # type: ignore[method-assign]
    report = first.import_report(LINES, "import-a")
    assert raced == [40] and report.skipped == 40 and report.outcomes == []
    assert sorted(str(r.metadata.get("imported_from")) for r in first.store.iter_all("ops")) == sorted(
        f"src_{i}" for i in range(40))


def test_a_line_imported_with_a_redacted_or_private_text_is_stored_once_too(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A line without an exported id (its key is a hash of the redacted text) and a private line (sealed) race the
    same way: each is stored once."""
    from hindsight.security.crypto import generate_key

    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    settings = HindsightSettings(db=tmp_path / "m.db", guard="off")
    first = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    second = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    lines = [json.dumps({"content": "The vault password is hunter2-Zebra-99 for ops", "namespace": "ops"}),
             json.dumps({"id": "p1", "content": "Kingsley had surgery on his knee", "namespace": "ops",
                         "encrypted": True})]
    write_many = first.writer.write_many
    raced: list[int] = []

    def meanwhile(items: Any, actor: str, restores: Any, **kwargs: Any) -> Any:
        if not raced:
            raced.append(len(second.import_jsonl(lines, "import-b")))
        return write_many(items, actor, restores, **kwargs)

    try:
        first.writer.write_many = meanwhile  # type: ignore[method-assign]
        first.import_jsonl(lines, "import-a")
        assert raced == [2]
        stored = list(first.store.iter_all("ops"))
        assert len(stored) == 2
        # the id a line takes is keyed by the store's secret: a guess of a line's text cannot be checked against it
        from hindsight.write.importer import content_key
        guessed = content_key("ops", stored[0].content if stored[0].metadata.get("imported_from") != "p1"
                              else stored[1].content)
        import hashlib
        for key in (guessed, "p1"):
            bare = "mem_" + hashlib.sha256(f"import\x00ops\x00{key}".encode()).hexdigest()[:32]
            assert bare not in {r.id for r in stored}
    finally:
        first.close()
        second.close()


# ------------------------------------------------------------------ 2. two keys on a store with no private memory yet


def _keyed_engine(db: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> MemoryEngine:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    return MemoryEngine.open(db, settings=HindsightSettings(db=db, hygiene=False), embedder=BagEmbedder(words=True))


def test_two_servers_with_different_keys_on_a_new_store_cannot_split_it(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 35's check at open has nothing to tell a key by while the store holds no private memory: on main two
    servers started with different keys both opened, each sealed its own private write, and every search of the
    namespace failed afterwards with either key (`private memory could not be decrypted`); both keys kept opening
    the store (each opens one of the two memories it samples)."""
    from hindsight.errors import EncryptionUnavailableError
    from hindsight.security.crypto import generate_key

    db, first_key, second_key = tmp_path / "m.db", generate_key(), generate_key()
    first, second = _keyed_engine(db, first_key, monkeypatch), _keyed_engine(db, second_key, monkeypatch)
    try:
        second.store_memory({"content": "The deploy runs on Fridays", "namespace": "ops"})  # public: any key
        first.store_memory({"content": "Kingsley had surgery on his knee", "namespace": "ops", "private": True})
        with pytest.raises(EncryptionUnavailableError, match="another key") as refused:
            second.store_memory({"content": "Vendramin is allergic to penicillin", "namespace": "ops",
                                 "private": True})
        assert second_key not in str(refused.value) and first_key not in str(refused.value)
        assert len(list(first.store.iter_all("ops"))) == 2  # nothing of the refused write
    finally:
        first.close()
        second.close()
    with pytest.raises(EncryptionUnavailableError):
        _keyed_engine(db, second_key, monkeypatch).close()
    engine = _keyed_engine(db, first_key, monkeypatch)
    try:
        assert [h.memory.content for h in engine.search("knee surgery Kingsley", namespace="ops")][:1] == [
            "Kingsley had surgery on his knee"]
    finally:
        engine.close()


def test_a_private_write_waiting_for_review_binds_the_store_to_its_key(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A private memory proposed in a reviewed namespace is a sealed proposal, not a memory row: on main the check
    at open saw no private memory and took any key, and the reviewer's approval under that key failed
    (`could not be decrypted`) - or, with a private write of its own, split the store."""
    from hindsight.errors import EncryptionUnavailableError
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService
    from hindsight.security.crypto import generate_key

    db, key = tmp_path / "m.db", generate_key()
    engine = _keyed_engine(db, key, monkeypatch)
    proposed = ReviewService(engine, ReviewQueue(engine.store), "kb").store(
        {"content": "Kingsley had surgery on his knee", "namespace": "kb", "private": True}, "token:writer")
    engine.close()
    assert proposed["status"] == "pending_review"
    with pytest.raises(EncryptionUnavailableError, match="key canary"):
        _keyed_engine(db, generate_key(), monkeypatch).close()
    engine = _keyed_engine(db, key, monkeypatch)
    try:
        review = ReviewService(engine, ReviewQueue(engine.store), "kb")
        memory_id = review.approve(proposed["proposal_id"], "token:admin", namespace="kb")["result"]["memory_id"]
        assert engine.get(memory_id, "kb", record_access=False).content == "Kingsley had surgery on his knee"
    finally:
        engine.close()


#: one `rotate-key` that stops for good just before its commit (`<flag>` says it got there), to be killed
ROTATOR = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    sys.path[:0] = [sys.argv[1]]
    from hindsight.config import HindsightSettings
    from hindsight.security import rotate
    from hindsight.security.crypto import cipher_from_text
    from hindsight.storage.factory import open_store
    db, old, new, flag = sys.argv[2:]
    def stall(*args, **kwargs):
        Path(flag).touch()
        time.sleep(3600)
    rotate.seal_left_in_clear = stall
    store = open_store(Path(db), HindsightSettings(db=Path(db)), cipher=cipher_from_text(old, "old"), verify_key=False)
    rotate.rotate_key(store, cipher_from_text(old, "old"), cipher_from_text(new, "new"))
""")


def test_key_rotation_killed_before_its_commit_leaves_the_old_key_and_moves_the_canary_when_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rotate-key` re-seals the canary with everything else in its one transaction: killed with SIGKILL just before
    the commit, the old key opens the store (and writes) and the new one does not; run to the end, the other way
    round (pinned: holds on main, where no canary exists)."""
    from hindsight.errors import EncryptionUnavailableError
    from hindsight.security.crypto import cipher_from_text, generate_key
    from hindsight.security.rotate import rotate_key
    from hindsight.storage.factory import open_store

    db, old, new = tmp_path / "m.db", generate_key(), generate_key()
    engine = _keyed_engine(db, old, monkeypatch)
    engine.store_memory({"content": "Kingsley had surgery on his knee", "namespace": "ops", "private": True})
    engine.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HINDSIGHT_")}
    child = subprocess.Popen([sys.executable, "-c", ROTATOR, str(SRC), str(db), old, new, str(tmp_path / "flag")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    _wait_for(tmp_path / "flag", child)
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=WAIT_S)
    engine = _keyed_engine(db, old, monkeypatch)
    try:
        engine.store_memory({"content": "Locker 7 holds the blue binder", "namespace": "ops", "private": True})
    finally:
        engine.close()
    with pytest.raises(EncryptionUnavailableError):
        _keyed_engine(db, new, monkeypatch).close()
    store = open_store(db, HindsightSettings(db=db), cipher=cipher_from_text(old, "old"), verify_key=False)
    try:
        assert rotate_key(store, cipher_from_text(old, "old"), cipher_from_text(new, "new")).memories == 2
    finally:
        store.close()
    with pytest.raises(EncryptionUnavailableError):
        _keyed_engine(db, old, monkeypatch).close()
    engine = _keyed_engine(db, new, monkeypatch)
    try:
        engine.store_memory({"content": "Vendramin is allergic to penicillin", "namespace": "ops", "private": True})
        assert len(list(engine.store.iter_all("ops"))) == 3
    finally:
        engine.close()
