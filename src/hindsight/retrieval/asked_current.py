"""Read-time currency from the question (issue 10, round 26): a question that asks for the current value names the slot.

`currency.mark_outdated` reads two memories as one slot only from the memories themselves (close vectors, shared
anchors, each the other's nearest neighbour in the store, a change word). Many superseded memories returned as current
fail one of those bars while the question already says what the slot is: "What hours is the site office open at the
moment?" over "open 7:00am-3:30pm weekdays" (June) and "on summer hours from 12 Oct: 6:30am to 4:00pm" (October),
or "Marcus现在住哪边?" over "Marcus lives in Bishan" / "Marcus has moved house - he's in Tampines now".

`mark_asked_current` reads a pair only when the question asks for the current state (`asks_current`: "now", "these
days", "at the moment", "currently", "latest", "final", 现在, 目前, 最新, 如今 ...) and, among the best `head` hits:

* the two are close for their script pair (`same_slot`, per script group pair: below `currency.SAME_SLOT`), and
* each is the other's nearest hit of its script group among those `head` hits (the question's result stands in for
  the store: its best hits are the memories about what it asks), and
* both share an anchor term with the question (`slot_cues.anchors`: a word, a name or a number; across scripts a
  dictionary meaning or a romanised name), and
* the older is no warning or dated episode that stays (`slot_cues.lasting`, unless a plan moved), the two do not name
  different owners (`other_owners`), the newer does not say it adds (`ADDITIVE`), and - when `need_change` - the
  newer states a change (`slot_cues.states_change`, or a number of one kind given another value).

The older one is then flagged `outdated` (`current: false`, `why.outdated_by`) and ranked right below the newer one,
as `currency` does; nothing stored changes. `RULE` is the shipped setting (chosen leave-one-round-out over the
released blind rounds: docs/benchmarks.md, "Retrieval, round 26").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from hindsight.read_model import SearchHit
from hindsight.retrieval.currency import Neighbours, _nearest_in_store, flag_older
from hindsight.retrieval.head_pairs import head_window, ordered_pairs
from hindsight.retrieval.slot_cues import anchors, lasting, new_value, other_owners, replans, states_change
from hindsight.retrieval.value_slot import _nearest

#: a question about the state now or in the end, not about history: EN adverbs of the present, "still", "latest",
#: "finally" / "end up", and the Chinese ones (现在, 目前, 如今, 眼下, 当前, 最新, 最终, 最后)
ASKS_CURRENT = re.compile(
    r"\b(?:now|nowadays|currently|current|these days|at the moment|at present|presently|today|still|any ?more|"
    r"latest|final|finally|eventually|end(?:ed)? up|as of)\b|现在|目前|如今|眼下|当前|最新|最终|最后|现行|现阶段",
    re.IGNORECASE,
)


def asks_current(question: str) -> bool:
    return ASKS_CURRENT.search(question) is not None


@dataclass(frozen=True)
class AskedRule:
    """The bars of the question-led reading (see module doc); `on` False: no hit is read."""

    on: bool = False
    same_slot: Mapping[frozenset[str], float] = field(default_factory=lambda: {
        frozenset({"zh"}): 0.90, frozenset({"en"}): 0.85, frozenset({"zh", "en"}): 0.78})
    head: int = 5
    need_change: bool = True
    #: False: read every question, not only those `asks_current` accepts (measured, see docs)
    gated: bool = True
    #: also each the other's nearest memory of its script in the store (`currency`'s check), when given neighbours
    store_nearest: bool = False


#: the shipped setting (docs/benchmarks.md, "Retrieval, round 26")
RULE = AskedRule()


def mark_asked_current(question: str, hits: list[SearchHit],
                       embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                       rule: AskedRule | None = None, neighbours_of: Neighbours | None = None) -> list[SearchHit]:
    """Flag an older active hit that a newer one replaces in the slot the question asks about (module doc)."""
    rule = RULE if rule is None else rule
    if not rule.on or (rule.gated and not asks_current(question)):
        return hits
    found = head_window(hits, rule.head, embeddings_of, lambda h: bool(anchors(question, h.memory.content)),
                        sessions=True)
    if found is None:
        return hits
    window, vectors, group = found
    out = list(hits)
    for old, new, _, cos in ordered_pairs(window, vectors, group):
        if not new.current:
            continue
        if cos < rule.same_slot.get(frozenset({group[old.memory.id], group[new.memory.id]}), 2.0) or not _nearest(
                old.memory.id, new.memory.id, cos, window, vectors, group, None, set()):
            continue
        a, b = old.memory.content, new.memory.content
        if other_owners(a, b) or (lasting(old.memory.type, a) and not replans(a, b)):
            continue
        changed = states_change(b) or new_value(a, b, cos, (0.0, 0))
        if rule.need_change and not changed:
            continue
        if rule.store_nearest and neighbours_of is not None and not all(
                _nearest_in_store(vectors[x], (old.memory.id, new.memory.id), group[y], cos, neighbours_of)
                for x, y in ((old.memory.id, new.memory.id), (new.memory.id, old.memory.id))):
            continue
        flag_older(out, old, new, True, set())
    return out
