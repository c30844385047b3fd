"""Candidate pool size by question shape (issue 14, recall8; measurement only): per question the shipped top 10
with the default pool (50) or another (`pool.py` rows), the other chosen where a logistic model of the question's
shape says so, fitted by leave-one-conversation-out (threshold chosen on the training conversations' out-of-fold
predictions). Inputs: the query vector ("vec") and/or names, time scope, length ("num"); target: the other pool
raises this question's R@10 ("gain") or the question is multi-hop ("cat").

    python poolgate.py COL POOLDIR 0 1 2 3 [--test COLT 4 5 6 7 8 9]      (from this folder)
"""
import pickle
import statistics
import sys
from pathlib import Path

import numpy as np
from shape import CATS, feats, table
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

POOLS = [25, 100, 200]
THRESH = [0.3, 0.4, 0.5, 0.6, 0.7]


def R(ev, lst):
    return len(set(ev) & set(lst[:10])) / len(set(ev))


def load(col, pooldir, convs):
    data = []
    for c in convs:
        blob = pickle.load(open(Path(col) / f"conv{c}.pkl", "rb"))
        speakers = set(blob["store"]["speaker"])
        lists = {p: pickle.load(open(Path(pooldir) / f"pool{p}_conv{c}.pkl", "rb")) for p in POOLS}
        for i, q in enumerate(blob["questions"]):
            lo, hi = q["scope"]
            q["num"] = [len(set(q["names"]) & speakers), float(lo is not None or hi is not None),
                        np.log1p(len(q["q"].split()))]
            q["r"] = {50: R(q["evidence"], q["base"]), **{p: R(q["evidence"], lists[p][i]) for p in POOLS}}
            data.append(q)
    return data


def fit(qs, kind, target, p):
    X = feats(qs, kind)
    if target == "cat":
        y, keep = np.array([q["cat"] == "multi-hop" for q in qs]), np.ones(len(qs), bool)
    else:
        d = np.array([q["r"][p] - q["r"][50] for q in qs])
        y, keep = d > 0, d != 0
    if y[keep].all() or not y[keep].any():
        return lambda qs2: np.full(len(qs2), float(y[keep].mean()) if keep.any() else 0.0)
    sc = StandardScaler().fit(X[keep])
    m = LogisticRegression(C=0.1 if kind != "num" else 1.0, max_iter=2000).fit(sc.transform(X[keep]), y[keep])
    return lambda qs2: m.predict_proba(sc.transform(feats(qs2, kind)))[:, 1]


def score(qs, prob, p, t):
    return [q["r"][p] if pq >= t else q["r"][50] for q, pq in zip(qs, prob)]


def choose(train, kind, target):
    best = None
    for p in POOLS:
        prob = np.zeros(len(train))
        for c in sorted({q["conv"] for q in train}):
            idx = [i for i, q in enumerate(train) if q["conv"] == c]
            prob[idx] = fit([q for q in train if q["conv"] != c], kind, target, p)([train[i] for i in idx])
        for t in THRESH:
            r = statistics.fmean(score(train, prob, p, t))
            if best is None or r > best[0]:
                best = (r, p, t)
    return best[1], best[2]


GATES = [(t, k) for t in ("gain", "cat") for k in ("vec", "num", "both")]

if __name__ == "__main__":
    args = sys.argv[1:]
    test = None
    if "--test" in args:
        i = args.index("--test")
        test, args = args[i + 1:], args[:i]
    dev = load(args[0], args[1], [int(x) for x in args[2:]])
    print(f"dev {len(dev)} questions; R@10 all / {' / '.join(CATS)}")
    for p in [50] + POOLS:
        print(f"{'pool ' + str(p):22s}", table(dev, [q["r"][p] for q in dev]))
    print(f"{'oracle best pool':22s}", table(dev, [max(q["r"].values()) for q in dev]))
    for target, kind in GATES:
        rs, picks, qs_all = [], [], []
        for c in sorted({q["conv"] for q in dev}):
            train = [q for q in dev if q["conv"] != c]
            held = [q for q in dev if q["conv"] == c]
            p, t = choose(train, kind, target)
            prob = fit(train, kind, target, p)(held)
            rs += score(held, prob, p, t)
            qs_all += held
            picks.append((c, p, t, int((prob >= t).sum())))
        print(f"{'LOCO ' + target + '-' + kind:22s}", table(qs_all, rs), picks, flush=True)
    if test:
        tq = load(test[0], args[1], [int(x) for x in test[1:]])
        print(f"test {len(tq)} questions (fitted on all dev, pool and threshold chosen on dev out-of-fold)")
        print(f"{'pool 50 (shipped)':22s}", table(tq, [q["r"][50] for q in tq]))
        for target, kind in GATES:
            p, t = choose(dev, kind, target)
            prob = fit(dev, kind, target, p)(tq)
            print(f"{'test ' + target + '-' + kind:22s}", table(tq, score(tq, prob, p, t)), (p, t),
                  int((prob >= t).sum()), flush=True)
