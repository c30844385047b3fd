"""Admin MCP tools: the quarantine queue and the review queue of reviewed namespaces (scope `admin`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastmcp import FastMCP
from pydantic import Field

from hindsight.engine import MemoryEngine
from hindsight.field_rules import MAX_OFFSET
from hindsight.present import memory_view
from hindsight.review.service import ReviewService
from hindsight.review.version import memory_version
from hindsight.security.principal import Scope
from hindsight.server.mcp_common import ExpectedVersion, Gate, MemoryId, Namespace, ProposalId, _call


def register_admin_tools(mcp: FastMCP, engine: MemoryEngine, review: ReviewService, gate: Gate) -> None:
    """memory_quarantine_list/_release and memory_review_list/_decide."""
    # -------------------------------------------------------- quarantine
    @mcp.tool
    def memory_quarantine_list(
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        offset: Annotated[int, Field(ge=0, le=MAX_OFFSET)] = 0,
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """Admin: writes the guard held back (instruction injection, privilege escalation, exfiltration), with why."""
        gate(Scope.admin, namespace, "quarantine_list")
        records, total = _call(engine.quarantined, namespace, limit, offset)
        # current_version: pass it back to memory_quarantine_release, so a text changed since is not released
        return {"total": total, "memories": [{**memory_view(r), "current_version": memory_version(r)} for r in records]}

    @mcp.tool
    def memory_quarantine_release(
        memory_id: MemoryId,
        note: Annotated[str, Field(max_length=1000, description="Why it is legitimate.")] = "",
        namespace: Namespace = "default",
        expected_version: Annotated[ExpectedVersion | None, Field(
            description="The current_version memory_quarantine_list showed: the "
            "release is refused (version_conflict) if the memory changed since")] = None,
    ) -> dict[str, Any]:
        """Admin: release a quarantined memory into normal use (recorded in history and the audit log). Its writer
        may not release it (permission_denied)."""
        actor = gate(Scope.admin, namespace, "quarantine_release", memory_id)
        record = gate.run(actor, "quarantine_release", namespace, memory_id, engine.release, memory_id, namespace,
                          actor, note, expected_version)
        return {"memory_id": record.id, "status": record.status.value}

    # -------------------------------------------------------- review
    @mcp.tool
    def memory_review_list(
        status: Annotated[Literal["pending", "approved", "rejected"], Field(
            description="pending (the queue, oldest first) or decided ones")] = "pending",
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        offset: Annotated[int, Field(ge=0, le=MAX_OFFSET)] = 0,
        namespace: Namespace = "default",
    ) -> dict[str, Any]:
        """Admin: agent changes to a reviewed namespace waiting for (or given) a decision, with the current memory."""
        gate(Scope.admin, namespace, "review_list")
        proposals = _call(review.queue.list, namespace, status, limit, offset)
        return {"count": len(proposals), "proposals": [review.view(p) for p in proposals]}

    @mcp.tool
    def memory_review_decide(
        proposal_id: ProposalId,
        decision: Annotated[Literal["approve", "reject"], Field(description="approve applies the change; "
                                                                            "reject keeps the memory as it is")],
        note: Annotated[str, Field(max_length=1000, description="Why (kept with the decision).")] = "",
        namespace: Namespace = "default",
        expected_version: Annotated[ExpectedVersion | None, Field(
            description="The current_version memory_review_list showed: approving an "
            "update or forget is refused (version_conflict) if the memory changed since")] = None,
    ) -> dict[str, Any]:
        """Admin: approve (apply through the normal write path) or reject a proposed change. Decisions are final;
        the proposer of a change may reject (withdraw) it but not approve it (permission_denied)."""
        actor = gate(Scope.admin, namespace, "review_decide")
        if decision == "approve":
            return gate.run(actor, "review_decide", namespace, None, lambda: review.approve(
                proposal_id, actor, note, namespace, expected_version=expected_version))
        return _call(review.reject, proposal_id, actor, note, namespace)
