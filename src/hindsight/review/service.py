"""Reviewed namespaces: an agent's changes to the knowledge base wait for a person.

The seed's growth path: once memory becomes a knowledge base that agents edit
themselves, a wrong edit is costly, so "Agent 的修改先进入待审核队列，确认无误后才
合并到主库". `ReviewService` is the write door of the MCP skin (the agents' door):

* in a namespace listed in `HINDSIGHT_REVIEWED_NAMESPACES`, `store`, `update`,
  `forget`, every event tool, session end (`store_many`) and consolidation are validated now (bad input fails at once, with the usual typed error)
  and recorded as proposals instead of being applied;
* elsewhere they go straight to the engine, exactly as before;
* a reviewer approves (the change is applied through the engine's normal write
  path, guard and hygiene included, with the proposer and reviewer in history)
  or rejects with a note, from the web console (`review.console`), the CLI
  (`hindsight review ...`) or the admin MCP tools.

The CLI and the Python API are the owner's own doors and write directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from hindsight.engine import MemoryEngine, refuse_leaving_quarantine, validated, without_sent_back
from hindsight.errors import AlreadyDecidedError, HindsightError, InvalidInputError, ambiguous_prefix
from hindsight.model import MemoryInput, MemoryPatch
from hindsight.present import memory_view
from hindsight.review.apply_once import change_landed, landed, store_once
from hindsight.review.claims import proposer_actor
from hindsight.review.queue import Proposal, ProposalNotFoundError, ReviewQueue, keyed_proposal_id
from hindsight.review.separation import refuse_own_approval, second_look_needed
from hindsight.review.version import check_unchanged_since, check_version, memory_version
from hindsight.security.claims import bind_changes
from hindsight.security.principal import Principal, Scope, principal_of
from hindsight.write import events
from hindsight.write.labels import session_label
from hindsight.write.screening import redact_payload

PENDING_MESSAGE = ("namespace '{namespace}' is reviewed: the change waits for a person to approve it "
                   "(web console /review, or `hindsight review list`)")


def parse_namespaces(raw: str | Iterable[str]) -> frozenset[str]:
    """'kb, team-wiki' or an iterable -> a set of namespace names."""
    items = raw.split(",") if isinstance(raw, str) else raw
    return frozenset(n.strip() for n in items if n and n.strip())


class ReviewService:
    """Routes MCP writes: applied directly, or proposed in a reviewed namespace; decides proposals."""

    def __init__(self, engine: MemoryEngine, queue: ReviewQueue, namespaces: Iterable[str] | str = (),
                 self_approval: bool | None = None) -> None:
        self.engine = engine
        self.queue = queue
        self.namespaces = parse_namespaces(namespaces)
        #: a proposer may approve its own proposal only where the deployment says so (review/separation.py)
        self.self_approval = engine.settings.review_self_approval if self_approval is None else self_approval

    def is_reviewed(self, namespace: str) -> bool:
        return namespace in self.namespaces

    # ------------------------------------------------------------------ the write door
    def store(self, data: MemoryInput | dict[str, Any], actor: str, reason: str = "",
              idempotency_key: str | None = None, relayed: bool = False, request: object = None) -> dict[str, Any]:
        """Store (or propose) one memory; with `idempotency_key` a repeat answers the first result.

        `relayed`: the server derived it from the agent's report (an event, a conversation), see security/claims.py.
        `request`: what the key stands for (default: the memory itself; an ingest passes its conversation).
        """
        item = self.engine.admit([validated(MemoryInput, data, "memory", top=True)], actor, relayed)[0]

        def write(memory_id: str | None) -> dict[str, Any]:
            if not self.is_reviewed(item.namespace):
                return self.engine.store_many([item], actor, [memory_id])[0].as_dict()
            # a keyed request's proposal takes an id derived from its key: the same request on two servers at once
            # is one proposal (attack round 12), as it is one memory where the id derived from the key collides
            return self._pending(self.queue.add(item.namespace, "store", self._redacted(item.model_dump(mode="json")),
                                                actor, reason=reason, private=item.private,
                                                proposal_id=keyed_proposal_id(memory_id) if memory_id else None))

        fingerprint = item.model_dump(mode="json") if request is None else request
        answer = self.engine.idempotent(item.namespace, idempotency_key, write, fingerprint)
        return self._as_decided(answer) if answer.get("replayed") else answer

    def _as_decided(self, answer: dict[str, Any]) -> dict[str, Any]:
        """A replayed proposal answers what became of it (attack round 13: after an approval the retry still said
        `pending_review` with no memory id): `approved` with the memory it wrote, or `rejected`."""
        proposal_id = answer.get("proposal_id")
        if answer.get("status") != "pending_review" or not isinstance(proposal_id, str):
            return answer
        try:
            proposal = self.queue.get(proposal_id, str(answer.get("namespace") or "") or None)
        except ProposalNotFoundError:
            return answer
        if proposal.status not in ("approved", "rejected"):
            return answer
        return {**answer, "status": proposal.status, "memory_id": proposal.result_memory_id,
                "message": f"proposal {proposal_id} was {proposal.status} by a reviewer"}

    def ingest(self, messages: list[Any], session_id: str, namespace: str, actor: str,
               idempotency_key: str | None = None) -> dict[str, Any]:
        """Conversation ingestion: every memory it keeps takes this door (proposed in a reviewed namespace)."""
        return self.engine.ingest(messages, session_id, namespace, actor, idempotency_key,
                                  write=lambda item, key, request: self.store(
                                      item, actor, "ingested from a conversation", key, relayed=True, request=request))

    def record_event(self, event: events.Event, actor: str, idempotency_key: str | None = None) -> dict[str, Any]:
        """The event tools take the same door as memory_store (review included)."""
        return self.store(events.to_input(event), actor, f"event: {type(event).__name__}", idempotency_key,
                          relayed=True)

    def store_many(self, items: list[dict[str, Any]], actor: str, reason: str = "",
                   relayed: bool = False) -> list[dict[str, Any]]:
        """Several stores through the same door (session end); validated together before any is written."""
        inputs = self.engine.admit([validated(MemoryInput, item, "memory", top=True) for item in items], actor, relayed)
        direct = [i for i in inputs if not self.is_reviewed(i.namespace)]
        written = iter([o.as_dict() for o in self.engine.store_many(direct, actor)] if direct else [])
        return [next(written) if not self.is_reviewed(i.namespace) else
                self._pending(self.queue.add(i.namespace, "store", self._redacted(i.model_dump(mode="json")), actor,
                                             reason=reason, private=i.private))
                for i in inputs]

    def consolidate(self, namespace: str, actor: str) -> dict[str, Any]:
        """A consolidation pass writes and deprecates memories: in a reviewed namespace it is proposed as a whole."""
        if not self.is_reviewed(namespace):
            return self.engine.consolidate(namespace, actor).as_dict()
        return self._pending(self.queue.add(namespace, "consolidate", {}, actor,
                                            reason="consolidation pass (promote and merge)"))

    def update(self, memory_id: str, updates: MemoryPatch | dict[str, Any], namespace: str, actor: str,
               reason: str = "") -> dict[str, Any]:
        patch = validated(MemoryPatch, updates, "updates")
        if not self.is_reviewed(namespace):
            record = self.engine.update(memory_id, patch, namespace, actor)
            # a quarantined memory's text is shown to admins of the namespace only (safety/withhold.py), here too
            reveal = principal_of(actor).allows(Scope.admin, namespace)
            return {"memory_id": record.id, "status": "updated", "memory": memory_view(record, reveal)}
        current = self.engine.get(memory_id, namespace, record_access=False)  # an unknown id fails now, not at review
        if patch.status is not None and patch.status != current.status:  # refused now, as without review
            refuse_leaving_quarantine(current, "updates.status")
        payload = self._redacted(without_sent_back(patch.model_dump(mode="json", exclude_unset=True), current))
        bind_changes(current, patch.model_dump(exclude_unset=True), actor)  # a credibility claim fails now
        return self._pending(self.queue.add(namespace, "update", payload, actor, memory_id, reason,
                                            private=current.encrypted))

    def forget(self, memory_id: str, reason: str, namespace: str, actor: str) -> dict[str, Any]:
        if not self.is_reviewed(namespace):
            record = self.engine.forget(memory_id, reason, namespace, actor)
            return {"memory_id": record.id, "status": record.status.value, "reason": record.status_reason}
        current = self.engine.get(memory_id, namespace, record_access=False)
        refuse_leaving_quarantine(current, "memory_id")
        reason = self.engine.writer.clean_note(reason, "reason")
        return self._pending(self.queue.add(namespace, "forget", {"reason": reason}, actor, memory_id, reason,
                                            private=current.encrypted))  # a private memory's reason waits sealed

    def _redacted(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Secrets never wait in the queue: a proposal keeps its text redacted as it would be stored (a rejected one
        is kept for good); the guard still judges it when it is applied. A session or task id holding a mailbox
        waits under the pseudonym it will be stored under (write/labels.py; attack round 27)."""
        out = redact_payload(payload, self.engine.writer.redactor)
        for key, field in (("session_id", "session"), ("source_task_id", "task")):
            if isinstance(out.get(key), str):
                out[key] = session_label(self.engine.store, out[key], field)
        return out

    @staticmethod
    def _pending(proposal: Proposal) -> dict[str, Any]:
        return {"status": "pending_review", "proposal_id": proposal.id, "action": proposal.action,
                "memory_id": proposal.memory_id, "namespace": proposal.namespace,
                "message": PENDING_MESSAGE.format(namespace=proposal.namespace)}

    # ------------------------------------------------------------------ review
    def pending(self, namespace: str | None = None, limit: int = 50, offset: int = 0) -> list[Proposal]:
        return self.queue.list(namespace, "pending", limit, offset)

    def decided(self, namespace: str | None = None, limit: int = 20) -> list[Proposal]:
        return [p for status in ("approved", "rejected") for p in self.queue.list(namespace, status, limit)]

    def reviewed_by(self, who: Principal, status: str = "pending", limit: int = 200) -> list[Proposal]:
        """The proposals of `status` in the namespaces `who` administers, read namespace by namespace (attack round
        32: the consoles read the store's oldest 200 and kept the caller's, so one reviewed namespace's writer who
        queued 200 proposals hid every later proposal of every other namespace from its reviewers). Pending ones
        oldest first, decided ones newest first; `who` over '*' reads the store's."""
        def page(namespace: str | None) -> list[Proposal]:
            return self.pending(namespace, limit) if status == "pending" else self.queue.list(namespace, status, limit)

        if who.allows(Scope.admin, None):
            return page(None)
        found = [p for ns in sorted(who.namespaces) if who.allows(Scope.admin, ns) for p in page(ns)]
        if status == "pending":
            return sorted(found, key=lambda p: (p.proposed_at, p.id))[:limit]
        return sorted(found, key=lambda p: (-(p.reviewed_at or p.proposed_at), p.id))[:limit]

    def resolve_id(self, proposal_id: str) -> str:
        """A whole proposal id, or the one proposal whose id starts with it; several matches or none are an error
        naming the field `proposal_id`."""
        wanted = proposal_id.strip()
        if not wanted:
            raise InvalidInputError("proposal_id: must be a non-empty string")
        matches: list[str] = []
        offset = 0
        while True:
            page = self.queue.list(None, None, 500, offset)
            matches += [p.id for p in page if p.id.startswith(wanted)]
            if wanted in matches or len(page) < 500:
                break
            offset += 500
        if not matches:
            raise ProposalNotFoundError(wanted, field="proposal_id")
        if wanted in matches:
            return wanted
        if len(matches) > 1:
            raise ambiguous_prefix("proposal_id", wanted, matches, "proposals")
        return matches[0]

    def view(self, proposal: Proposal) -> dict[str, Any]:
        """The proposal plus the memory it would change as it is now (for a side-by-side look)."""
        out = proposal.as_dict()
        if proposal.memory_id:
            try:
                record = self.engine.get(proposal.memory_id, proposal.namespace, record_access=False)
                out["current"] = memory_view(record)
                out["current_version"] = memory_version(record)  # pass back as expected_version when deciding
            except HindsightError:
                out["current"] = None  # deleted since it was proposed: approving will fail with not_found
        return out

    def approve(self, proposal_id: str, reviewer: str, note: str = "", namespace: str | None = None,
                edits: dict[str, Any] | None = None, expected_version: str | None = None) -> dict[str, Any]:
        """Apply the change through the engine, then record the approval; on failure it stays pending.

        `edits` (edit-then-approve): fields the reviewer changed in the proposed store/update before applying it;
        the applied version (with the reviewer named) is what history keeps.
        `expected_version`: the `current_version` the reviewer was shown (review/version.py); when the memory has
        changed since, the approval is a `version_conflict` and the proposal stays pending.
        """
        note = self.engine.writer.clean_note(note, "note")
        pending = self.queue.get(proposal_id, namespace)
        refuse_own_approval(pending, reviewer, self.self_approval)
        if edits and pending.action != "forget" and second_look_needed(reviewer, self.self_approval):
            return self._resubmit(pending, reviewer, note, edits)
        proposal = self.queue.claim(proposal_id)
        actor = f"{proposal.proposed_by} (approved by {reviewer})"
        if edits:
            if proposal.action == "forget":
                self.queue.release(proposal_id)
                raise InvalidInputError("edits: a forget proposal has nothing to edit; approve or reject it")
            proposal = replace(proposal, payload={**proposal.payload, **edits})
            actor = f"{proposal.proposed_by} (edited and approved by {reviewer})"
        try:
            result = self._apply(proposal, proposer_actor(actor, proposal), expected_version)
        except Exception:
            self.queue.release(proposal_id)
            raise
        decided = self.queue.decide(proposal_id, "approved", reviewer, note, result.get("memory_id"))
        return {"proposal": decided.as_dict(), "result": result}

    def _resubmit(self, proposal: Proposal, reviewer: str, note: str, edits: dict[str, Any]) -> dict[str, Any]:
        """Edit-then-approve by a reviewer who may not approve its own text (review/separation.py): the edited change
        is queued as the reviewer's proposal, for someone else to decide, and the original is rejected naming it."""
        private = bool(proposal.payload.get("private")) or (proposal.memory_id is not None and self.engine.get(
            proposal.memory_id, proposal.namespace, record_access=False).encrypted)
        # claimed first (attack round 18): a reviewer who loses the race for the original queues no edited copy
        self.queue.claim(proposal.id)
        try:
            edited = self.queue.add(proposal.namespace, proposal.action,
                                    self._redacted({**proposal.payload, **edits}), reviewer, proposal.memory_id,
                                    f"{reviewer} edited proposal {proposal.id}", private=private)
        except Exception:
            self.queue.release(proposal.id)
            raise
        rejected = self.queue.decide(proposal.id, "rejected", reviewer,
                                     note or f"replaced by the edited proposal {edited.id}", claimed=True)
        return {"proposal": rejected.as_dict(), "result": self._pending(edited)}

    def reject(self, proposal_id: str, reviewer: str, note: str = "", namespace: str | None = None) -> dict[str, Any]:
        note = self.engine.writer.clean_note(note, "note")
        proposal = self.queue.get(proposal_id, namespace)
        applied = landed(self.engine, proposal.id) if proposal.action == "store" else None
        if applied is not None:  # its approval was applied by a server that died before recording it (round 19)
            raise AlreadyDecidedError(
                f"proposal '{proposal.id}' (store in namespace '{proposal.namespace}') was already applied as memory "
                f"'{applied.id}' by an approval whose server stopped before recording it; nothing changed: approve "
                "it to record that, then forget the memory if it should not stay")
        changed = change_landed(self.engine, self.queue, proposal)
        if changed is not None:  # the same for an update or a forget (attack round 20)
            raise AlreadyDecidedError(
                f"proposal '{proposal.id}' ({proposal.action} of memory '{changed}' in namespace "
                f"'{proposal.namespace}') was already applied by an approval whose server stopped before recording it "
                "(the memory's history names it); nothing changed: approve it to record that, then change the memory "
                "again if it should not stay")
        return {"proposal": self.queue.decide(proposal_id, "rejected", reviewer, note).as_dict()}

    def _apply(self, proposal: Proposal, actor: str, expected_version: str | None = None) -> dict[str, Any]:
        if proposal.action == "store":  # once, also after a server died applying it (review/apply_once.py)
            return store_once(self.engine, validated(MemoryInput, proposal.payload, "memory"), actor, proposal.id)
        if proposal.action == "consolidate":
            return self.engine.consolidate(proposal.namespace, actor).as_dict()
        assert proposal.memory_id is not None
        current = self.engine.get(proposal.memory_id, proposal.namespace, record_access=False)  # erased: not_found
        if expected_version is None and change_landed(self.engine, self.queue, proposal) is None:
            # no version named: the one the proposal was made against (attack round 21); a change of its own that
            # landed unrecorded (a server died applying it, round 20) is no later change
            check_unchanged_since(current, self.engine.store.history(current.id), proposal.proposed_at, proposal.id)
        check_version(current, expected_version)
        # applied only over the version just checked (attack round 35: a change another server made between this check
        # and the write was overwritten; the engine checks it again on the version it computes the change from)
        checked = memory_version(current)
        if proposal.action == "update":
            record = self.engine.update(proposal.memory_id, proposal.payload, proposal.namespace, actor, checked)
            return {"memory_id": record.id, "status": "updated"}
        record = self.engine.forget(proposal.memory_id, str(proposal.payload.get("reason", "")),
                                    proposal.namespace, actor, checked)
        return {"memory_id": record.id, "status": record.status.value}
