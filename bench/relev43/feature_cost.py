"""CPU cost of the relevance inputs per search, main's `hit_features` vs this branch's, on the same captured pools.

    PYTHONPATH=src python bench/relev43/feature_cost.py STORE_DIR CONV MAIN_RELEVANCE_PY OUT.json

Captures the (hits, query, parsed, top_dense, now, dense scores) of conversation CONV's questions on a copy of
conv-CONV.db, then times both functions on each pool (process CPU time, the best of 5 runs of 10 calls each,
alternating), so the load of a shared machine weighs little on the difference.
"""

import importlib.util
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "bench"), str(Path(__file__).parent)]

from latency import open_conv  # noqa: E402
from locomo import questions  # noqa: E402

from hindsight.retrieval import relevance  # noqa: E402
from hindsight.retrieval import search as search_module  # noqa: E402


def main() -> None:
    store_dir, conv, main_py, target = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    spec = importlib.util.spec_from_file_location("main_relevance", main_py)
    assert spec and spec.loader
    main_rel = importlib.util.module_from_spec(spec)
    sys.modules["main_relevance"] = main_rel  # its dataclass looks itself up there
    spec.loader.exec_module(main_rel)
    engine, now, sample, tmp = open_conv(store_dir, conv)
    pools = []

    def capture(hits, query, parsed, top_dense, when, dense=()):  # type: ignore[no-untyped-def]
        pools.append((list(hits), query, parsed, top_dense, when, list(dense)))
        return relevance.hit_features(hits, query, parsed, top_dense, when, dense)

    search_module.hit_features = capture  # type: ignore[assignment]
    for q in questions(sample)[:80]:
        engine.search(q["question"], top_k=10, now=now)
    engine.close()

    def best(fn, pool) -> float:  # type: ignore[no-untyped-def]
        runs = []
        for _ in range(5):
            t = time.process_time()
            for _ in range(10):
                fn(pool)
            runs.append((time.process_time() - t) * 100)  # ms per call
        return min(runs)

    main_ms, branch_ms = [], []
    for hits, query, parsed, top_dense, when, dense in pools:
        main_ms.append(best(lambda p: main_rel.hit_features(*p), (hits, query, parsed, top_dense, when)))
        branch_ms.append(best(lambda p: relevance.hit_features(*p), (hits, query, parsed, top_dense, when, dense)))
    out = {"searches": len(pools), "pool_size_median": statistics.median(len(p[0]) for p in pools),
           "main_ms_median": round(statistics.median(main_ms), 3), "branch_ms_median": round(statistics.median(branch_ms), 3),
           "extra_ms_median": round(statistics.median(b - m for b, m in zip(branch_ms, main_ms, strict=True)), 3),
           "extra_ms_max": round(max(b - m for b, m in zip(branch_ms, main_ms, strict=True)), 3)}
    print(json.dumps(out))
    target.write_text(json.dumps(out, indent=1))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
