"""Hygiene over redacted values (issue 10, round 43): a keyed digest of each redacted contact / identifier kept beside
the memory, so two equal values compare equal and a changed one reads as a change (write/value_digests.py).

Unit tests of the digest logic use plain records and a dict-backed secret; the pairs through the engine are the five
kinds of blind r38's redacted rows, written anew (EN + ZH), on the real embedder; the outputs (MCP, console, export,
history, logs) on the fake word-bag one."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from bag_embedder import BagEmbedder
from starlette.testclient import TestClient

import hindsight.write.value_digests as vd
from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import InvalidInputError
from hindsight.field_rules import VALUE_DIGESTS_KEY
from hindsight.security.tokens import TokenStore
from hindsight.server.mcp_server import build_server
from hindsight.write.conflict import Verdict


@pytest.fixture(autouse=True)
def _reading_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digests as shipped (on since blind round 39); tests that read another setting set it themselves."""
    monkeypatch.setattr(vd, "ON", True)
    monkeypatch.setattr(vd, "KINDS_APART", True)
    monkeypatch.setattr(vd, "CHANGE_ALWAYS", False)


def test_the_shipped_setting_is_on_with_kinds_apart() -> None:
    """The lead's rule on blind r39 (bench/results/hygkey43/ship_rule_r39.md) held: both switches on, one left off."""
    import importlib

    fresh = importlib.reload(vd)
    assert (fresh.ON, fresh.KINDS_APART, fresh.CHANGE_ALWAYS) == (True, True, False)


class _Secrets:
    """A store double that keeps per-store secrets in a dict (what `AuxTables.kept_secret` does in the meta table)."""

    def __init__(self, value: str = "a" * 64) -> None:
        self.values = {"value_secret": value}

    def kept_secret(self, key: str) -> str:
        return self.values[key]


def _digests(store: Any, raw: str) -> dict[str, Any] | None:
    from hindsight.safety.redact import redact

    return vd.compute(store, raw, redact(raw).findings)  # the write path's one reading of `raw` (round 45)


def _record(digests: dict[str, Any] | None, content: str = "x") -> SimpleNamespace:
    return SimpleNamespace(value_digests=digests, content=content)


# ---------------------------------------------------------------- canonical forms and digests
@pytest.mark.parametrize(("kind", "forms"), [
    ("phone", ["0471-6234500", "(0471) 623 4500", "+86 471 623 4500", "0086 471 6234500"]),
    ("phone", ["+1 415 555 0190", "(415) 555-0190", "1-415-555-0190"]),
    ("phone", ["13907714562", "139 0771 4562", "+86 139-0771-4562"]),
    ("email", ["Priya.N@Orchard-Labs.io", "priya.n@orchard-labs.io"]),
    ("bank_account", ["6222 0212 3456 7890", "6222-0212-3456-7890"]),
])
def test_one_value_written_several_ways_has_one_canonical_form(kind: str, forms: list[str]) -> None:
    assert len({vd.canonical(kind, form) for form in forms}) == 1


def test_a_chinese_mobile_keeps_its_leading_one_and_two_numbers_stay_two() -> None:
    assert vd.canonical("phone", "13812345678") == "13812345678"
    assert vd.canonical("phone", "0471-6234500") != vd.canonical("phone", "0471-6234577")


def test_digests_hold_no_plaintext_and_compare_under_one_key() -> None:
    store = _Secrets()
    first = _digests(store, "锅炉房值班电话0471-6234500。")
    again = _digests(store, "锅炉房值班电话：(0471) 623 4500")
    other = _digests(store, "锅炉房值班电话0471-6234577。")
    assert first is not None and again is not None and other is not None
    assert "6234500" not in json.dumps(first) and "4716234500" not in json.dumps(first)
    assert [kind for kind, _ in first["v"]] == ["phone"] and len(first["v"][0][1]) == vd.DIGEST_CHARS
    assert vd.relation(first, again) == "equal" and vd.relation(first, other) == "changed"
    rotated = _digests(_Secrets("b" * 64), "锅炉房值班电话0471-6234500。")
    assert rotated is not None and rotated["k"] != first["k"]
    assert vd.relation(first, rotated) is None  # another key: nothing is read, never "changed"


def test_no_digest_without_a_secret_a_redaction_or_a_compared_kind() -> None:
    assert _digests(object(), "Call 0471-6234500.") is None  # a store that keeps no secrets (a test double)
    assert _digests(_Secrets(), "The gate opens at nine.") is None  # nothing redacted
    assert _digests(_Secrets(), "The router password is Gull$Nest42!") is None  # a secret: never digested
    assert vd.compute(_Secrets(), "Call 0471-6234500.", []) is None  # no findings handed down (redaction off)


def test_the_switch_off_computes_and_reads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    store = _Secrets()
    a, b = _digests(store, "Call 0471-6234500."), _digests(store, "Phone: (0471) 623 4500")
    monkeypatch.setattr(vd, "ON", False)
    assert _digests(store, "Call 0471-6234500.") is None
    kept = Verdict("supplement", "shares the subject, adds or changes")
    assert vd.adjust(kept, _record(a), _record(b)) is kept


# ---------------------------------------------------------------- the verdicts it moves
def test_equal_values_merge_a_keep_but_not_past_a_merge_blocker() -> None:
    store = _Secrets()
    a, b = _digests(store, "Joanna answers on 07700 900461."), _digests(store, "Joanna - 07700900461")
    kept = Verdict("unrelated", "same statement about something else (Joanna / Jo)")
    assert vd.adjust(kept, _record(a), _record(b)).label == "duplicate"
    blocked = Verdict("supplement", "kept and linked, not a restatement: another person (father, mother)")
    assert vd.adjust(blocked, _record(a), _record(b)) is blocked  # the value is one, the holders two
    change = Verdict("override", "changes the existing memory")
    assert vd.adjust(change, _record(a), _record(b)) is change  # a change with the same phone stays a change


def test_a_changed_value_turns_a_merge_into_a_change_or_a_keep() -> None:
    store = _Secrets()
    old_text, new_text = "锅炉房值班电话0471-6234500。", "锅炉房值班电话：0471-6234577"
    a, b = _digests(store, old_text), _digests(store, new_text)
    merged = Verdict("duplicate", "same normalised text")
    stored_old, stored_new = "锅炉房值班电话[REDACTED:phone]。", "锅炉房值班电话：[REDACTED:phone]"
    assert vd.adjust(merged, _record(a, stored_old), _record(b, stored_new)).label == "override"  # same words
    cue = "Priya changed her email, it's [REDACTED:email] now."
    ea, eb = _digests(store, "Priya's email is p@a.io."), _digests(store, "Priya changed her email, it's q@b.io now.")
    assert vd.adjust(merged, _record(ea, "Priya's email is [REDACTED:email]."), _record(eb, cue)).label == "override"
    plain = "Priya, [REDACTED:email], handles the invoices."
    eb = _digests(store, "Priya, q@b.io, handles the invoices.")
    assert vd.adjust(merged, _record(ea, "Priya's email is [REDACTED:email]."), _record(eb, plain)).label == "unrelated"


def test_records_without_digests_or_with_a_partial_overlap_keep_the_judges_verdict() -> None:
    store = _Secrets()
    merged = Verdict("duplicate", "restates the existing memory")
    one = _digests(store, "Call 0471-6234500 or mail desk@plant.cn.")
    two = _digests(store, "Call 0471-6234500 or mail help@plant.cn.")
    assert vd.adjust(merged, _record(None), _record(two)) is merged
    assert vd.adjust(merged, _record(one), _record(two)) is merged  # the phone equal, the mail not: no reading
    assert vd.adjust(merged, _record({"k": 1, "v": "junk"}), _record(two)) is merged


def test_the_kinds_apart_and_change_always_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vd, "KINDS_APART", False)
    store = _Secrets()
    phone, mail = _digests(store, "Reading room: 020 7946 0388."), _digests(store, "Mail archives@citypl.org.")
    merged = Verdict("duplicate", "restates the existing memory")
    assert vd.adjust(merged, _record(phone), _record(mail)) is merged
    monkeypatch.setattr(vd, "KINDS_APART", True)
    assert vd.adjust(merged, _record(phone), _record(mail)).label == "unrelated"  # a phone is no mailbox
    other = _digests(store, "Reading room: 020 7946 0301.")
    assert vd.adjust(merged, _record(other, "a"), _record(phone, "b")).label == "unrelated"
    monkeypatch.setattr(vd, "CHANGE_ALWAYS", True)
    assert vd.adjust(merged, _record(other, "a"), _record(phone, "b")).label == "override"


# ---------------------------------------------------------------- through the engine: r38's five kinds, anew
PAIRS = [  # (older, newer, what the older becomes)
    ("The rowing club's secretary, Joanna Pike, answers on 07700 900 461.",
     "Rowing club secretary (Joanna) - 07700900461", "duplicate"),               # a restatement, one value
    ("苗圃的技术员刘志强电话是13907714562。", "苗圃技术员老刘，手机139 0771 4562。", "duplicate"),  # the same, ZH
    ("锅炉房值班电话0471-6234500。", "锅炉房值班电话：0471-6234577", "superseded"),     # only the value changed
    ("Priya's email is priya.n@orchard-labs.io.",
     "Priya changed her email - it's priya@nair-consult.com now.", "superseded"),  # a changed mailbox
    ("My father's phone number is 0471-6234500.",
     "My mother's phone number is 0471-6234500 as well.", "supplemented"),     # two holders of one value
    ("我爸的座机是0471-6234500。", "我妈的座机也是0471-6234500。", "supplemented"),     # the same, ZH
]


@pytest.mark.parametrize(("old", "new", "action"), PAIRS)
def test_redacted_pairs_through_the_engine(engine: MemoryEngine, old: str, new: str, action: str) -> None:
    first = engine.store_memory({"content": old, "namespace": "r43", "type": "semantic"})
    second = engine.store_memory({"content": new, "namespace": "r43", "type": "semantic"})
    assert "[REDACTED:" in engine.get(first.memory_id, "r43").content
    assert second.action == action, second


def test_a_new_key_reads_nothing_and_the_store_still_writes(engine: MemoryEngine) -> None:
    """Key rotation (a store restored without its secrets makes a new one): digests under the old key are not
    compared with the new key's - the judge's own verdict stands, nothing crashes."""
    old, new, _ = PAIRS[0]
    first = engine.store_memory({"content": old, "namespace": "rot", "type": "semantic"})
    store: Any = engine.store
    store._aux_exec(f"DELETE FROM {store._meta_table()} WHERE key = ?", ("value_secret",))
    second = engine.store_memory({"content": new, "namespace": "rot", "type": "semantic"})
    assert "keyed digest" not in second.reason and second.action != "duplicate"
    assert engine.get(first.memory_id, "rot").status.value == "active"


def test_a_store_that_cannot_keep_a_secret_writes_as_before(engine: MemoryEngine,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(key: str) -> str:
        raise OSError("read-only store")

    monkeypatch.setattr(engine.store, "kept_secret", refuse)
    written = engine.store_memory({"content": "The gate phone is 0471-6234500.", "namespace": "ro"})
    assert written.action == "created" and engine.get(written.memory_id, "ro").value_digests is None


# ---------------------------------------------------------------- never shown
@pytest.fixture
def bag(tmp_path: Path) -> Any:
    db = tmp_path / "m.db"
    engine = MemoryEngine.open(db, settings=HindsightSettings(db=db), embedder=BagEmbedder(words=True))
    yield engine
    engine.close()


def test_digests_are_kept_but_never_shown(bag: MemoryEngine, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    written = bag.store_memory({"content": "Kwame's email is kwame.m@goclub.org, phone +44 7700 900123.",
                                "namespace": "team"})
    record = bag.get(written.memory_id, "team")
    assert record.value_digests is not None and len(record.value_digests["v"]) == 2
    marks = [record.value_digests["k"], *(digest for _, digest in record.value_digests["v"])]
    assert _digests(bag.store, "x@y.org") is not None

    shown = [record.model_dump_json(), json.dumps(record.model_dump(mode="json")), repr(record)]
    out = io.StringIO()
    bag.export_jsonl(out, "team")
    shown.append(out.getvalue())
    shown += [json.dumps([h.model_dump(mode="json") for h in bag.history(written.memory_id, "team")], default=str)]
    bag.update(written.memory_id, {"tags": ["club"]}, "team")
    assert bag.get(written.memory_id, "team").value_digests == record.value_digests  # an update keeps them

    async def mcp() -> list[str]:
        from fastmcp import Client

        async with Client(build_server(bag)) as client:
            got = await client.call_tool("memory_get", {"memory_id": written.memory_id, "namespace": "team"})
            found = await client.call_tool("memory_search", {"query": "Kwame email", "namespace": "team"})
            return [json.dumps(got.structured_content, default=str) + str(got.content),
                    json.dumps(found.structured_content, default=str) + str(found.content)]

    shown += asyncio.run(mcp())
    tokens = TokenStore(bag.store)
    admin, _ = tokens.create("alice", ["admin"], ["*"])
    with TestClient(build_server(bag, tokens=tokens).http_app(), base_url="http://127.0.0.1") as client:
        assert client.post("/console/login", data={"token": admin}, follow_redirects=False).status_code == 303
        page = client.get(f"/console/memory/{written.memory_id}?ns=team")
        assert page.status_code == 200 and "Kwame" in page.text
        shown.append(page.text)
    shown.append(caplog.text)
    for text in shown:
        assert VALUE_DIGESTS_KEY not in text
        for mark in marks:
            assert mark not in text
    assert "value_digests" not in record.metadata
    bag.update(written.memory_id, {"content": "Kwame's email is kwame@newclub.org."}, "team")
    moved = bag.get(written.memory_id, "team").value_digests
    assert moved is not None and vd.relation(record.value_digests, moved) == "changed"  # the new text's own digests
    assert [kind for kind, _ in moved["v"]] == ["email"]


def test_a_caller_cannot_plant_digests(bag: MemoryEngine) -> None:
    with pytest.raises(InvalidInputError, match=re.escape("metadata: key 'value_digests' is reserved")):
        bag.store_memory({"content": "Call the desk.", "namespace": "team",
                          "metadata": {"value_digests": {"k": "x", "v": [["phone", "0" * 16]]}}})
