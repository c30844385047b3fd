"""Spans45: what reading a text once saves per write with a redacted value (docs/benchmarks.md "Cleanup, round 45:
the redactor's findings reach the value digests"). Alternate the trees, one process a run:

    PYTHONPATH=src .venv/bin/python bench/spans45_cost.py --every 20 --out /tmp/spans45_cost/after1.json
    PYTHONPATH=/tmp/spans45_base/src .venv/bin/python bench/spans45_cost.py --every 20 --label before \
        --out /tmp/spans45_cost/before1.json
    (then both again with --writes-only)

The texts: every `every`-th text of the released pii sets (r1 ... r39 and the `b` twins) that redaction changes.
`redact_ms_first`: per text, its first `redact(text)` in the process; `redact_ms_again`: the least of `repeats`
readings after it (warm) - the reading round 45 removed from a plain write (`value_digests.compute` read the content
again) and, twice, from a keyed write or an import line (the fingerprint's / content key's reading too). `writes`:
per text, the mean ms of `store_memory` through the engine, of the redactor's readings inside it (`find_sensitive`,
timed) and how many readings it made (the word-bag test embedder, the guard's rules, hygiene off: the redaction is
the point), plain and keyed, on the tree on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bag_embedder import BagEmbedder  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.safety.redact import redact  # noqa: E402

BLIND = Path(__file__).resolve().parent / "data" / "blind"


def texts(every: int) -> tuple[list[str], list[float]]:
    """Every `every`-th released pii text redaction changes, and the ms of its first reading in this process."""
    found = []
    for path in sorted(BLIND.glob("r*/pii/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                found.append(json.loads(line)["text"])
    changed = []
    for text in dict.fromkeys(found):
        start = time.perf_counter()
        redacted = redact(text).text
        if redacted != text:
            changed.append((text, (time.perf_counter() - start) * 1000))
    sample = changed[::every]
    return [t for t, _ in sample], [ms for _, ms in sample]


def redact_ms(sample: list[str], repeats: int) -> list[float]:
    """Per text: the least of `repeats` readings after its first (warm)."""
    again = []
    for text in sample:
        timings = []
        for _ in range(repeats):
            start = time.perf_counter()
            redact(text)
            timings.append((time.perf_counter() - start) * 1000)
        again.append(min(timings))
    return again


def _summary(ms: list[float]) -> dict[str, float]:
    return {"mean": round(statistics.mean(ms), 2), "median": round(statistics.median(ms), 2),
            "p90": round(sorted(ms)[int(0.9 * len(ms))], 2)}


class _Reads:
    """The redactor's readings (`find_sensitive`, which `redact` calls): how many and their ms."""

    def __init__(self) -> None:
        self.calls, self.ms = 0, 0.0
        self.module = importlib.import_module("hindsight.safety.redact")
        self.real = self.module.find_sensitive

    def __enter__(self) -> _Reads:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return self.real(*args, **kwargs)
            finally:
                self.calls += 1
                self.ms += (time.perf_counter() - start) * 1000

        self.module.find_sensitive = timed
        return self

    def __exit__(self, *exc: object) -> None:
        self.module.find_sensitive = self.real


def write_ms(sample: list[str], keyed: bool) -> dict[str, float]:
    """Mean ms of one write, and of the redactor's readings in it, and how many readings a write made."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        engine = MemoryEngine.open(db, settings=HindsightSettings(db=db, guard="rules", hygiene=False),
                                   embedder=BagEmbedder(words=True))
        engine.store_memory({"content": "warm up", "namespace": "w"})
        with _Reads() as reads:
            start = time.perf_counter()
            for i, text in enumerate(sample):
                engine.store_memory({"content": text, "namespace": f"n{i}"},
                                    idempotency_key=f"k{i}" if keyed else None)
            elapsed = time.perf_counter() - start
        engine.close()
    n = len(sample)
    return {"write_ms": round(elapsed * 1000 / n, 2), "redaction_ms": round(reads.ms / n, 2),
            "readings": round(reads.calls / n, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--label", default="after")
    parser.add_argument("--writes-only", action="store_true")
    parser.add_argument("--redact-only", action="store_true", help="print the redact timings, write no file")
    args = parser.parse_args()
    sample, first = texts(args.every)
    result: dict[str, object] = {"label": args.label, "texts": len(sample), "every": args.every}
    if not args.writes_only:
        result["redact_ms_first"], result["redact_ms_again"] = _summary(first), _summary(redact_ms(sample, args.repeats))
    if args.redact_only:
        print(json.dumps(result))
        return
    result["writes"] = {"plain": write_ms(sample, False), "keyed": write_ms(sample, True)}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
