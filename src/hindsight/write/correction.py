"""The correction contract: an explicit user correction retires the memory it corrects (correct47).

`memory_user_correction` ("I now use bun instead of pnpm.", 我现在改用 Cursor ...) is the user saying an older
memory is wrong. The generic hygiene judgement may read it as a supplement (agent46: p(change) 0.61 - 0.62 for the
EN pair, so "I prefer pnpm over npm for JavaScript projects." stayed active and `current: true`), so for a
correction the write path does not stop at that judgement:

* when hygiene already retires a memory (it read a change), that memory is the corrected one;
* otherwise the corrected memory is the nearest active candidate of the same slot that the correction does not
  restate (the judge's `duplicate`: the change session's own episode) and that is not a session's episode (a record
  of what was said then: an event, which hygiene only ever links): a fact cosine at least the
  hygiene band's lower edge (`HygieneThresholds.conflict_low`), a content term the two share (`currency.anchors`:
  a name, a product, a word such as 主题 / editor - the judge's own verdict may be `unrelated` for a Chinese pair
  under its band alone), no veto of `retire_veto` (positive evidence of another topic, attribute or preference),
  types that may meet for an override (a warning is never corrected by a semantic memory) and no credibility drop
  at all: the correction is at least as credible as what it retires (an agent's relayed words, 0.7, do not retire
  what the user said, 1.0; hygiene's own 0.3 bound let them: attack round 47 - the contract retires on a judgement
  that alone reads `supplement`, so it asks for more than hygiene's override does);
* it is deprecated as any superseded memory is (kept in history, `superseded_by`), through the same write path;
* the write's answer names it (`corrected`) or says why none was (`corrected: null`, `correction_note`): a
  correction is never silently stored as a supplement.

A write is a correction when its metadata says so (`events.user_correction` sets `event: user_correction`); the
same key on `memory_store` asks for the same contract, which the caller could ask of the event tool anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hindsight.model import MemoryRecord, MemoryType
from hindsight.retrieval.currency import anchors
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.retire_veto import veto
from hindsight.write.verdict_fold import types_meet_for_override

#: the metadata value of `event` an explicit user correction carries (write/events.py)
CORRECTION_EVENT = "user_correction"


def is_correction(record: MemoryRecord) -> bool:
    """Whether the write is an explicit user correction (module doc)."""
    return record.metadata.get("event") == CORRECTION_EVENT


@dataclass(frozen=True)
class Candidate:
    """A stored memory near the correction: its fact cosine to it and the judge's verdict on the pair."""

    record: MemoryRecord
    similarity: float
    verdict: Verdict


@dataclass
class Gathered:
    """What hygiene saw for a write: the near candidates it judged and the best stored-vector cosine of any active
    memory (None: the namespace holds none)."""

    candidates: list[Candidate] = field(default_factory=list)
    nearest: float | None = None


def _refusal(candidate: Candidate, new: MemoryRecord, floor: float) -> str:
    """Why `candidate` is not the memory `new` corrects ("" when it is)."""
    old, sim = candidate.record, candidate.similarity
    if sim < floor:
        return f"{old.id} is not close enough (cosine {sim:.3f} < {floor:.2f})"
    if candidate.verdict.label == "duplicate":
        return f"{old.id} already says what the correction says"
    if old.type == MemoryType.episodic and old.session_id:
        return f"{old.id} is a record of a session (an event: linked, not corrected)"
    if not anchors(old.content, new.content):
        return f"{old.id} shares no content term with the correction (another subject)"
    if not types_meet_for_override(old.type, new.type):
        return f"{old.id} is a {old.type.value} memory, which a {new.type.value} correction does not retire"
    if why := veto(old.content, new.content):
        return f"{old.id} is of another slot: {why}"
    if new.credibility < old.credibility:  # no drop (module doc; attack round 47)
        return (f"{old.id} was asserted with more credibility ({old.credibility:.2f}) than this correction "
                f"({new.credibility:.2f})")
    return ""


def settle(decision: HygieneDecision, new: MemoryRecord, seen: Gathered, floor: float) -> HygieneDecision:
    """The decision for a correction: hygiene's own retirement, else the nearest same-slot candidate's (module doc).
    `seen`: the near candidates hygiene judged, any order, and the nearest cosine (for the answer's reason)."""
    candidates, nearest = seen.candidates, seen.nearest
    decision.correction = True
    if decision.duplicate_of is not None:
        decision.correction_note = f"restates {decision.duplicate_of}: nothing to correct, the memory holds it"
        return decision
    if decision.supersedes:
        decision.corrected = decision.supersedes[0]
        decision.correction_note = f"corrects {decision.corrected}: the judge read a change"
        return decision
    refusals: list[str] = []
    for candidate in sorted(candidates, key=lambda c: -c.similarity):
        why = _refusal(candidate, new, floor)
        if why:
            refusals.append(why)
            continue
        old = candidate.record
        decision.corrected = old.id
        decision.supersedes = [old.id]
        decision.supplements = [mid for mid in decision.supplements if mid != old.id]
        decision.held_by = None
        why = (f"the user's correction retires the nearest active memory of its slot (cosine "
               f"{candidate.similarity:.3f}; the judge alone read {candidate.verdict.label})")
        decision.correction_note = f"corrects {old.id}: {why}"
        others = [] if old.id in decision.reason else [decision.reason]  # its supplement reason no longer holds
        decision.reason = "; ".join(x for x in (f"supersedes {old.id}: {why}", *others) if x)
        return decision
    if new.encrypted:  # hygiene never compares a private memory with another (attack round 47: the note said none)
        decision.correction_note = "nothing corrected: a private correction is never compared with other memories"
    elif refusals:
        decision.correction_note = "nothing corrected: " + "; ".join(refusals[:3])
    elif nearest is None:
        decision.correction_note = "nothing corrected: the namespace holds no active memory to correct"
    else:
        decision.correction_note = (f"nothing corrected: no active memory is close enough (nearest cosine "
                                    f"{nearest:.3f} < {floor:.2f})")
    return decision


def uncorrected(record: MemoryRecord, why: str) -> dict[str, Any] | None:
    """A correction's answer when no hygiene decision was made (quarantined): nothing corrected, and why."""
    return {"corrected": None, "correction_note": why} if is_correction(record) else None
