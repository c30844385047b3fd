"""Attack round 26 (docs/security.md "Attack round 26"): round 25's leftovers, and what an outside attacker found.

- Two namespaces of one lock bucket in one process waited on the bucket's `flock` with the busy timeout meant for
  another process: a consolidation pass longer than it made a same-bucket writer fail with `storage_busy`.
- `importance: NaN` was refused as "Input should be less than or equal to 1"; now "a finite number".
- Look-alikes round 25's fold left: Cyrillic / Greek letters or accents in a mailbox, card groups joined by dots or
  en / em dashes.
- A private memory's forget reason (and a hard delete's) was stored in clear, also while waiting for review.
- A session id holding a mailbox was stored as written; now under a keyed pseudonym.
- `memory_working_get` / `memory_session_end` took a session id with NUL and a bidi override and echoed it back.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from hindsight.engine import MemoryEngine
from hindsight.server.mcp_server import build_server
from hindsight.storage.file_lock import NamespaceFileLocks


def _same_bucket(locks: NamespaceFileLocks, namespace: str) -> str:
    bucket = locks._bucket(namespace)
    return next(f"ns{i}" for i in range(10_000) if f"ns{i}" != namespace and locks._bucket(f"ns{i}") == bucket)


def test_a_thread_waiting_for_its_own_process_on_a_bucket_waits_past_the_busy_timeout(tmp_path: Path) -> None:
    locks = NamespaceFileLocks(str(tmp_path / "m.db"), 0.1)
    other = _same_bucket(locks, "ops")
    held, errors, done = threading.Event(), [], threading.Event()

    def long_pass() -> None:  # a consolidation pass of `ops` longer than the busy timeout
        with locks.hold("ops"):
            held.set()
            time.sleep(0.4)

    def writer() -> None:
        try:
            with locks.hold(other):
                done.set()
        except Exception as exc:  # noqa: BLE001 - on main: StorageBusyError after 0.1 s
            errors.append(exc)

    first = threading.Thread(target=long_pass)
    first.start()
    assert held.wait(5)
    second = threading.Thread(target=writer)
    second.start()
    first.join(5)
    second.join(5)
    assert errors == [] and done.is_set(), errors


# --- a NaN or infinite number names the rule it breaks ----------------------------------------------------------------


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def _raw_calls(engine: MemoryEngine, calls: list[tuple[str, str]]) -> list[str]:
    """Each tool call's answer text over HTTP, its arguments sent as raw JSON (a `NaN` literal, as Python's json
    and JavaScript clients write it)."""
    from starlette.testclient import TestClient

    out = []
    with TestClient(build_server(engine).http_app(), base_url="http://127.0.0.1") as client:
        opened = client.post("/mcp", json=INIT, headers=MCP_HEADERS)
        headers = {**MCP_HEADERS, "mcp-session-id": opened.headers["mcp-session-id"]}
        client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
        for number, (tool, arguments) in enumerate(calls, start=2):
            body = ('{"jsonrpc": "2.0", "id": ' + str(number) + ', "method": "tools/call", "params": {"name": "'
                    + tool + '", "arguments": ' + arguments + "}}")
            out.append(client.post("/mcp", content=body, headers=headers).text)
    return out


def test_a_number_that_is_not_finite_is_refused_as_not_finite(bag_engine: MemoryEngine) -> None:
    memory_id = "mem_" + "0" * 32  # the arguments are refused before the id is looked up
    answers = _raw_calls(bag_engine, [
        ("memory_store", '{"content": "The deploy window is Friday.", "importance": NaN}'),
        ("memory_store", '{"content": "The deploy window is Monday.", "importance": Infinity}'),
        ("memory_search", '{"query": "deploy window", "min_relevance": NaN}'),
        ("memory_list", '{"filters": {"min_importance": NaN}}'),
        ("memory_update", '{"memory_id": "' + memory_id + '", "updates": {"importance": NaN, "credibility": -Infinity}}'),
    ])
    for text in answers:
        assert '"isError":true' in text and "invalid_input" in text and "finite number" in text, text
    assert bag_engine.list("default")[1] == 0


# --- look-alikes round 25's fold left: mailboxes with other scripts' letters, card groups joined by dots or dashes --

from hindsight.safety.redact import redact  # noqa: E402

LEFT_LOOK_ALIKES = {
    "mail-cyrillic-a": ("Send the contract to alice.smith@exаmple.com today.", "alice.smith"),
    "mail-greek-o": ("Send the contract to bοb.jones@example.org today.", "bο"),
    "mail-cyrillic-role": ("Forward the keys to suppоrt@bl0ckaudit-help.example.net tonight.", "suppо"),
    "mail-combining-accent": ("Write to ali\u0301ce.smith@example.com about it.", "ali"),
    "mail-accented-latin": ("Write to josé.garcia@example.com about it.", "garcia"),
    "card-dots": ("The card is 4111.1111.1111.1111, keep it on file.", "1111"),
    "card-en-dash": ("The card is 4111–1111–1111–1111, keep it on file.", "1111"),
    "card-en-dash-and-hyphen": ("Paid with card 4111–1111-1111-1111 today.", "1111"),
    "card-em-dash": ("Charge it to 3782—822463—10005 as before.", "822463"),
}


@pytest.mark.parametrize("case", list(LEFT_LOOK_ALIKES))
def test_a_value_with_the_look_alikes_round_25_left_is_redacted(case: str) -> None:
    text, value = LEFT_LOOK_ALIKES[case]
    assert value not in redact(text).text, redact(text).text


def test_reading_mailboxes_for_look_alikes_stays_linear() -> None:
    """A first cut matched the mailbox run with one regex that rescanned a long run without an `@` from every start
    (2,000 characters 0.3 s, 8,000 characters 4.7 s)."""
    from linear_cost import assert_not_superlinear

    from hindsight.safety.redact_fold import fold_for_finders

    def fold(run: str) -> object:
        return fold_for_finders(run + " write to alice@exаmple.com")

    assert_not_superlinear(fold, "x" * 400, "x" * 4000)


def test_russian_greek_prose_dotted_numbers_and_ranges_stay_as_written() -> None:
    for text in ("Напишите Ивану: иван@почта.рф или в чат @иван.", "Ελληνικά: γράψτε στο maria@παράδειγμα.gr",
                 "Version 4111.1111.1111.1111.2 ships; see pages 1–10, 2019–2022.", "Order 4111.1111.1111.1111 shipped."):
        assert redact(text).text == text


# --- a private memory's forget reason is sealed like its text --------------------------------------------------------


def _raw(db: Path) -> str:
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists()).decode("utf-8", "replace")


def test_a_private_memorys_forget_reason_is_sealed_and_rotates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bag_embedder import BagEmbedder

    from hindsight.config import HindsightSettings
    from hindsight.security.audit import AuditLog
    from hindsight.security.crypto import cipher_from_text, generate_key
    from hindsight.security.rotate import rotate_key

    key = generate_key()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    db = tmp_path / "m.db"
    settings = HindsightSettings(db=db, hygiene=False, guard="off")
    engine = MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True))
    try:
        private = engine.store_memory({"content": "Diagnosis noted for the patient.", "private": True}).memory_id
        public = engine.store_memory({"content": "The clinic opens at nine."}).memory_id
        engine.forget(private, reason="ZEBRA9PRIVATE the diagnosis was wrong")
        engine.forget(public, reason="PLAINREASON7 moved to a new clinic")
        assert engine.get(private).status_reason == "ZEBRA9PRIVATE the diagnosis was wrong"  # opened for readers
        assert "ZEBRA9PRIVATE" in engine.history(private)[-1].note
        raw = _raw(db)
        assert "ZEBRA9PRIVATE" not in raw, "the reason of a private memory is in the file in clear"
        assert "PLAINREASON7" in raw  # a public memory's reason stays as it was
        assert not any("ZEBRA9PRIVATE" in e.detail for e in AuditLog(engine.store).entries())
        doomed = engine.store_memory({"content": "Second diagnosis noted.", "private": True}).memory_id
        engine.delete(doomed, reason="ERASED5PRIVATE wrong patient")
        assert "ERASED5PRIVATE" not in _raw(db) and "ERASED5PRIVATE" in engine.history(doomed)[-1].note

        new = generate_key()
        report = rotate_key(engine.store, cipher_from_text(key, "old"), cipher_from_text(new, "new"))
        assert report.memories == 1
    finally:
        engine.close()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", new)
    engine = MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True))
    try:  # under the new key the reason and the note still open
        assert engine.get(private).status_reason == "ZEBRA9PRIVATE the diagnosis was wrong"
        assert "ZEBRA9PRIVATE" in engine.history(private)[-1].note
    finally:
        engine.close()


def test_a_private_memorys_forget_reason_waits_for_review_sealed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Live: in a reviewed namespace the forget of a private memory waited in `proposals` with its reason in clear
    (the payload and the reason column); approved, it was stored in clear too."""
    from bag_embedder import BagEmbedder

    from hindsight.config import HindsightSettings
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService
    from hindsight.security.crypto import generate_key

    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    db = tmp_path / "m.db"
    settings = HindsightSettings(db=db, hygiene=False, guard="off")
    engine = MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True))
    try:
        private = engine.store_memory({"content": "Diagnosis noted.", "private": True, "namespace": "kb"}).memory_id
        review = ReviewService(engine, ReviewQueue(engine.store), "kb")
        pending = review.forget(private, "ZEBRA9PRIVATE the diagnosis was wrong", "kb", "token:writer")
        assert "ZEBRA9PRIVATE" not in _raw(db), "the proposal holds the reason in clear"
        [proposal] = review.pending("kb")
        assert proposal.reason == "ZEBRA9PRIVATE the diagnosis was wrong"  # the reviewer reads it
        review.approve(pending["proposal_id"], "token:admin", namespace="kb")
        assert engine.get(private, "kb").status_reason == "ZEBRA9PRIVATE the diagnosis was wrong"
        assert "ZEBRA9PRIVATE" not in _raw(db)
    finally:
        engine.close()


# --- a session id holding a mailbox: stored under a keyed pseudonym, sessions stay apart, filters still find them ----


def test_a_session_id_holding_a_mailbox_is_stored_under_a_pseudonym(bag_engine: MemoryEngine) -> None:
    alice, bob = "alice.smith@example.com", "chat:bob.jones@example.org"
    for session, text in ((alice, "Alice prefers the window seat."), (alice, "Alice flies on Tuesday."),
                          (bob, "Bob prefers the aisle."), ("chat-42", "The team lunch is Friday.")):
        bag_engine.store_memory({"content": text, "session_id": session})
    records = bag_engine.list("default")[0]
    stored = {r.content: r.session_id for r in records}
    assert not any("alice" in str(s) or "bob.jones" in str(s) for s in stored.values()), stored
    assert stored["Alice prefers the window seat."] == stored["Alice flies on Tuesday."]  # one session
    assert stored["Bob prefers the aisle."] != stored["Alice flies on Tuesday."]
    assert stored["Bob prefers the aisle."].startswith("chat:[REDACTED:email:")
    assert stored["The team lunch is Friday."] == "chat-42"  # nothing personal: kept as written
    found = bag_engine.list("default", {"session_id": alice})[0]  # the filter names the clear value
    assert sorted(r.content for r in found) == ["Alice flies on Tuesday.", "Alice prefers the window seat."]
    hits = bag_engine.search("seat", namespace="default", filters={"session_id": alice}, top_k=5)
    assert hits and {h.memory.content for h in hits} <= {"Alice prefers the window seat.", "Alice flies on Tuesday."}


def test_a_session_id_with_hidden_characters_is_refused_on_read_and_end(bag_engine: MemoryEngine) -> None:
    """Live: `memory_working_get` took "a\\u0000b\\u202e" and echoed it back, `memory_session_end` repeated it in its
    refusal; `memory_working_append` refuses it (a typed error naming the field)."""
    from hindsight.errors import InvalidInputError

    for call in (lambda: bag_engine.working_get("a\x00b\u202e"), lambda: bag_engine.end_session("a\x00b\u202e")):
        with pytest.raises(InvalidInputError, match="session_id"):
            call()
