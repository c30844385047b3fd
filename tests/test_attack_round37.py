"""Attack round 37 (docs/security.md "Attack round 37"): an attacker with the docs against the running server and the
store's own doors, where rounds 32-36 did not go.

- **`hindsight migrate` left the key canary behind**: round 36 binds a store to the first key that seals anything
  (a canary in the meta table) because a store whose sealed values are only proposals or request fingerprints has
  no private memory row for the check at open to sample. `migrate` copied those sealed proposals and fingerprints
  but not the canary, so the target took any key again, and the first to seal claimed it: round 36's split, reached
  through the copy. Now the canary moves with the sealed values (`key_check.carry_canary`), and a target that was
  claimed on its own before the copy is reported as a mismatch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine


def _keyed_engine(db: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> MemoryEngine:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", key)
    return MemoryEngine.open(db, settings=HindsightSettings(db=db, hygiene=False), embedder=BagEmbedder(words=True))


# ------------------------------------------------------------------ 1. the key canary moves with the sealed values


def _propose_private(db: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A private memory proposed in a reviewed namespace: a sealed proposal, no memory row."""
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService

    engine = _keyed_engine(db, key, monkeypatch)
    try:
        proposed = ReviewService(engine, ReviewQueue(engine.store), "kb").store(
            {"content": "Kingsley had surgery on his knee", "namespace": "kb", "private": True}, "token:writer")
    finally:
        engine.close()
    assert proposed["status"] == "pending_review"
    return str(proposed["proposal_id"])


def _migrate(source: Path, target: Path) -> dict[str, object]:
    from hindsight.storage.factory import open_raw_store
    from hindsight.storage.transfer import migrate_store

    src, dst = open_raw_store(str(source)), open_raw_store(str(target))
    try:
        return migrate_store(src, dst).as_dict()
    finally:
        src.close()
        dst.close()


def test_a_migrated_store_stays_bound_to_the_key_its_sealed_values_need(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """On main the target of `migrate` held the sealed proposal but no canary: another key opened it (and would have
    claimed it with its first private write, the reviewer's approval failing). Now that key is refused at open, and
    the source's key opens the target and approves the proposal."""
    from hindsight.errors import EncryptionUnavailableError
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService
    from hindsight.security.crypto import generate_key

    source, target, key = tmp_path / "a.db", tmp_path / "b.db", generate_key()
    proposal_id = _propose_private(source, key, monkeypatch)
    report = _migrate(source, target)
    assert report["verified"], report
    with pytest.raises(EncryptionUnavailableError, match="key canary"):
        _keyed_engine(target, generate_key(), monkeypatch).close()
    engine = _keyed_engine(target, key, monkeypatch)
    try:
        review = ReviewService(engine, ReviewQueue(engine.store), "kb")
        memory_id = review.approve(proposal_id, "token:admin", namespace="kb")["result"]["memory_id"]
        assert engine.get(memory_id, "kb", record_access=False).content == "Kingsley had surgery on his knee"
    finally:
        engine.close()


def test_a_target_claimed_by_a_key_of_its_own_is_a_mismatch_and_a_rerun_is_not(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A target that already sealed something under its own key keeps its canary (the first claim wins) and the
    report says the two may not open with one key; copying into a target that holds the source's canary (a rerun
    after a kill) reports nothing."""
    from hindsight.security.crypto import generate_key

    source, claimed, rerun = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "c.db"
    _propose_private(source, generate_key(), monkeypatch)
    _propose_private(claimed, generate_key(), monkeypatch)
    report = _migrate(source, claimed)
    assert not report["verified"] and any("key_canary" in m for m in report["mismatches"]), report  # type: ignore[union-attr]
    assert _migrate(source, rerun)["verified"]
    assert _migrate(source, rerun)["verified"]


@pytest.mark.parametrize("tampered", ["garbage", ""])
def test_a_canary_row_that_holds_no_sealed_value_binds_no_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             tampered: str) -> None:
    """`decrypt` hands back a text without the sealed prefix as it is, so on main a canary row overwritten with plain
    text "opened" with every key: a wrong key passed the check at open (the memories it could not open were never
    sampled) and sealed beside the right one; an emptied row was read as no canary and never claimed again. Now such
    a row counts as absent: the wrong key is refused by the private memory it cannot open, and the next private write
    under the right key claims the store again."""
    import sqlite3

    from hindsight.errors import EncryptionUnavailableError
    from hindsight.model import MemoryInput
    from hindsight.security.crypto import PREFIX, cipher_from_text, generate_key
    from hindsight.security.key_check import CANARY_BOUND, stored_canary

    db, key = tmp_path / "m.db", generate_key()
    engine = _keyed_engine(db, key, monkeypatch)
    engine.store_many([MemoryInput(content="Kingsley had surgery on his knee", namespace="kb", private=True)], "local")
    engine.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("UPDATE meta SET value = ? WHERE key = 'key_canary'", (tampered,)).rowcount == 1
    with pytest.raises(EncryptionUnavailableError, match="opens none"):
        _keyed_engine(db, generate_key(), monkeypatch).close()
    engine = _keyed_engine(db, key, monkeypatch)
    try:
        engine.store_many([MemoryInput(content="Kingsley's cast comes off in May", namespace="kb", private=True)], "local")
        canary = stored_canary(engine.store.inner)
        assert canary is not None and canary.startswith(PREFIX)
        assert cipher_from_text(key, "key").decrypt(canary, CANARY_BOUND) == "hindsight key canary"
    finally:
        engine.close()


# ------------------------------------------------------------------ 2. a gap of words in a guard pattern


#: (reader, trigger): a pattern of the guard's readers with a gap of words after `trigger`. On main each took
#: O(n^k) on `trigger` + a run of n letters (k the words of the gap): 0.2 s at 100 letters, 3 s at 200 and 47 s at 400
#: for `claimed.CLAIM` - and `re` holds the GIL, so a 400-character memory stopped the whole server for minutes.
GAPS = [("claimed.CLAIM", "the landlord said"), ("claimed.LICENCE", "allowed"), ("hushed._FORBIDDEN", "never"),
        ("opened.ZEROED", "approval"), ("spoken.WAIVED", "log"), ("tail._DISABLED", "shut"),
        ("tail._FALSIFIED", "enter"), ("trusted.ACTION", "enter")]


@pytest.mark.parametrize(("reader", "trigger"), GAPS)
def test_a_long_run_of_letters_after_a_gap_of_words_is_read_in_linear_time(reader: str, trigger: str) -> None:
    import importlib

    from linear_cost import assert_not_superlinear

    module, name = reader.split(".")
    pattern = getattr(importlib.import_module(f"hindsight.safety.{module}"), name)
    assert_not_superlinear(pattern.search, f"{trigger} " + "a" * 24, f"{trigger} " + "a" * 240)


def test_the_claimed_authority_reading_of_a_long_run_is_linear() -> None:
    """The whole reader as the guard calls it (the live case: a writer's 400-character memory)."""
    from linear_cost import assert_not_superlinear

    from hindsight.safety.claimed import claimed_loosening
    from hindsight.safety.normalize import prepare

    def read(text: str) -> bool:
        return claimed_loosening(prepare(text).text)

    assert_not_superlinear(read, "We met the team. The landlord said " + "a" * 24,
                           "We met the team. The landlord said " + "a" * 240)


#: the shapes of a gap of words the guard's patterns use; each with the texts it must match as before
GAP_SHAPES = [r"\bgave (?:\w+ ){0,3}(?:permission|approval)\b", r"\bsaid\b(?: \w+){0,4} (?:it'?s|we|you) (?:fine|can)\b",
              r"\bif (?:a|an) (?:[\w'-]+ ){0,4}(?:calls?|texts?)\b", r"\bthe (?:\w+'?s? ){0,2}own\b",
              r"\b(?:record|log)(?:ed)? (?:\w+ ){1,2}as (?:passed|done)\b",
              r"(?:dr\.|mr\.)? ?[a-z][a-z'-]+(?: [a-z][a-z'-]+){0,2} (?:prefers?|likes)\b"]


@pytest.mark.parametrize("shape", GAP_SHAPES)
def test_a_rewritten_gap_of_words_matches_the_same_texts(shape: str) -> None:
    """`_c` rewrites the gap (every word but the last taken whole) and must match exactly what the plain `\\s*` form
    matched, glued words and a cut inside a word included: random texts over the pattern's own words."""
    import random
    import re

    from hindsight.safety.rules import _c

    plain, rewritten = re.compile(shape.replace(" ", r"\s*")), _c(shape)
    assert plain.pattern != rewritten.pattern
    words = [*re.findall(r"[a-z]{2,}", shape), "a", "bo", "x'", "it's", "dr.", "ok", "-", "habit", "awe"]
    rng = random.Random(37)
    for _ in range(3000):
        text = "".join(rng.choice(words) + rng.choice(["", " ", "  ", "'", "s "]) for _ in range(rng.randint(1, 9)))
        assert [m.span() for m in plain.finditer(text)] == [m.span() for m in rewritten.finditer(text)], text
