"""One judged candidate's verdict folded into the write's hygiene decision (split out of `hygiene.py`, round 32).

`fold` turns the verdict on one (older, new) pair - in the order `supersede.retarget` gives - into the decision's
duplicate, supersede or supplement link: two separate events are only linked; a restatement of the same type merges
(a less credible one with more detail is linked, not merged: its text would become the more credible memory's), and so
does a semantic memory's text written again as episodic (`episode_copies_fact`, round 34); an
override needs types that meet (episodic <-> semantic cross, warnings only meet warnings), no veto
(`retire_veto.veto`: positive evidence of another topic or attribute; a vetoed closest candidate holds the write's
one supersede, `VETO_HOLDS`), no earlier supersede (one write retires one memory) and a credibility drop within
bounds; otherwise it is a supplement link.
"""
from __future__ import annotations

from collections.abc import Callable

from hindsight.model import MemoryRecord, MemoryType
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.judge import says_more
from hindsight.write.retire_veto import veto

#: a veto that keeps the write's change candidate also keeps its one supersede: lower candidates are linked (round 31e)
VETO_HOLDS = True

_CROSS_TYPE_OVERRIDE = {MemoryType.episodic, MemoryType.semantic}


def types_meet_for_override(old: MemoryType, new: MemoryType) -> bool:
    return old == new or (old in _CROSS_TYPE_OVERRIDE and new in _CROSS_TYPE_OVERRIDE)


def same_text(old: MemoryRecord, new: MemoryRecord) -> bool:
    """The two texts are one, white space aside."""
    return " ".join(old.content.split()) == " ".join(new.content.split())


def episode_copies_fact(old: MemoryRecord, new: MemoryRecord) -> bool:
    """`new` is the text of the semantic memory `old` written again as an episode (the default type): it says nothing
    the fact does not, so it is a duplicate. On main it was linked as a supplement with the reason "restates the
    existing memory" (ux33's finding 15). The reverse - an episode's text written again as semantic - stays a memory
    of its own, linked: it makes the event a lasting fact, and merging it would leave it an episode. A turn of a
    session (`session_id`) is a thing said in a dialogue, kept in its place there."""
    return (old.type == MemoryType.semantic and new.type == MemoryType.episodic and not new.session_id
            and same_text(old, new))


def less_credible(new: MemoryRecord, old: MemoryRecord) -> bool:
    """Whether `new` is asserted with less credibility than `old`: its words may not become `old`'s. On main an
    external page (0.5) restating a user's memory (1.0) with one more detail rewrote it and added its tags, the memory
    still the user's at 1.0 - the change `security/claims.py` lowers to agent on every other door (attack round 30)."""
    return new.credibility < old.credibility


def fold(decision: HygieneDecision, reasons: list[str], old: MemoryRecord, new: MemoryRecord, verdict: Verdict,
         separate_events: Callable[[MemoryRecord, MemoryRecord], bool], max_credibility_drop: float) -> None:
    """Add `old`'s outcome under `verdict` to `decision` and its reason to `reasons` (module doc).
    `separate_events`: whether the two records are two events (`hygiene._separate_events`), only ever linked."""
    label = verdict.label
    if label in ("duplicate", "override") and separate_events(old, new):
        label = "supplement"
    if label == "duplicate":
        copy = episode_copies_fact(old, new)
        if (old.type == new.type or copy) and decision.duplicate_of is None:
            if copy:  # the fact written again as an episode: the memory already holds it (ux33, round 34)
                decision.duplicate_of = old.id
                reasons.append(f"duplicate of {old.id}: the same text, kept as semantic (written as episodic)")
                return
            more = says_more(old.content, new.content)
            if more and less_credible(new, old):  # its text would become the more credible memory's (round 30)
                decision.supplements.append(old.id)
                reasons.append(f"restates {old.id} with more detail but has lower credibility "
                               f"({new.credibility:.2f} < {old.credibility:.2f}): linked, not merged")
                return
            decision.duplicate_of = old.id
            decision.adopt_text = more and not (old.encrypted or new.encrypted)
            reasons.append(f"duplicate of {old.id}: {verdict.reason}")
            return
        if old.type == MemoryType.episodic and new.type == MemoryType.semantic and same_text(old, new):
            decision.supplements.append(old.id)  # the reason says why a copy is not merged (ux33's finding 15)
            reasons.append(f"supplements {old.id}: the same text as that episodic memory, kept as a semantic memory of "
                           f"its own and linked (a lasting fact, not one more sighting of the event)")
            return
        label = "supplement"  # a restatement across types (or a second copy) is linked, not merged
    if label == "override":
        if not types_meet_for_override(old.type, new.type):
            label = "supplement"
        elif why := veto(old.content, new.content):
            decision.supplements.append(old.id)  # positive evidence of another topic or attribute (`retire_veto`)
            reasons.append(f"supplements {old.id}: linked, not retired: {why}")
            if VETO_HOLDS:
                decision.held_by = decision.held_by or old.id
            return
        elif decision.supersedes or decision.held_by:
            # the write's one change was read on a closer candidate that a veto protected (round 31e): the
            # change cue belongs to that pair, so a lower candidate is linked, not retired in its place
            # one write changes one fact: the closest match is superseded, a further candidate only linked
            # (a change cue says *something* changed, not that every similar memory did)
            decision.supplements.append(old.id)
            reasons.append(f"also close to {old.id}, linked: one write supersedes one memory"
                           + (f" (held by the vetoed {decision.held_by})" if decision.held_by else ""))
            return
        elif new.credibility < old.credibility - max_credibility_drop:
            decision.supplements.append(old.id)
            reasons.append(f"contradicts {old.id} but has lower credibility "
                           f"({new.credibility:.2f} < {old.credibility:.2f}): linked, not deprecated")
            return
        else:
            decision.supersedes.append(old.id)
            reasons.append(f"supersedes {old.id}: {verdict.reason}")
            return
    if label == "supplement":
        decision.supplements.append(old.id)
        reasons.append(f"supplements {old.id}: {verdict.reason}")
