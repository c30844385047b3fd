"""A retired memory that the question matches brings in the memory that replaced it (issue 10, round 26).

A default search reads active memories only, so when hygiene retired an older version of a fact on write, the
question's words may still be the older version's ("Who do the builders send technical queries to on the fit-out
now?" matches "Aisha coordinates the fit-out; RFIs go to her" word for word, and "Aisha is leaving; Farah takes over
as coordinator" hardly). `pull_successors` looks at the retired memories nearest the question's vector: one that
would rank among the best `within` active memories by cosine hands its place to the current end of its
`superseded_by` chain, which joins the result there (or moves up to it) unless it already ranks in the head; the hit
names the retired memory in `why.found_via`. The retired memory itself stays out of a default result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from hindsight.model import MemoryRecord, Status
from hindsight.read_model import SearchHit

#: the most links followed from a retired memory to the current version (a chain of changes)
MAX_CHAIN = 5


def current_successor(record: MemoryRecord, records_of: Callable[[Sequence[str]], Mapping[str, MemoryRecord]]
                      ) -> MemoryRecord | None:
    """The active end of a retired memory's `superseded_by` chain, in its own namespace (a caller-set
    `superseded_by` may name another namespace's memory: attack round 13); None when the chain ends elsewhere."""
    seen = {record.id}
    for _ in range(MAX_CHAIN):
        nxt = str(record.metadata.get("superseded_by") or "")
        found = records_of([nxt]).get(nxt) if nxt and nxt not in seen else None
        if found is None or found.namespace != record.namespace:
            return None
        if found.status == Status.active:
            return found
        if found.status != Status.deprecated:
            return None
        seen.add(nxt)
        record = found
    return None


def pull_successors(hits: list[SearchHit], head: int, active: Sequence[tuple[str, float]],
                    retired: Sequence[tuple[str, float]], within: int,
                    records_of: Callable[[Sequence[str]], Mapping[str, MemoryRecord]],
                    make_hit: Callable[[MemoryRecord, float], SearchHit | None]) -> list[SearchHit]:
    """`hits` with the successor of each retired memory in `retired` ((id, cosine), best first) that would rank
    among the best `within` of `active` ((id, cosine) of the active memories, best first) placed at that rank,
    when it is not already among the first `head` hits (see module doc). `make_hit(record, score)` builds a hit for
    a successor the search did not return."""
    if within <= 0 or not retired:
        return hits
    out = list(hits)
    cosines = [score for _, score in active]
    olds = records_of([mid for mid, _ in retired])
    for mid, cos in retired:
        place = sum(1 for score in cosines if score > cos)
        old = olds.get(mid)
        if place >= within or old is None or old.status != Status.deprecated:
            continue
        new = current_successor(old, records_of)
        if new is None:
            continue
        ids = [h.memory.id for h in out]
        if new.id in ids[:head]:
            continue
        at = min(place, head - 1, len(out))
        score = out[at].score if at < len(out) else (out[-1].score if out else 0.0)
        hit = out.pop(ids.index(new.id)) if new.id in ids else make_hit(new, score)
        if hit is None:
            continue
        hit.score = hit.why.final = max(hit.score, score)
        hit.why.found_via = mid
        out.insert(at, hit)
    return out
