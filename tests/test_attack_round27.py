"""Attack round 27 (docs/security.md "Attack round 27"): round 26's leftovers, and what an outside attacker found.

- A task id (`source_task_id`, an event's `task_id`), an idempotency key and the session / task ids of a proposal
  waiting for review were stored in clear when they held a mailbox; now under the keyed pseudonym a session id gets.
- A `.jsonl` backup did not carry the key behind the pseudonyms: a store restored from it on another machine could
  not map a session filter's clear value; now carried sealed under the store's key.
- A reviewer's note on a private memory's proposal was stored in clear; now sealed like the proposal.
- A private proposal an older version left in clear stayed so until `rotate-key`; now sealed the first time the store
  is opened with its key (and after `hindsight migrate`, on the target's next open).
- Found live: a private memory's own metadata values were stored in clear; one token could hold MCP sessions
  without bound; any token could use or end another token's session by its id.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.security.crypto import generate_key

ALICE = "alice.smith@example.com"


def _raw(db: Path) -> str:
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists()).decode("utf-8", "replace")


def _open(db: Path, hygiene: bool = False) -> MemoryEngine:
    settings = HindsightSettings(db=db, hygiene=hygiene, guard="off")
    return MemoryEngine.open(db, settings=settings, embedder=BagEmbedder(words=True))


def _rotated(engine: MemoryEngine, db: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> MemoryEngine:
    """`rotate-key` to a new key, then the store opened again under it (the caller closes it)."""
    from hindsight.security.crypto import cipher_from_text
    from hindsight.security.rotate import rotate_key

    new = generate_key()
    rotate_key(engine.store, cipher_from_text(key, "old"), cipher_from_text(new, "new"))
    engine.close()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", new)
    return _open(db)


@pytest.fixture
def keyed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[MemoryEngine, Path, str]]:
    key = generate_key()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    db = tmp_path / "m.db"
    engine = _open(db)
    yield engine, db, key
    engine.close()


# --- task ids, idempotency keys and queued proposals holding a mailbox -------------------------------------------------


def test_a_task_id_holding_a_mailbox_is_stored_under_a_pseudonym(bag_engine: MemoryEngine) -> None:
    from hindsight.write.events import TaskCompleted

    task = f"task-for-{ALICE}"
    bag_engine.store_memory({"content": "Alice's visa form was filed.", "source_task_id": task})
    bag_engine.record_event(TaskCompleted(goal="File Alice's tax return", task_id=task))
    bag_engine.store_memory({"content": "The team lunch is Friday.", "source_task_id": "run-2024-11-03-42"})
    stored = {r.content.split("\n")[0]: r.source_task_id for r in bag_engine.list("default")[0]}
    assert not any(ALICE in str(t) for t in stored.values()), stored
    assert stored["Alice's visa form was filed."] == stored["Goal: File Alice's tax return"]  # one task
    assert str(stored["Alice's visa form was filed."]).startswith("[REDACTED:email:")
    assert stored["The team lunch is Friday."] == "run-2024-11-03-42"  # nothing personal: as written
    found = bag_engine.list("default", {"source_task_id": task})[0]  # the filter names the clear value
    assert len(found) == 2
    hits = bag_engine.search("visa form", namespace="default", filters={"source_task_id": task}, top_k=5)
    assert hits and hits[0].memory.content == "Alice's visa form was filed."
    assert "The team lunch is Friday." not in {h.memory.content for h in hits}


def test_an_idempotency_key_holding_a_mailbox_is_kept_under_a_pseudonym(bag_engine: MemoryEngine,
                                                                          tmp_path: Path) -> None:
    first = bag_engine.store_memory({"content": "Alice prefers the window seat."}, idempotency_key=f"{ALICE}#1")
    again = bag_engine.store_memory({"content": "Alice prefers the window seat."}, idempotency_key=f"{ALICE}#1")
    assert again.memory_id == first.memory_id  # the retry still replays
    keys = [str(k) for (k,) in bag_engine.store._aux_rows("SELECT key FROM idempotency")]
    assert keys and not any(ALICE in k for k in keys), keys
    assert ALICE not in _raw(tmp_path / "m.db")


def test_a_key_recorded_in_clear_by_an_older_version_still_replays(bag_engine: MemoryEngine) -> None:
    from hindsight.write.idempotency import memory_id_for

    first = bag_engine.store_memory({"content": "Alice prefers the window seat."}, idempotency_key="plain-key-1")
    bag_engine.store._aux_exec("UPDATE idempotency SET key = ?", (f"{ALICE}#1",))  # as an older version kept it
    bag_engine.store._aux_exec("UPDATE memories SET id = ?", (memory_id_for("default", f"{ALICE}#1"),))
    again = bag_engine.store_memory({"content": "Alice prefers the window seat."}, idempotency_key=f"{ALICE}#1")
    assert again.memory_id == first.memory_id and bag_engine.list("default")[1] == 1


def test_a_proposal_waits_with_its_session_and_task_ids_under_their_pseudonyms(bag_engine: MemoryEngine,
                                                                                 tmp_path: Path) -> None:
    """Live: in a reviewed namespace the proposal's payload kept `session_id` / `source_task_id` as sent, for good
    (a rejected proposal is kept); approved, the memory joins the session written directly."""
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService

    direct = bag_engine.store_memory({"content": "Alice flies on Tuesday.", "session_id": ALICE, "namespace": "kb",
                                      "source_task_id": f"t-{ALICE}"})
    review = ReviewService(bag_engine, ReviewQueue(bag_engine.store), "kb")
    pending = review.store({"content": "Alice prefers the window seat.", "session_id": ALICE, "namespace": "kb",
                            "source_task_id": f"t-{ALICE}"}, "token:writer")
    assert ALICE not in _raw(tmp_path / "m.db"), "the queued proposal holds the mailbox in clear"
    review.approve(pending["proposal_id"], "token:admin", namespace="kb")
    found = bag_engine.list("kb", {"session_id": ALICE})[0]
    assert sorted(r.content for r in found) == ["Alice flies on Tuesday.", "Alice prefers the window seat."]
    ids = {(r.session_id, r.source_task_id) for r in found}
    assert ids == {(bag_engine.get(direct.memory_id, "kb").session_id, bag_engine.get(direct.memory_id, "kb").source_task_id)}


def test_a_pseudonym_passing_twice_is_not_wrapped_again(bag_engine: MemoryEngine) -> None:
    """An export imported back, a proposal then its approval: the stored pseudonym is kept as it is (the whole-id
    pseudonym of a long id read as an api key and was wrapped a second time)."""
    from hindsight.write.labels import session_label

    many = " ".join(f"user{i}.name@example.com" for i in range(8))
    longs = [" ".join(f"user{i}.{j}@example.com" for i in range(8)) for j in range(6)]  # on main, 4 in 5 were wrapped
    for label in (ALICE, many, f"chat:{ALICE}", *longs):
        once = session_label(bag_engine.store, label)
        assert once != label and session_label(bag_engine.store, once) == once, once
    out = io.StringIO()
    bag_engine.store_memory({"content": "Alice flies on Tuesday.", "session_id": many})
    bag_engine.export_jsonl(out)
    stored = bag_engine.list("default")[0][0].session_id
    line = json.loads(out.getvalue().splitlines()[0])
    assert line["session_id"] == stored and session_label(bag_engine.store, stored) == stored


# --- the label secret travels with a .jsonl backup, sealed ---------------------------------------------------------


def test_a_jsonl_backup_carries_the_label_secret_sealed(keyed: tuple[MemoryEngine, Path, str], tmp_path: Path) -> None:
    from hindsight.backup import restore_jsonl, write_jsonl

    engine, _, _ = keyed
    engine.store_memory({"content": "Alice prefers the window seat.", "session_id": ALICE})
    secret = engine.store.kept_secret("label_secret")
    out = io.StringIO()
    write_jsonl(engine.store, out)
    assert secret not in out.getvalue(), "the label secret is in the backup in clear"
    # another machine: an empty store with the same key, which made a label secret of its own first
    target = _open(tmp_path / "other.db")
    try:
        target.store.kept_secret("label_secret")
        report = restore_jsonl(target, iter(out.getvalue().splitlines()))
        assert report["secrets"] >= 1
        assert [r.content for r in target.list("default", {"session_id": ALICE})[0]] == ["Alice prefers the window seat."]
        target.store_memory({"content": "Alice flies on Tuesday.", "session_id": ALICE})  # same session after it
        assert target.list("default", {"session_id": ALICE})[1] == 2
    finally:
        target.close()


def test_a_backup_without_a_key_carries_no_secret(bag_engine: MemoryEngine, tmp_path: Path) -> None:
    """The chosen behaviour without a key: the secret is not written (never in clear), the pseudonyms restore as
    they are, and a filter by the clear value there finds nothing (docs/security.md)."""
    from hindsight.backup import restore_jsonl, write_jsonl

    bag_engine.store_memory({"content": "Alice prefers the window seat.", "session_id": ALICE})
    out = io.StringIO()
    write_jsonl(bag_engine.store, out)
    assert "secrets" not in json.loads(out.getvalue().splitlines()[0])
    assert bag_engine.store.kept_secret("label_secret") not in out.getvalue()
    target = _open(tmp_path / "other.db")
    try:
        assert restore_jsonl(target, iter(out.getvalue().splitlines()))["secrets"] == 0
        [record] = target.list("default")[0]
        assert record.session_id == bag_engine.list("default")[0][0].session_id
        assert target.list("default", {"session_id": ALICE})[1] == 0
    finally:
        target.close()


def test_a_backup_header_with_secrets_in_clear_is_refused(keyed: tuple[MemoryEngine, Path, str]) -> None:
    from hindsight.backup import BackupLineError, restore_jsonl

    engine, _, _ = keyed
    header = {"format": "hindsight-backup", "version": 1, "secrets": {"label_secret": "00" * 32}}
    with pytest.raises(BackupLineError, match="secrets"):
        restore_jsonl(engine, iter([json.dumps(header)]))


# --- a reviewer's note on a private proposal -------------------------------------------------------------------------


def test_a_reviewers_note_on_a_private_proposal_is_sealed_and_rotates(keyed: tuple[MemoryEngine, Path, str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService

    engine, db, key = keyed
    review = ReviewService(engine, ReviewQueue(engine.store), "kb")
    approved = review.store({"content": "Diagnosis noted.", "private": True, "namespace": "kb"}, "token:writer")
    rejected = review.store({"content": "Second diagnosis.", "private": True, "namespace": "kb"}, "token:writer")
    public = review.store({"content": "The clinic opens at nine.", "namespace": "kb"}, "token:writer")
    review.approve(approved["proposal_id"], "token:admin", "ZEBRA9NOTE matches the lab report", namespace="kb")
    review.reject(rejected["proposal_id"], "token:admin", "OKAPI4NOTE wrong patient", namespace="kb")
    review.approve(public["proposal_id"], "token:admin", "PLAINNOTE7 fine", namespace="kb")
    raw = _raw(db)
    assert "ZEBRA9NOTE" not in raw and "OKAPI4NOTE" not in raw, "a private proposal's note is in the file in clear"
    assert "PLAINNOTE7" in raw  # a public proposal's note stays as it was
    notes = {p.review_note for p in review.decided("kb")}
    assert {"ZEBRA9NOTE matches the lab report", "OKAPI4NOTE wrong patient"} <= notes  # the reviewer reads them
    reopened = _rotated(engine, db, key, monkeypatch)
    try:
        notes = {p.review_note for p in ReviewService(reopened, ReviewQueue(reopened.store), "kb").decided("kb")}
        assert "ZEBRA9NOTE matches the lab report" in notes
    finally:
        reopened.close()


# --- private proposals an older version left in clear: sealed on the first open with the key ------------------------


def _age(engine: MemoryEngine, memory_id: str) -> str:
    """A forget proposal of a private memory as a version before round 26 queued it: payload and reason in clear,
    decided with a clear note; the store not yet marked as sealed."""
    from hindsight.review.queue import ReviewQueue
    from hindsight.security.rotate import SEALED_ON_OPEN

    queue = ReviewQueue(engine.store)
    proposal = queue.add("kb", "forget", {"reason": "ZEBRA9REASON wrong diagnosis"}, "token:writer", memory_id,
                         "ZEBRA9REASON wrong diagnosis", private=False)
    engine.store._aux_exec("UPDATE proposals SET review_note = 'OKAPI4NOTE agreed' WHERE id = ?", (proposal.id,))
    engine.store._aux_exec("DELETE FROM meta WHERE key = ?", (SEALED_ON_OPEN,))
    return proposal.id


def _proposal_rows(engine: MemoryEngine) -> str:
    """The proposals table as stored (the file itself keeps an updated row's old page in the WAL until a checkpoint)."""
    return repr(engine.store._aux_rows("SELECT payload, reason, review_note FROM proposals"))


def test_a_private_proposal_left_in_clear_is_sealed_on_open(keyed: tuple[MemoryEngine, Path, str]) -> None:
    from hindsight.review.queue import ReviewQueue

    engine, db, _ = keyed
    private = engine.store_memory({"content": "Diagnosis noted.", "private": True, "namespace": "kb"}).memory_id
    proposal_id = _age(engine, private)
    assert "ZEBRA9REASON" in _proposal_rows(engine)
    engine.close()
    reopened = _open(db)
    try:
        rows = _proposal_rows(reopened)
        assert "ZEBRA9REASON" not in rows and "OKAPI4NOTE" not in rows, "left in clear after an open with the key"
        proposal = ReviewQueue(reopened.store).get(proposal_id)
        assert proposal.reason == "ZEBRA9REASON wrong diagnosis" and proposal.review_note == "OKAPI4NOTE agreed"
        assert proposal.payload == {"reason": "ZEBRA9REASON wrong diagnosis"}
    finally:
        reopened.close()


def test_a_migrated_private_proposal_left_in_clear_is_sealed_on_the_targets_open(
        keyed: tuple[MemoryEngine, Path, str], tmp_path: Path) -> None:
    from hindsight.storage.factory import open_raw_store
    from hindsight.storage.transfer import migrate_store

    engine, db, _ = keyed
    private = engine.store_memory({"content": "Diagnosis noted.", "private": True, "namespace": "kb"}).memory_id
    _age(engine, private)
    engine.close()
    target = tmp_path / "target.db"
    _open(target).close()  # the target was opened with the key before the copy: marked as sealed
    src, dst = open_raw_store(db), open_raw_store(target)
    try:
        assert migrate_store(src, dst).verified
    finally:
        src.close()
        dst.close()
    reopened = _open(target)
    try:
        assert "ZEBRA9REASON" not in _proposal_rows(reopened)
    finally:
        reopened.close()


def test_a_wrong_key_seals_nothing_on_open(keyed: tuple[MemoryEngine, Path, str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A key that does not open the store's private memories (a wrong key in a config) must not seal the leftovers
    under itself: the right key could never open them again."""
    from hindsight.review.queue import ReviewQueue

    engine, db, key = keyed
    private = engine.store_memory({"content": "Diagnosis noted.", "private": True, "namespace": "kb"}).memory_id
    proposal_id = _age(engine, private)
    engine.close()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    from hindsight.storage.factory import open_store

    # since round 35 a wrong key is refused at open (security/key_check.py); the sealing on open is checked without
    open_store(db, HindsightSettings(db=db), verify_key=False).close()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    reopened = _open(db)
    try:
        assert "ZEBRA9REASON" not in _proposal_rows(reopened)
        assert ReviewQueue(reopened.store).get(proposal_id).reason == "ZEBRA9REASON wrong diagnosis"
    finally:
        reopened.close()


# --- found by the outside attacker ---------------------------------------------------------------------------------


def test_a_private_memorys_own_metadata_is_sealed_and_rotates(keyed: tuple[MemoryEngine, Path, str],
                                                             monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Live: `{"diagnosis": "HIVPOSITIVE7 confirmed"}` on a private memory sat in clear in the file and every backup
    (content, context and the session context were sealed). The write path's keys stay readable."""
    from hindsight.backup import restore_jsonl, write_jsonl

    engine, db, key = keyed
    meta = {"diagnosis": "HIVPOSITIVE7 confirmed", "dose": {"mg": 500, "notes": ["OKAPI4DOSE"]}, "n": 3}
    private = engine.store_memory({"content": "Visit noted.", "private": True, "metadata": meta}).memory_id
    public = engine.store_memory({"content": "The clinic opens at nine.", "metadata": {"room": "PLAINROOM7"}}).memory_id
    engine.update(private, {"content": "Visit noted, follow-up booked."})
    assert engine.get(private).metadata == meta and engine.get(public).metadata == {"room": "PLAINROOM7"}
    assert any(e.after and e.after["metadata"] == meta for e in engine.history(private))
    raw = _raw(db)
    assert "HIVPOSITIVE7" not in raw and "OKAPI4DOSE" not in raw, "a private memory's metadata is in clear"
    assert "PLAINROOM7" in raw
    out = io.StringIO()
    write_jsonl(engine.store, out)
    assert "HIVPOSITIVE7" not in out.getvalue()
    target = _open(tmp_path / "other.db")
    try:
        restore_jsonl(target, iter(out.getvalue().splitlines()))
        assert target.get(private).metadata == meta
    finally:
        target.close()
    reopened = _rotated(engine, db, key, monkeypatch)
    try:
        assert reopened.get(private).metadata == meta
    finally:
        reopened.close()


def test_a_private_memorys_metadata_an_older_version_kept_in_clear_still_reads(
        keyed: tuple[MemoryEngine, Path, str]) -> None:
    engine, _, _ = keyed
    private = engine.store_memory({"content": "Visit noted.", "private": True}).memory_id
    old = {"diagnosis": "as an older version kept it", "odd": "enc:v1:not-really-sealed", "b64": "enc:v1:" + "A" * 48}
    engine.store._aux_exec("UPDATE memories SET metadata = ? WHERE id = ?", (json.dumps(old), private))
    assert engine.get(private).metadata == old


def test_one_token_cannot_hold_sessions_without_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Live: a metrics-only token opened 2,000 MCP sessions; the SDK kept each (about 36 KB) for 30 idle minutes, with
    no limit. Now a token at HINDSIGHT_MAX_SESSIONS_PER_TOKEN is refused a new one (429, a JSON-RPC error); another
    token is not affected; ending one (DELETE) makes room. Live too: as `serve` builds the app (no FastMCP auth) any
    token could use or end another token's session by its id; now 404, and the session lives on."""
    from starlette.middleware import Middleware
    from starlette.testclient import TestClient

    from hindsight.security.http_guard import AuthPolicy, HTTPGuard, default_allowed_hosts
    from hindsight.security.tokens import TokenStore
    from hindsight.server.mcp_server import build_server

    monkeypatch.setenv("HINDSIGHT_MAX_SESSIONS_PER_TOKEN", "3")
    engine = _open(tmp_path / "m.db")
    tokens = TokenStore.open(tmp_path / "m.db")
    scraper, agent = tokens.create("scraper", ["metrics"], ["*"])[0], tokens.create("agent", ["read"], ["ops"])[0]
    policy = AuthPolicy(tokens)
    guard = Middleware(HTTPGuard, policy=policy, allowed_hosts=default_allowed_hosts("127.0.0.1"))
    app = build_server(engine, policy=policy).http_app(middleware=[guard])  # as `serve` builds it
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    base = {"accept": "application/json, text/event-stream", "content-type": "application/json"}

    def bearer(token: str, session: str | None = None) -> dict[str, str]:
        return {**base, "authorization": f"Bearer {token}", **({"mcp-session-id": session} if session else {})}

    try:
        with TestClient(app, base_url="http://127.0.0.1") as client:
            opened = [client.post("/mcp", json=init, headers=bearer(scraper)) for _ in range(3)]
            assert [r.status_code for r in opened] == [200, 200, 200]
            refused = client.post("/mcp", json=init, headers=bearer(scraper))
            assert refused.status_code == 429 and "too_many_sessions" in refused.json()["error"]["message"]
            assert client.post("/mcp", json=init, headers=bearer(agent)).status_code == 200  # another token
            first = opened[0].headers["mcp-session-id"]
            for stolen in (client.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "ping"},
                                       headers=bearer(agent, first)),
                           client.delete("/mcp", headers=bearer(agent, first))):
                assert stolen.status_code == 404  # live on main: 200, and the DELETE ended the scraper's session
            assert client.post("/mcp", json=init, headers=bearer(scraper)).status_code == 429  # still counted
            ping = client.post("/mcp", json={"jsonrpc": "2.0", "id": 3, "method": "ping"}, headers=bearer(scraper, first))
            assert ping.status_code == 200  # the opener's session lives on
            assert client.delete("/mcp", headers=bearer(scraper, first)).status_code < 400
            assert client.post("/mcp", json=init, headers=bearer(scraper)).status_code == 200  # room again
    finally:
        tokens.close()
        engine.close()


def test_a_session_idle_past_the_sdks_timeout_is_no_longer_counted() -> None:
    from hindsight.security.session_cap import SESSION_IDLE_S, SessionCap

    now = [0.0]
    cap = SessionCap(limit=2, clock=lambda: now[0])
    cap.opened("token:a", "s1")
    now[0] = 10.0
    cap.opened("token:a", "s2")
    assert not cap.admit("token:a")
    now[0] = SESSION_IDLE_S + 5.0  # s1 idle past the timeout, s2 not yet
    assert cap.admit("token:a") and cap.held("token:a") == 1
    cap.seen("s2")
    now[0] = SESSION_IDLE_S + 12.0
    assert cap.held("token:a") == 1 and cap.admit("token:a")
