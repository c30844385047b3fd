"""Attack round 17 (docs/security.md "Attack round 17"): the MCP layer's schema refusals are the project's typed
error, and a private memory's vector is never made from its sealed text.

Each test but the last pin failed on main at c798f27 (see the docstrings for how).
"""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastmcp import Client

from hindsight.backup import restore_jsonl, write_jsonl
from hindsight.client import ResilientClient
from hindsight.client.queue import WriteQueue
from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import EncryptionUnavailableError, InvalidInputError
from hindsight.read_model import SearchFilters
from hindsight.security.crypto import PREFIX, generate_key
from hindsight.server.mcp_server import build_server

SECRET = "The vault recovery phrase lives in the red binder"
SECRET_ZH = "保险库恢复短语放在红色文件夹里"


class Recording(Embedder):
    """A deterministic fake under a chosen name that keeps every text it was asked to embed."""

    dim = 8

    def __init__(self, name: str) -> None:
        self.name = name
        self.seen: list[str] = []

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        self.seen.extend(texts)
        return np.asarray([[len(t) + 1, *(ord(c) % 97 for c in (t + "        ")[:7])] for t in texts],
                          dtype=np.float32)


def _plain_engine(url: str | Path, embedder: Embedder) -> MemoryEngine:
    settings = HindsightSettings(db=url, guard="off", hygiene=False)
    return MemoryEngine.open(url, settings, embedder)


# ------------------------------------------------------------------ 1. schema refusals are typed errors
def test_schema_refusals_are_invalid_input_naming_the_field_never_the_value(tmp_path: Path,
                                                                           embedder: Embedder) -> None:
    """On main a wrong type, a missing or unknown field came back as pydantic's dump ("1 validation error for
    call[memory_store]" ... "input_value='<what was sent>'") and an unknown tool as its whole name: no code a
    client could act on, and the value echoed."""
    engine = MemoryEngine.open(tmp_path / "s.db", HindsightSettings(db=tmp_path / "s.db"), embedder)
    calls = [
        ("memory_store", {}, "content: Missing required argument"),
        ("memory_store", {"content": [SECRET]}, "content: Input should be a valid string"),
        ("memory_store", {"content": "ok", "diary": SECRET}, "diary: Unexpected keyword argument"),
        ("memory_update", {"memory_id": "mem_x", "updates": {"contnet": SECRET}}, "updates.contnet: Extra inputs"),
        ("memory_search", {"query": "x", "filters": {"tags": SECRET}}, "filters.tags: Input should be a valid list"),
        ("memory_task_completed", {"task": {"goal": 5}}, "task.goal: Input should be a valid string"),
        ("memory_delete", {"memory_id": "mem_x", "confirm": SECRET}, "confirm: Input should be a valid boolean"),
        ("memory_" + "x" * 100_000, {}, "name: no tool is called"),
        # 40,000 wrong items: on main one refusal of more than 1 MB (the streamable HTTP client's event limit)
        ("memory_store", {"content": "ok", "tags": [7] * 40_000}, "tags.0: Input should be a valid string"),
    ]

    async def run() -> list[str]:
        async with Client(build_server(engine)) as client:
            answers = [await client.call_tool(tool, args, raise_on_error=False) for tool, args, _ in calls]
            assert (await client.call_tool("memory_stats", {})).data["total"] == 0  # nothing stored
            return [str(answer.content[0].text) for answer in answers if answer.is_error]

    texts = asyncio.run(run())
    assert len(texts) == len(calls)
    for text, (_, _, expect) in zip(texts, calls, strict=True):
        assert text.startswith(f"invalid_input: {expect}"), text
        assert SECRET not in text and "input_value" not in text and len(text) < 400, text
    assert texts[-1].endswith("; and 39995 more errors of this kind or others"), texts[-1][-200:]
    engine.close()


# ------------------------------------------------------------------ 2. a private memory's vector is its text's
def _backup_with_private(tmp_path: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str]]:
    """A JSON-lines backup, written under model 'model-a', of one public and two private memories (EN, ZH)."""
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    source = _plain_engine(tmp_path / "a.db", Recording("model-a"))
    ids = [source.store_memory({"content": text, "private": True, "context": "home office"}).memory_id
           for text in (SECRET, SECRET_ZH)]
    source.store_memory({"content": "The payments service retries webhooks three times"})
    out = io.StringIO()
    write_jsonl(source.store, out)
    source.close()
    return out.getvalue(), ids


def _restore_under_model_b(url: str | Path, backup: str, key: str | None,
                           monkeypatch: pytest.MonkeyPatch) -> tuple[MemoryEngine, Recording]:
    if key is None:
        monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY", raising=False)
    else:
        monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    other = Recording("model-b")
    target = _plain_engine(url, other)
    other.seen.clear()
    return target, other


def _check_restore_across_models(url: str | Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = generate_key()
    backup, ids = _backup_with_private(tmp_path, key, monkeypatch)
    assert SECRET not in backup and PREFIX in backup
    # without the key: refused before anything is written (main embedded the ciphertext as the vector)
    target, other = _restore_under_model_b(url, backup, None, monkeypatch)
    with pytest.raises(EncryptionUnavailableError, match="embedding_model.*2 private memories"):
        restore_jsonl(target, iter(io.StringIO(backup)))
    assert target.stats().total == 0 and not other.seen
    target.close()
    # with the key: the vectors are the plaintexts', never the sealed text's
    target, other = _restore_under_model_b(url, backup, key, monkeypatch)
    restored = restore_jsonl(target, iter(io.StringIO(backup)))
    assert restored["memories"] == 3
    assert not any(PREFIX in text for text in other.seen), other.seen
    assert f"{SECRET}\nhome office" in other.seen and f"{SECRET_ZH}\nhome office" in other.seen
    vectors = target.store.get_embeddings(ids)
    expected = Recording("model-b").embed_documents([f"{SECRET}\nhome office", f"{SECRET_ZH}\nhome office"])
    np.testing.assert_allclose(np.vstack([vectors[i] for i in ids]), expected, rtol=1e-6)
    assert target.get(ids[0]).content == SECRET
    target.close()


def test_a_restore_across_models_embeds_private_text_only_with_the_key_sqlite(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On main the restore embedded `record.embedding_text` of the rows as stored: the ciphertext."""
    _check_restore_across_models(tmp_path / "b.db", tmp_path, monkeypatch)


def test_a_restore_across_models_embeds_private_text_only_with_the_key_postgres(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pg_url: str) -> None:
    _check_restore_across_models(pg_url, tmp_path, monkeypatch)


def test_opening_a_store_with_another_model_never_embeds_the_placeholder(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The same on open: a store written under model-a opened under model-b re-embeds every memory; on main,
    without the key, the private ones got the vector of "[encrypted: set HINDSIGHT_ENCRYPTION_KEY to read]"."""
    key = generate_key()
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    db = tmp_path / "m.db"
    first = _plain_engine(db, Recording("model-a"))
    first.store_memory({"content": SECRET, "private": True})
    first.close()
    monkeypatch.delenv("HINDSIGHT_ENCRYPTION_KEY")
    other = Recording("model-b")
    with pytest.raises(EncryptionUnavailableError, match="model-a to model-b: 1 private memory"):
        _plain_engine(db, other)
    assert not other.seen
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    engine = _plain_engine(db, other)  # with the key: the plaintext's vector
    assert other.seen == [SECRET] and engine.store.embedding_model == "model-b"
    engine.close()


# ------------------------------------------------------------------ 3. the client's queue file, damaged
def _damaged_copy(tmp_path: Path) -> Path:
    """A queue file of 300 queued writes with 8 KB of garbage written over its middle pages (a torn copy)."""
    path = tmp_path / "queue.db"
    queue = WriteQueue(path)
    for i in range(300):
        queue.add("memory_store", {"content": f"note {i} " + "x" * 500, "idempotency_key": f"k{i}"})
    queue.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with path.open("r+b") as handle:
        handle.seek(path.stat().st_size // 2)
        handle.write(b"\xff" * 8192)
    return path


def test_a_damaged_queue_file_is_refused_when_the_client_opens_it(tmp_path: Path) -> None:
    """On main the file opened (its first page was whole); the flush worker died at its first read ("Task
    exception was never retrieved") and `store()` / `status()` raised a raw sqlite3.DatabaseError."""
    path = _damaged_copy(tmp_path)
    with pytest.raises(InvalidInputError, match="(?s)queue_path: .*(damaged|malformed)"):
        ResilientClient("http://127.0.0.1:9/mcp", path, timeout=1)


class _Failing:
    """A connection whose file went bad under it (another process cut or overwrote it)."""

    def execute(self, *args: Any) -> Any:
        raise sqlite3.DatabaseError("database disk image is malformed")

    def close(self) -> None:
        pass


def test_a_queue_file_damaged_in_use_is_a_typed_refusal_and_the_worker_lives(tmp_path: Path) -> None:
    """On main the worker's `len(queue)` / `head()` sat outside its guard: the first failure ended it for good, and
    the caller got a raw sqlite3.DatabaseError."""
    client = ResilientClient("http://127.0.0.1:9/mcp", tmp_path / "q.db", timeout=1, backoff_base=0.01,
                             backoff_max=0.05)
    healthy = client._async.queue._db
    client._async.queue._db = _Failing()  # type: ignore[assignment]
    try:
        with pytest.raises(InvalidInputError, match="queue_path: .*damaged.*move it aside"):
            client.store("The payments service retries webhooks three times")
        client._async._nudge()
        worker = client._async._worker
        assert worker is not None
        for _ in range(40):  # the worker met the damaged file at least once (bounded wait, no timing assertion)
            if "damaged" in client._async._last_error:
                break
            threading.Event().wait(0.05)
        assert "damaged" in client._async._last_error and not worker.done()
    finally:
        client._async.queue._db = healthy
        client.close()


# ------------------------------------------------------------------ 4. look-alike tags
def test_tags_are_nfkc_and_a_word_mixing_scripts_is_refused(engine: MemoryEngine) -> None:
    """On main `ｐａｙｍｅｎｔｓ` (full width) and `payments` were two tags (a filter for one missed the other), and
    `раyments` (Cyrillic р, а) was stored: it reads as `payments` in the console and no filter for it matches."""
    stored = engine.store_memory({"content": "The billing job runs nightly at 02:00.", "namespace": "ops",
                                  "tags": ["ｐａｙｍｅｎｔｓ", "ﬁnance", "сервер", "支付", "ＣＩ-runner"]})
    record = engine.get(stored.memory_id, "ops")
    assert record.tags == ["payments", "finance", "сервер", "支付", "ci-runner"]
    for wanted in (["payments"], ["ｐａｙｍｅｎｔｓ"], ["PAYMENTS"]):
        records, total = engine.list("ops", SearchFilters(tags=wanted), 10, 0)
        assert total == 1 and records[0].id == stored.memory_id, wanted
    before = engine.stats("ops").total
    for tags in (["раyments"], ["ops", "deploy-αpi"]):
        with pytest.raises(InvalidInputError, match="tag .* mixes .* letters in one word; rule:"):
            engine.store_memory({"content": "Another note about billing.", "namespace": "ops", "tags": tags})
        with pytest.raises(InvalidInputError, match="mixes"):
            engine.update(stored.memory_id, {"tags": tags}, "ops")
    assert engine.stats("ops").total == before and engine.get(stored.memory_id, "ops").tags == record.tags


def test_two_clients_sharing_a_queue_file_give_an_old_write_one_key(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A write an older client queued without an idempotency key gets one when it is next read. On main two clients
    sharing the file could both read it keyless and each write its own key over the row: the same write sent
    under two keys is stored twice."""
    import hindsight.client.queue as queue_module

    path = tmp_path / "shared.db"
    first, second = WriteQueue(path), WriteQueue(path)
    with sqlite3.connect(path) as db:  # as an older client left it: no key
        db.execute("INSERT INTO queue(tool, arguments, queued_at) VALUES ('memory_store', ?, 0)",
                   (json.dumps({"content": "Runner 5 uses build image b5."}),))
    keys = iter(["hs-first", "hs-second", "hs-third"])
    seen_by_second: list[str] = []

    def interleaved() -> str:
        key = next(keys)
        if key == "hs-first":  # the second client reads and keys the row between the first's read and its write
            item = second.head()
            assert item is not None
            seen_by_second.append(item.arguments["idempotency_key"])
        return key

    monkeypatch.setattr(queue_module, "new_key", interleaved)
    item = first.head()
    assert item is not None and seen_by_second == ["hs-second"]
    assert item.arguments["idempotency_key"] == "hs-second"  # one key for the one write
    again = second.head()
    assert again is not None and again.arguments["idempotency_key"] == "hs-second"
    first.close()
    second.close()


def test_a_filter_still_finds_a_tag_stored_before_tags_were_nfkc(engine: MemoryEngine) -> None:
    """A pin (passes on main): a filter matches a tag as written or in NFKC, so an older row's full-width tag is
    still found by the same full-width filter."""
    memory_id = engine.store_memory({"content": "The billing job runs nightly at 02:00.", "namespace": "ops",
                                     "tags": ["payments"]}).memory_id
    raw = engine.store.inner._db  # type: ignore[attr-defined]  # as an older hindsight stored it: full width
    raw.execute("UPDATE tags SET tag = ? WHERE memory_rowid = (SELECT rowid FROM memories WHERE id = ?)",
                ("ｐａｙｍｅｎｔｓ", memory_id))
    for wanted in (["ｐａｙｍｅｎｔｓ"], ["payments"]):
        records, total = engine.list("ops", SearchFilters(tags=wanted), 10, 0)
        assert [r.id for r in records] == ([memory_id] if wanted == ["ｐａｙｍｅｎｔｓ"] else []), wanted
