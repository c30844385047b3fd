"""Plain-JSON views of records and hits, shared by the MCP server, the CLI and the web console.

Search results are framed as data with provenance (who asserted it, how
credible), never as instructions: the agent should weigh them, not obey them.
"""

from __future__ import annotations

from typing import Any

from hindsight.model import MemoryRecord
from hindsight.read_model import SearchHit
from hindsight.safety.withhold import withhold


def memory_view(record: MemoryRecord, reveal_quarantined: bool = True) -> dict[str, Any]:
    """The fields an agent needs, JSON-safe (a quarantined memory's text withheld unless `reveal_quarantined`)."""
    data = (record if reveal_quarantined else withhold(record)).model_dump(mode="json")
    data["provenance"] = {
        "source": data.pop("source"),
        "credibility": data.pop("credibility"),
        "created_by": data.pop("created_by"),
    }
    return data


def hit_view(hit: SearchHit, reveal_quarantined: bool = True) -> dict[str, Any]:
    """A search result: the memory, its score and why it ranked there."""
    view = memory_view(hit.memory, reveal_quarantined)
    view["score"] = hit.score
    view["relevance"] = hit.relevance
    view["why"] = hit.why.model_dump(exclude_none=True)
    view["flags"] = hit.flags
    # which version of a fact is current: a deprecated memory names the one that replaced it; an active one
    # that a newer hit restates (read-time, hindsight.retrieval.currency) names it in why.outdated_by
    view["current"] = hit.current and hit.memory.status.value == "active"
    # the newer memory whichever reading found it: replaced on write (metadata) or restated in this result (read time)
    view["superseded_by"] = hit.memory.metadata.get("superseded_by") or (None if hit.current else hit.why.outdated_by)
    if not view["current"]:  # why this hit is not the current fact, at the top level (issue 10, round 26)
        view["not_current_because"] = (
            "replaced on write by a newer memory (superseded_by)" if hit.memory.status.value == "deprecated"
            else "a newer hit in this result states a change of the same fact (superseded_by)"
            if hit.why.outdated_by else "not active")
    return view


def result_view(hits: list[SearchHit], reveal_quarantined: bool = True, min_relevance: float = 0.0) -> dict[str, Any]:
    """A whole search result as the MCP server returns it: the hits, and at the top level which of them are older
    versions of a fact (`not_current`: each one's id, the memory that replaces it and why - issue 10, round 30), so
    a client that reads only the first hit's text, or the top level, never takes an old version for the current one."""
    views = [hit_view(h, reveal_quarantined) for h in hits]
    result: dict[str, Any] = {
        "count": len(views), "results": views,
        "not_current": [{"id": v["id"], "superseded_by": v["superseded_by"], "because": v["not_current_because"]}
                        for v in views if not v["current"]],
        "time_filter_widened": any(bool(h.why.time_filter_widened) for h in hits)}
    if min_relevance > 0 and not views:
        # an empty answer to a thresholded search read as "nothing is stored" (ux round 45): say what it means
        result["empty_because"] = (
            f"no hit reached min_relevance {min_relevance:g}; this is not proof that nothing relevant is stored "
            "(an answering memory can score under it): search again without min_relevance to read the hits and "
            "their relevance")
    return result

