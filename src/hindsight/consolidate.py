"""Consolidation: recurring episodes become semantic memories; near-duplicate semantics merge.

`Consolidator.run(namespace)` does two passes over one namespace:

1. **Promote.** Active episodic memories are clustered (cosine >= the
   calibrated per-script `cluster` threshold *and* the pair judged a
   restatement or a supplement by `conflict.classify`: overrides and
   same-topic different facts never join a cluster; and, where a linked group
   is several topics told in one template, the pair sharing content words
   beyond that frame, `consolidate_frame.py`), by average-linkage
   agglomeration over that link graph. Every cluster of >= 2 episodes - a
   recurring experience - yields one semantic memory, linked
   Edge(new, source, "derived_from") to each source. Sources stay episodic and
   active. Idempotent: a cluster any of whose members already has a
   derived_from edge is not promoted again; its new members are linked to the
   existing semantic memory (followed through `superseded_by` when that one
   was merged since) instead.
2. **Merge.** Active semantic memories that are near-duplicates (judged
   duplicates, or supplements at dedup-level similarity) are merged into one
   more abstract semantic memory; the originals are deprecated with
   `superseded_by` (and an Edge(new, old, "supersedes")), their derived_from
   edges are carried over to the merged memory.

Round 47 (`consolidate_currency.py`): an episode a newer memory retired is no promotion source; a new memory is as
old as its newest source (`event_time`); a merge never writes a text that tells an old value with the new one over
a member that does not (`report.unmixed`).

Text of a new memory: the LLM when configured (and answering), else a
deterministic extractive merge: the cluster's medoid (the member closest to
all others) followed by the sentences of other members that add detail,
within a character budget (`consolidate_text.py`).

New memories go through a writer callable (`write(list[dict]) ->
list[WriteOutcome]`) so that the engine can route them through the guarded
write path (screening, redaction, hygiene); the default is a `WritePipeline`
with a `HygieneChecker` over the same store. The dicts are `MemoryInput`
fields; `metadata.consolidated_from` / `metadata.merged_from` name the
sources, which hygiene never dedups or deprecates against.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from hindsight.consolidate_currency import mixes, retired_sources
from hindsight.consolidate_frame import about_the_same
from hindsight.consolidate_text import MERGE_BUDGET, MERGE_PROMPT, PROMOTE_BUDGET, PROMOTE_PROMPT, compose, new_memory
from hindsight.embeddings.base import Embedder
from hindsight.field_rules import utcnow
from hindsight.llm import LLMClient
from hindsight.model import MemoryInput, MemoryRecord, MemoryType, Status
from hindsight.storage.base import Edge, MemoryStore, Scope
from hindsight.write.hygiene import (
    MAX_CREDIBILITY_DROP,
    HygieneChecker,
    HygieneThresholds,
    deprecate,
    fact_vectors,
    query_similarity,
)
from hindsight.write.judge import classify_rules
from hindsight.write.pipeline import WriteOutcome, WritePipeline

Writer = Callable[[list[dict[str, Any]]], list[WriteOutcome]]
Progress = Callable[[int, int], None]

PAGE = 500


@dataclass
class ConsolidationReport:
    """What one run found and did."""

    namespace: str
    episodic_scanned: int = 0
    semantic_scanned: int = 0
    retired_sources: list[str] = field(default_factory=list)  # episodes a newer memory retired: never promoted
    clusters_found: int = 0  # clusters of >= 2 related episodes
    clusters: list[list[str]] = field(default_factory=list)
    promoted_ids: list[str] = field(default_factory=list)  # new semantic memories from episodes
    already_promoted: int = 0  # clusters skipped because a semantic memory already derives from them
    extended: dict[str, list[str]] = field(default_factory=dict)  # semantic id -> sources linked this run
    merge_groups: list[list[str]] = field(default_factory=list)
    merged_ids: list[str] = field(default_factory=list)  # new merged semantic memories
    deprecated_ids: list[str] = field(default_factory=list)  # semantic originals superseded by a merge
    quarantined: list[str] = field(default_factory=list)  # outputs the write guard held back
    changed: list[list[str]] = field(default_factory=list)  # groups left: a member changed since the scan
    unmixed: list[list[str]] = field(default_factory=list)  # merge groups left: the text would mix old and new
    method: str = "extractive"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Consolidator:
    """Clusters, promotes and merges memories of one namespace (see the module docstring)."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        llm: LLMClient | None = None,
        clock: Callable[[], datetime] = utcnow,
        write: Writer | None = None,
        thresholds: HygieneThresholds | None = None,
        actor: str = "consolidator",
        min_cluster: int = 2,
        max_cluster: int = 50,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.llm = llm
        self.clock = clock
        self.thresholds = thresholds or HygieneThresholds.for_model(getattr(embedder, "name", None))
        self.actor = actor
        self.min_cluster = max(2, min_cluster)
        self.max_cluster = max_cluster
        # the write path's pair judge, read again for a source a newer memory linked to it (consolidate_currency.py)
        self.pair_judge = HygieneChecker(store, embedder, self.thresholds, llm, clock)
        if write is None:
            pipeline = WritePipeline(
                store=store, embedder=embedder, clock=clock,
                hygiene=HygieneChecker(store, embedder, self.thresholds, llm, clock),
            )
            write = lambda items: pipeline.write_many(
                [MemoryInput.model_validate(item) for item in items], self.actor)
        self.write = write

    # ------------------------------------------------------------------ run
    def run(self, namespace: str, progress: Progress | None = None) -> ConsolidationReport:
        """Promote recurring episodes, then merge near-duplicate semantic memories."""
        report = ConsolidationReport(namespace=namespace, method="llm" if self.llm is not None else "extractive")
        episodes = self._active(namespace, MemoryType.episodic)
        report.episodic_scanned = len(episodes)
        # a source whose statement a newer memory retired is never promoted (round 47: it came back as current)
        retired = retired_sources(self.store, namespace, episodes, self._changes)
        report.retired_sources = sorted(retired)
        episodes = [r for r in episodes if r.id not in retired]
        clusters = self._cluster(episodes, self._related)
        report.clusters = [[r.id for r in c] for c in clusters]
        report.clusters_found = len(clusters)
        semantics = self._active(namespace, MemoryType.semantic)
        merge_estimate = len(self._merge_groups(semantics)) if semantics else 0
        total = len(clusters) + merge_estimate
        done = 0
        if progress:
            progress(done, total)
        for cluster in clusters:
            self._promote(namespace, cluster, report)
            done += 1
            if progress:
                progress(done, total)
        semantics = self._active(namespace, MemoryType.semantic)
        report.semantic_scanned = len(semantics)
        groups = self._merge_groups(semantics)
        total = len(clusters) + len(groups)
        for group in groups:
            self._merge(namespace, group, report)
            done += 1
            if progress:
                progress(min(done, total), total)
        return report

    # ------------------------------------------------------------------ data
    def _active(self, namespace: str, memory_type: MemoryType) -> list[MemoryRecord]:
        scope = Scope(namespace=namespace, statuses=(Status.active,), types=(memory_type,))
        out: list[MemoryRecord] = []
        offset = 0
        while True:
            page = self.store.list(scope, limit=PAGE, offset=offset, newest_first=False)
            out.extend(r for r in page if not r.encrypted)  # private text never flows into a new (plain) memory
            if len(page) < PAGE:
                return out
            offset += PAGE

    def _vectors(self, records: Sequence[MemoryRecord]) -> np.ndarray:
        """Vectors of the facts (stored ones unless they also encode session neighbours)."""
        stored = self.store.get_embeddings([r.id for r in records if not r.has_session_context])
        return fact_vectors(self.embedder, records, stored)

    # ------------------------------------------------------------------ linking
    def _related(self, a: MemoryRecord, b: MemoryRecord, similarity: float) -> bool:
        """Two episodes belong to one recurring experience: restatement or compatible detail."""
        band = self.thresholds.for_pair(a.content, b.content)
        if similarity < band.cluster_threshold:
            return False
        return self._label(a, b, similarity) in ("duplicate", "supplement")

    def _changes(self, old: MemoryRecord, new: MemoryRecord) -> bool:
        """The write path's pair judge reads `new` as a change of `old`."""
        vectors = self._vectors([old, new])
        return self.pair_judge.judge(old, new, float(vectors[0] @ vectors[1])).label == "override"

    def _label(self, a: MemoryRecord, b: MemoryRecord, similarity: float) -> str:
        return classify_rules(a.content, b.content, similarity, self.thresholds,
                              query_similarity=query_similarity(self.embedder, self.thresholds, a.content, b.content)).label

    def _near_duplicate(self, a: MemoryRecord, b: MemoryRecord, similarity: float) -> bool:
        """Two semantic memories say the same thing (possibly one with more detail)."""
        band = self.thresholds.for_pair(a.content, b.content)
        if similarity < band.conflict_low:
            return False
        label = self._label(a, b, similarity)
        return label == "duplicate" or (label == "supplement" and similarity >= band.dedup)

    def _merge_groups(self, semantics: list[MemoryRecord]) -> list[list[MemoryRecord]]:
        """Near-duplicate semantic memories to merge, each group cut to the members within MAX_CREDIBILITY_DROP
        of its most credible one: a merge is as credible as its least credible member, so a writer's copy of a user
        memory retired the user's fact for a copy at 0.5 or 0.0, which hygiene refuses any write (attack round 30)."""
        out = []
        for group in self._cluster(semantics, self._near_duplicate):
            top = max(r.credibility for r in group)
            kept = [r for r in group if r.credibility >= top - MAX_CREDIBILITY_DROP]
            if len(kept) >= self.min_cluster:
                out.append(kept)
        return out

    def _cluster(self, records: list[MemoryRecord],
                 linked: Callable[[MemoryRecord, MemoryRecord, float], bool]) -> list[list[MemoryRecord]]:
        """Average-linkage agglomeration over the link graph, strongest pairs first.

        Two clusters join when at least half of the pairs between them are linked,
        so one chance link cannot chain unrelated groups together.
        """
        if len(records) < 2:
            return []
        vectors = self._vectors(records)
        floor = min(b.cluster_threshold for b in (self.thresholds.en, self.thresholds.zh))
        floor = min(floor, self.thresholds.conflict_low)
        pairs: list[tuple[float, int, int]] = []
        for start in range(0, len(records), 256):
            block = vectors[start : start + 256] @ vectors.T
            for bi, row in enumerate(block):
                i = int(start + bi)
                for hit in np.nonzero(row >= floor)[0].tolist():
                    if hit > i:
                        pairs.append((float(row[hit]), i, int(hit)))
        pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
        edges: set[tuple[int, int]] = set()
        for sim, a, b in pairs:
            if linked(records[a], records[b], sim):
                edges.add((a, b))
        # a template many records share is not what they are about (attack round 17, consolidate_frame.py)
        edges = about_the_same([r.content for r in records], edges, vectors,
                               lambda texts: self.embedder.embed_documents(texts), {(a, b) for _s, a, b in pairs})
        parent = list(range(len(records)))
        members: dict[int, list[int]] = {i: [i] for i in range(len(records))}

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for _sim, a, b in pairs:
            if (a, b) not in edges:
                continue
            ri, rj = find(a), find(b)
            if ri == rj or len(members[ri]) + len(members[rj]) > self.max_cluster:
                continue
            cross = [(min(x, y), max(x, y)) for x in members[ri] for y in members[rj]]
            if sum(1 for c in cross if c in edges) * 2 < len(cross):
                continue
            parent[rj] = ri
            members[ri].extend(members.pop(rj))
        groups = [sorted(m) for root, m in members.items() if len(m) >= self.min_cluster]
        groups.sort(key=lambda g: (-len(g), g[0]))
        return [[records[i] for i in g] for g in groups]

    # ------------------------------------------------------------------ promote
    def _existing_target(self, ids: list[str], namespace: str) -> tuple[str | None, set[str]]:
        """The active semantic memory already derived from any of `ids`, and the ids it covers."""
        edges = [e for e in self.store.edges(ids, ["derived_from"]) if e.dst in set(ids)]
        if not edges:
            return None, set()
        covered = {e.dst for e in edges}
        for edge in sorted(edges, key=lambda e: e.src):
            target = self._follow(edge.src, namespace)
            if target is not None:
                return target, covered
        return "", covered  # promoted before, but the result was forgotten/deleted: do not recreate it

    def _follow(self, memory_id: str, namespace: str) -> str | None:
        """The active memory `memory_id` became, along `superseded_by`, never leaving `namespace` (attack round 13:
        an older store may hold a caller-set `superseded_by` naming another namespace's memory)."""
        seen: set[str] = set()
        current = self.store.get(memory_id)
        while current is not None and current.id not in seen and current.namespace == namespace:
            seen.add(current.id)
            if current.status == Status.active:
                return current.id
            nxt = current.metadata.get("superseded_by")
            if current.status != Status.deprecated or not nxt:
                return None
            current = self.store.get(str(nxt))
        return None

    def _promote(self, namespace: str, cluster: list[MemoryRecord], report: ConsolidationReport) -> None:
        """The new memory and its derived_from edges commit together (one transaction; the namespace lock
        first, as every writer takes it before a transaction)."""
        with self.store.namespace_lock(namespace), self.store.transaction(namespace):
            self._promote_locked(namespace, cluster, report)

    def _changed(self, group: list[MemoryRecord], report: ConsolidationReport) -> bool:
        """Whether a member was updated, forgotten, deprecated or erased since the scan (read again under the lock;
        attack round 33: another caller or server in between had its correction retired for a merge of the stale
        text, and an erased episode's text written into a new memory); such a group is left for the next run."""
        if all((now := self.store.get(r.id)) is not None and now.updated_at == r.updated_at and now.status == r.status
               for r in group):
            return False
        report.changed.append([r.id for r in group])
        return True

    def _promote_locked(self, namespace: str, cluster: list[MemoryRecord], report: ConsolidationReport) -> None:
        ids = [r.id for r in cluster]
        if self._changed(cluster, report):
            return
        target, covered = self._existing_target(ids, namespace)
        now = self.clock()
        if target is not None:
            report.already_promoted += 1
            fresh = [i for i in ids if i not in covered]
            if target and fresh:
                for source_id in fresh:
                    self.store.add_edge(Edge(target, source_id, "derived_from", created_at=now))
                report.extended.setdefault(target, []).extend(fresh)
            return
        text, method = compose(cluster, PROMOTE_PROMPT, PROMOTE_BUDGET, self.llm, self._vectors)
        report.method = method if method == "llm" else report.method
        outcome = self.write([new_memory(cluster, text, method, "consolidated_from", namespace)])[0]
        if outcome.action == "quarantined":
            report.quarantined.append(outcome.memory_id)
            return
        for source_id in ids:
            self.store.add_edge(Edge(outcome.memory_id, source_id, "derived_from", created_at=now))
        if outcome.action == "duplicate":
            report.extended.setdefault(outcome.memory_id, []).extend(ids)
        else:
            report.promoted_ids.append(outcome.memory_id)

    # ------------------------------------------------------------------ merge
    def _merge(self, namespace: str, group: list[MemoryRecord], report: ConsolidationReport) -> None:
        """The merged memory, its edges and the deprecation of the originals commit together."""
        with self.store.namespace_lock(namespace), self.store.transaction(namespace):
            self._merge_locked(namespace, group, report)

    def _merge_locked(self, namespace: str, group: list[MemoryRecord], report: ConsolidationReport) -> None:
        ids = [r.id for r in group]
        if self._changed(group, report):
            return
        text, method = compose(group, MERGE_PROMPT, MERGE_BUDGET, self.llm, self._vectors)
        if mixes(text):
            # never retire a member that tells one value for a text that tells it with the one it replaced (round 47:
            # the clean "I now prefer bun over pnpm" merged into a promoted "... bun ... I prefer pnpm ...")
            clean = [r for r in group if not mixes(r.content)]
            if len(clean) < self.min_cluster or len(clean) == len(group):
                report.unmixed.append(ids)
                return
            group, ids = clean, [r.id for r in clean]
            text, method = compose(group, MERGE_PROMPT, MERGE_BUDGET, self.llm, self._vectors)
            if mixes(text):
                report.unmixed.append(ids)
                return
        report.merge_groups.append(ids)
        outcome = self.write([new_memory(group, text, method, "merged_from", namespace)])[0]
        if outcome.action == "quarantined":
            report.quarantined.append(outcome.memory_id)
            return
        merged_id = outcome.memory_id
        now = self.clock()
        derived = [e for e in self.store.edges(ids, ["derived_from"]) if e.src in set(ids)]
        for edge in derived:
            self.store.add_edge(Edge(merged_id, edge.dst, "derived_from", created_at=now))
        for old_id in ids:
            if old_id != merged_id and deprecate(self.store, old_id, merged_id,
                                                 f"merged into {merged_id} by consolidation", self.actor, now):
                report.deprecated_ids.append(old_id)
        if outcome.action != "duplicate":
            report.merged_ids.append(merged_id)
