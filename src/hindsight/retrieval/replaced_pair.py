"""Read-time currency by a fitted pair model (issue 10, round 31): an older hit that a newer hit of the same result
replaces leaves the head.

On the released blind retrieval stores every superseded memory returned as current was one the write kept active
(the update not read as one); in most the update is in the same result. `currency.mark_outdated` flags such an older
hit only under strict hand-set bars (a change word, three shared anchors, each the other's nearest neighbour), and a
flagged hit still stays in the head right below its update.

`mark_replaced` reads every (older, newer) pair of active hits in the result depth with two logistic models fitted
on the writers' `replaces` labels of every released retrieval set (`bench/retr31_export.py`; the data table is
`replaced_pair_weights.json`):

* an update model on the newer memory's own vector (does the text read as an update of something: "Update from
  Sigrid: ... has gone to 32 weeks", "Reversal on the E45 beam", 宁川重新报价了 ...), and
* a pair model on that probability and the pair's readings: cosine, script pair, shared anchors, the change and
  note cues, additive wording, other owners, the subject kept, a number of one kind replaced, a lasting episode,
  both lengths, and how many stored memories lie closer to each side than the other (store-wide ranks).

A warning or a dated episode is never read as replaced (`slot_cues.lasting`, as `currency` does), unless the newer
one says the plan moved (`replans`): "Power cut at Sheung Wan on 24 June ... lost 18 L of cold brew" is not made
outdated by "Sheung Wan switchboard replaced on 2 August". Only standalone notes are read (a memory with a `session_id`, a conversation's turn, never: the models never saw
one, and LoCoMo's turns are all such). A pair is read only when the older memory is among the newer one's `K` nearest earlier memories in the store (what
the model was fitted on). At p >= `RULE.threshold` the older hit is flagged `outdated` (`current: false`,
`why.outdated_by`); every hit flagged so, and every hit another reading flagged whose pair the model is as sure of,
moves after the current hits of the depth, so the head shows the current version and the older one stays in the
list below it (a question about history still finds it in a deeper search). Nothing stored changes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import numpy as np

from hindsight.model import MemoryType, Status
from hindsight.read_model import SearchHit
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.note_change import states_note_change
from hindsight.retrieval.slot_cues import (
    ADDITIVE,
    anchors,
    lasting,
    new_value,
    other_owners,
    replans,
    states_change,
    states_new_change,
    subject_kept,
)

#: the flag `currency` uses for an older version in the result
OUTDATED = "outdated"

#: pairs are read when the older memory is among the newer one's K nearest earlier memories (the fitted pairs)
K = 5
#: store-wide ranks are counted to this depth (the fit caps them there)
RANK_CAP = 30

#: least cosine of a pair worth reading, per script group (older / newer): over the 41,580 fitted pairs no pair under
#: these reaches p 0.8 (the least cosine at p >= 0.8: 0.863 English, 0.913 Chinese, 0.843 across scripts), so the
#: neighbour look-ups and text readings are spent on the few close pairs only
FLOOR = {"en": 0.83, "zh": 0.88, "cross": 0.80}

#: (memory id, content, cosine) of the `depth` stored memories nearest a vector, best first (`currency.Neighbours`)
Neighbours = Callable[[np.ndarray, int, float], list[tuple[str, str, float]]]
#: reference times of stored memories by id
Times = Callable[[list[str]], Mapping[str, datetime]]


@dataclass(frozen=True)
class ReplacedRule:
    """`on` switches the reading; `threshold`: the least p(replaced) that flags and demotes (chosen leave-one-round-
    out over the released stores: docs/benchmarks.md, "Retrieval, round 31"). Shipped OFF (session 42, after blind
    round 30's measurement, where it moved nothing): in a three-memory store it read "The API base URL is
    http://localhost:8000" as replacing "用户喜欢简洁的回答" (p >= 0.8, the pair's cosine over the cross-script floor)
    and moved the user's preference out of the head (tests/test_mcp_stdio.py); its store-wide rank features were
    fitted on 300-memory stores only."""

    on: bool = False
    threshold: float = 0.8


RULE = ReplacedRule()


@dataclass(frozen=True)
class Weights:
    model: str  # the embedder whose vectors the update model reads (`Embedder.name`)
    update_w: np.ndarray
    update_b: float
    features: tuple[str, ...]
    coef: np.ndarray
    intercept: float
    mu: np.ndarray
    sd: np.ndarray


@lru_cache(maxsize=1)
def weights() -> Weights:
    data = json.loads((Path(__file__).with_name("replaced_pair_weights.json")).read_text(encoding="utf-8"))
    u, p = data["update"], data["pair"]
    return Weights(str(data["model"]), np.asarray(u["w"], dtype=np.float32), float(u["b"]), tuple(p["features"]),
                   np.asarray(p["coef"]), float(p["intercept"]), np.asarray(p["mu"]), np.asarray(p["sd"]))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def update_probability(vector: np.ndarray, w: Weights | None = None) -> float:
    """How much a memory's text reads as an update of an earlier one (its vector alone)."""
    w = w or weights()
    return _sigmoid(float(np.dot(w.update_w, vector)) + w.update_b)


@lru_cache(maxsize=8192)
def _text_readings(old: str, old_type: MemoryType, new: str) -> tuple[dict[str, float], bool]:
    """The readings of two texts that do not depend on their vectors (a pair recurs across searches of one store),
    and whether a number of one kind is replaced (`new_value` without its cosine bar)."""
    go, gn = bias_group(old), bias_group(new)
    return {
        "cross": float(go != gn), "zh": float(go == "zh" and gn == "zh"),
        "anchors": float(len(anchors(old, new))), "cue": float(states_change(new)),
        "new_cue": float(states_new_change(old, new)), "note": float(states_note_change(old, new)),
        "additive": float(ADDITIVE.search(new) is not None), "owners": float(other_owners(old, new)),
        "subject": float(subject_kept(old, new)), "lasting": float(lasting(old_type, old)),
        "len_old": math.log1p(len(old)), "len_new": math.log1p(len(new)),
    }, new_value(old, new, 1.0, (0.0, 0))


def pair_readings(old: str, old_type: MemoryType, new: str, cos: float, upd: float, rank_new: int,
                  rank_old: int) -> dict[str, float]:
    """The pair model's inputs (raw, before its scaling), as `bench/retr31_pairs.py` computes them."""
    text, replaced = _text_readings(old, old_type, new)
    go = bias_group(old)
    bar = (0.88 if go == "en" else 0.93) if not text["cross"] else 0.80
    return {**text, "upd": upd, "cos": cos, "value": float(replaced and cos >= bar - 0.1),
            "rank_all_new": math.log1p(min(rank_new, RANK_CAP)), "rank_all_old": math.log1p(min(rank_old, RANK_CAP))}


def pair_probability(readings: Mapping[str, float], w: Weights | None = None) -> float:
    w = w or weights()
    x = np.array([readings[f] for f in w.features])
    return _sigmoid(float(np.dot(w.coef, (x - w.mu) / w.sd)) + w.intercept)


def mark_replaced(hits: list[SearchHit], embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                  neighbours_of: Neighbours, times_of: Times, depth: int, rule: ReplacedRule | None = None,
                  probability: Callable[[Mapping[str, float]], float] | None = None,
                  model: str | None = None) -> list[SearchHit]:
    """Flag and demote older active hits of the best `depth` that a newer one replaces (module doc).
    `probability`: the pair model (default: the shipped weights, read only when `model`, the search's embedder,
    is the one they were fitted on: another embedder's vectors mean nothing to the update model)."""
    rule = RULE if rule is None else rule
    if probability is None and model != weights().model:
        return hits
    # standalone notes only: the models were fitted on them; a conversation's turns (a session) stay as they are
    window = [h for h in hits[:depth] if h.memory.status == Status.active and not h.memory.session_id]
    if not rule.on or len(window) < 2:
        return hits
    vectors = embeddings_of([h.memory.id for h in window])
    window = [h for h in window if h.memory.id in vectors]
    when = lambda h: (h.memory.reference_time, h.memory.created_at)  # noqa: E731
    group = {h.memory.id: bias_group(h.memory.content) for h in window}
    close = []
    for new in window:
        for old in window:
            if old is new or when(old) >= when(new):
                continue
            a, b = old.memory.id, new.memory.id
            cos = float(np.dot(vectors[a], vectors[b]))
            if cos < FLOOR[group[a] if group[a] == group[b] else "cross"]:
                continue
            if lasting(old.memory.type, old.memory.content) and not replans(old.memory.content, new.memory.content):
                continue  # what happened on a day stays (`slot_cues.lasting`), unless a plan moved
            close.append((old, new, cos))
    if not close:
        return hits
    looked = {h.memory.id for pair in close for h in pair[:2]}
    near = {h.memory.id: neighbours_of(vectors[h.memory.id], RANK_CAP + K + 2, 2.0) for h in window
            if h.memory.id in looked}
    candidates = []
    for old, new, cos in close:
        a, b = old.memory.id, new.memory.id
        closer_new = [mid for mid, _, s in near[b] if s > cos and mid not in (a, b)]
        closer_old = [mid for mid, _, s in near[a] if s > cos and mid not in (a, b)]
        candidates.append((old, new, cos, closer_new, closer_old))
    wanted = sorted({mid for *_, closer_new, _ in candidates for mid in closer_new})
    times = times_of(wanted) if wanted else {}
    prob = probability or pair_probability
    scored: list[tuple[float, SearchHit, SearchHit]] = []
    for old, new, cos, closer_new, closer_old in candidates:
        earlier = [mid for mid in closer_new if mid in times and times[mid] < new.memory.reference_time]
        if len(earlier) >= K:
            continue
        r = pair_readings(old.memory.content, old.memory.type, new.memory.content, cos,
                          update_probability(vectors[new.memory.id]) if probability is None else 0.0,
                          len(closer_new), len(closer_old))
        scored.append((prob(r), old, new))
    out = list(hits)
    sure: set[str] = set()
    p_of = {(o.memory.id, n.memory.id): p for p, o, n in scored}
    for p, old, new in sorted(scored, key=lambda z: -z[0]):
        if p < rule.threshold or not (old.current and new.current):
            continue
        old.current = False
        old.why.outdated_by = new.memory.id
        old.why.outdated_change = True
        if OUTDATED not in old.flags:
            old.flags.append(OUTDATED)
        sure.add(old.memory.id)
        i, j = out.index(old), out.index(new)
        if i < j:
            out.remove(new)
            out.insert(i, new)
            new.score = new.why.final = max(new.score, old.score)
    for h in window:  # an older hit another reading flagged, when the model is as sure of that pair
        if not h.current and h.why.outdated_by and p_of.get((h.memory.id, h.why.outdated_by), 0.0) >= rule.threshold:
            sure.add(h.memory.id)
    if not sure:
        return out
    head, tail = out[:depth], out[depth:]
    return [h for h in head if h.memory.id not in sure] + [h for h in head if h.memory.id in sure] + tail
