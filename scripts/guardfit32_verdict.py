"""The guard's verdict on a text as a function of the classifier's score and T (issue 10, round 32).

``WriteGuard.screen`` quarantines a text when a hard rule fires, or when the gate consults the classifier and its score
reaches ``WriteGuard.threshold_for``. Everything but the score and T is a function of the text, so it is read once per
text here (``Reading``) and the verdict at any score and T is then a few array operations (``verdicts``): the shipped
guard and every candidate are read through the same function. Not modelled (for either side): the marked parts'
scores (``_part_score``), the decoded payloads the write path appends, the engine's tags.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hindsight.safety.carried import carried_value_fact
from hindsight.safety.guard import FRAME_THRESHOLD, VOUCHED_THRESHOLD, WriteGuard, carries_secret, consults_classifier
from hindsight.safety.hiding import hides_wording
from hindsight.safety.lowered import reading_threshold
from hindsight.safety.mention import references_secret
from hindsight.safety.normalize import prepare
from hindsight.safety.polarity import adds_check
from hindsight.safety.preference import states_preference
from hindsight.safety.stake import benign_frame
from hindsight.safety.trusted import transfers_trust
from hindsight.safety.view import feature_view
from hindsight.safety.vouched import vouched_loosening

CARRY = WriteGuard().carry_threshold
FACT = WriteGuard().fact_threshold


@dataclass
class Reading:
    """Per text: hard rule, gate, and the parts of ``threshold_for`` (carried, fact, frame, vouched, lowered)."""

    hard: np.ndarray
    gate: np.ndarray
    carried: np.ndarray
    fact: np.ndarray
    frame: np.ndarray
    vouched: np.ndarray
    lowered: np.ndarray  # the lowest reading threshold, or +inf

    def take(self, mask: np.ndarray) -> Reading:
        return Reading(*(getattr(self, k)[mask] for k in ("hard", "gate", "carried", "fact", "frame", "vouched", "lowered")))


def read_texts(redacted: list[str]) -> Reading:
    """``redacted``: the texts the guard is handed (redaction first, as the write path)."""
    cols: dict[str, list[object]] = {k: [] for k in ("hard", "gate", "carried", "fact", "frame", "vouched", "lowered")}
    for text in redacted:
        prepared = prepare(text)
        n = prepared.text
        view = feature_view(n)
        hits = WriteGuard._rule_hits(prepared, view)
        cols["hard"].append(WriteGuard._hard(prepared, hits))
        cols["gate"].append(consults_classifier(n, hits))
        cols["carried"].append(carries_secret(view) or (bool(n) and references_secret(n) and not view.moved_value))
        cols["fact"].append(bool(n) and (carried_value_fact(n) or states_preference(n)))
        cols["frame"].append(bool(n) and (benign_frame(n) or adds_check(n)))
        cols["vouched"].append(bool(n) and (vouched_loosening(n) or transfers_trust(n)))
        low = reading_threshold(n, hides_wording(text, prepared)) if n else None
        cols["lowered"].append(np.inf if low is None else low)
    return Reading(*(np.array(cols[k], dtype=np.float64 if k == "lowered" else bool)
                     for k in ("hard", "gate", "carried", "fact", "frame", "vouched", "lowered")))


def thresholds(r: Reading, t: float) -> np.ndarray:
    """``WriteGuard.threshold_for`` of each text at classifier threshold ``t`` (the same order of cases)."""
    thr = np.where(r.carried, max(t, CARRY), t)
    thr = np.where(r.fact & (FACT > thr), FACT, thr)
    framed = np.maximum(thr, FRAME_THRESHOLD)
    thr = np.where(r.vouched, np.minimum(thr, VOUCHED_THRESHOLD), thr)
    thr = np.minimum(thr, r.lowered)
    return np.where(r.frame, framed, thr)


def verdicts(r: Reading, scores: np.ndarray, t: float) -> np.ndarray:
    """Quarantined? (``scores``: the classifier's P(attack) of each text, gate not applied)."""
    return r.hard | (r.gate & (scores >= thresholds(r, t)))


def rates(q: np.ndarray, attack: np.ndarray) -> dict[str, float | int]:
    """Caught / flagged and the confusion matrix."""
    return {"caught": round(float(q[attack].mean()), 4) if attack.any() else 0.0,
            "flagged": round(float(q[~attack].mean()), 4) if (~attack).any() else 0.0,
            "attacks_quarantined": int(q[attack].sum()), "attacks_stored": int((~q[attack]).sum()),
            "benign_quarantined": int(q[~attack].sum()), "benign_stored": int((~q[~attack]).sum())}
