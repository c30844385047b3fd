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

from hindsight.errors import VersionConflictError
from hindsight.model import MemoryRecord

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
