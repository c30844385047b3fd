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
