"""Shared by the guard tests: a write guard whose classifier gives every text one fixed score."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import numpy as np

from hindsight.safety.classifier import EMBED_DIM, GuardClassifier
from hindsight.safety.guard import WriteGuard

#: A passage vector of the right size; the stand-in classifier never reads it.
VEC = np.zeros(EMBED_DIM, dtype=np.float32)


class FixedScore:
    """A stand-in classifier: every text scores the same, so only the threshold policy is under test."""

    threshold = 0.75

    def __init__(self, score: float) -> None:
        self.score = score

    def attack_score(self, embedding: np.ndarray, normalised: str) -> tuple[float, str | None]:
        return self.score, "exfiltration"


def fixed_score_guard(score: float, carry_threshold: float | None = None, fact_threshold: float | None = None) -> WriteGuard:
    return WriteGuard(classifier=cast(GuardClassifier, FixedScore(score)), carry_threshold=carry_threshold,
                      fact_threshold=fact_threshold)


def threshold_of(text: str, score: float = 0.9) -> float:
    """The threshold a fixed-score guard reads for ``text`` (its carried-value, frame and vouched readings)."""
    from hindsight.safety.normalize import prepare
    from hindsight.safety.view import feature_view

    normalised = prepare(text).text
    return fixed_score_guard(score).threshold_for(feature_view(normalised), normalised)


def switched(module: object, names: tuple[str, ...], value: bool) -> Iterator[None]:
    """Set each switch ``names`` of ``module`` to ``value`` for a test, then restore it (a fixture's body)."""
    saved = {name: getattr(module, name) for name in names}
    for name in names:
        setattr(module, name, value)
    yield
    for name, was in saved.items():
        setattr(module, name, was)
