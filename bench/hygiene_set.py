"""Score a labelled set of hygiene pairs through the real write path (issue 10's blind format).

Each JSONL row is {"existing", "new", "label": "restatement"|"distinct"|"change"|"supplement", "category",
"lang", "type": "semantic"|"episodic"} (an optional "split" selects a part of our own set). For every pair,
in a namespace of its own inside one temp SQLite file, with the real embedder and the engine's own hygiene,
`existing` is stored, then `new`; what the engine did is read back:

* restatement  - the second write came back as `duplicate` (merged into the first);
* change       - the first memory is `deprecated` with `superseded_by` = the second;
* supplement   - the second was stored and linked (`supplemented`), the first still active;
* distinct     - the second was stored and nothing else happened (`created`).

Reported: distinct kept apart (not merged), restatements merged, changes deprecating the old one, wrong
deprecations (non-change pairs where the old one got deprecated), the full confusion matrix (gold x outcome),
all of it by language and by category, plus the median time of the hygiene check per write.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import Status

LABELS = ("restatement", "distinct", "change", "supplement")
OUTCOMES = ("restatement", "distinct", "change", "supplement", "quarantined")


def load_set(path: Path, split: str | None = None) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        missing = [k for k in ("existing", "new", "label") if k not in row]
        if missing or row["label"] not in LABELS:
            raise ValueError(f"{path}:{number}: need existing/new/label in {LABELS}, got {sorted(row)}")
        if split and row.get("split", split) != split:
            continue
        rows.append(row)
    return rows


def run_pairs(rows: list[dict[str, Any]], embedder: Any) -> list[dict[str, Any]]:
    """Store every pair through a fresh namespace of one engine; one result dict per row."""
    results = []
    timings: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pairs.db"
        settings = HindsightSettings(db=db)
        settings.retrieval.record_access = False
        engine = MemoryEngine.open(db, settings=settings, embedder=embedder)
        hygiene = engine.writer.hygiene
        if hygiene is None:
            raise SystemExit("the engine runs without hygiene (settings.hygiene is off)")
        original_check = hygiene.check

        def timed_check(record: Any, embedding: Any) -> Any:
            started = time.perf_counter()
            try:
                return original_check(record, embedding)
            finally:
                timings.append((time.perf_counter() - started) * 1000)

        hygiene.check = timed_check  # type: ignore[method-assign]
        try:
            for i, row in enumerate(rows):
                namespace = f"pair-{i}"
                kind = row.get("type", "semantic")
                first = engine.store_memory({"content": row["existing"], "type": kind, "namespace": namespace})
                second = engine.store_memory({"content": row["new"], "type": kind, "namespace": namespace})
                old = engine.store.get(first.memory_id)
                assert old is not None
                deprecated = old.status == Status.deprecated
                if second.action == "quarantined" or first.action == "quarantined":
                    outcome = "quarantined"
                elif second.action == "duplicate":
                    outcome = "restatement"
                elif deprecated and old.metadata.get("superseded_by") == second.memory_id:
                    outcome = "change"
                elif second.action == "supplemented":
                    outcome = "supplement"
                else:
                    outcome = "distinct"
                results.append({**row, "outcome": outcome, "old_deprecated": deprecated,
                                "action": second.action, "reason": second.reason})
        finally:
            engine.close()
    for r in results:
        r["_timings"] = timings
    return results


def _share(rows: list[dict[str, Any]], hit: Any) -> float | None:
    return round(sum(1 for r in rows if hit(r)) / len(rows), 4) if rows else None


def metrics(rows: list[dict[str, Any]]) -> dict[str, Any]:
    by = defaultdict(list)
    for r in rows:
        by[r["label"]].append(r)
    confusion = {gold: dict(Counter(r["outcome"] for r in by[gold])) for gold in LABELS if by[gold]}
    return {
        "pairs": len(rows),
        "distinct_kept_apart": _share(by["distinct"], lambda r: r["outcome"] != "restatement"),
        "restatements_merged": _share(by["restatement"], lambda r: r["outcome"] == "restatement"),
        "changes_deprecate_old": _share(by["change"], lambda r: r["outcome"] == "change"),
        "wrong_deprecations": _share([r for r in rows if r["label"] != "change"], lambda r: r["old_deprecated"]),
        "supplements_kept_and_linked": _share(by["supplement"], lambda r: r["outcome"] == "supplement"),
        "supplements_kept": _share(by["supplement"], lambda r: r["outcome"] in ("supplement", "distinct")),
        "non_restatements_merged": _share([r for r in rows if r["label"] != "restatement"],
                                          lambda r: r["outcome"] == "restatement"),
        "accuracy": _share(rows, lambda r: r["outcome"] == r["label"]
                           or (r["label"] == "distinct" and r["outcome"] == "supplement")),
        "confusion": confusion,
    }


def report(rows: list[dict[str, Any]], embedder: Any) -> dict[str, Any]:
    results = run_pairs(rows, embedder)
    timings = results[0]["_timings"] if results else []
    for r in results:
        r.pop("_timings", None)
    out: dict[str, Any] = {"overall": metrics(results)}
    for lang in sorted({r.get("lang", "?") for r in results}):
        out[f"lang:{lang}"] = metrics([r for r in results if r.get("lang", "?") == lang])
    out["by_category"] = {cat: {k: v for k, v in metrics([r for r in results if r.get("category") == cat]).items()
                                if k != "confusion"}
                          for cat in sorted({r.get("category", "?") for r in results})}
    out["hygiene_check_ms"] = {"median": round(statistics.median(timings), 2) if timings else None,
                               "p90": round(sorted(timings)[int(0.9 * (len(timings) - 1))], 2) if timings else None,
                               "checks": len(timings)}
    out["errors"] = [{k: r.get(k) for k in ("existing", "new", "label", "outcome", "lang", "reason")}
                     for r in results
                     if not (r["outcome"] == r["label"] or (r["label"] == "distinct" and r["outcome"] == "supplement")
                             or (r["label"] == "supplement" and r["outcome"] == "distinct"))]
    return out
