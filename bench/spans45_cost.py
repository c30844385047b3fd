"""Spans45: what reading a text once saves per write with a redacted value (docs/benchmarks.md "Cleanup, round 45:
the redactor's findings reach the value digests").

    PYTHONPATH=src .venv/bin/python bench/spans45_cost.py --out bench/results/spans45/cost.json
    PYTHONPATH=/tmp/spans45_base/src .venv/bin/python bench/spans45_cost.py --writes-only --label before ...

The texts: every `n`-th text of the released pii sets (r1 ... r39 and the `b` twins) that redaction changes.
`redact_ms`: per text, the least of `repeats` timings of one `redact(text)` - the call round 45 removed from a plain
write (`value_digests.compute` read the content again) and, twice, from a keyed write or an import line (the
fingerprint's / content key's reading too). `writes`: the mean ms of `store_memory` per text through the engine
(the word-bag test embedder, the guard's rules, hygiene off: the redaction is the point), plain and keyed, on the
tree on PYTHONPATH; run it on both trees on one quiet machine and compare.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bag_embedder import BagEmbedder  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.safety.redact import redact  # noqa: E402

BLIND = Path(__file__).resolve().parent / "data" / "blind"


def texts(every: int) -> list[str]:
    found = []
    for path in sorted(BLIND.glob("r*/pii/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                found.append(json.loads(line)["text"])
    changed = [t for t in found if redact(t).text != t]
    return changed[::every]


def redact_ms(sample: list[str], repeats: int) -> list[float]:
    out = []
    for text in sample:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            redact(text)
            best = min(best, time.perf_counter() - start)
        out.append(best * 1000)
    return out


def write_ms(sample: list[str], keyed: bool) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        engine = MemoryEngine.open(db, settings=HindsightSettings(db=db, guard="rules", hygiene=False),
                                   embedder=BagEmbedder(words=True))
        engine.store_memory({"content": "warm up", "namespace": "w"})
        start = time.perf_counter()
        for i, text in enumerate(sample):
            engine.store_memory({"content": text, "namespace": f"n{i}"}, idempotency_key=f"k{i}" if keyed else None)
        elapsed = time.perf_counter() - start
        engine.close()
    return elapsed * 1000 / len(sample)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--label", default="after")
    parser.add_argument("--writes-only", action="store_true")
    args = parser.parse_args()
    sample = texts(args.every)
    result: dict[str, object] = {"label": args.label, "texts": len(sample), "every": args.every}
    if not args.writes_only:
        ms = redact_ms(sample, args.repeats)
        result["redact_ms"] = {"mean": round(statistics.mean(ms), 2), "median": round(statistics.median(ms), 2),
                               "p90": round(sorted(ms)[int(0.9 * len(ms))], 2)}
    result["writes_ms"] = {"plain": round(write_ms(sample, False), 2), "keyed": round(write_ms(sample, True), 2)}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
