"""Attack round 25 (docs/security.md "Attack round 25"): what an outside attacker found on the running server.

- A value typed with look-alike characters was stored in clear: a card number in full-width digits (a Chinese IME in
  full-width mode), card groups separated by a no-break or thin space (copied from a web page), an SSN or a phone
  with a non-breaking hyphen, a mailbox in full-width letters (only its domain was redacted), a 身份证 number in
  full-width digits, digits of another script or mathematical bold. The finders read ASCII; redaction now reads the
  text folded (``safety/redact_fold``) and maps each finding back to the stored text.
- Two servers on one SQLite file (or a server and `hindsight add` / a cron `hindsight consolidate`) decided each
  write under an in-process lock only: the same fact sent to both at once was created twice (6 of 6 live), and two
  new values of one port both stayed active. The namespace's decision lock is now a file lock every process on the
  file sees (``storage/file_lock``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from bag_embedder import BagEmbedder
from linear_cost import assert_not_superlinear

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import StorageBusyError
from hindsight.safety.redact import find_sensitive, redact

# (text, the value's digits or letters that must not stay in clear, the kind it is redacted as)
LOOK_ALIKES = {
    "card-fullwidth": ("Refund went to the customer card ４１１１ １１１１ １１１１ １１１１, expiry 09/28.", "4111", "card"),
    "card-nbsp": ("Paid the invoice with my card 4111\u00a01111\u00a01111\u00a01111 today.", "4111", "card"),
    "card-thin-space": ("The card is 4111\u20091111\u20091111\u20091111, keep it on file.", "4111", "card"),
    "card-figure-space": ("The card is 4111\u20071111\u20071111\u20071111, keep it on file.", "4111", "card"),
    "card-ideographic-space": ("信用卡号 4111\u30001111\u30001111\u30001111，下月到期。", "4111", "card"),
    "card-math-bold": ("The card is 𝟒𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏, keep it on file.", "𝟏𝟏𝟏𝟏", "card"),
    "card-arabic-indic": ("The card is ٤١١١ ١١١١ ١١١١ ١١١١, keep it on file.", "١١١١", "card"),
    "card-unicode-hyphen": ("The card is 4111\u20101111\u20101111\u20101111, keep it on file.", "4111", "card"),
    "ssn-nb-hyphen": ("my ssn is 078\u201105\u20111120, for the tax form", "1120", "national_id"),
    "phone-nb-hyphen": ("my phone is 555\u2011867\u20115309 (call after 6)", "5309", "phone"),
    "email-fullwidth": ("Contact the tenant at ｌｉｎａ．ｗｅｉ＠ｇｍａｉｌ．ｃｏｍ about the lease.", "ｌｉｎａ", "email"),
    "zh-id-fullwidth": ("张三的身份证号 １１０１０５１９４９１２３１００２Ｘ，已登记。", "１１０１０５", "cn_id"),
    "api-secret-fullwidth": ("AWS key AKIAIOSFODNN7EXAMPLE secret ｗＪａｌｒＸＵｔｎＦＥＭＩ／Ｋ７ＭＤＥＮＧ／ｂＰｘＲｆｉＣＹＥＸＡＭＰＬＥＫＥＹ",
                             "ｗＪａｌｒ", "api_key"),
}


@pytest.mark.parametrize("case", list(LOOK_ALIKES))
def test_a_value_typed_with_look_alike_characters_is_redacted(case: str) -> None:
    text, value, kind = LOOK_ALIKES[case]
    redacted = redact(text)
    assert value not in redacted.text, redacted.text
    assert kind in redacted.kinds, redacted.kinds


def test_the_finding_covers_the_stored_characters_and_the_rest_of_the_text_stays() -> None:
    text = "付款卡：４１１１ １１１１ １１１１ １１１１，谢谢！"
    [finding] = find_sensitive(text, tagger=False)
    assert text[finding.start : finding.end] == "４１１１ １１１１ １１１１ １１１１"
    assert redact(text, tagger=False).text == "付款卡：[REDACTED:card]，谢谢！"  # the full-width punctuation stays


def test_look_alikes_outside_any_value_are_kept_as_written() -> None:
    for text in ("会议改到周三下午３点，在３楼大会议室。", "Ｗｉｎｄｏｗｓ　１１ ships\u00a0today; the build is 4\u2011core only.",
                 "版本号 ｖ２．３．１ 已发布！", "Room 12\u2009B, level ３ — see you there."):
        assert redact(text).text == text


def test_a_look_alike_value_is_not_stored_in_clear_through_the_engine(tmp_path: Path) -> None:
    settings = HindsightSettings(db=tmp_path / "m.db", guard="off", hygiene=False)  # redaction alone
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    try:
        result = engine.store_memory({"content": "Paid the invoice with my card 4111\u00a01111\u00a01111\u00a01111 today.",
                                      "tags": ["billing"], "metadata": {"card": "４１１１１１１１１１１１１１１１"}})
        memory = engine.get(result.memory_id)
        assert "1111" not in memory.content and "１１１１" not in str(memory.metadata), (memory.content, memory.metadata)
    finally:
        engine.close()


def test_folding_stays_linear() -> None:
    unit = "Card ４１１１ １１１１ １１１１ １１１１ or 555\u2011867\u20115309, ｌｉｎａ＠ｑｑ．ｃｏｍ\u00a0ok. "
    assert_not_superlinear(lambda t: redact(t, tagger=False), unit * 4, unit * 40)


# --- two processes on one SQLite file: one decision at a time per namespace -----------------------------------------


@pytest.fixture
def two_engines(tmp_path: Path) -> Iterator[tuple[MemoryEngine, MemoryEngine]]:
    """Two engines on one file, each with its own store and locks: what two server processes are."""
    settings = HindsightSettings(db=tmp_path / "m.db", guard="off")  # the decision is hygiene's; the guard is not read
    first = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    second = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    try:
        yield first, second
    finally:
        second.close()
        first.close()


def test_the_same_fact_sent_to_two_processes_at_once_is_created_once(two_engines: tuple[MemoryEngine, MemoryEngine]) -> None:
    first, second = two_engines
    fact = {"content": "The staging cluster amber uses Postgres port 5433.", "type": "semantic", "namespace": "ops"}
    assert second.hygiene is not None
    decided, first_done = threading.Event(), threading.Event()
    check = second.hygiene.check

    def slow_check(*args: object, **kwargs: object) -> object:  # the second decides "new", then waits to store it
        decision = check(*args, **kwargs)  # type: ignore[arg-type]
        decided.set()
        first_done.wait(2.0)
        return decision

    second.hygiene.check = slow_check  # type: ignore[method-assign]
    results: dict[str, object] = {}
    later = threading.Thread(target=lambda: results.update(second=second.store_memory(dict(fact))))
    later.start()
    assert decided.wait(30)
    sooner = threading.Thread(target=lambda: results.update(first=first.store_memory(dict(fact))))
    sooner.start()
    sooner.join(2.0)  # on main it stores beside the decision in progress; with the file lock it waits for it
    first_done.set()
    later.join(30)
    sooner.join(30)
    actions = sorted(r.action for r in results.values())  # type: ignore[attr-defined]
    assert actions == ["created", "duplicate"], actions
    assert first.list("ops")[1] == 1


def test_a_namespace_held_by_another_process_past_the_busy_timeout_is_storage_busy(tmp_path: Path) -> None:
    from hindsight.storage.file_lock import NamespaceFileLocks  # new in round 25

    db = str(tmp_path / "m.db")
    holder, waiter = NamespaceFileLocks(db, 0.2), NamespaceFileLocks(db, 0.2)
    with holder.hold("ops"):
        with pytest.raises(StorageBusyError):
            with waiter.hold("ops"):
                pass
        with holder.hold("ops"):  # reentrant in the holding thread
            pass
    with waiter.hold("ops"):  # released
        pass
