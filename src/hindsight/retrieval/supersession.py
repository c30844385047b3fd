"""Superseded memories in search results: below what replaced them, and labelled as not current.

Hygiene deprecates a memory when a newer one changes the fact (`superseded_by` in its metadata, an
Edge(new, old, "supersedes")). A default search only sees active memories; a search that asks for
deprecated ones too (filters.statuses) gets them sunk by the status factor, and `order_superseded`
makes the rule exact: a deprecated memory never ranks above the memory that superseded it.
"""

from __future__ import annotations

from hindsight.model import Status
from hindsight.read_model import SearchHit

#: Search-hit flag of a memory that a newer one replaced.
SUPERSEDED = "superseded"


def order_superseded(hits: list[SearchHit]) -> list[SearchHit]:
    """Move each deprecated hit right below its successor when the successor ranks below it; flag it."""
    out = list(hits)
    for hit in [h for h in hits if h.memory.status == Status.deprecated]:
        if SUPERSEDED not in hit.flags and hit.memory.metadata.get("superseded_by"):
            hit.flags.append(SUPERSEDED)
            hit.current = False
        successor = str(hit.memory.metadata.get("superseded_by") or "")
        ids = [h.memory.id for h in out]
        if successor in ids and ids.index(successor) > ids.index(hit.memory.id):
            out.remove(hit)
            out.insert(ids.index(successor), hit)  # the successor moved up one place: insert after it
            hit.score = hit.why.final = min(hit.score, out[ids.index(successor) - 1].score)
    return out
