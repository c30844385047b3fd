"""The feature row of a pair the judge keeps, as the keep decision reads it (issue 10, hygiene round 32;
`write.keep_decision`, split out in round 38): the pair model's row without its query-side cosines, its reading
both ways, the rules' reason as a category, the value readings, content-word coverage both ways, the script and
one-sided content (`write.one_sided`). `FEATURES` names the columns; a shipped ensemble must be fitted on them."""

from __future__ import annotations

import re

import numpy as np

from hindsight.write.analysis import analyse, content_diff
from hindsight.write.conflict import Verdict
from hindsight.write.one_sided import FEATURES as ONE_SIDED_FEATURES
from hindsight.write.one_sided import features as one_sided_features
from hindsight.write.pair_features import BASE_FEATURES, script_pair
from hindsight.write.pair_readings import READING_FEATURES, reading_features
from hindsight.write.same_fact import agreement
from hindsight.write.value_canon import bounded_apart, value_match

#: The kind of the rules' keep, by a fragment of their reason (first match wins; the last column: none of them).
REASON_KINDS: tuple[tuple[str, str], ...] = (
    ("shares_subject", "shares the subject, adds or changes"),
    ("adds_detail", "adds detail"),
    ("different_numbers", "different numbers"),
    ("something_else", "same statement about"),
    ("close_not", "close but not a restatement"),
    ("no_shared", "no shared word"),
    ("no_content", "no content word"),
    ("band", " below "),
    ("blocker_amounts", "not a restatement: amounts differ"),
    ("blocker_one_slot", "not a restatement: one slot"),
    ("blocker_several_slots", "not a restatement: several slots"),
    ("blocker_person", "not a restatement: another person"),
    ("blocker_subject", "not a restatement: another subject"),
    ("blocker_name", "not a restatement: a name on one"),
    ("blocker_numbers", "not a restatement: numbers differ"),
    ("blocker_other", "not a restatement:"),
)
#: The base pair features that read the query-side cosine (left out: the decision reads the passage cosine only).
_QUERY = frozenset({"cosine_query", "cosine_gap", "cosine_query_hi"})
_BASE_KEPT = tuple(i for i, name in enumerate(BASE_FEATURES) if name not in _QUERY)
_RESTATEMENT_P = re.compile(r"restatement p=([0-9.]+)")

FEATURES: tuple[str, ...] = (
    *(BASE_FEATURES[i] for i in _BASE_KEPT),
    "p_keep", "p_merge", "p_change", "p_back", "p_both", "p_restatement", "rules_unrelated",
    *(f"reason_{name}" for name, _ in REASON_KINDS), "reason_none",
    *READING_FEATURES[: len(READING_FEATURES) // 2],
    "agree_matched", "agree_unmatched", "agree_codes", "bounded_apart",
    "values_old", "values_new", "values_paired_share_old", "values_paired_share_new",
    "content_old", "content_new", "lost", "novel", "lost_names", "novel_names", "lost_numbers", "novel_numbers",
    "zh", "cross",
    *ONE_SIDED_FEATURES,
)
_BACK, _BOTH, _MERGE = FEATURES.index("p_back"), FEATURES.index("p_both"), FEATURES.index("p_merge")


def reason_kind(reason: str) -> list[float]:
    """One-hot kind of the rules' reason (`REASON_KINDS`, then none)."""
    row = [0.0] * (len(REASON_KINDS) + 1)
    for k, (_, fragment) in enumerate(REASON_KINDS):
        if fragment in reason:
            row[k] = 1.0
            return row
    row[-1] = 1.0
    return row


def decision_features(old: str, new: str, pair_row: np.ndarray, rules: Verdict, p: np.ndarray,
                      p_back: float) -> np.ndarray:
    """The row of one kept pair in the order of `FEATURES`: texts as the judge reads them (written alike),
    `pair_row` the pair model's `pair_features` row, `p` its (keep, merge, change) and `p_back` its p(merge) of the
    pair read the other way round. Probabilities are read at two decimals, as the judge's reasons print them."""
    a = analyse(old, new)
    old_content, new_content, lost, novel = content_diff(a)
    match = value_match(old, new)
    agree = agreement(old, new)
    script = script_pair(old, new)
    found = _RESTATEMENT_P.search(rules.reason)
    pm, pc = round(float(p[1]), 2), round(float(p[2]), 2)
    pk = round(max(0.0, 1.0 - pm - pc), 2)
    pb = round(float(p_back), 2)
    readings = reading_features(old, new)[: len(READING_FEATURES) // 2]
    values_old, values_new = match.paired + match.old_left, match.paired + match.new_left
    row = [
        *(float(pair_row[i]) for i in _BASE_KEPT),
        pk, pm, pc, pb, min(pm, pb), float(found.group(1)) if found else -1.0, float(rules.label == "unrelated"),
        *reason_kind(rules.reason),
        *readings,
        float(min(agree.matched, 6)), float(min(agree.unmatched, 6)), float(min(agree.codes, 3)),
        float(bounded_apart(old, new)),
        float(min(values_old, 6)), float(min(values_new, 6)),
        match.paired / values_old if values_old else -1.0, match.paired / values_new if values_new else -1.0,
        float(min(len(old_content), 30)), float(min(len(new_content), 30)), float(min(len(lost), 20)),
        float(min(len(novel), 20)), float(sum(u.entity and not u.number for u in lost)),
        float(sum(u.entity and not u.number for u in novel)), float(sum(u.number for u in lost)),
        float(sum(u.number for u in novel)),
        float(script == "zh"), float(script == "cross"),
    ]
    return np.concatenate([np.asarray(row, dtype=np.float64), one_sided_features(old, new)])


def with_back(row: np.ndarray, p_back: float) -> np.ndarray:
    """`row` (a `decision_features` row) with `p_back` in its two columns that read it, as `decision_features`
    writes them (at two decimals; `p_both` the lower of it and the row's `p_merge`)."""
    pb = round(float(p_back), 2)
    out = row.copy()
    out[_BACK], out[_BOTH] = pb, min(float(row[_MERGE]), pb)
    return out
