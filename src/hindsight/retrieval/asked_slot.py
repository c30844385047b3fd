"""Read-time currency from the question's own slot (issue 10, retrieval round 45).

Most superseded memories a search still returns as current sit in the head *with* their replacement, active and
unflagged, each pair failing another bar of `currency.mark_outdated` (not each other's nearest memory in the store,
a cosine under the bar, no change word, fewer than three shared anchors: "vegetarian" / "vegan"). Those bars read the
two memories alone. A question that asks for the present value already names the slot: "Is Hana still working
remotely from Japan?" over "Hana works remotely from Osaka" (older) and "Hana has relocated to Hangzhou and is in the
office full-time now" (newer).

`mark_asked_slot` reads two hits of the best `head` as one slot given two values only when every part holds:

* the question asks for the present (`asked_current.asks_current`: now, still, these days, 现在, 目前 ...);
* both hits are active, current, no conversation turn (a turn is what was said), and both answer the question: each
  shares an anchor term with it (`slot_cues.anchors`; the "now" words are no anchor);
* the two are close for their script pair (`same_slot`; two scripts only when given) and each is the other's
  nearest hit of its script among the head's (the question's result stands in for the store);
* the newer (event time) tells a change the older does not (`slot_cues.states_new_change`, a note's own form
  `note_change.states_note_change`, or - `values` - a number of one kind given another value `slot_cues.new_value`);
* the older holds a term the newer does not repeat (its value: a number, a name, a word), neither names an owner
  the other lacks, the newer does not say it adds (`ADDITIVE`), the older is no warning or dated episode that stays
  (`lasting`, unless `replans`).

The older hit is then flagged `outdated` (`current: false`, `why.outdated_by`) and ranked right below the newer one
(`currency.flag_older`), or - `demote` - moved right below the head. Nothing stored changes. Positive evidence only:
nothing here reads the store's size, and a store of unrelated notes gives no pair that shares the question's slot,
is close and tells a change. `RULE.on` switches it (docs/benchmarks.md, "Retrieval, round 45").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from hindsight.read_model import SearchHit
from hindsight.retrieval.asked_current import ASKS_CURRENT, asks_current
from hindsight.retrieval.asked_kind import answers_differently
from hindsight.retrieval.currency import Neighbours, flag_older
from hindsight.retrieval.head_pairs import demote_below, head_window, ordered_pairs
from hindsight.retrieval.note_change import states_note_change
from hindsight.retrieval.slot_cues import (
    ADDITIVE,
    _terms,
    anchors,
    lasting,
    new_value,
    other_owners,
    replans,
    states_new_change,
    subject_kept,
    subject_term,
)
from hindsight.retrieval.value_slot import _nearest


@dataclass(frozen=True)
class AskedSlotRule:
    """The bars of the reading (module doc); `on` False: no hit is read."""

    on: bool = False
    #: the hits read: the result's best `head`
    head: int = 5
    #: least cosine of the two hits per script group ("zh", "en"; "cross" for two scripts, absent: never)
    same_slot: Mapping[str, float] = field(default_factory=lambda: {"zh": 0.89, "en": 0.88})
    #: a number of one kind given another value also tells a change (`slot_cues.new_value`)
    values: bool = False
    #: both share one anchor term with the question (they answer the same part of it)
    same_anchor: bool = True
    #: the term both share with the question is more than the older one's subject (its first content term)
    slot_term: bool = False
    #: least anchor terms the two hits share with each other
    pair_anchors: int = 1
    #: the older text's subject (its first content term) is named by the newer one (`slot_cues.subject_kept`)
    subject: bool = True
    #: each the other's nearest memory of its script in the store too (`currency._nearest_in_store`)
    store_nearest: bool = False
    #: the flagged older hit moves right below the head (else right below the newer one)
    demote: bool = True
    #: round 46, the asked value's kind (`asked_kind.answers_differently`): "" not read; "and" - both hits hold
    #: different values of the kind the question asks for, besides the change told; "only" - in place of it
    kind: str = ""
    #: with `kind`: the older also holds a value the newer does not repeat (else only the newer one a new value)
    kind_both: bool = True
    #: with `kind`: a count question's numbers of what it counts only (`asked_kind.asked_unit`)
    kind_units: bool = True
    #: read only under a question about the present (`asked_current.asks_current`); False: every question
    gated: bool = True


#: measured and shipped off (docs/benchmarks.md, "Retrieval, round 45"): the defaults are the development rounds'
#: choice (r16 - r28: strict 103 -> 95, no hit lost, but 17 memories flagged that no writer replaced against 10 that
#: were); held out (r29 - r37) strict 61 -> 60 of 234 with 15 wrong flags against 1 right
RULE = AskedSlotRule()


def mark_asked_slot(question: str, hits: list[SearchHit],
                    embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                    rule: AskedSlotRule | None = None, neighbours_of: Neighbours | None = None) -> list[SearchHit]:
    """Flag (and re-rank) an older hit of the head that a newer one replaces in the slot the question asks about."""
    rule = RULE if rule is None else rule
    if not rule.on or (rule.gated and not asks_current(question)):
        return hits
    asked = ASKS_CURRENT.sub(" ", question)
    slot = {h.memory.id: anchors(asked, h.memory.content) for h in hits[:rule.head]}
    found = head_window(hits, rule.head, embeddings_of, lambda h: bool(slot[h.memory.id]))
    if found is None:
        return hits
    window, vectors, group = found
    out = list(hits)
    outdated: set[str] = set()
    for old, new, key, cos in ordered_pairs(window, vectors, group):
        a, b = old.memory.id, new.memory.id
        if cos < rule.same_slot.get(key, 2.0):
            continue
        if rule.same_anchor and not slot[a] & slot[b]:
            continue  # each answers another part of the question
        if rule.slot_term and not (slot[a] & slot[b]) - {subject_term(old.memory.content)}:
            continue  # they share the question's subject only, not what it asks of it
        if len(anchors(old.memory.content, new.memory.content)) < rule.pair_anchors:
            continue
        if rule.subject and not subject_kept(old.memory.content, new.memory.content):
            continue  # the newer one is about another thing of the topic
        if rule.kind and not answers_differently(question, old.memory.content, new.memory.content, rule.kind_both,
                                                     rule.kind_units):
            continue  # the two do not give the question two values of what it asks (round 46)
        if not replaced_in_slot(old.memory.content, new.memory.content, cos, rule.values, old.memory.type,
                                told=rule.kind != "only"):
            continue
        # each the other's nearest hit of its script in the head (and in the store: `store_nearest`)
        if not _nearest(a, b, cos, window, vectors, group, neighbours_of if rule.store_nearest else None,
                        outdated):
            continue
        flag_older(out, old, new, True, outdated)
        if rule.demote:
            demote_below(out, old, rule.head)
    return out


def replaced_in_slot(older: str, newer: str, cos: float, values: bool, kind: object = None, told: bool = True) -> bool:
    """The text side of the reading: the newer tells a change the older does not (`told`), the older holds a term
    the newer does not repeat, one owner, nothing added, no dated episode that stays."""
    if other_owners(older, newer) or ADDITIVE.search(newer):
        return False
    if kind is not None and lasting(kind, older) and not replans(older, newer):  # type: ignore[arg-type]
        return False
    if not (_terms(older) - _terms(newer)):
        return False
    return not told or (states_new_change(older, newer) or states_note_change(older, newer)
            or (values and new_value(older, newer, cos, (0.0, 0))))
