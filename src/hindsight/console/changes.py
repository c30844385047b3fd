"""A status change from the console (forget, deprecate, restore), one memory at a time, by the signed-in
principal: the memory page's buttons and the browse page's bulk actions take this one door.

In a reviewed namespace the change is a proposal (the MCP tools take the same door), an admin's too unless it may
approve its own (review/separation.py); otherwise it is applied at once through the engine.
"""

from __future__ import annotations

from hindsight.console.app import Ctx
from hindsight.engine import MemoryEngine
from hindsight.errors import InvalidInputError
from hindsight.review.separation import changes_directly
from hindsight.review.service import ReviewService
from hindsight.security.principal import Actor

STATUS_ACTIONS = ("forget", "deprecate", "restore")


def review_door(ctx: Ctx, review: ReviewService | None, ns: str) -> ReviewService | None:
    """The review service when `ctx.who`'s change in `ns` must be proposed, else None (applied directly)."""
    if review is None or not review.is_reviewed(ns) or changes_directly(ctx.who, ns, review.self_approval):
        return None
    return review


def change_status(engine: MemoryEngine, review: ReviewService | None, ctx: Ctx, memory_id: str, ns: str,
                  action: str, reason: str = "") -> bool:
    """Forget, deprecate or restore one memory as `ctx.who`; True when it was proposed rather than applied."""
    if action not in STATUS_ACTIONS:
        raise InvalidInputError(f"action: expected one of {', '.join(STATUS_ACTIONS)}, got '{action[:20]}'")
    actor = Actor(ctx.who)  # the engine checks what this principal may claim (security/claims.py)
    door = review_door(ctx, review, ns)
    if action == "forget":
        if door is not None:
            return door.forget(memory_id, reason[:1000], ns, actor).get("status") == "pending_review"
        engine.forget(memory_id, reason[:1000], ns, actor)
        return False
    status = "active" if action == "restore" else "deprecated"
    if door is not None:
        return door.update(memory_id, {"status": status}, ns, actor).get("status") == "pending_review"
    engine.update(memory_id, {"status": status}, ns, actor)
    return False
