"""Checks shared by the redaction case tables (test_redaction_formats.py, test_redaction_round4.py)."""
from __future__ import annotations

from linear_cost import assert_not_superlinear

from hindsight.safety.redact import redact


def assert_removed_and_kept(category: str, text: str, secrets: list[str], keep: list[str]) -> None:
    result = redact(text)
    for secret in secrets:
        assert secret not in result.text, (category, result.text)
    for word in keep:
        assert word in result.text, (category, result.text)


def assert_untouched(text: str) -> None:
    result = redact(text)
    assert result.text == text and result.findings == [], result


def assert_linear_cost(unit: str) -> None:
    """Ten times the text (an adversarial repetition of `unit`) must not cost much more than ten times the time."""
    assert_not_superlinear(redact, unit * 60, unit * 600, slack=0.05)


def value_cases(pii: list[tuple[str, str]], keep: list[tuple[str, str]]) -> list[tuple[str, str, bool]]:
    """(text, value, secret) rows of a round's case table: each PII value must go, each look-alike value stay."""
    return [(text, value, True) for text, value in pii] + [(text, value, False) for text, value in keep]


def assert_value_gone_or_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    out = redact(text, tagger=tagger).text
    assert (value not in out) if secret else (value in out), out
