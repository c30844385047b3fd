"""Calibration helpers for the hygiene judge: the labelled pairs, their stable split, their scores.

Shared by scripts/calibrate_hygiene.py (grid search on the calibration part) and bench/hygiene.py
(report on the held-out part), so both measure the same decision. Not part of the runtime package.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.write.thresholds import DATA_DIR

PAIRS_FILE = DATA_DIR / "hygiene_pairs.jsonl"
CALIBRATION_SHARE = 60  # percent of pairs, by a stable hash of the pair text


def stable_split(old: str, new: str) -> str:
    """'calibration' (60%) or 'held_out' (40%), fixed by a hash of the pair (not by file order)."""
    digest = hashlib.sha1(f"{old}\n{new}".encode()).hexdigest()
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
