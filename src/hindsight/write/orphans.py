"""A hard delete leaves no `superseded_by` naming a memory that no longer exists (attack round 38, round 39).

Hygiene retires an older memory A when a newer one B changes the fact: A deprecated, `superseded_by` = B, an
Edge(B, A, "supersedes") (write/hygiene.py `deprecate`). Erasing B (`memory_delete` with confirm) used to leave A
pointing at an id nobody can read: search flagged A "not current" because of nothing, and the chain walk
(retrieval/successors.py, retrieval/supersession.py) ended on a missing id. `repair_successors` runs inside the
delete's transaction, under the namespace's lock, before B's row and edges go, for every memory B replaced:

* B was itself replaced by C (B's own `superseded_by`, a memory of the namespace): A now points at C (it stays
  deprecated; an Edge(C, A, "supersedes"); history `relink`). What replaced A's fact is still stored.
* B was the end of its chain: nothing stored replaces A's fact any more - the correction was erased, as if it had
  never been written - so a deprecated A is current again: status active, the importance it had before the
  deprecation, the deprecation fields gone; history `reinstate`, naming B as hard-deleted (its id only: history
  keeps that B existed, write/erase.py). A that is not deprecated (forgotten or quarantined since) keeps its status
  and only loses the link.

A soft delete (`memory_forget`) keeps B's row, so A's link still names a readable memory: it is left as it is.

A person may also put A back by hand (attack round 40: `memory_update` to active, the console's Restore, a review
approval): `restored_by_hand` makes that restore read as current - the deprecation fields go, the importance from
before the deprecation comes back unless the restore sets one, and the history note names the memory A no longer
defers to. The Edge(B, A, "supersedes") stays: it records that B once replaced A (nothing reads it as currency).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from hindsight.model import MemoryRecord, Status
from hindsight.storage.base import Edge, MemoryStore

#: the fields `deprecate` sets on the memory it retires
DEPRECATION_KEYS = ("superseded_by", "deprecated_at", "importance_before_deprecation")


def repair_successors(store: MemoryStore, deleted: MemoryRecord, *, actor: str, now: datetime) -> list[str]:
    """Re-point or reinstate each memory of `deleted`'s namespace whose `superseded_by` names it (see module doc);
    returns their ids. Call inside the delete's transaction, before the store deletes the row and its edges."""
    gone = deleted.id
    replaced = [e.dst for e in store.edges([gone], kinds=["supersedes"]) if e.src == gone and e.dst != gone]
    successor = _successor(store, deleted)
    repaired = []
    for old_id in dict.fromkeys(replaced):
        old = store.get(old_id)
        if old is None or old.namespace != deleted.namespace or old.metadata.get("superseded_by") != gone:
            continue
        if successor is not None and successor != old_id:
            _relink(store, old, successor, gone, actor=actor, now=now)
        else:
            _unlink(store, old, gone, actor=actor, now=now)
        repaired.append(old_id)
    return repaired


def _successor(store: MemoryStore, deleted: MemoryRecord) -> str | None:
    """The memory that replaced the deleted one, when it is stored in the same namespace."""
    nxt = str(deleted.metadata.get("superseded_by") or "")
    found = store.get(nxt) if nxt and nxt != deleted.id else None
    return found.id if found is not None and found.namespace == deleted.namespace else None


def _relink(store: MemoryStore, old: MemoryRecord, successor: str, gone: str, *, actor: str, now: datetime) -> None:
    metadata = {**old.metadata, "superseded_by": successor}
    update: dict[str, object] = {"metadata": metadata, "updated_at": now}
    if old.status == Status.deprecated:
        update["status_reason"] = f"superseded by {successor}"
    store.replace(MemoryRecord.model_validate(old.model_copy(update=update).model_dump()), None, actor=actor,
                  action="relink", note=f"its replacement {gone} was hard-deleted; {successor} replaced that one")
    store.add_edge(Edge(successor, old.id, "supersedes", created_at=now))


def _unlink(store: MemoryStore, old: MemoryRecord, gone: str, *, actor: str, now: datetime) -> None:
    metadata = {k: v for k, v in old.metadata.items() if k not in DEPRECATION_KEYS}
    update: dict[str, object] = {"metadata": metadata, "updated_at": now}
    action = "unlink"
    if old.status == Status.deprecated:
        before = old.metadata.get("importance_before_deprecation")
        importance = float(before) if isinstance(before, int | float) and 0.0 <= before <= 1.0 else old.importance
        update.update(status=Status.active, status_reason="", importance=importance)
        action = "reinstate"
    store.replace(MemoryRecord.model_validate(old.model_copy(update=update).model_dump()), None, actor=actor,
                  action=action, note=f"its replacement {gone} was hard-deleted; nothing stored replaces it now")


def restored_by_hand(current: MemoryRecord, changes: dict[str, Any]) -> str:
    """A deprecated memory an update makes active again: drop the deprecation fields from `changes["metadata"]`, bring
    back the importance it had before the deprecation (unless `changes` sets one); returns the history note's part
    ("" when `changes` is no such restore). Mutates `changes`."""
    if current.status != Status.deprecated or changes.get("status") != Status.active:
        return ""
    metadata: dict[str, Any] = changes.get("metadata", current.metadata)
    gone = metadata.get("superseded_by")
    changes["metadata"] = {k: v for k, v in metadata.items() if k not in DEPRECATION_KEYS}
    before = current.metadata.get("importance_before_deprecation")
    if "importance" not in changes and isinstance(before, int | float) and not isinstance(before, bool) \
            and 0.0 <= before <= 1.0:
        changes["importance"] = float(before)
    return f"restored by hand: no longer superseded by {gone}" if gone else "restored by hand"
