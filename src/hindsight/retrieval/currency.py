"""Read-time currency: when two active memories in a result state the same slot, the newer one is current.

Write-time hygiene deprecates a memory when a newer one changes the fact, but it can miss a change (the
pair written far apart, in two languages, or worded too differently for its analysis). A search that
returns both must still not present the older value as current. `mark_outdated` looks at the best hits
of one search: an older active memory and a newer active one are taken to state the same slot when

* their embeddings are close for their script pair (`SAME_SLOT`: about the similarity of a memory to its
  nearest unrelated neighbour, so only near-restatements pass), and
* they share an anchor (`anchors`: an entity, number or content word besides generic ones, lightly stemmed) -
  three of them when both are in one script (`SAME_SCRIPT_ANCHORS`: two texts in one script share a name or a
  topic word on any common subject; round 7 prep measured the false flags this removes), and
* the newer one reads like a change (`CHANGE_CUE`: "now", "moved to", "upgraded", "no longer"; 现在、
  已经、改成、升级、不再、从…到…), and
* each is the other's nearest neighbour *in the store* among the memories of the other's script group
  (`neighbours_of`: one vector lookup per side, only for a pair that passed the checks above, so a search
  with no candidate pair pays nothing). Round 5 measured this on the released blind rounds (every pair of
  their 900 memories): near-restatements that pass the similarity, anchor and cue checks and are each
  other's nearest neighbour are a replacement 79 times and not 30 times; with rivals looked for only among
  the search's own hits (the old rule), a memory on the same subject (the office days, the office address)
  was flagged by an unrelated newer one whenever the true neighbour was not in the result.

A warning or a dated episode is never flagged (`lasting`): it records what happened, not a current value -
unless the episode was a plan and the newer memory says that plan moved or ended and repeats much of it
(`replans`: "booked LH 455 on March 14" / "her flight changed: now UA 58 on March 13"). Newer memories are taken
oldest first, and an older hit flagged in this search is no rival of the next pair, so a chain of three versions
ends with the newest current (the middle one's closest neighbour is the oldest, which it outdated).
Across scripts a romanised name is an anchor too ("Lin Kai" / 林凯, `bilingual.name_keys`).

The older one is then flagged `outdated` with `current: false` (`why.outdated_by` names the newer one),
and ranked right below the newer one (the newer one moves up into the results when it was just outside
them). Nothing stored changes: this is a reading, hygiene owns the write.

A newer memory without a change word can still restate the slot with another value ("刘洋的签证批下来了" after
"…还在审", "bring Tom's Q3 number down to $380k" after "Tom's Q3 quota: $420k"). `SlotRule.restated` holds the
bars of that second tier (round 11; measured leave-one-round-out and **off** in `RULE`: docs/benchmarks.md,
"Currency, round 11"): the same checks with its own cosine per script pair and anchor count, and three more
guards - the newer text does not
say it adds (`ADDITIVE`), the two do not name different owners (`other_owners`: "Anna's extension" / "Ben's
extension"), and the newer one names the older one's subject (`subject_kept`: "the design review" / "the
security review"). The older hit is then flagged `possibly_outdated` (`why.outdated_change` false), also
`current: false` and ranked below the newer one; it is never dropped (a question about history needs it).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

import numpy as np

from hindsight.model import Status
from hindsight.read_model import SearchHit
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.slot_cues import (  # noqa: F401  (CHANGE_CUE, _terms, states_new_change: bench/ scripts)
    ADDITIVE,
    CHANGE_CUE,
    REPLAN_OVERLAP,
    _terms,
    anchors,
    lasting,
    new_value,
    other_owners,
    replans,
    states_change,
    states_change_read,
    states_new_change,
    subject_kept,
)

#: Search-hit flag of an active memory that a newer hit in the same result restates with another value.
OUTDATED = "outdated"

#: minimum cosine of two memories stating the same slot, per (older, newer) script group pair
#: (multilingual-e5-small compresses Chinese pairs higher than English ones, and across scripts lower)
SAME_SLOT: dict[frozenset[str], float] = {
    frozenset({"zh"}): 0.93,
    frozenset({"en"}): 0.88,
    frozenset({"zh", "en"}): 0.80,
}


#: the most hits compared pairwise in one result
MAX_WINDOW = 20

#: anchors a same-script pair must share: two texts in one script share a word or two on any common topic
#: ("Priya", "disk"); across scripts one shared meaning or name is already rare
SAME_SCRIPT_ANCHORS = 3


#: (memory id, content, cosine) of the `depth` stored memories nearest a vector, best first; the content only of
#: those closer than `floor` (the others' is "", never read), so a lookup reads few records
Neighbours = Callable[[np.ndarray, int, float], list[tuple[str, str, float]]]

#: how many stored neighbours are looked at for a rival of a candidate pair, then (undecided) once more
NEIGHBOUR_DEPTH = 30
DEEP_NEIGHBOUR_DEPTH = 150



#: Search-hit flag of an active memory that a newer hit restates without a change word: possibly outdated
POSSIBLY_OUTDATED = "possibly_outdated"


@dataclass(frozen=True)
class SlotRule:
    """When an older and a newer hit state one slot (see module doc); the defaults are the shipped setting.

    `same_slot` and `anchors_*` apply when the newer text states a change (`CHANGE_CUE`). `restated` gives the
    bars of a newer text without a change word ("刘洋的签证批下来了", "bring Tom's Q3 number down to $380k"), per
    script group pair (a pair absent: never), with `restated_anchors` shared terms and no `ADDITIVE` wording;
    such an older hit is flagged `possibly_outdated`. `replan_overlap`: see `replans`."""

    same_slot: Mapping[frozenset[str], float] = field(default_factory=lambda: dict(SAME_SLOT))
    anchors_same_script: int = SAME_SCRIPT_ANCHORS
    anchors_cross_script: int = 1
    restated: Mapping[frozenset[str], float] = field(default_factory=dict)
    restated_anchors: int = SAME_SCRIPT_ANCHORS
    replan_overlap: float = REPLAN_OVERLAP
    #: round 21: a value moved to a number or from a day also reads as a change (`VALUE_MOVED`); off: measured on
    #: 17 released stores, held out -1 stale memory read as current against +3 false flags (docs/benchmarks.md)
    value_moved: bool = False
    #: round 19 (currency): a newer hit without a change word that gives a number of one kind in place of the older
    #: one's (`renumber.number_replaced`, one gone) is read as a change under the change tier's bars ("grow the demo
    #: fleet to 18 bikes" after "12 bikes in total", 新租金每月 19,500 元 after 租金每月 18,000 元)
    values: bool = True

    def bar(self, groups: frozenset[str], cue: bool) -> tuple[float, int] | None:
        """(least cosine, least shared anchors) for a pair of these script groups, None when never."""
        cos = (self.same_slot if cue else self.restated).get(groups)
        if cos is None:
            return None
        if len(groups) > 1:
            return cos, self.anchors_cross_script
        return cos, self.anchors_same_script if cue else self.restated_anchors


#: the shipped rule: the change tier as in round 7; the restated tier off (docs/benchmarks.md, "Currency, round 11":
#: leave-one-round-out, no held-out round read one stale memory less with it, and flags on distinct facts grew)
RULE = SlotRule()


def mark_outdated(hits: list[SearchHit], top_k: int,
                  embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                  neighbours_of: Neighbours | None = None, rule: SlotRule | None = None,
                  depth: int | None = None) -> list[SearchHit]:
    """Flag and re-rank older active hits restated by a newer hit among the best 2 x top_k (or the best `depth`
    when given: the search's one internal depth), at most `MAX_WINDOW` (see module doc); the pairwise checks stay
    cheap whatever top_k asks for. Without `neighbours_of`, rivals are looked for among the window's hits only;
    without `rule`, `RULE`."""
    rule = RULE if rule is None else rule
    size = min(2 * top_k if depth is None else depth, MAX_WINDOW)
    window = [h for h in hits[:size] if h.memory.status == Status.active]
    moved = states_change_read if rule.value_moved else states_change
    cue = {h.memory.id: moved(h.memory.content) for h in window}
    if len(window) < 2 or not (any(cue.values()) or rule.restated or rule.values):
        return hits
    vectors = embeddings_of([h.memory.id for h in window])
    if neighbours_of is not None:
        neighbours_of = _remembered(neighbours_of)  # a hit in several candidate pairs is looked up once
    window = [h for h in window if h.memory.id in vectors]
    group = {h.memory.id: bias_group(h.memory.content) for h in window}
    out = list(hits)
    outdated: set[str] = set()  # flagged in this search: an older version is no rival of the next one
    for new in sorted(window, key=lambda h: (h.memory.reference_time, h.memory.created_at)):
        changed = cue[new.memory.id]
        if not changed and ADDITIVE.search(new.memory.content):
            continue
        for old in window:
            if old is new or not old.current or old.memory.reference_time >= new.memory.reference_time:
                continue
            groups = frozenset({group[old.memory.id], group[new.memory.id]})
            cos = float(np.dot(vectors[old.memory.id], vectors[new.memory.id]))
            valued = not changed and rule.values and new_value(old.memory.content, new.memory.content, cos,
                                                                rule.bar(groups, True))
            bar = rule.bar(groups, changed or valued)
            if bar is None or cos < bar[0]:
                continue  # the vectors first: most pairs end here, before any text is read
            if not changed and (other_owners(old.memory.content, new.memory.content)
                                or not subject_kept(old.memory.content, new.memory.content)):
                continue
            if (lasting(old.memory.type, old.memory.content)
                    and not replans(old.memory.content, new.memory.content, rule.replan_overlap)):
                continue
            if not _same_slot(old, new, window, vectors, group, bar, neighbours_of, outdated):
                continue
            flag_older(out, old, new, changed or valued, outdated)
    return out


def flag_older(out: list[SearchHit], old: SearchHit, new: SearchHit, change: bool, outdated: set[str]) -> None:
    """Flag `old` as outdated by `new` (OUTDATED when a change is read, else POSSIBLY_OUTDATED) and put the newer
    hit first, the older right after it (shared by the read rules here and retrieval/value_slot.py)."""
    old.current = False
    old.why.outdated_by = new.memory.id
    old.why.outdated_change = change
    outdated.add(old.memory.id)
    flag = OUTDATED if change else POSSIBLY_OUTDATED
    if flag not in old.flags:
        old.flags.append(flag)
    i, j = out.index(old), out.index(new)
    if i < j:  # the newer value first, the older one right after it
        out.remove(new)
        out.insert(i, new)
        new.score = new.why.final = max(new.score, old.score)



def _same_slot(old: SearchHit, new: SearchHit, window: list[SearchHit], vectors: Mapping[str, np.ndarray],
               group: Mapping[str, str], bar: tuple[float, int], neighbours_of: Neighbours | None = None,
               outdated: Collection[str] = ()) -> bool:
    """Close enough for their script pair (`bar`: least cosine, least shared anchors), and each the other's
    nearest neighbour among the window's hits of its script group, and among the store's memories when
    `neighbours_of` is given (scale-free: two memories on one topic that merely share words rarely are)."""
    a, b = old.memory.id, new.memory.id
    cos = float(np.dot(vectors[a], vectors[b]))
    if cos < bar[0]:
        return False
    shared = anchors(old.memory.content, new.memory.content)
    if len(shared) < bar[1]:
        return False
    for x, y in ((a, b), (b, a)):
        rivals = [h.memory.id for h in window if h.memory.id not in (a, b, *outdated) and group[h.memory.id] == group[y]]
        if any(float(np.dot(vectors[x], vectors[r])) > cos for r in rivals):
            return False
    if neighbours_of is not None:
        return all(_nearest_in_store(vectors[x], (a, b, *outdated), group[y], cos, neighbours_of)
                   for x, y in ((a, b), (b, a)))
    return True


def _remembered(neighbours_of: Neighbours) -> Neighbours:
    """`neighbours_of` with its answers kept for the rest of one `mark_outdated` call."""
    seen: dict[tuple[bytes, int, float], list[tuple[str, str, float]]] = {}

    def lookup(vector: np.ndarray, depth: int, floor: float) -> list[tuple[str, str, float]]:
        key = (vector.tobytes(), depth, floor)
        if key not in seen:
            seen[key] = neighbours_of(vector, depth, floor)
        return seen[key]
    return lookup


def _nearest_in_store(vector: np.ndarray, pair: tuple[str, ...], wanted: str, cos: float,
                      neighbours_of: Neighbours) -> bool:
    """No stored memory of script group `wanted`, besides the pair (and the hits outdated in this search), is
    closer to `vector` than `cos`. From a
    Chinese memory the nearest English ones can lie below dozens of Chinese ones, all closer than a
    cross-script pair: the lookup then deepens once (`DEEP_NEIGHBOUR_DEPTH`), and a question still
    undecided counts as a rival (no flag)."""
    for depth in (NEIGHBOUR_DEPTH, DEEP_NEIGHBOUR_DEPTH):
        found = neighbours_of(vector, depth, cos)
        for mid, content, score in found:
            if score <= cos:
                return True
            if mid not in pair and bias_group(content) == wanted:
                return False
        if len(found) < depth:
            return True  # the whole store is closer than the pair, and none of it a rival
    return False
