"""A write reads each caller text through the redactor once (round 45, write/redaction.py): the content's findings
reach the value digests (write/value_digests.py, which ran the redactor over the content again before), and a keyed
write's fingerprint and an import's content key share the write's reading.

Counted at the redactor's one entry (`find_sensitive`, which `redact` calls), on the fake word-bag embedder with the
guard's rules (no model is the point here)."""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.safety.redact import RedactionResult, redact
from hindsight.write import redaction

redact_module = importlib.import_module("hindsight.safety.redact")  # the package's `redact` is the function

PHONE = "The boiler room's duty phone is 0471-6234500, ask for Wang."
MAIL = "Kwame's email is kwame.m@goclub.org."


@pytest.fixture
def bag(tmp_path: Path) -> Iterator[MemoryEngine]:
    db = tmp_path / "m.db"
    engine = MemoryEngine.open(db, settings=HindsightSettings(db=db, guard="rules"), embedder=BagEmbedder(words=True))
    yield engine
    engine.close()


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times the redactor read each text."""
    seen: Counter[str] = Counter()
    real = redact_module.find_sensitive

    def counting(text: str, *args: Any, **kwargs: Any) -> Any:
        seen[text] += 1
        return real(text, *args, **kwargs)

    monkeypatch.setattr(redact_module, "find_sensitive", counting)
    return seen


def test_a_write_with_a_redacted_value_reads_its_content_once(bag: MemoryEngine, reads: Counter[str]) -> None:
    written = bag.store_memory({"content": PHONE, "namespace": "ops", "tags": ["boiler"]})
    record = bag.get(written.memory_id, "ops")
    assert "[REDACTED:phone]" in record.content and record.value_digests is not None  # the digests still come
    assert reads[PHONE] == 1


def test_a_keyed_write_reads_its_content_once(bag: MemoryEngine, reads: Counter[str]) -> None:
    """The fingerprint (write/idempotency.py) redacts the request; the write reads that same reading."""
    first = bag.store_memory({"content": PHONE, "namespace": "ops"}, idempotency_key="k1")
    assert reads[PHONE] == 1
    again = bag.store_memory({"content": PHONE, "namespace": "ops"}, idempotency_key="k1")  # a retry: its own request
    assert again.memory_id == first.memory_id and reads[PHONE] == 2


def test_an_import_line_reads_its_content_once(bag: MemoryEngine, reads: Counter[str]) -> None:
    """A line without an exported id is keyed by its redacted content (write/importer.py); the write reads that."""
    outcomes = bag.import_jsonl([json.dumps({"content": MAIL, "namespace": "team"})])
    assert outcomes[0].action == "created" and bag.get(outcomes[0].memory_id, "team").value_digests is not None
    assert reads[MAIL] == 1


def test_an_update_reads_its_new_content_once(bag: MemoryEngine, reads: Counter[str]) -> None:
    written = bag.store_memory({"content": MAIL, "namespace": "team"})
    updated = bag.update(written.memory_id, {"content": PHONE}, "team")
    assert updated.value_digests is not None and [k for k, _ in updated.value_digests["v"]] == ["phone"]
    assert reads[PHONE] == 1


def test_a_reading_is_kept_only_inside_a_scope() -> None:
    calls: list[str] = []

    def counting(text: str) -> RedactionResult:
        calls.append(text)
        return redact(text)

    redaction.redacted(counting, PHONE)
    redaction.redacted(counting, PHONE)
    assert len(calls) == 2  # no scope: read afresh
    with redaction.scope():
        first = redaction.redacted(counting, PHONE)
        with redaction.scope():  # the outer scope serves
            assert redaction.redacted(counting, PHONE) is first
        assert redaction.redacted(counting, PHONE) is first
    assert len(calls) == 3
    redaction.redacted(counting, PHONE)
    assert len(calls) == 4  # the scope ended with its block
