"""Write-time hygiene: dedup, override (deprecate the old fact) and supplement links.

`HygieneChecker` implements the write pipeline's `Hygiene` protocol:

* `check` looks up the nearest *active* memories of the same namespace
  (`store.dense_search`, 5 candidates), and asks `conflict.classify` about each
  one whose similarity falls in the calibrated band;
* `apply` carries the decision out: a duplicate refreshes the existing memory
  (access count +1, updated_at = now, event_time = the later one, importance = max,
  tags merged) instead of
  storing a second copy; an override deprecates the old memory (importance
  0.1, the original kept in metadata, `superseded_by`, an Edge(new, old,
  "supersedes"), history keeps every version); a supplement links
  Edge(new, old, "supplements").

Which memory types meet: working memory takes no part (it is the live
session, not a fact base). A duplicate needs the same type (a semantic memory
that generalises an episode must not be swallowed by that episode), except
a semantic memory's very text written again as an episode (round 34). An
override may cross episodic <-> semantic (a semantic correction retires an
episodic fact and vice versa) but warnings only meet warnings. A new memory
may not retire one asserted with clearly more credibility (an external
page cannot deprecate what the user said): that becomes a supplement link.

The pair verdict comes from `judge.classify`; thresholds from `thresholds`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import numpy as np

from hindsight.field_rules import MAX_TAGS, utcnow
from hindsight.llm import LLMClient
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.storage.base import Edge, MemoryStore, Scope
from hindsight.write import (
    contact_slot,
    correction,
    episode_series,
    pair_memo,
    secret_slot,
    two_parties,
    value_digests,
)
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.fact_vectors import FactVectorCache, fact_vectors, query_similarity, query_vectors
from hindsight.write.judge import CUE_FLOOR, classify
from hindsight.write.occurrences import distinct_occurrences
from hindsight.write.slot_change import nearest_other
from hindsight.write.slot_change import overrides as slot_overrides
from hindsight.write.supersede import (
    EARLIER_EVENT,
    NEAR,
    WIDE,
    change_signalled,
    explicit_change,
    retarget,
    wide_candidates,
)
from hindsight.write.thresholds import (
    DEFAULT_MODEL,
    THRESHOLDS_FILE,
    Band,
    HygieneThresholds,
)
from hindsight.write.verdict_fold import fold, less_credible

#: texts longer than this are compared whole (exact duplicate or kept apart), not judged by the lexical analysis
MAX_JUDGED_CHARS = 4_000

__all__ = [
    "DEFAULT_MODEL",
    "THRESHOLDS_FILE",
    "Band",
    "FactVectorCache",
    "HygieneChecker",
    "HygieneThresholds",
    "deprecate",
    "fact_vectors",
    "query_similarity",
]

#: Importance a deprecated memory keeps (the seed: superseded facts sink to 0.1).
DEPRECATED_IMPORTANCE = 0.1
#: Metadata keys listing memories a new one was built from (consolidation): hygiene never
#: dedups or deprecates against its own sources.
SOURCE_KEYS = ("consolidated_from", "merged_from")


def _consolidation_keeps(old: MemoryRecord, verdict: Verdict | None = None, new: MemoryRecord | None = None) -> bool:
    """Whether a consolidation output leaves `old` alone: an episode always; another output when the verdict would
    retire it (a restatement still deduplicates into it); any memory newer than the output's sources (its
    `event_time`, consolidate_currency.py) when the verdict would retire it: older content never supersedes a
    newer memory (round 47)."""
    if old.type == MemoryType.episodic:
        return True
    if verdict is None or verdict.label != "override":
        return False
    return (any(old.metadata.get(k) for k in SOURCE_KEYS)
            or (new is not None and new.event_time is not None and old.reference_time > new.event_time))


EVENT_GAP = timedelta(days=1)


def _separate_events(old: MemoryRecord, new: MemoryRecord) -> bool:
    """`_two_events`, unless two standalone records (no session: not conversation turns) a day or more apart and
    the new one says in so many words that the older one changed ("moved to April 17", "the trip is cancelled",
    "改签", "推迟到"): a rescheduled or called-off plan is a change of that plan, not a second event
    (`supersede.explicit_change`). Turns of conversations stay events, only ever linked.
    Two occurrences of one kind (two failures, the fifth report of a recurring incident, two runs of a job:
    `occurrences.distinct_occurrences`) are separate too."""
    if distinct_occurrences(old, new):
        return True
    if not _two_events(old, new):
        return False
    return bool(old.session_id or new.session_id) or not explicit_change(new.content)


def _two_events(old: MemoryRecord, new: MemoryRecord) -> bool:
    """Two episodic records of different sessions, two different turns or steps of one session, or records
    of times more than a day apart, are two events.

    An event happened; a later event does not make it untrue or redundant ("we went hiking" in May and
    in July are two hikes), so such pairs are only ever linked, never merged or deprecated.
    """
    if old.type != MemoryType.episodic or new.type != MemoryType.episodic:
        return False
    if old.session_id and new.session_id and old.session_id != new.session_id:
        return True
    if old.session_id and old.session_id == new.session_id and old.content.strip() != new.content.strip():
        return True  # two turns or steps of one session are two things said (a re-sent one is still a duplicate)
    return bool(old.event_time and new.event_time and abs(old.event_time - new.event_time) > EVENT_GAP)



#: how much less credible a new memory may be than one it retires (an external page cannot deprecate what the
#: user said; consolidation's merge keeps the same rule, attack round 30)
MAX_CREDIBILITY_DROP = 0.3

class HygieneChecker:
    """Dedup and conflict detection against what is stored (the pipeline's `Hygiene`)."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Any | None = None,
        thresholds: HygieneThresholds | None = None,
        llm: LLMClient | None = None,
        clock: Callable[[], datetime] = utcnow,
        candidates: int = 5,
        max_credibility_drop: float = MAX_CREDIBILITY_DROP,
        wide: bool = True,
    ) -> None:
        self.store = store
        self.embedder = embedder
        name = getattr(embedder, "name", None) or store.embedding_model
        self.thresholds = thresholds or HygieneThresholds.for_model(name)
        self.llm = llm
        self.clock = clock
        self.candidates = candidates
        self.wide = wide  # the wide search for an older version when the new text signals a change
        self.max_credibility_drop = max_credibility_drop
        self._fact_cache = FactVectorCache()
        # candidates from here on are judged (under the band only an explicit switch cue counts)
        self.floor = min(self.thresholds.conflict_low, CUE_FLOOR)

    def remember_fact(self, fact_text: str, vector: np.ndarray) -> None:
        """The fact vector of a record about to be checked, computed by the write path (`_embed_late`)."""
        self._fact_cache.put(fact_text, np.asarray(vector, dtype=np.float32))

    # ------------------------------------------------------------------ check
    def check(self, record: MemoryRecord, embedding: np.ndarray) -> HygieneDecision:
        """Compare a new (not yet stored) record with its nearest active neighbours. The judge's readings of the
        write's pairs are kept for this write and dropped when it is decided (`write.pair_memo`)."""
        with pair_memo.scope():
            return self._check(record, embedding)

    def _check(self, record: MemoryRecord, embedding: np.ndarray) -> HygieneDecision:
        if not correction.is_correction(record):
            return self._judged(record, embedding, correction.Gathered())
        seen = correction.Gathered()
        decision = self._judged(record, embedding, seen)
        return correction.settle(decision, record, seen, self.thresholds.conflict_low)

    def _judged(self, record: MemoryRecord, embedding: np.ndarray, seen: correction.Gathered) -> HygieneDecision:
        """The decision on a new record; `seen` gets the near candidates judged, with their fact cosines (a user
        correction's contract reads them: write/correction.py)."""
        if record.type == MemoryType.working or record.status != Status.active or record.encrypted:
            return HygieneDecision()  # private memories are never merged with (or into) plain ones
        scope = Scope(namespace=record.namespace, statuses=(Status.active,),
                      types=tuple(t for t in MemoryType if t != MemoryType.working))
        near = self.store.dense_search(scope, embedding, self.candidates)
        seen.nearest = max((float(sim) for mid, sim in near if mid != record.id), default=None)
        hits = [(mid, float(sim)) for mid, sim in near if mid != record.id and sim >= self.floor]
        wide: list[tuple[str, float]] = []
        if self.wide and change_signalled(record.content):
            # the new text says something changed: look for the older version further back (`write.supersede`)
            wide = wide_candidates(self.store, scope, embedding, record.content,
                                   {record.id, *(mid for mid, _ in near)}, self.floor)
        if not hits and not wide:
            return HygieneDecision()
        existing = self.store.get_many([mid for mid, _ in hits + wide])
        hits = self._fact_similarities(record, embedding, hits, existing)
        wide = self._fact_similarities(record, embedding, wide, existing) if wide else []
        self._prefetch_query_vectors(record, [existing[mid] for mid, _ in hits + wide
                                              if mid in existing and not _separate_events(existing[mid], record)])
        excluded = {str(x) for key in SOURCE_KEYS for x in (record.metadata.get(key) or [])}
        # consolidation's output generalises episodes; it never retires one (its own sources or any other), nor
        # another consolidation output - the merge pass judges those, frame-aware (consolidate_frame.py): a
        # same-template memory of another topic read as "changed" by it was lost
        consolidated = bool(excluded)
        decision = HygieneDecision()
        reasons: list[str] = []
        judged: list[tuple[MemoryRecord, Verdict, int]] = []
        nearest = next((mid for mid, _ in near if mid != record.id), None)
        for mid, sim in hits:
            old = existing.get(mid)
            if (old is None or old.id in excluded or old.namespace != record.namespace or old.encrypted
                    or old.status != Status.active or old.type == MemoryType.working
                    or (consolidated and _consolidation_keeps(old))):
                continue
            verdict = self.judge(old, record, sim)
            if mid == nearest and verdict.label in ("supplement", "unrelated") and self.wide:
                # the judge kept the nearest neighbour: the same slot with a change cue still retires it
                why = slot_overrides(old, record, sim, partial(nearest_other, self.store, scope, mid))
                verdict = Verdict("override", f"{why} (judge: {verdict.reason})", 0.5) if why else verdict
            if consolidated and _consolidation_keeps(old, verdict, record):
                continue
            seen.candidates.append(correction.Candidate(old, sim, verdict))
            # a plan changed across days needs the evidence of a far candidate (`supersede.retarget`)
            judged.append((old, verdict, EARLIER_EVENT if _two_events(old, record) else NEAR))
        for mid, sim in wide:  # further back: only a change counts (never merged into or linked from afar)
            old = existing.get(mid)
            if (old is None or old.id in excluded or old.namespace != record.namespace or old.encrypted
                    or old.status != Status.active or old.type == MemoryType.working
                    or (consolidated and _consolidation_keeps(old)) or _separate_events(old, record)):
                continue
            verdict = self.judge(old, record, sim)
            if verdict.label == "override" and not (consolidated and _consolidation_keeps(old, verdict, record)):
                judged.append((old, verdict, WIDE))
        # one write merges into, or supersedes, at most one memory, and it should be the right one: the one that
        # holds the value the new text leaves, then the surest (the pair model's probability) (`supersede.retarget`)
        for old, verdict in retarget(record.content, judged):
            self._fold(decision, reasons, old, record, verdict)
        decision.reason = "; ".join(reasons)
        return decision

    def _fact_similarities(self, record: MemoryRecord, embedding: np.ndarray, hits: list[tuple[str, float]],
                           existing: dict[str, MemoryRecord]) -> list[tuple[str, float]]:
        """The candidates' cosines to the new record as facts, when session context inflated the stored ones.

        Found by the stored vectors (good for recall), judged by vectors of the facts: otherwise two
        consecutive turns of one conversation look like restatements of each other.
        """
        found = [existing[mid] for mid, _ in hits if mid in existing]
        if self.embedder is None or not (record.has_session_context or any(r.has_session_context for r in found)):
            return hits
        stored = {record.id: np.asarray(embedding, dtype=np.float32)}
        stored.update(self.store.get_embeddings([r.id for r in found if not r.has_session_context]))
        vectors = fact_vectors(self.embedder, [record, *found], stored, self._fact_cache)
        sims = {r.id: float(vectors[i + 1] @ vectors[0]) for i, r in enumerate(found)}
        return [(mid, sims[mid]) for mid, _ in hits if mid in sims and sims[mid] >= self.floor]

    def _prefetch_query_vectors(self, record: MemoryRecord, olds: list[MemoryRecord]) -> None:
        """Encode the query-side texts the restatement judge will read in one batched call (the
        embedder's query cache then serves `query_similarity`), instead of one call per text."""
        batch = getattr(self.embedder, "embed_queries", None)
        if self.thresholds.restatement is None or batch is None or not olds:
            return
        batch([record.content, *(old.content for old in olds)])

    def judge(self, old: MemoryRecord, new: MemoryRecord, similarity: float) -> Verdict:
        """The pair verdict (LLM when configured, else the calibrated heuristic and restatement model).

        Long texts (documents, logs, pasted blobs) are not judged clause by clause: the lexical analysis grows
        with the text, and a wrong merge or deprecation of a document loses more than it saves. Only the same
        text (after whitespace) merges; anything else is kept."""
        if max(len(old.content), len(new.content)) > MAX_JUDGED_CHARS:
            if " ".join(old.content.split()) == " ".join(new.content.split()):
                return Verdict("duplicate", "the same long text")
            return Verdict("unrelated", f"long texts (over {MAX_JUDGED_CHARS} characters) are kept apart")
        # The restatement model decides duplicate-or-not; two separate events are never merged (`_fold` links
        # them at most), so for them it is not consulted and their texts are not encoded query-side.
        vectors = None if _separate_events(old, new) else query_vectors(
            self.embedder, self.thresholds, old.content, new.content)
        verdict = classify(old.content, new.content, similarity, self.thresholds, self.llm,
                           query_similarity=None if vectors is None else float(vectors[0] @ vectors[1]),
                           query_vectors=vectors, types=(old.type.value, new.type.value))
        verdict = value_digests.adjust(verdict, old, new)  # redacted values equal or changed (keyed digests)
        verdict = secret_slot.rewritten(verdict, old, new)  # a redacted secret written again (round 46)
        verdict = contact_slot.rewritten(verdict, old, new)  # a redacted contact value changed (round 47)
        verdict = two_parties.kept(verdict, old.content, new.content)  # another person / two values (round 46c)
        return episode_series.kept(verdict, old.content, new.content)  # two episodes of one series

    def _fold(self, decision: HygieneDecision, reasons: list[str], old: MemoryRecord, new: MemoryRecord,
              verdict: Verdict) -> None:
        fold(decision, reasons, old, new, verdict, _separate_events, self.max_credibility_drop)

    # ------------------------------------------------------------------ apply
    def apply(self, record: MemoryRecord, decision: HygieneDecision, actor: str,
              vector: np.ndarray | None = None) -> None:
        """Refresh the duplicate, or deprecate/link the older memories (the new one is stored by then).

        A duplicate whose new text says more (`HygieneDecision.adopt_text`, with the new record's `vector`) takes
        that text and vector; history keeps the version it replaces."""
        now = self.clock()
        winner = decision.duplicate_of or record.id
        if decision.duplicate_of is not None:
            adopt = vector if decision.adopt_text else None
            self._refresh(decision.duplicate_of, record, decision.reason, actor, now, adopt)
        for old_id in decision.supersedes:
            self._deprecate(old_id, winner, decision.reason, actor, now)
        if decision.duplicate_of is None:
            for old_id in decision.supplements:
                self.store.add_edge(Edge(record.id, old_id, "supplements", created_at=now))

    def _refresh(self, memory_id: str, record: MemoryRecord, reason: str, actor: str, now: datetime,
                 vector: np.ndarray | None = None) -> None:
        existing = self.store.get(memory_id)
        if existing is None:
            return
        metadata = dict(existing.metadata)
        update: dict[str, Any] = {}
        if vector is not None and record.content != existing.content:  # the new text says more: it is current
            update["content"] = record.content
            metadata["restated_from"] = existing.content[:500]
        metadata["restated_count"] = int(metadata.get("restated_count", 0)) + 1
        metadata["last_restated_at"] = now.isoformat()
        # a less credible restatement counts, but adds no tags to what a more credible source said (attack round 30)
        tags = existing.tags if less_credible(record, existing) else list(dict.fromkeys(existing.tags + record.tags))
        tags = tags[:MAX_TAGS]
        event_time = existing.event_time
        if record.event_time is not None and (event_time is None or record.event_time > event_time):
            event_time = record.event_time  # re-confirmed later: decay counts from the newer sighting
        refreshed = existing.model_copy(update={
            "event_time": event_time,
            "access_count": existing.access_count + 1,
            "last_accessed_at": now,
            "updated_at": now,
            "importance": max(existing.importance, record.importance),
            "credibility": max(existing.credibility, record.credibility),
            "tags": tags,
            "metadata": metadata,
            **update,
        })
        kept = MemoryRecord.model_validate(refreshed.model_dump())
        kept.value_digests = record.value_digests if update else existing.value_digests  # the text it holds
        self.store.replace(kept, vector if update else None, actor=actor, action="dedup_refresh", note=reason[:500])

    def _deprecate(self, old_id: str, new_id: str, reason: str, actor: str, now: datetime) -> None:
        deprecate(self.store, old_id, new_id, reason, actor, now)


def deprecate(store: MemoryStore, old_id: str, new_id: str, reason: str, actor: str, now: datetime) -> bool:
    """Retire `old_id` in favour of `new_id`: status deprecated, importance 0.1 (the original kept in
    metadata), `superseded_by`, an Edge(new, old, "supersedes"); history keeps the old version.

    Returns False (and changes nothing) when the old memory is missing or no longer active.
    """
    old = store.get(old_id)
    if old is None or old.status != Status.active:
        return False
    metadata = dict(old.metadata)
    metadata["superseded_by"] = new_id
    metadata["importance_before_deprecation"] = old.importance
    metadata["deprecated_at"] = now.isoformat()
    deprecated = old.model_copy(update={
        "status": Status.deprecated,
        "status_reason": f"superseded by {new_id}",
        "importance": min(old.importance, DEPRECATED_IMPORTANCE),
        "updated_at": now,
        "metadata": metadata,
    })
    # the retired memory's own history names its successor first: the write's reason reads "supersedes <this id>"
    # from the new memory's side, which told an agent reading this history nothing about the newer one (ux round 45)
    note = reason if new_id in reason else f"superseded by {new_id}: {reason.removeprefix(f'supersedes {old_id}: ')}"
    store.replace(MemoryRecord.model_validate(deprecated.model_dump()), None, actor=actor,
                  action="deprecate", note=note[:500])
    store.add_edge(Edge(new_id, old_id, "supersedes", created_at=now))
    return True
