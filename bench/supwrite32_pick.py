"""supwrite32 (issue 10, round 32): which candidate a write retires, read on the pair alone - measured, NOT shipped
(docs/benchmarks.md "Hygiene, round 32: the write-time retire pick"; the declared rule in
bench/results/supwrite32_rule.md).

Every superseded memory a search returned as current was one the update's write left active (retr31: 50 of 50 over
seven rounds). The write path already holds the candidates (`HygieneChecker.check`: the near neighbours over the
judge's floor and the wide search's); the rules then pick at most one to retire (`supersede.retarget`,
`HygieneChecker._fold`). This module re-reads that pick with a logistic model fitted on the released retrieval
stores' write logs (`supwrite32_fit.py`; label: the candidate is the memory the writer said the new one `replaces`),
on readings of the pair's own - cosine, the pair model's p(change) / p(merge) as the judge gave them, the rules'
own pick, the value the new text leaves, shared words and numbers, change cues, types, times, scripts (not tags:
the benchmark writers tag every memory, most writes carry none) - never the store's size or a candidate's rank.

`pick` is how it would act at the end of `HygieneChecker.check` (`retire_pick.pick(record, judged, dict(hits + wide),
decision)`): at most one memory retired, the best-scored eligible candidate when its score reaches the operating
point, else none (a candidate the rules retired below it is linked instead). Eligible: what the write path itself
may retire (types that meet, not two events or occurrences, not a conversation turn, not a more credible memory).
A write merged into a memory is left as it is.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from hindsight.model import MemoryRecord, MemoryType
from hindsight.retrieval.slot_cues import states_new_change
from hindsight.text.script import script_of
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.number_labels import labelled_apart
from hindsight.write.occurrences import distinct_occurrences
from hindsight.write.retire_veto import veto
from hindsight.write.supersede import change_signalled, departed_in, departed_terms, explicit_change, shared_terms

#: how much less credible a new memory may be than one it retires (as `hygiene.MAX_CREDIBILITY_DROP`)
MAX_CREDIBILITY_DROP = 0.3
EVENT_GAP_DAYS = 1.0

FEATURES = (
    "cosine", "p_change", "p_merge", "override", "supplement", "duplicate", "rules_retire", "rules_retire_other",
    "holds_left", "leaves_value", "shared_terms", "change_signalled", "explicit_change", "states_new_change",
    "labelled_apart", "cross_script", "new_zh", "shared_numbers", "new_numbers", "same_type", "old_episodic",
    "log_days", "vetoed", "length_ratio",
)
_P = re.compile(r"p\((merge|change)\)=([01](?:\.\d+)?)")
_NUM = re.compile(r"\d+(?:[.,:]\d+)*")


class Candidate(NamedTuple):
    """A judged candidate of one write: the stored memory, its cosine to the new one, the judge's verdict."""

    old: MemoryRecord
    similarity: float
    verdict: Verdict


def judge_p(reason: str) -> tuple[float, float]:
    """p(change), p(merge) of the pair model as the judge's reason gives them (the last reading; 0 where none)."""
    found = {name: float(value) for name, value in _P.findall(reason)}
    return found.get("change", 0.0), found.get("merge", 0.0)


def _numbers(text: str) -> frozenset[str]:
    return frozenset(_NUM.findall(text))


def features(old: MemoryRecord, new: MemoryRecord, similarity: float, verdict: Verdict, rules_retire: bool,
             rules_retire_other: bool) -> list[float]:
    """The pair's readings in `FEATURES` order (nothing about the store or the candidate's rank)."""
    p_change, p_merge = judge_p(verdict.reason)
    left = departed_terms(new.content)
    a, b = _numbers(old.content), _numbers(new.content)
    days = 0.0  # no time given (most writes outside the benchmark stores): no gap read
    if old.event_time is not None and new.event_time is not None:
        days = math.log1p(abs((new.event_time - old.event_time).total_seconds()) / 86400)
    zh_old, zh_new = script_of(old.content) == "zh", script_of(new.content) == "zh"
    return [
        similarity, p_change, p_merge,
        float(verdict.label == "override"), float(verdict.label == "supplement"), float(verdict.label == "duplicate"),
        float(rules_retire), float(rules_retire_other),
        float(departed_in(old.content, left) > 0), float(bool(left)),
        min(8, shared_terms(old.content, new.content)) / 8,
        float(change_signalled(new.content)), float(explicit_change(new.content)),
        float(states_new_change(old.content, new.content)), float(bool(labelled_apart(old.content, new.content))),
        float(zh_old != zh_new), float(zh_new),
        min(4, len(a & b)) / 4, min(4, len(b - a)) / 4,
        float(old.type == new.type), float(old.type == MemoryType.episodic),
        days, float(bool(veto(old.content, new.content))),
        math.log((len(new.content) + 1) / (len(old.content) + 1)),
    ]


def eligible(old: MemoryRecord, new: MemoryRecord) -> bool:
    """Whether the write path may retire `old` for `new` at all (`hygiene`'s own guards, the pair's alone)."""
    if old.encrypted or new.encrypted or old.session_id or new.session_id:
        return False  # conversation turns are events, only ever linked; private memories never meet plain ones
    kinds = {MemoryType.episodic, MemoryType.semantic}
    if old.type != new.type and not (old.type in kinds and new.type in kinds):
        return False
    if new.credibility < old.credibility - MAX_CREDIBILITY_DROP or distinct_occurrences(old, new):
        return False
    if old.type == MemoryType.episodic and new.type == MemoryType.episodic and old.event_time and new.event_time:
        gap = abs((new.event_time - old.event_time).total_seconds()) / 86400
        if gap > EVENT_GAP_DAYS and not explicit_change(new.content):
            return False  # two events, not a plan that changed
    return True


class Model(NamedTuple):
    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    threshold: float

    def score(self, x: list[float]) -> float:
        z = self.bias + sum(w * (v - m) / s for w, v, m, s in zip(self.weights, x, self.mean, self.scale, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def model_from(data: dict[str, object]) -> Model:
    """A `Model` from the weights file's fields (bad input: a ValueError naming the field)."""
    names = data.get("features")
    if names != list(FEATURES):
        raise ValueError("supwrite32_pick weights: field 'features' must list FEATURES in order")
    out = []
    for key in ("weights", "mean", "scale"):
        values = data.get(key)
        if not isinstance(values, list) or len(values) != len(FEATURES):
            raise ValueError(f"supwrite32_pick weights: field '{key}' must hold {len(FEATURES)} numbers")
        out.append(tuple(float(v) for v in values))
    bias, threshold = data.get("bias"), data.get("threshold")
    if not isinstance(bias, (int, float)) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
        raise ValueError("supwrite32_pick weights: fields 'bias' (a number) and 'threshold' (0..1) are required")
    return Model(out[0], float(bias), out[1], tuple(max(1e-6, s) for s in out[2]), float(threshold))



def scores(new: MemoryRecord, candidates: list[Candidate], retired: set[str], model: Model) -> dict[str, float]:
    """Each eligible candidate's probability of being the memory `new` replaces (`retired`: the rules' pick)."""
    out = {}
    for c in candidates:
        if eligible(c.old, new):
            mine = c.old.id in retired
            out[c.old.id] = model.score(features(c.old, new, c.similarity, c.verdict, mine, bool(retired) and not mine))
    return out


def pick(new: MemoryRecord, judged: list[tuple[MemoryRecord, Verdict, int]], similarity: dict[str, float],
         decision: HygieneDecision, model: Model) -> HygieneDecision:
    """`decision` with its retirement chosen by the model: the best eligible candidate at or above the operating point,
    or none; a candidate the rules retired and the model does not is linked (a supplement). A merge is left alone.
    `judged`: the write path's judged candidates (record, verdict, how far); `similarity`: their cosines by id."""
    if decision.duplicate_of is not None or not judged:
        return decision
    candidates = [Candidate(old, similarity.get(old.id, 0.0), verdict) for old, verdict, _ in judged]
    got = scores(new, candidates, set(decision.supersedes), model)
    best = max(got, key=lambda mid: got[mid], default=None)
    chosen = [best] if best is not None and got[best] >= model.threshold else []
    if chosen == decision.supersedes:
        return decision
    for mid in decision.supersedes:
        if mid not in chosen and mid not in decision.supplements:
            decision.supplements.append(mid)
    decision.supplements = [mid for mid in decision.supplements if mid not in chosen]
    decision.supersedes = chosen
    note = f"retire pick: {chosen[0]} at {got[chosen[0]]:.2f}" if chosen else "retire pick: none reaches the point"
    decision.reason = f"{decision.reason}; {note}" if decision.reason else note
    return decision
