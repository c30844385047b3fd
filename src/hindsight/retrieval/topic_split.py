"""Entity/topic split of a question that names a speaker: a second query for the topic, in that speaker's turns.

"What activities has Melanie done with her family?" asks for Melanie's own turns about family activities. Its
query vector is pulled toward every turn that carries the name (the other speaker's "Thanks, Melanie!"
included), so the search ranks turns that match the name above turns that match the topic. The split keeps
the two apart: the entity becomes a filter (the turns whose "Name:" prefix is a name the query asks about) and
the topic a query of its own (the question without the names, one more query encode); the best `FROM_BEST`
of that search that the main order left below its first `TOP - slots` places take the last `slots` places of
its top `TOP` (`place`). Nothing else moves: the main order keeps its first places and the rest of its list.

A question that names two speakers ("What do Jon and Gina both like?", "Which city have both Jean and John
visited?") asks about each of them: one topic list over both speakers' turns lets the one with more matching
turns take every place. There the split is per speaker (`speaker_order`, `topic_turns_each`, `place_each`):
the same topic search is divided by speaker and each of the first `MAX_SPEAKERS` named speakers gets `each`
places of its own at the end of the top `TOP`, taken in turn. That variant is a switch (`topic_each`, off by
default): on LoCoMo dev it helped the two conversations it was chosen on and not the two held out.

It runs where the second step runs (conversation-like stores, English queries: `second_pass.applies`) and
only when the query names a speaker of the first pass's candidates. On LoCoMo (docs/benchmarks.md, "recall6"
and "recall7") it was chosen on the dev split (2 places from the best 3) and held on test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from hindsight.model import MemoryRecord
from hindsight.read_model import SearchHit
from hindsight.retrieval.speaker_pool import speaker_of
from hindsight.storage.base import MemoryStore, Scope

#: the places of the result the split competes for (the last `slots` of the first TOP)
TOP = 10
#: the topic search's best named-speaker turns considered for those places
FROM_BEST = 3
#: a question naming more speakers than this splits among the first ones it names
MAX_SPEAKERS = 2


def topic_text(text: str, names: Sequence[str]) -> str | None:
    """The query without the names it asks about (and their possessive 's); None when no name was in it or no
    word is left."""
    out = text
    for name in names:
        if name.strip():
            out = re.sub(rf"\b{re.escape(name.strip())}(?:'s|’s)?\b", " ", out)
    out = " ".join(out.split())
    if out == " ".join(text.split()) or not re.search(r"[^\W\d_]{2,}", out):
        return None
    return out


def named_speakers(names: Sequence[str], records: Iterable[MemoryRecord]) -> set[str]:
    """The query's names (lower-cased) that are the speaker of at least one of these records."""
    wanted = {name.strip().lower() for name in names if name.strip()}
    return {talker for record in records if (talker := speaker_of(record.content)) in wanted}


def speaker_order(names: Sequence[str], speakers: set[str]) -> list[str]:
    """The query's names that are speakers (`named_speakers`), lower-cased, in the query's order, without
    repeats, at most `MAX_SPEAKERS`."""
    out: list[str] = []
    for name in names:
        key = name.strip().lower()
        if key in speakers and key not in out:
            out.append(key)
    return out[:MAX_SPEAKERS]


def topic_turns_each(store: MemoryStore, scope: Scope, vector: np.ndarray, speakers: Sequence[str], depth: int,
                     known: Mapping[str, MemoryRecord]) -> tuple[list[list[str]], dict[str, MemoryRecord]]:
    """For each of `speakers` (in that order): its turns among the `depth` nearest memories to the topic vector in
    `scope`, best first; and the records read for them (only those not already `known`). One dense search."""
    found = [mid for mid, _ in store.dense_search(scope, vector, depth)]
    read = store.get_many([mid for mid in found if mid not in known])
    lists: list[list[str]] = [[] for _ in speakers]
    for mid in found:
        record = known.get(mid) or read.get(mid)
        talker = speaker_of(record.content) if record is not None else None
        if talker in speakers:
            lists[speakers.index(talker)].append(mid)
    wanted = {mid for lst in lists for mid in lst}
    return lists, {mid: record for mid, record in read.items() if mid in wanted}


def topic_turns(store: MemoryStore, scope: Scope, vector: np.ndarray, speakers: set[str], depth: int,
                known: Mapping[str, MemoryRecord]) -> tuple[list[str], dict[str, MemoryRecord]]:
    """The `FROM_BEST` turns of these speakers nearest the topic vector among its `depth` nearest memories in
    `scope`, best first, and the records read for them (only those not already `known`)."""
    found = [mid for mid, _ in store.dense_search(scope, vector, depth)]
    read = store.get_many([mid for mid in found if mid not in known])
    best: list[str] = []
    for mid in found:
        record = known.get(mid) or read.get(mid)
        if record is not None and speaker_of(record.content) in speakers:
            best.append(mid)
            if len(best) == FROM_BEST:
                break
    return best, {mid: read[mid] for mid in best if mid in read}


def place(hits: list[SearchHit], best: Sequence[str], slots: int,
          make_hit: Callable[[str], SearchHit | None]) -> list[SearchHit]:
    """`hits` with the first `slots` of `best` that are not among its first `TOP - slots` placed right after
    those (in `best`'s order); every other hit keeps its relative order. Scores are re-assigned by place (the
    same values, sorted) so they stay non-increasing down the list; `why.topic_rank` is each placed hit's rank
    in the topic search. `make_hit` builds a hit for an id the list lacks (None: skip it)."""
    if slots <= 0 or not best:
        return hits
    head = hits[: max(0, TOP - slots)]
    head_ids = {hit.memory.id for hit in head}
    by_id = {hit.memory.id: hit for hit in hits}
    chosen: list[SearchHit] = []
    for rank, mid in enumerate(best, start=1):
        if mid in head_ids or len(chosen) == slots:
            continue
        hit = by_id.get(mid) or make_hit(mid)
        if hit is None:
            continue
        hit.why.topic_rank = rank
        chosen.append(hit)
    return _splice(hits, head, chosen)


def place_each(hits: list[SearchHit], lists: Sequence[Sequence[str]], each: int,
               make_hit: Callable[[str], SearchHit | None]) -> list[SearchHit]:
    """Per-speaker `place`: `lists` holds one topic list per named speaker; the first `TOP - each * len(lists)`
    hits stay, then each list in turn gives its best id not already placed, `each` rounds; every other hit keeps
    its relative order and scores are re-assigned by place. `why.topic_rank` is the rank in its speaker's list."""
    if each <= 0 or not any(lists):
        return hits
    head = hits[: max(0, TOP - each * len(lists))]
    taken = {hit.memory.id for hit in head}
    by_id = {hit.memory.id: hit for hit in hits}
    chosen: list[SearchHit] = []
    for _ in range(each):
        for lst in lists:
            for rank, mid in enumerate(lst, start=1):
                if mid in taken:
                    continue
                hit = by_id.get(mid) or make_hit(mid)
                if hit is None:
                    continue
                taken.add(mid)
                hit.why.topic_rank = rank
                chosen.append(hit)
                break
    return _splice(hits, head, chosen)


def _splice(hits: list[SearchHit], head: list[SearchHit], chosen: list[SearchHit]) -> list[SearchHit]:
    """`head`, then `chosen`, then the rest of `hits` in order; scores re-assigned by place (the same values,
    sorted) so they stay non-increasing down the list."""
    if not chosen:
        return hits
    chosen_ids = {hit.memory.id for hit in chosen}
    return by_place(head + chosen + [hit for hit in hits[len(head):] if hit.memory.id not in chosen_ids])


def by_place(hits: list[SearchHit]) -> list[SearchHit]:
    """`hits` in their order, scores re-assigned by place (the same values, sorted) so they stay non-increasing."""
    for hit, score in zip(hits, sorted((hit.score for hit in hits), reverse=True)):
        if hit.score != score:
            hit.score = hit.why.final = score
    return hits
