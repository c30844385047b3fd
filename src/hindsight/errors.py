"""Typed errors raised by the engine.

Every skin (MCP, CLI, Python API) maps these to its own error channel, so one
message written here is what a person reads everywhere. Over MCP a tool error's
text starts with the code and a colon (``invalid_input: content: ...``), so a
client can tell a final refusal from a transient failure without parsing prose:

* final (retrying the same request cannot succeed): ``invalid_input``, ``idempotency_conflict``,
  ``version_conflict``, ``already_decided`` (another reviewer decided it first);
* transient (the same request succeeds once the server or the database is back, nothing about the request is
  wrong): ``storage_busy``, ``storage_unavailable``, ``unavailable``, ``provider_unavailable``, ``timeout``,
  ``too_many_calls`` (the HTTP front door's 429: the token has its most calls in flight);
* ambiguous (the server answered, but it may be this request: a generic ``storage_error``, and the refusals a
  person must act on first, ``permission_denied``, ``not_found``, ``encryption_unavailable``, or a code this
  client does not know): a client retries them a few times with backoff, then sets the write aside where the
  user can list and replay it (the resilient client's dead letters), so one poison write cannot block the rest.

`error_kind(code)` says which.
"""

from __future__ import annotations

import re
from typing import Any


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

    def __init__(self, memory_id: str, namespace: str | None = None, field: str | None = None) -> None:
        where = f" in namespace '{namespace}'" if namespace else ""
        # `field`: the id was typed by a person (the CLI), maybe as a prefix - the message names the argument
        super().__init__(f"{field}: '{memory_id}' was not found{where} (neither a memory's id nor the start of one)" if field
                         else f"memory '{memory_id}' was not found{where}")
        self.memory_id = memory_id

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return str(self.args[0])


class PermissionDeniedError(HindsightError, PermissionError):
    """The caller's token lacks the scope or namespace grant for this operation."""

    code = "permission_denied"


class ProviderUnavailableError(HindsightError, RuntimeError):
    """An embedding, rerank or LLM provider could not be loaded or reached."""

    code = "provider_unavailable"


class EncryptionUnavailableError(ProviderUnavailableError):
    """A private memory was sent to a server that has no encryption key: refused until the operator sets one
    (not transient: the same request fails the same way until then)."""

    code = "encryption_unavailable"


class StorageError(HindsightError, RuntimeError):
    """The store could not complete an operation; nothing was half-written."""

    code = "storage_error"


class StorageUnavailableError(StorageError):
    """The database could not be reached (connection refused or dropped); nothing was written, retry later."""

    code = "storage_unavailable"
    retryable = True


class StorageBusyError(StorageError):
    """Another process held the database's write lock longer than the server waits (HINDSIGHT_BUSY_TIMEOUT).

    Transient: nothing was written, and the same request can be retried later.
    """

    code = "storage_busy"
    retryable = True


class BudgetExceededError(HindsightError, TimeoutError):
    """A request ran past its time budget; nothing was written, the same request may be retried."""

    code = "timeout"


class IdempotencyConflictError(HindsightError):
    """An idempotency key was reused for a different request (the first one keeps the key); nothing was stored."""

    code = "idempotency_conflict"


class VersionConflictError(HindsightError):
    """A decision named the version of a memory it was made against, and the memory changed since (attack round 11:
    a reviewer's approval would have overwritten an edit made after the page was loaded); nothing changed."""

    code = "version_conflict"


class AlreadyDecidedError(HindsightError):
    """A review decision lost a race: another reviewer decided the same proposal (or quarantined memory) first, or
    is applying its decision now (attack round 18: the loser read `invalid_input` although its request was well
    formed). The message names the proposal and its memory and what became of it; nothing changed."""

    code = "already_decided"


#: codes of errors after which the same request can never succeed (a client drops it to a dead-letter list)
FINAL_CODES = frozenset({InvalidInputError.code, IdempotencyConflictError.code, VersionConflictError.code,
                         AlreadyDecidedError.code})
#: codes of errors after which the same request succeeds later unchanged (a client keeps it queued, retries forever)
RETRYABLE_CODES = frozenset({StorageBusyError.code, StorageUnavailableError.code, ProviderUnavailableError.code,
                             BudgetExceededError.code, "unavailable", "too_many_calls"})


def error_kind(code: str) -> str:
    """'final', 'transient' or 'ambiguous' for an error code (see the module docstring)."""
    if code in FINAL_CODES:
        return "final"
    return "transient" if code in RETRYABLE_CODES else "ambiguous"


#: how many of a refusal's field errors are spelled out (attack round 17: 40,000 wrong tags made one refusal of more
#: than 1 MB, past the MCP client's event limit, so the caller got a transport failure instead of the refusal)
SHOWN_ERRORS = 5


#: a field path as a refusal names it: `content`, `updates.metadata`, `messages[0].content`, `filters.time_from`
FIELD_PATH = re.compile(r"[A-Za-z_][\w.\[\]-]*")


def names_field(message: str) -> bool:
    """True when a rule's message opens with the field it is about (`content: must not ...`)."""
    named, sep, _ = message.removeprefix("Value error, ").partition(": ")
    return bool(sep) and FIELD_PATH.fullmatch(named) is not None


def field_rule(location: str, message: str, whole: str = "input") -> str:
    """`FIELD: RULE` for one error at `location`: a message that already names a field (`content: must not ...`,
    a check shared with callers that have no location) keeps its own name; pydantic's `Value error, ` goes; an
    error of the whole object (no location, no name) is `whole`'s."""
    rule = message.removeprefix("Value error, ")
    if names_field(rule):
        named, _, rest = rule.partition(": ")
        if not location:
            return rule
        if location == named or location.endswith("." + named) or location.startswith(named + "."):
            return f"{location}: {rest}"  # the field itself, or an item of it (`tags.0`)
        if named.startswith(location + "."):
            return rule
        return f"{location}.{named}: {rest}"  # an object's own rule naming one of its fields (`filters.time_from`)
    return f"{location or whole}: {rule}"


def format_validation_error(exc: Any, prefix: str = "") -> str:
    """'field: rule' lines a person can act on, from a pydantic ValidationError, instead of its full dump (the first
    SHOWN_ERRORS of them, then how many more). `prefix` (`updates.`) is where the model's fields sit in the request;
    an error of the whole object there is named by it (`updates: must name at least one field`)."""
    errors = exc.errors()
    parts = []
    for error in errors[:SHOWN_ERRORS]:
        location = ".".join(str(p) for p in error["loc"])
        if prefix and not location and not names_field(error["msg"]):
            parts.append(field_rule("", error["msg"], prefix.rstrip(".")))
        else:
            parts.append(prefix + field_rule(location, error["msg"]))
    more = len(errors) - SHOWN_ERRORS
    return "; ".join(parts) + (f"; and {more} more error{'s' if more > 1 else ''} of this kind or others" if more > 0 else "")


def validated(model: Any, data: Any, what: str, top: bool = False) -> Any:
    """Validate `data` into the pydantic `model`, raising InvalidInputError that names the field and rule: the model's
    fields sit under `what` in the request (`updates.content`), or at its top with `top` (a memory's `content`)."""
    from pydantic import ValidationError

    if isinstance(data, model):
        return data
    if data is not None and not isinstance(data, dict):
        raise InvalidInputError(f"{what}: must be an object, got {type(data).__name__}")
    try:
        return model.model_validate(data or {})
    except ValidationError as exc:
        prefix = "" if top else f"{what}."
        raise InvalidInputError(format_validation_error(exc, prefix)) from exc


def ambiguous_prefix(field: str, wanted: str, matches: list[str], kind: str) -> InvalidInputError:
    """The error for an id prefix that names several `kind`s (memories, proposals, tokens), showing two of them: one
    wording for the engine, the review queue and the CLI."""
    shown = ", ".join(matches[:2]) + (", ..." if len(matches) > 2 else "")
    return InvalidInputError(f"{field}: prefix '{wanted}' matches several {kind} ({shown}); type more characters")
