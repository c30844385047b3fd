"""Typed errors raised by the engine.

Every skin (MCP, CLI, Python API) maps these to its own error channel, so one
message written here is what a person reads everywhere.
"""

from __future__ import annotations


class HindsightError(Exception):
    """Base class: a problem the caller can act on (not a bug)."""

    code = "hindsight_error"
    #: True when the same request may succeed later unchanged (a client keeps it queued and retries)
    retryable = False


class InvalidInputError(HindsightError, ValueError):
    """The request itself is malformed: a field is missing, has the wrong type or breaks a rule."""

    code = "invalid_input"


class MemoryNotFoundError(HindsightError, KeyError):
    """No memory with that id is visible in the caller's namespace."""

    code = "not_found"

    def __init__(self, memory_id: str, namespace: str | None = None) -> None:
        where = f" in namespace '{namespace}'" if namespace else ""
        super().__init__(f"memory '{memory_id}' was not found{where}")
        self.memory_id = memory_id

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return str(self.args[0])


class PermissionDeniedError(HindsightError, PermissionError):
    """The caller's token lacks the scope or namespace grant for this operation."""

    code = "permission_denied"


class ProviderUnavailableError(HindsightError, RuntimeError):
    """An embedding, rerank or LLM provider could not be loaded or reached."""

    code = "provider_unavailable"


class StorageError(HindsightError, RuntimeError):
    """The store could not complete an operation; nothing was half-written."""

    code = "storage_error"


class StorageBusyError(StorageError):
    """Another process held the database's write lock longer than the server waits (HINDSIGHT_BUSY_TIMEOUT).

    Transient: nothing was written, and the same request can be retried later.
    """

    code = "storage_busy"
    retryable = True
