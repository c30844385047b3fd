"""Checks shared by the redaction case tables (test_redaction_formats.py, test_redaction_round4.py)."""
from __future__ import annotations

import time

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


def _cost(text: str) -> float:
    t0 = time.perf_counter()
    redact(text)
    return time.perf_counter() - t0


def assert_linear_cost(unit: str) -> None:
    """Ten times the text (an adversarial repetition of `unit`) must not cost much more than ten times the time."""
    small, large = unit * 60, unit * 600
    _cost(small)
    # Interleaved, best of five each: a burst of load on a busy machine hits both sizes alike, and the minimum
    # is the run the scheduler disturbed least.
    t_small, t_large = float("inf"), float("inf")
    for _ in range(5):
        t_small = min(t_small, _cost(small))
        t_large = min(t_large, _cost(large))
    assert t_large < 40 * t_small + 0.05, (t_small, t_large)
