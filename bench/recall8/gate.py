"""The turn's own-text list (recall7's `own.own_rrf`) fused into the shipped top 50 only where a small model of the
question's shape says so (issue 14, recall8; measurement only). The gate is fitted by leave-one-conversation-out:
for each held-out conversation, the model is fitted on the others, and the RRF weight and the gate threshold are
chosen on the others from their own out-of-fold predictions (nested), then applied once to the held-out one.

    PYTHONPATH=../../src python gate.py COL CONVS...                      (from this folder; dev: 0 1 2 3)
    PYTHONPATH=../../src python gate.py COL 0 1 2 3 --nogates     (the lists ungated and where they hold evidence)
    PYTHONPATH=../../src python gate.py COL 0 1 2 3 --test COLT 4 5 6 7 8 9  (fit on dev, score test once)
    --list own (default) | clause | clause-max: the second list (clauses.py: turns found by their best clause)

Gates (no word list: what the model reads is the query vector and numbers the search already has):
  cat-vec   logistic on the query vector, target "the question is multi-hop" (LoCoMo's label on dev)
  cat-num   logistic on the numeric shape features below, same target
  cat-both  both feature sets
  gain-*    the same inputs, target "own-text RRF raises this question's R@10" (questions where it changes)
  soft-*    no threshold: the RRF weight is w x p(question)
"""
import statistics
import sys
from collections import defaultdict

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

ARGS = sys.argv[1:]
TEST = None
LIST = "own"
NOGATES = "--nogates" in ARGS
ARGS = [a for a in ARGS if a != "--nogates"]
if "--list" in ARGS:
    i = ARGS.index("--list")
    LIST = ARGS[i + 1]
    ARGS = ARGS[:i] + ARGS[i + 2:]
if "--test" in ARGS:
    i = ARGS.index("--test")
    TEST = ARGS[i + 1:]
    ARGS = ARGS[:i]
sys.argv = [sys.argv[0]] + ARGS
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "recall7"))
import fuse  # noqa: E402
import own  # noqa: E402
from shape import CATS, feats, table  # noqa: E402

WEIGHTS = [0.3, 0.5, 0.7, 1.0]
THRESH = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7]


def own_list(q):
    named = q["tv"] is not None and fuse.spk_mask(q).any()
    vec, mask = (q["tv"], fuse.spk_mask(q)) if named else (q["qv"], fuse.in_scope(q, q["store"]))
    if LIST == "own":
        return own.ranked_own(q, vec, mask)
    import clauses
    return clauses.ranked(q, vec, mask, LIST)


def rrf(q, w):
    s = defaultdict(float)
    for i, m in enumerate(q["base"]):
        s[m] += 1 / (10 + i + 1)
    if w > 0:
        for i, m in enumerate(q["own_list"]):
            s[m] += w / (10 + i + 1)
    return sorted(s, key=lambda m: -s[m])


def numeric(q):
    """shape and confidence numbers the search has: names, time scope, length, how the own-text list and the
    shipped list agree, how peaked each is, how the shipped top 10 spreads over sessions."""
    st = q["store"]
    idx = {d: i for i, d in enumerate(st["dia"])}
    qv = q["qv"] / np.linalg.norm(q["qv"])
    base10 = [idx[d] for d in q["base"][:10] if d in idx]
    own10 = [idx[d] for d in q["own_list"][:10] if d in idx]
    cs = st["matrix"][base10] @ qv
    co = st["own"][own10] @ qv
    sess = [st["session"][i] for i in base10]
    lo, hi = q["scope"]
    return [len(set(q["names"]) & set(st["speaker"])), float(lo is not None or hi is not None),
            np.log1p(len(q["q"].split())), len(set(q["base"][:10]) & set(q["own_list"][:10])) / 10,
            cs[0], cs[0] - cs[-1], co[0] if len(co) else 0.0, (co[0] - co[-1]) if len(co) else 0.0,
            len(set(sess)) / 10, sess.count(sess[0]) / 10, float(q["tv"] is not None)]


def prepare(data):
    if LIST != "own":
        import clauses
        for q in data:
            clauses.attach(q["store"], q["conv"])
    for q in data:
        q["own_list"] = own_list(q)
        q["num"] = np.array(numeric(q), float)
        q["r_base"] = fuse.R(q["evidence"], q["base"])
        q["r_own"] = {w: fuse.R(q["evidence"], rrf(q, w)) for w in WEIGHTS}


def fit(qs, kind, target, w):
    X = feats(qs, kind)
    if target == "cat":
        y = np.array([q["cat"] == "multi-hop" for q in qs])
        keep = np.ones(len(qs), bool)
    else:
        d = np.array([q["r_own"][w] - q["r_base"] for q in qs])
        y, keep = d > 0, d != 0
    sc = StandardScaler().fit(X[keep])
    m = LogisticRegression(C=0.1 if kind != "num" else 1.0, max_iter=2000).fit(sc.transform(X[keep]), y[keep])
    return lambda qs2: m.predict_proba(sc.transform(feats(qs2, kind)))[:, 1]


def score(qs, p, w, t, soft):
    """per-question R@10 with the gate applied."""
    out = []
    for q, pq in zip(qs, p):
        if soft:
            ww = w * pq
            out.append(fuse.R(q["evidence"], rrf(q, ww)) if ww > 0 else q["r_base"])
        else:
            out.append(q["r_own"][w] if pq >= t else q["r_base"])
    return out


def oof(qs, kind, target, w):
    """out-of-fold predictions on qs, folds = conversations."""
    p = np.zeros(len(qs))
    convs = sorted({q["conv"] for q in qs})
    for c in convs:
        tr = [q for q in qs if q["conv"] != c]
        te = [i for i, q in enumerate(qs) if q["conv"] == c]
        p[te] = fit(tr, kind, target, w)([qs[i] for i in te])
    return p


def choose(train, kind, target, soft):
    best = None
    for w in WEIGHTS:
        p = oof(train, kind, target, w)
        for t in [0.0] if soft else THRESH:
            r = statistics.fmean(score(train, p, w, t, soft))
            if best is None or r > best[0]:
                best = (r, w, t)
    return best[1], best[2]


def coverage(qs):
    """evidence turns the shipped top 10 misses: how many the second list holds in its first 10 / 20 / 50, and of
    those outside the shipped top 50 (the candidates the first pass lacks)."""
    miss = out50 = 0
    got = defaultdict(int)
    for q in qs:
        for e in set(q["evidence"]):
            if e in q["base"][:10] or e not in q["store"]["sess_of"]:
                continue
            far = e not in q["base"]
            miss += 1
            out50 += far
            for k in (10, 20, 50):
                if e in q["own_list"][:k]:
                    got[k] += 1
                    got[(k, "far")] += far
    print(f"missed evidence (stored turns) {miss}, outside the top 50 {out50}; the {LIST} list holds",
          ", ".join(f"top {k}: {got[k]} ({got[(k, 'far')]} outside)" for k in (10, 20, 50)))


GATES = [(f"{tg}-{k}", k, tg, False) for tg in ("cat", "gain") for k in ("vec", "num", "both")]
GATES += [(f"soft-cat-{k}", k, "cat", True) for k in ("vec", "both")]

if __name__ == "__main__":
    dev = fuse.data
    prepare(dev)
    print(f"dev {len(dev)} questions; R@10 all / {' / '.join(CATS)}")
    print(f"{'shipped top 10':28s}", table(dev, [q["r_base"] for q in dev]))
    for w in WEIGHTS:
        print(f"{LIST + ' RRF ungated w ' + str(w):28s}", table(dev, [q["r_own"][w] for q in dev]))
    print(f"{'oracle gate w 0.5':28s}", table(dev, [max(q['r_own'][0.5], q['r_base']) for q in dev]))
    coverage(dev)
    for name, kind, target, soft in [] if NOGATES else GATES:
        rs, picks, gated = [], [], 0
        qs_all = []
        for c in fuse.CONVS:
            train = [q for q in dev if q["conv"] != c]
            held = [q for q in dev if q["conv"] == c]
            w, t = choose(train, kind, target, soft)
            p = fit(train, kind, target, w)(held)
            rs += score(held, p, w, t, soft)
            gated += int((p >= t).sum()) if not soft else 0
            picks.append((c, w, t))
            qs_all += held
        print(f"{'LOCO ' + name:28s}", table(qs_all, rs), f"gated {gated}", picks, flush=True)
    if TEST:
        import pickle
        from pathlib import Path
        test = []
        d = Path(TEST[0])
        for c in [int(x) for x in TEST[1:]]:
            blob = pickle.load(open(d / f"conv{c}.pkl", "rb"))
            st = blob["store"]
            st["sp"] = np.array(st["speaker"])
            st["sess_of"] = dict(zip(st["dia"], st["session"]))
            st["own"] = np.load(d / f"own{c}.npy")
            st["dir"] = d
            for q in blob["questions"]:
                q["store"] = st
                test.append(q)
        prepare(test)
        chosen = GATES
        print(f"test {len(test)} questions (fitted on all dev; weight and threshold chosen on dev out-of-fold)")
        print(f"{'shipped top 10':28s}", table(test, [q["r_base"] for q in test]))
        for name, kind, target, soft in chosen:
            w, t = choose(dev, kind, target, soft)
            p = fit(dev, kind, target, w)(test)
            print(f"{'test ' + name:28s}", table(test, score(test, p, w, t, soft)), (w, t),
                  f"gated {int((p >= t).sum()) if not soft else '-'}", flush=True)
