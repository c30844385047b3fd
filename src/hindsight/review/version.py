"""The version of a memory a reviewer decided against (attack round 11).

A reviewer reads a proposal next to the memory as it is *now*; if someone edits the memory after the page was
rendered, approving the proposal would apply its fields over that edit. Every page and `memory_review_list`
therefore show `current_version`, the console's forms send it back, and an approval naming a version the memory
no longer has is refused (`version_conflict`, naming `expected_version`), the proposal still pending.

The version is a digest of everything a change can touch (content, context, tags, metadata, status, times...),
but not of read bookkeeping (`last_accessed_at`, `access_count`), so a search between loading and deciding is no
conflict.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from hindsight.errors import VersionConflictError
from hindsight.model import MemoryRecord
from hindsight.read_model import HistoryEntry

_READ_BOOKKEEPING = {"last_accessed_at", "access_count"}


def memory_version(record: MemoryRecord) -> str:
    """A short, stable digest of the memory's state (16 hex characters)."""
    data = record.model_dump(mode="json", exclude=_READ_BOOKKEEPING)
    blob = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def check_version(record: MemoryRecord, expected: str | None, shown: str = "the proposal",
                  pending: str = "the proposal is still pending") -> None:
    """Refuse when `expected` is given and the memory is no longer at that version (`shown`: what the decider
    was shown; `pending`: what stays as it was)."""
    if expected is None:
        return
    now = memory_version(record)
    if expected.strip() != now:
        raise VersionConflictError(
            f"expected_version: the memory {record.id} changed after {shown} was shown (shown at version "
            f"'{expected.strip()[:32]}', now '{now}'); rule: a decision applies only to the version it was made "
            f"against - reload and decide again ({pending})")



#: history actions that change no field a proposal is decided on: another writer restating the fact (a refresh of
#: its counts and times, attack round 14's case) leaves a pending proposal's base as it was
_BOOKKEEPING_ACTIONS = frozenset({"dedup_refresh"})


def check_unchanged_since(record: MemoryRecord, history: Sequence[HistoryEntry], proposed_at: float,
                          proposal_id: str) -> None:
    """A decision that names no version applies only to the memory the proposal was made against (attack round 21:
    two pending updates of one memory, approved one after the other over MCP, and the second - written against the
    text before the first - silently put back what the first had changed). Refused when the memory's history holds
    a change after the proposal was made; naming the memory's `current_version` applies it over that change
    knowingly. Both times are this deployment's clock (the proposal's and the change's)."""
    later = [e for e in history if e.at.timestamp() > proposed_at and e.action not in _BOOKKEEPING_ACTIONS]
    if later:
        last = later[-1]
        raise VersionConflictError(
            f"expected_version: the memory {record.id} changed after proposal '{proposal_id}' was made ({last.action} "
            f"by {last.actor} at {last.at.isoformat(timespec='seconds')}; version now '{memory_version(record)}'); "
            "rule: a proposal applies to the memory it was made against - read the memory, then approve naming that "
            "version as expected_version to apply it over the change, or reject it (the proposal is still pending)")
