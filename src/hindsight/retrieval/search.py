"""The search path: parse -> channels (dense, keyword, graph) -> RRF -> rerank -> priors.

The channels and their fusion are `channels`; the time-window steps of the first pass are `window_steps`; one hit's
score and explanation are `hit_score`.
Every hit carries an `Explanation` with each factor of its score.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from datetime import datetime

import numpy as np

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.model import MemoryRecord, Status
from hindsight.read_model import SearchHit
from hindsight.retrieval import bridge, channels, second_pass, time_window, topic_split, window_steps, xling_rerank
from hindsight.retrieval.aliases import AliasMap
from hindsight.retrieval.asked_current import asks_current, mark_asked_current
from hindsight.retrieval.asked_slot import mark_asked_slot
from hindsight.retrieval.class_lexicon import asks_list, instance_words
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.currency import mark_outdated
from hindsight.retrieval.expansion import bridge_words, fuse_words
from hindsight.retrieval.fusion import keep_dense_best
from hindsight.retrieval.hit_score import PHRASE_BOOST, SOFT_TIME_BOOST, score_hit
from hindsight.retrieval.note_change import mark_note_changes
from hindsight.retrieval.pair_change import mark_pair_changes
from hindsight.retrieval.pass_features import FirstPass
from hindsight.retrieval.query_parser import ParsedQuery, parse_query
from hindsight.retrieval.read_guard import annotate
from hindsight.retrieval.relevance import fact_model_for, for_hit, hit_features, model_for
from hindsight.retrieval.rerank import Reranker
from hindsight.retrieval.successors import pull_successors
from hindsight.retrieval.supersession import order_superseded
from hindsight.retrieval.value_slot import mark_value_changes
from hindsight.storage.base import MemoryStore, Scope
from hindsight.write.change_p import change_reader

__all__ = ["ALL_CHANNELS", "PHRASE_BOOST", "SOFT_TIME_BOOST", "HybridRetriever", "SearchOptions"]

ALL_CHANNELS = frozenset({"dense", "keyword", "graph", "crosslingual", "gloss", "translated", "rendered"})


@dataclass
class SearchOptions:
    """Per-call switches; the defaults are what ships, the benchmark flips them for ablations."""

    channels: Collection[str] = field(default_factory=lambda: set(ALL_CHANNELS))
    rerank: bool = True
    understand_query: bool = True
    use_priors: bool = True
    #: drop hits whose calibrated relevance is below this (0 keeps every hit)
    min_relevance: float = 0.0
    #: the second retrieval step (session neighbours + learned re-ranking), when settings turn it on
    second_pass: bool = True
    #: the learned re-ordering of a mixed-script pool's best hits (retrieval/xling_rerank.py), when fitted
    xling_rerank: bool = True


class HybridRetriever:
    """Owns the search path over one store and one embedder."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        settings: HindsightSettings,
        reranker: Reranker | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings
        self.reranker = reranker
        self._alias_maps: dict[str, tuple[tuple[int, ...], AliasMap]] = {}

    # ------------------------------------------------------------------ public
    def search(
        self,
        query: str,
        scope: Scope,
        top_k: int,
        now: datetime,
        options: SearchOptions | None = None,
    ) -> list[SearchHit]:
        options = options or SearchOptions()
        r = self.settings.retrieval
        # one internal depth for every top_k up to result_depth, cut last: top_k=5 is the head of top_k=10
        depth = max(top_k, r.result_depth)
        # a parsed filter widens when it holds fewer distinct memories than result_depth (test_widen_distinct.py);
        # one that holds enough for the depth but fewer than top_k keeps its memories first (retrieval/time_window.py)
        first, narrowed, widened = self.first_pass(query, scope, top_k, now, options)
        if not first.fused:
            return []
        step = self._second_pass(first, options)
        fused, records = (step.scores, step.records) if step else (first.fused, first.records)
        parsed = first.parsed
        scored = first.scored
        ordered = sorted((mid for mid in fused if mid in records), key=lambda mid: -fused[mid])

        rerank_scores = self._rerank(query, ordered, records, depth) if options.rerank else {}
        hits = [
            self._hit(records[mid], scored, fused[mid], rerank_scores.get(mid), parsed, now, options)
            for mid in ordered
        ]
        if step is not None:
            for hit in hits:
                learned = step.learned.get(hit.memory.id)
                hit.why.second_pass = round(learned, 6) if learned is not None else None
                hit.why.fused = round(first.fused.get(hit.memory.id, 0.0), 6)
                hit.why.expanded_from = step.expanded_from.get(hit.memory.id)
        hits.sort(key=lambda hit: -hit.score)
        if step is not None and parsed is not None:
            hits = self._topic_split(parsed, first, hits, records, fused, now, options)
            hits = self._expand(parsed, first, hits, fused, now, options)
            hits = self._instances(parsed, first, hits, fused, now, options)
        self._relevance(hits, scored, query, parsed, now)
        window_steps.filter_notes(hits, scope, narrowed, parsed, widened, first.scope)
        hits = [hit for hit in hits if hit.relevance >= options.min_relevance]
        # a widened window's memories are ordered as the window alone orders them, the rest of the scope after them
        hits, rest = time_window.split(hits, first.held, lambda hit: hit.memory.id)
        if "crosslingual" in scored and options.xling_rerank and len(hits) >= xling_rerank.POOL:
            hits = self._xling_reorder(parsed.residual if parsed else query, hits, first.vector)
        hits = keep_dense_best(hits, r.dense_slot_head, r.dense_slot) + rest
        hits = self._bridge(parsed.residual if parsed else query, first, hits, now, options) if r.bridge_slot else hits
        hits = self._successors(query, first, hits, top_k, now, options)  # a retired version's match: its successor
        # the currency window is the fixed depth whatever top_k asks for: a flag moves an older hit below the newer
        # one, so a wider window for a larger top_k would reorder the head (issue 10, round 20)
        neighbours = lambda vector, n, floor: self._neighbours(scope, vector, n, floor)  # noqa: E731
        hits = mark_outdated(order_superseded(hits, self.store.get_many), top_k, self._embeddings, neighbours,
                             depth=r.result_depth)
        hits = mark_asked_current(query, hits, self._embeddings, neighbours_of=neighbours)  # a present-tense question
        # a change told in a note; its nearest-neighbour check reaches retired memories (a note applied on write)
        retired_too = Scope(namespace=scope.namespace, statuses=(Status.active, Status.deprecated))
        hits = mark_note_changes(hits, self._embeddings, lambda vector, n, floor: self._neighbours(
            retired_too, vector, n, floor), r.result_depth)
        hits = mark_value_changes(hits, self._embeddings, neighbours, r.result_depth)  # one attribute, a new value
        # the write side's pair model reads a change between two hits of the head (off: pair_change.RULE)
        hits = mark_pair_changes(hits, self._embeddings, change_reader(self.embedder), neighbours, question=query)
        # the slot a present-tense question asks about, given a new value by a newer hit (off: asked_slot.RULE)
        hits = mark_asked_slot(query, hits, self._embeddings, neighbours_of=neighbours)
        return annotate(hits[:top_k])

    def first_pass(self, query: str, scope: Scope, top_k: int, now: datetime, options: SearchOptions
                   ) -> tuple[FirstPass, Scope, bool]:
        """Parse, run the channels (widening a filter that matched too little, or a time window that holds none of
        the strong text matches) and fuse them by RRF.

        Returns the first pass, the scope the channels ran in, and whether a parsed filter was widened.
        """
        parsed = parse_query(query, now) if options.understand_query else None
        text = parsed.residual if parsed else query
        if self.settings.retrieval.alias_expansion:  # role words followed by the names they denote (aliases.py)
            text = self._aliases(scope.namespace).expand(text, self.settings.retrieval.alias_expansion)
        narrowed = window_steps.narrow(scope, parsed, self.settings.retrieval)
        scored, vector = self._channels(text, narrowed, options)
        step = window_steps.widen(parsed, scope, narrowed, scored, top_k, self.settings.retrieval,
                                  lambda wider: self._channels(text, wider, options)[0],
                                  lambda lists: self._fuse(lists, text), self.store.get_many)
        records = self.store.get_many(list(step.fused)) if step.fused else {}
        first = FirstPass({mid: s for mid, s in step.fused.items() if mid in records}, records, step.scored, vector,
                          parsed, step.searched, step.held)
        return first, narrowed, step.widened

    def _aliases(self, namespace: str) -> AliasMap:
        """The namespace's alias map, read again when its memory counts change (a write, a status change)."""
        key = tuple(self.store.count(Scope(namespace=namespace, statuses=(status,))) for status in Status)
        cached = self._alias_maps.get(namespace)
        if cached is None or cached[0] != key:
            texts = (rec.content for rec in self.store.iter_all(namespace) if rec.status == Status.active)
            cached = self._alias_maps[namespace] = (key, AliasMap.build(texts))
        return cached[1]

    def _fuse(self, scored: dict[str, list[tuple[str, float]]], text: str) -> dict[str, float]:
        return channels.fuse(scored, text, self.settings.retrieval)

    def _second_pass(self, first: FirstPass, options: SearchOptions) -> second_pass.Reranked | None:
        """Widen and re-order the first pass (see `second_pass`) when it is on, a model is fitted, the first pass
        found a full pool and the step applies; None when the first pass stands."""
        r = self.settings.retrieval
        model = second_pass.model_for(self.embedder.name) if options.second_pass and r.second_pass else None
        if (model is None or first.held is not None or not second_pass.full_pool(first, r.second_pass_min_candidates)
                or not second_pass.applies(first, r.second_pass_expand_top)):
            return None
        return second_pass.rerank(first, self.store, model, r.second_pass_pool, r.second_pass_expand_top,
                                  r.second_pass_window, r.second_pass_feedback, r.second_pass_speaker,
                                  r.second_pass_speaker_depth, r.rrf_k)

    def _topic_split(self, parsed: ParsedQuery, first: FirstPass, hits: list[SearchHit],
                     records: dict[str, MemoryRecord], fused: dict[str, float], now: datetime,
                     options: SearchOptions) -> list[SearchHit]:
        """Give the last places of the top 10 to the named speaker's turns nearest the question without the
        names (see `topic_split`; per speaker when it names two); the hits unchanged when the query names no
        speaker of the candidates."""
        slots = self.settings.retrieval.topic_slots
        speakers = topic_split.named_speakers(parsed.names, first.records.values()) if slots > 0 else set()
        topic = topic_split.topic_text(parsed.residual, parsed.names) if speakers else None
        if topic is None:
            return hits
        r = self.settings.retrieval
        vector = self.embedder.embed_query(topic)
        each = topic_split.speaker_order(parsed.names, speakers) if r.topic_each > 0 else []
        if len(each) > 1:  # two speakers named: each gets places of its own
            lists, read = topic_split.topic_turns_each(self.store, first.scope, vector, each, r.dense_candidates,
                                                       records)
        else:
            best, read = topic_split.topic_turns(self.store, first.scope, vector, speakers, r.dense_candidates,
                                                 records)
        floor = min(fused.values(), default=0.0)

        def make_hit(mid: str) -> SearchHit | None:
            record = records.get(mid) or read.get(mid)
            return self._hit(record, first.scored, floor, None, parsed, now, options) if record else None

        if len(each) > 1:
            return topic_split.place_each(hits, lists, r.topic_each, make_hit)
        return topic_split.place(hits, best, slots, make_hit)

    def _expand(self, parsed: ParsedQuery, first: FirstPass, hits: list[SearchHit], fused: dict[str, float],
                now: datetime, options: SearchOptions) -> list[SearchHit]:
        """Fuse in the BM25 list of the words the best hits use and the question lacks (see `expansion`); the hits
        unchanged when `expansion_weight` is 0 or no such word is found."""
        r = self.settings.retrieval
        speakers = topic_split.named_speakers(parsed.names, first.records.values()) if r.expansion_speaker else None
        if r.expansion_weight <= 0 or not hits or speakers == set():
            return hits
        words = bridge_words([hit.memory.content for hit in hits[: r.expansion_hits]], parsed.residual, parsed.names,
                             [record.content for record in first.records.values()], r.expansion_words)
        return self._fuse_words(words, speakers, r.expansion_weight, parsed, first, hits, fused, now, options)

    def _instances(self, parsed: ParsedQuery, first: FirstPass, hits: list[SearchHit], fused: dict[str, float],
                   now: datetime, options: SearchOptions) -> list[SearchHit]:
        """A question asking for a list of a class ("What sports does John like?") gets the BM25 list of the
        class's instance words over the named speaker's turns fused in (see `class_lexicon`); the hits unchanged
        when `instance_weight` is 0, it asks for no list of a class or names no speaker."""
        weight = self.settings.retrieval.instance_weight
        if weight <= 0 or not hits or not asks_list(parsed.text):
            return hits
        speakers = topic_split.named_speakers(parsed.names, first.records.values())
        if not speakers:
            return hits
        words = instance_words(parsed.text)
        return self._fuse_words(words, speakers, weight, parsed, first, hits, fused, now, options)

    def _fuse_words(self, words: list[str], speakers: set[str] | None, weight: float, parsed: ParsedQuery,
                    first: FirstPass, hits: list[SearchHit], fused: dict[str, float], now: datetime,
                    options: SearchOptions) -> list[SearchHit]:
        """`expansion.fuse_words`, a turn the hits lack scored at the fused floor."""
        floor = min(fused.values(), default=0.0)
        return fuse_words(self.store, first.scope, words, speakers, weight, hits,
                          lambda record: self._hit(record, first.scored, floor, None, parsed, now, options))

    def _xling_reorder(self, text: str, hits: list[SearchHit], vector: np.ndarray | None) -> list[SearchHit]:
        """Re-order the best hits of a mixed-script pool by the learned model (see `xling_rerank`)."""
        pool = hits[: xling_rerank.POOL]
        vectors = self.store.get_embeddings([hit.memory.id for hit in pool]) if vector is not None else {}
        cands = []
        for hit in pool:
            stored = vectors.get(hit.memory.id)
            cos = (float(np.dot(vector, stored) / (np.linalg.norm(stored) or 1.0))
                   if stored is not None and vector is not None else None)
            cands.append({"id": hit.memory.id, "group": bias_group(hit.memory.content), "text": hit.memory.content,
                          "cos": cos, **hit.why.model_dump(include=xling_rerank.EXPLANATION_FIELDS)})
        reordered = xling_rerank.reorder(text, bias_group(text), cands)
        if reordered is None:
            return hits
        order, scores = reordered
        for i, hit in enumerate(pool):
            hit.why.xling_score = round(scores[i], 4)
        return [pool[i] for i in order] + hits[len(pool):]

    def _bridge(self, query: str, first: FirstPass, hits: list[SearchHit], now: datetime,
                options: SearchOptions) -> list[SearchHit]:
        """An English question's best hits name people it does not: the enriched question's nearest memory
        holding such a name takes the head's last place when closer than the hit there (`bridge`)."""
        head = self.settings.retrieval.dense_slot_head
        names = bridge.bridge_names(query, [(h.memory.id, h.memory.content) for h in hits[: bridge.FROM]])
        if not names or bias_group(query) != "en" or len(hits) < head:
            return hits
        vector = self.embedder.embed_query(f"{query} {' '.join(name for name, _ in names)}")
        vector = vector / (np.linalg.norm(vector) or 1.0)
        ranked = self.store.dense_search(first.scope, vector, bridge.DEPTH)
        records = self.store.get_many([mid for mid, _ in ranked])
        vectors = self._embeddings([hits[head - 1].memory.id])

        def make(mid: str, via: str, found: SearchHit | None) -> SearchHit:
            made = found or self._hit(records[mid], first.scored, 0.0, None, first.parsed, now, options)
            made.why.bridged_by = via
            return made

        def content(mid: str) -> str | None:
            return records[mid].content if mid in records else None

        return bridge.place(hits, head, ranked, lambda h: h.memory.id, content, names, vector, vectors.get, make)

    def _successors(self, query: str, first: FirstPass, hits: list[SearchHit], top_k: int, now: datetime,
                    options: SearchOptions) -> list[SearchHit]:
        """The current version of each retired memory the question matches among the best active ones joins the
        head at that place (`successors`); only a search of active memories alone (and, with `successor_asked`,
        a question about the present)."""
        r = self.settings.retrieval
        within = r.successor_within
        if (within <= 0 or first.vector is None or Status.deprecated in first.scope.statuses
                or (r.successor_asked and not asks_current(query))):
            return hits
        retired = self.store.dense_search(replace(first.scope, statuses=(Status.deprecated,)), first.vector, within)
        if not retired:
            return hits
        active = self.store.dense_search(first.scope, first.vector, within)
        return pull_successors(hits, top_k, active, retired, within, self.store.get_many,
                               lambda record, score: self._hit(record, first.scored, score, None, first.parsed, now,
                                                               options))

    def _embeddings(self, ids: list[str]) -> dict[str, np.ndarray]:
        """Stored vectors of these memories, unit length (for comparing two hits with each other)."""
        return {mid: v / (np.linalg.norm(v) or 1.0) for mid, v in self.store.get_embeddings(ids).items()}

    def _neighbours(self, scope: Scope, vector: np.ndarray, depth: int, floor: float) -> list[tuple[str, str, float]]:
        """(id, content, cosine) of the stored memories in `scope`'s namespace and statuses nearest `vector`; the
        content is read only for those closer than `floor` (see `currency.Neighbours`)."""
        found = self.store.dense_search(Scope(namespace=scope.namespace, statuses=scope.statuses), vector, depth)
        records = self.store.get_many([mid for mid, score in found if score > floor])
        return [(mid, records[mid].content if mid in records else "", score) for mid, score in found]

    def _relevance(self, hits: list[SearchHit], scored: dict[str, list[tuple[str, float]]], query: str,
                   parsed: ParsedQuery | None, now: datetime) -> None:
        """Each hit's calibrated probability of being relevant (see hindsight.retrieval.relevance); a label
        only: no hit changes place."""
        if not hits:
            return
        model = model_for(self.embedder.name)
        if model is None:  # no calibration file: the fused share of the best hit, relative only
            for hit in hits:
                hit.relevance = round(min(1.0, hit.why.fused / max(hits[0].why.fused, 1e-9)), 4)
            return
        dense = scored.get("dense") or []
        rows = hit_features(hits, query, parsed, dense[0][1] if dense else None, now, [s for _, s in dense])
        facts = fact_model_for(self.embedder.name)  # a hit without a session_id is a fact: its own model
        for hit, row in zip(hits, rows, strict=True):
            hit.relevance = round(min(1.0, max(0.0, for_hit(hit, model, facts).of(row))), 4)

    # ----------------------------------------------------------------- stages
    def _channels(self, text: str, scope: Scope, options: SearchOptions
                  ) -> tuple[dict[str, list[tuple[str, float]]], np.ndarray | None]:
        """Each enabled channel's (id, score) list, best first, and the query vector (see `channels.run`)."""
        return channels.run(self.store, self.embedder, self.settings.retrieval, text, scope, options.channels)

    def _rerank(self, query: str, ordered: list[str], records: dict[str, MemoryRecord], top_k: int) -> dict[str, float]:
        if self.reranker is None:
            return {}
        pool = ordered[: top_k * self.settings.retrieval.rerank_candidates_per_result]
        scores = self.reranker.score(query, [records[mid].content for mid in pool])
        return dict(zip(pool, scores))

    def _hit(self, record: MemoryRecord, scored: dict[str, list[tuple[str, float]]], fused: float,
             rerank_score: float | None, parsed: ParsedQuery | None, now: datetime, options: SearchOptions) -> SearchHit:
        """One hit with every factor of its score (see `hit_score.score_hit`)."""
        return score_hit(record, scored, fused, rerank_score, parsed, now, self.settings,
                         reranked=self.reranker is not None, use_priors=options.use_priors)
