"""The write side's P(change) of one pair of texts, read by the search (issue 10, round 40).

`judge.classify` decides a write's pair from the hand-written rules and the scalar pair model (`write.pair_model`:
pair features, the value gate's readings, the token alignment). A search that returns two memories the write side
never compared (too far apart in the store when the newer was written, or kept by a rule) can ask the same model how
likely the newer one changes the older: `change_probability` is the model's P(change) of the pair, computed exactly as
`judge.classify` computes it (the two texts written alike first, the query-side cosine when a restatement model reads
it), without the rules' verdict or anything after the model. None without a pair model for the thresholds' embedder.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from hindsight.write import pair_memo
from hindsight.write.both_ways import model_probabilities
from hindsight.write.conversions import written_alike
from hindsight.write.fact_vectors import query_vectors
from hindsight.write.judge import CUE_FLOOR
from hindsight.write.pair_model import CHANGE
from hindsight.write.thresholds import HygieneThresholds


def change_probability(thresholds: HygieneThresholds, embedder: Any | None, old_text: str, new_text: str,
                       similarity: float) -> float | None:
    """P(change) of the write side's pair model for (`old_text`, `new_text`) at cosine `similarity`; None when no
    model is loaded or the pair is below the judge's floor (`judge.CUE_FLOOR`), where the write side never asks it."""
    model = thresholds.pair_model
    if model is None or similarity < CUE_FLOOR:
        return None
    vectors = query_vectors(embedder, thresholds, old_text, new_text)
    query_similarity = None if vectors is None else float(vectors[0] @ vectors[1])
    with pair_memo.scope():
        return float(model_probabilities(model, *written_alike(old_text, new_text), similarity, query_similarity)[CHANGE])


@lru_cache(maxsize=8)
def _thresholds(name: str) -> HygieneThresholds:
    return HygieneThresholds.for_model(name)


def change_reader(embedder: Any) -> Callable[[str, str, float], float | None]:
    """`change_probability` bound to `embedder` and its calibrated thresholds (loaded once per embedder name)."""
    def read(old_text: str, new_text: str, similarity: float) -> float | None:
        return change_probability(_thresholds(embedder.name), embedder, old_text, new_text, similarity)
    return read
