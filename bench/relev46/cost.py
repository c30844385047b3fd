"""The switch's cost per search (clause 6): `_relevance`'s model step for 10 hits, main's model on every hit vs
`fact_model_for` + `for_hit` (K on hits without a session_id), interleaved, on the dev rows' inputs. The inputs
themselves (`hit_features`) are computed either way, so this is the whole difference.

    PYTHONPATH=src python bench/relev46/cost.py BLIND.json MODELS.json OUT.json
"""

import json
import statistics
import sys
import time
from pathlib import Path

from hindsight.model import MemoryRecord
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval.relevance import DEFAULT_MODEL, for_hit, from_entry, model_for


def main() -> None:
    rows = [r for r in json.loads(Path(sys.argv[1]).read_text()) if len(r["features"]) == 10][:300]
    k = from_entry(json.loads(Path(sys.argv[2]).read_text())["K"])
    main_model = model_for(DEFAULT_MODEL)
    assert main_model is not None and k is not None
    hits = [SearchHit(memory=MemoryRecord(content="x"), score=1.0, why=Explanation(fused=1.0, final=1.0))] * 10
    times: dict[str, list[float]] = {"main": [], "switch": []}
    for _ in range(5):
        for r in rows:
            t0 = time.perf_counter()
            [round(min(1.0, max(0.0, main_model.of(f))), 4) for f in r["features"]]
            t1 = time.perf_counter()
            [round(min(1.0, max(0.0, for_hit(h, main_model, k).of(f))), 4) for h, f in zip(hits, r["features"])]
            t2 = time.perf_counter()
            times["main"].append((t1 - t0) * 1000)
            times["switch"].append((t2 - t1) * 1000)
    out = {n: {"p50_ms": round(statistics.median(v), 4), "p90_ms": round(sorted(v)[int(0.9 * len(v))], 4)}
           for n, v in times.items()}
    print(out, file=sys.stderr)
    Path(sys.argv[3]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
