"""The write pipeline's types and the password finder live in their own modules; every name stays importable
from where callers import it today, as the same object."""

from __future__ import annotations

import importlib
import re

import hindsight.write.contracts as contracts
import hindsight.write.pipeline as pipeline
from hindsight.safety.redact import redact
from hindsight.safety.redact_passwords import find_passwords
from hindsight.safety.validators import PLACEHOLDER_VALUE, group_span


def test_pipeline_reexports_its_contracts() -> None:
    for name in ("WriteOutcome", "WriteAction", "Restore", "HygieneDecision", "Hygiene", "Screener", "Redactor",
                 "ScreenResult"):
        assert getattr(pipeline, name) is getattr(contracts, name), name


def test_redact_keeps_its_public_names() -> None:
    # `import hindsight.safety.redact as m` would give the function: hindsight.safety re-exports `redact`
    redact_module = importlib.import_module("hindsight.safety.redact")
    for name in redact_module.__all__:
        assert hasattr(redact_module, name), name


def test_password_finder_en_zh() -> None:
    text = "the wifi password is Blue-Whale42 and 密码是 Hx9!pq77"
    values = [text[s:e] for kind, s, e in find_passwords(text) if kind == "password"]
    assert "Blue-Whale42" in values and "Hx9!pq77" in values
    assert find_passwords("the password is required and 密码是 ${DB_PASSWORD}") == []
    assert redact(text).kinds == ["password"]


def test_value_helpers() -> None:
    assert PLACEHOLDER_VALUE.match("<your-key>") and PLACEHOLDER_VALUE.match("changeme")
    assert not PLACEHOLDER_VALUE.match("Hx9!pq77")
    m = re.search(r"is (\S+)", "the code is Hx9pq77.")
    assert m is not None and "the code is Hx9pq77."[slice(*group_span(m))] == "Hx9pq77"


def test_round33_splits_keep_their_names() -> None:
    """write/batch_vectors.py, consolidate_text.py and storage/sqlite_read.py (round 33): the names callers import
    from the old modules are the moved objects, and the SQLite store takes its reads from the new mixin."""
    import hindsight.consolidate as consolidate
    import hindsight.consolidate_text as consolidate_text
    import hindsight.write.batch_vectors as batch_vectors
    from hindsight.storage.sqlite_read import SQLiteReads
    from hindsight.storage.sqlite_store import SQLiteStore

    assert pipeline.COMPOSE_OWN_WEIGHT is batch_vectors.COMPOSE_OWN_WEIGHT
    assert pipeline._length_weight is batch_vectors.length_weight
    for name in ("PROMOTE_PROMPT", "MERGE_PROMPT", "PROMOTE_BUDGET", "MERGE_BUDGET"):
        assert getattr(consolidate, name) is getattr(consolidate_text, name), name
    for name in ("get", "get_many", "list", "count", "history", "edges", "ids_with_prefix", "iter_all", "stats",
                 "get_idempotent", "_records", "_scope_sql"):
        assert getattr(SQLiteStore, name) is getattr(SQLiteReads, name), name
    assert not SQLiteStore.__abstractmethods__


def test_round34_split_keeps_its_names() -> None:
    """write/clause_split.py and write/number_labels.py (round 34): the names callers imported from value_align are
    the moved objects (their lru caches included)."""
    import hindsight.write.clause_split as clause_split
    import hindsight.write.number_labels as number_labels
    import hindsight.write.value_align as value_align

    for name in ("clauses", "spans"):
        assert getattr(value_align, name) is getattr(clause_split, name), name
    for name in ("clause_labels", "label_numbers", "labelled_apart"):
        assert getattr(value_align, name) is getattr(number_labels, name), name
    assert set(value_align.__all__) >= {"value_change", "best_clauses", "number_kind", "Rule", "RULE"}
