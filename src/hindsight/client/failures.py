"""How a failed call to the server is read: final (a dead letter at once), transient (stays queued) or ambiguous
(retried a few times, then set aside), and what the server asked to wait (`Retry-After`).

Split from client/resilient.py (tidy round 35; moved verbatim but `_describe`, now `describe`): the client's
classification of errors is one job, the queueing client that acts on it another.
"""

from __future__ import annotations

import re

from fastmcp.exceptions import ToolError
from mcp.shared.exceptions import MCPError

from hindsight.errors import error_kind

#: Tools that change memory: they always carry an idempotency key and are queued when unconfirmed.
WRITE_TOOLS = frozenset({"memory_store", "memory_task_completed", "memory_task_failed", "memory_user_correction",
                         "memory_tool_retry"})
#: A refusal by the tool's argument schema (before the engine runs): as final as invalid_input.
_SCHEMA_REFUSAL = re.compile(r"validation error", re.IGNORECASE)


def error_code(error: BaseException) -> str:
    """The stable code a hindsight tool error starts with ('' when it has none)."""
    head = str(error).strip().split(":", 1)[0].strip()
    return head if head.replace("_", "").isalpha() and head.islower() else ""


def is_final(error: BaseException) -> bool:
    """True when the server refused the request for good (retrying the same arguments cannot succeed).

    Final: `invalid_input:`, `idempotency_conflict:` and schema refusals (hindsight.errors.error_kind).
    """
    if isinstance(error, MCPError):  # a refusal of the request itself (attack round 20: a body past the server's
        return error_kind(error_code(error)) == "final"  # limit), never one a transport made up
    if not isinstance(error, ToolError):
        return False
    message = str(error).strip()
    return error_kind(error_code(error)) == "final" or bool(_SCHEMA_REFUSAL.search(message.split("\n", 1)[0]))


def is_transient(error: BaseException) -> bool:
    """True when nothing about the request is wrong: no answer, or a transient code (busy, unavailable, timeout)."""
    return not isinstance(error, ToolError) or error_kind(error_code(error)) == "transient"


def describe(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return f"{type(error).__name__}: {text}"[:2000]


def retry_after(error: BaseException) -> float:
    """Seconds the server asked the caller to wait before the same call (`too_many_calls`: the front door's 429
    carries them in the JSON-RPC error's data, as its `Retry-After` header does); 0 when it named none."""
    data = getattr(error, "data", None) if isinstance(error, MCPError) else None
    value = data.get("retry_after") if isinstance(data, dict) else None
    return min(float(value), 3600.0) if isinstance(value, int | float) and value > 0 else 0.0


class Unreachable(Exception):
    """The call did not succeed and may later: no answer (connection refused or dropped, timeout), a transient
    error, or (`refused`) an ambiguous one the server answered with (a generic storage_error, permission_denied...).
    `wait`: seconds the server asked for before the same call (its Retry-After), else 0."""

    def __init__(self, message: str, refused: bool = False, wait: float = 0.0) -> None:
        super().__init__(message)
        self.refused = refused
        self.wait = wait
