"""Read-time currency, round 40: two hits of the head the write side's pair model reads as a change (issue 10).

Most superseded memories a search still returns as current sit in the head *with* their replacement, active and
unflagged: the write side never retired them (the newer memory was written when the older one was not among its
nearest, or a rule kept the pair), and `currency.mark_outdated` asks a change word, three shared anchors and a close
cosine ("Hana works remotely from Osaka" / "Hana has relocated to Hangzhou and is in the office full-time now",
"8月团建去惠州双月湾" / "团建有变：...双月湾那趟取消了，改成9月6日去大梅沙").

`mark_pair_changes` asks the write side's own judgement of such a pair (`write.change_p.change_probability`: the
scalar pair model's P(change), fitted on hygiene's change / merge / keep pairs) for two active, current hits of the
best `head` that are no conversation turns (a turn of a session is what was said, not a fact's value):

* the newer (event time) is close to the older for their script pair (`same_slot`; in two scripts only when given),
* neither names an owner the other lacks (`other_owners`), the newer does not say it adds (`ADDITIVE`), the older is
  no warning or dated episode that stays (`lasting`, unless the newer replans it),
* each is the other's nearest hit of its script among the head's, and - `store_nearest` - among the store's memories
  (`currency._nearest_in_store`),
* and the model reads a change: P(change) >= `t_change`.

The older hit is then flagged `outdated` (`current: false`, `why.outdated_by`) and ranked right below the newer one
(`currency.flag_older`) - or, `demote`, right below the head it was read in (`demote_asked`: only under a question
about the present); nothing stored changes. `RULE.on` switches it (docs/benchmarks.md, "Currency, round 40").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from hindsight.read_model import SearchHit
from hindsight.retrieval.asked_current import asks_current
from hindsight.retrieval.currency import Neighbours, flag_older
from hindsight.retrieval.head_pairs import demote_below, head_window, ordered_pairs
from hindsight.retrieval.slot_cues import lasting, other_owners, replans
from hindsight.retrieval.value_slot import _nearest

#: (older text, newer text, cosine) -> P(change), None when no model can read the pair
ChangeP = Callable[[str, str, float], "float | None"]


@dataclass(frozen=True)
class PairRule:
    """The bars of the reading (module doc); `on` False: no hit is read."""

    on: bool = False
    #: the hits read: the result's best `head`
    head: int = 5
    #: least P(change) of the write side's pair model
    t_change: float = 0.9
    #: least cosine per script group ("zh", "en"; "cross" for a pair of two scripts, absent: never)
    same_slot: Mapping[str, float] = field(default_factory=lambda: {"zh": 0.91, "en": 0.85})
    #: each the other's nearest memory of its script in the store, not only among the head's hits
    store_nearest: bool = True
    #: the flagged older hit leaves the head: it moves right below the best `head` (else right below the newer one)
    demote: bool = False
    #: `demote` only when the question asks about the present (`asked_current.asks_current`: now, still, 现在 ...)
    demote_asked: bool = False


#: measured and shipped off (docs/benchmarks.md, "Currency, round 40"): the bars above are the development rounds' best
#: (r16 - r28: read as current 87 -> 83 of 338 for false-flag memories 64 -> 68), and no setting gained there; the
#: `demote` settings lowered strict (103 -> 99 ... 93) and lost answers (ZH paraphrase hit@5 300 -> 298)
RULE = PairRule()


def mark_pair_changes(hits: list[SearchHit], embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                      change_p: ChangeP, neighbours_of: Neighbours | None, rule: PairRule | None = None,
                      question: str = "") -> list[SearchHit]:
    """Flag and re-rank an older active hit of the head that a newer one changes, by the write side's model."""
    rule = RULE if rule is None else rule
    if not rule.on:
        return hits
    demote = rule.demote and (not rule.demote_asked or asks_current(question))
    found = head_window(hits, rule.head, embeddings_of)
    if found is None:
        return hits
    window, vectors, group = found
    out = list(hits)
    outdated: set[str] = set()
    for old, new, key, cos in ordered_pairs(window, vectors, group):
        a, b = old.memory.id, new.memory.id
        if cos < rule.same_slot.get(key, 2.0):
            continue
        older, newer = old.memory.content, new.memory.content
        if other_owners(older, newer) or (lasting(old.memory.type, older) and not replans(older, newer)):
            continue
        if not _nearest(a, b, cos, window, vectors, group, neighbours_of if rule.store_nearest else None, outdated):
            continue
        p = change_p(older, newer, cos)
        if p is None or p < rule.t_change:
            continue
        flag_older(out, old, new, True, outdated)
        if demote:
            demote_below(out, old, rule.head)
    return out
