"""Hard delete erases: after `memory_delete(confirm=true)` only the fact that the memory existed remains.

Attack round 5 found the text of a hard-deleted memory in five places: its own history snapshots (shown by
memory_history), the next turns of its session (`metadata.preceding_turn`, their keyword index and their
session-context vectors), decided proposals, and the SQLite write-ahead log / free pages. `erase` removes every
copy, in one transaction where the store allows it:

* the memory's row, vector, keyword entry and edges (the store's `delete`); a memory it replaced is re-pointed to
  its own successor or made current again (write/orphans.py: no `superseded_by` names a missing id);
* its history: every snapshot becomes a tombstone (id, namespace, type, when it was created; `erased: true`),
  every note but the delete's own is emptied;
* proposals that named it: their payload becomes `{"erased": true}`;
* the keyed request that wrote it (attack round 13): its fingerprint (a hash of the request, which confirms a
  guess of the erased text) is dropped, and its recorded result says the memory was erased, so a late retry with
  the same key answers that instead of "created, active" and does not write it again;
* the turns of its session that carried it as context: the context is recomputed from the turns that remain,
  re-indexed and re-embedded, and the context is dropped from their history snapshots - in the delete's own
  transaction, read under its lock (attack round 40: a kill between the two left the erased text in them, and
  another server's forget of a follower in between was written over);
* on SQLite the file is written with `secure_delete` (freed pages are zeroed), then the keyword index is merged
  (`optimize`: deleted terms leave its segments) and the write-ahead log is checkpointed and truncated.

PostgreSQL keeps dead row versions until VACUUM (autovacuum) reclaims them; see docs/security.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from hindsight.field_rules import SESSION_CONTEXT_KEY
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.storage.base import MemoryStore, Scope
from hindsight.write.orphans import repair_successors


class Writer(Protocol):
    """What `erase` needs of the write pipeline (`write.pipeline.WritePipeline`): its store, the session context
    width and its one write path for a change. A protocol, so this module does not import the pipeline (which
    imports it)."""

    store: MemoryStore
    session_context_turns: int

    @property
    def clock(self) -> Callable[[], datetime]: ...

    def apply_change(self, record: MemoryRecord, *, actor: str, action: str, note: str = "",
                     reembed: bool = False) -> Any: ...

#: how many turns of a session are read to find the erased turn's followers and their predecessors
MAX_SESSION_TURNS = 10_000


def tombstone(record: MemoryRecord | dict[str, Any]) -> dict[str, Any]:
    """What history keeps of an erased memory: that it existed, where, and of what kind."""
    data = record.model_dump(mode="json") if isinstance(record, MemoryRecord) else record
    return {"id": data.get("id"), "namespace": data.get("namespace"), "type": data.get("type"),
            "created_at": data.get("created_at"), "erased": True}


def erase(writer: Writer, memory_id: str, namespace: str, *, actor: str, note: str = "",
          check: Callable[[MemoryRecord], None] | None = None) -> MemoryRecord | None:
    """Hard-delete the memory and every copy of its text; returns it as it was, or None when it does not exist.

    `check` sees the memory as it is inside the namespace's write transaction and may refuse by raising: a
    decision read before it (its status, say) cannot be changed by another writer in between (attack round 16:
    a writer racing its own update into quarantine)."""
    store = writer.store
    with store.namespace_lock(namespace), store.transaction(namespace):  # not inside a decision (round 38)
        if check is not None:
            current = store.get(memory_id)
            if current is not None and current.namespace == namespace:
                check(current)
        target = store.get(memory_id)
        if target is not None and target.namespace == namespace:  # no superseded_by left naming it (round 39)
            repair_successors(store, target, actor=actor, now=writer.clock())
        deleted = store.delete(memory_id, actor=actor, note=note)
        if deleted is None:
            return None
        _scrub_history(store, memory_id, keep_last_note=True, snapshot=tombstone)
        _erase_keyed_requests(store, memory_id, namespace)
        store.proposals_erase(memory_id)
        # the followers in the same transaction, read under the lock (attack round 40: recomputed after the commit,
        # a kill in between left the erased text in their context, and another server's forget of one was undone)
        if deleted.session_id and deleted.type in (MemoryType.episodic, MemoryType.working):
            _recompute_followers(writer, deleted, actor)
    compact = getattr(getattr(store, "inner", store), "compact_erased", None)
    if callable(compact):
        compact()
    return deleted


#: the recorded result of a keyed request whose memory was hard-deleted (`write/idempotency.py` replays it)
ERASED_STATUS = "deleted"


def _erase_keyed_requests(store: MemoryStore, memory_id: str, namespace: str) -> None:
    """The keyed request that wrote the memory (or queued the proposal whose approval wrote it)."""
    proposals = set(store.proposals_naming(memory_id))
    rows = {key: result for ident in (memory_id, *sorted(proposals)) for key, result in store.idempotency_naming(
        namespace, ident)}
    for key, result in rows.items():
        try:
            recorded = json.loads(result)
        except ValueError:
            continue
        if not isinstance(recorded, dict) or not (recorded.get("memory_id") == memory_id
                                                  or recorded.get("proposal_id") in proposals):
            continue
        erased = {"memory_id": memory_id, "action": recorded.get("action", "created"), "status": ERASED_STATUS,
                  "reason": "erased by a hard delete after this request; nothing is written again",
                  "related_ids": [], "redactions": [], "supersedes": [], "erased": True}
        store.idempotency_erase(namespace, key, json.dumps(erased))


def _scrub_history(store: MemoryStore, memory_id: str, *, keep_last_note: bool, snapshot: Any) -> None:
    rows = store.history_snapshots(memory_id)
    for i, (seq, before, after, note) in enumerate(rows):
        last = i == len(rows) - 1
        new_before = None if before is None else json.dumps(snapshot(json.loads(before)), ensure_ascii=False)
        new_after = None if after is None else json.dumps(snapshot(json.loads(after)), ensure_ascii=False)
        store.history_rewrite(seq, new_before, new_after, note if (last and keep_last_note) else "")


def _without_context(data: dict[str, Any]) -> dict[str, Any]:
    metadata = {k: v for k, v in (data.get("metadata") or {}).items() if k != SESSION_CONTEXT_KEY}
    return {**data, "metadata": metadata}


def _recompute_followers(writer: Writer, deleted: MemoryRecord, actor: str) -> None:
    """The turns after the erased one whose context held it: context recomputed from the turns that remain."""
    store = writer.store
    assert deleted.session_id is not None
    scope = Scope(deleted.namespace, statuses=tuple(Status), session_id=deleted.session_id)
    turns = [t for t in store.list(scope, limit=MAX_SESSION_TURNS, newest_first=False)
             if t.type in (MemoryType.episodic, MemoryType.working)]
    for turn in turns:
        context = str(turn.metadata.get(SESSION_CONTEXT_KEY, ""))
        if not context or deleted.content not in context:
            continue
        earlier = [t.content for t in turns if t.created_at < turn.created_at and t.status == Status.active
                   and not t.encrypted][-writer.session_context_turns:] if writer.session_context_turns > 0 else []
        metadata = {k: v for k, v in turn.metadata.items() if k != SESSION_CONTEXT_KEY}
        if earlier:
            metadata[SESSION_CONTEXT_KEY] = " ".join(earlier)
        writer.apply_change(turn.model_copy(update={"metadata": metadata}), actor=actor, action="erase_context",
                            note="the preceding turn was erased: session context recomputed", reembed=True)
        with store.transaction(deleted.namespace):
            _scrub_history(store, turn.id, keep_last_note=True, snapshot=_without_context)
