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
