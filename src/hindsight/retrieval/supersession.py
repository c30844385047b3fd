"""Superseded memories in search results: below what replaced them, and labelled as not current.

Hygiene deprecates a memory when a newer one changes the fact (`superseded_by` in its metadata, an
Edge(new, old, "supersedes")). A default search only sees active memories; a search that asks for
deprecated ones too (filters.statuses) gets them sunk by the status factor, and `order_superseded`
makes the rule exact: a deprecated memory never ranks above a memory of its `superseded_by` chain (the one that
replaced it, the one that replaced that, ... - round 37: with three versions returned, the oldest could rank above
the current one when the middle version was not returned or was moved below it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from hindsight.model import MemoryRecord, Status
from hindsight.read_model import SearchHit

#: Search-hit flag of a memory that a newer one replaced.
SUPERSEDED = "superseded"

#: the most links followed from a retired memory along its `superseded_by` chain
MAX_CHAIN = 5


def _chain(hit: SearchHit, records_of: Callable[[Sequence[str]], Mapping[str, MemoryRecord]] | None) -> list[str]:
    """The ids of the memories that replaced `hit`'s, newest last: its `superseded_by`, then (with `records_of`) that
    one's while it is retired too, in the hit's own namespace."""
    out: list[str] = []
    record = hit.memory
    for _ in range(MAX_CHAIN):
        nxt = str(record.metadata.get("superseded_by") or "")
        if not nxt or nxt in out or nxt == hit.memory.id:
            break
        out.append(nxt)
        found = records_of([nxt]).get(nxt) if records_of is not None else None
        if found is None or found.namespace != hit.memory.namespace or found.status != Status.deprecated:
            break
        record = found
    return out


def order_superseded(hits: list[SearchHit],
                     records_of: Callable[[Sequence[str]], Mapping[str, MemoryRecord]] | None = None
                     ) -> list[SearchHit]:
    """Move each deprecated hit right below the lowest-ranked memory of its `superseded_by` chain among the hits
    when that one ranks below it; flag it. Without `records_of` only the direct successor is known."""
    out = list(hits)
    chains: dict[str, list[str]] = {}
    for hit in [h for h in hits if h.memory.status == Status.deprecated]:
        if SUPERSEDED not in hit.flags and hit.memory.metadata.get("superseded_by"):
            hit.flags.append(SUPERSEDED)
            hit.current = False
        chains[hit.memory.id] = _chain(hit, records_of)
    for _ in range(len(out)):  # each move puts one hit below all of its chain; a chain of moves settles
        moved = False
        for hit in [h for h in out if h.memory.id in chains]:
            ids = [h.memory.id for h in out]
            below = [ids.index(mid) for mid in chains[hit.memory.id] if mid in ids]
            if not below or max(below) < ids.index(hit.memory.id):
                continue
            out.remove(hit)
            at = max(below)  # the lowest one of the chain moved up one place: insert after it
            out.insert(at, hit)
            hit.score = hit.why.final = min(hit.score, out[at - 1].score)
            moved = True
        if not moved:
            break
    return out
