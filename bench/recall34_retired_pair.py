"""A retired memory the question matches best, shown with the memory that retired it (issue 10, round 34; offline).

    python bench/recall34_retired_pair.py STORES OUT_DIR RETIRED_DIR PLACE GAP place|fixed r26 r27 ...

Reads the harness's head per question (OUT_DIR/main_ROUND.jsonl or m1_ROUND.jsonl, `xling32_eval.py`) and
RETIRED_DIR/retired_ROUND.jsonl (`recall34_retired.py`). Where a retired memory ranks at PLACE or better among the
active memories by cosine, its successor matches the question GAP or more worse and is not in the head, the pair
(successor, retired) enters the head at that place (or at 4th: `fixed`); hit@5 per category and superseded returned
as current (strict) before / after, and every question that moves.
"""

import json
import sqlite3
import sys
from collections import Counter, defaultdict
from pathlib import Path

ST, OUT, RET = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
P, G, AT, rounds = int(sys.argv[4]), float(sys.argv[5]), sys.argv[6], sys.argv[7:]
ret = defaultdict(list)
for rnd in rounds:
    for line in open(RET / f"retired_{rnd}.jsonl"):
        if line.strip():
            r = json.loads(line)
            ret[(rnd, r["line"])].append(r)
tot = Counter()
ch = Counter()
ex = []
for rnd in rounds:
    ids = json.loads((ST / rnd / "ids.json").read_text())
    c = sqlite3.connect(f"file:{ST / rnd / 'm.db'}?mode=ro", uri=True)
    st = {}
    for mid, s in c.execute("select id,status from memories"):
        st[mid] = s
    status = {sid: st.get(m) for sid, m in ids.items()}
    qs = [json.loads(x) for x in open(f"bench/data/blind/{rnd}/retrieval/queries.jsonl")]
    f = OUT / f"main_{rnd}.jsonl"
    if not f.exists():
        f = OUT / f"m1_{rnd}.jsonl"
    for row in map(json.loads, open(f)):
        q = qs[row["line"]]
        head = list(row["returned"])
        cands = [
            r
            for r in ret.get((rnd, row["line"]), [])
            if r["place"] <= P and r["succ"] and r["cos"] - r["succ_cos"] >= G and r["succ"] not in head[:5]
        ]
        new = head
        if cands:
            r = max(cands, key=lambda r: r["cos"])
            p = min(r["place"], 3) if AT == "place" else 3
            new = [x for x in head if x != r["succ"]]
            new = (new[:p] + [r["succ"], r["dep"]] + new[p:])[:5]
        rel = set(q["relevant"])
        stale = set(q.get("stale") or []) - rel

        def sc(h, rel=rel, stale=stale, status=status):
            hit = bool(rel & set(h))
            best = min([k for k, x in enumerate(h) if x in rel], default=99)
            bad = any(x in stale and (status.get(x) == "active" or k < best) for k, x in enumerate(h))
            return hit, bad

        h0, b0 = sc(head)
        h1, b1 = sc(new)
        tot[(q["category"], "hit0")] += h0
        tot[(q["category"], "hit1")] += h1
        if q.get("stale"):
            tot[("stale", "b0")] += b0
            tot[("stale", "b1")] += b1
        if h0 != h1 or b0 != b1:
            ex.append(
                (
                    rnd,
                    row["line"],
                    q["category"],
                    h0,
                    h1,
                    b0,
                    b1,
                    r["dep"],
                    r["role"],
                    round(r["cos"] - r["succ_cos"], 3),
                    r["place"],
                )
            )
        if cands:
            ch[r["role"]] += 1
cats = sorted({k[0] for k in tot if k[0] != "stale"})
print(
    P,
    G,
    AT,
    {c: (tot[(c, "hit0")], tot[(c, "hit1")]) for c in cats},
    "stale",
    tot[("stale", "b0")],
    tot[("stale", "b1")],
    "inserted",
    dict(ch),
)
for e in ex:
    print("  ", e)
