"""Learning to rank over the candidate lists of `lists.py` (recall9; measurement only).

    PYTHONPATH=../../src python ltr.py COL 0 1 2 3 [--test COLT 4 5 6 7 8 9] [--drop LIST ...]

Dev: leave one conversation out (fit on three, score the fourth, pooled). Models: pointwise logistic (C grid) and
pairwise logistic (each evidence candidate against the pointwise model's best 30 negatives), each either re-ordering
the whole pool or only filling the last S places of the shipped top 10 ("keep 10-S"). With --test: every model
fitted on all of dev and scored once on test.
"""
import argparse
import statistics
from collections import defaultdict

import numpy as np
from lists import FEATURES, features, load
from sklearn.linear_model import LogisticRegression

CATS = ["multi-hop", "temporal", "open-domain", "single-hop"]


def R(ev, lst, k=10):
    return len(set(ev) & set(lst[:k])) / len(set(ev))


def table(qs, orders):
    by = defaultdict(list)
    for q, o in zip(qs, orders):
        r = R(q["evidence"], o)
        by["all"].append(r)
        by[q["cat"]].append(r)
    return " ".join(f"{statistics.fmean(by[c]):.3f}" for c in ["all"] + CATS)


def prepare(qs, drop):
    keep = [i for i, n in enumerate(FEATURES) if not any(n == f"rr_{d}" for d in drop)]
    out = []
    for q in qs:
        pool, x, y = features(q)
        out.append((pool, x[:, keep], y))
    return out


class Model:
    def __init__(self, c, pairwise):
        self.c, self.pairwise = c, pairwise

    def fit(self, rows):
        x = np.vstack([r[1] for r in rows])
        y = np.concatenate([r[2] for r in rows])
        self.mu, self.sd = x.mean(0), x.std(0) + 1e-9
        if self.pairwise == "gbm":
            from sklearn.ensemble import HistGradientBoostingClassifier
            self.gbm = HistGradientBoostingClassifier(max_iter=int(self.c), max_leaf_nodes=7, learning_rate=0.1,
                                                      random_state=0).fit(x, y)
            return self
        point = LogisticRegression(C=self.c, max_iter=3000, class_weight="balanced").fit((x - self.mu) / self.sd, y)
        self.w = point.coef_[0]
        if self.pairwise:
            diffs, lab = [], []
            for _pool, xr, yr in rows:
                z = (xr - self.mu) / self.sd
                s = z @ self.w
                neg = [i for i in np.argsort(-s)[:30] if not yr[i]]
                for p in np.flatnonzero(yr):
                    for n in neg:
                        diffs += [z[p] - z[n], z[n] - z[p]]
                        lab += [1, 0]
            pair = LogisticRegression(C=self.c, max_iter=3000, fit_intercept=False).fit(np.array(diffs), lab)
            self.w = pair.coef_[0]
        return self

    def order(self, row, base, slots):
        pool, x, _ = row
        s = self.gbm.predict_proba(x)[:, 1] if self.pairwise == "gbm" else ((x - self.mu) / self.sd) @ self.w
        ranked = [pool[i] for i in np.argsort(-s)]
        if slots is None:
            return ranked
        head = base[: 10 - slots]
        extra = [d for d in ranked if d not in head][:slots]
        return head + extra + [d for d in base if d not in head and d not in extra]


def rrf(q, name, w):
    from lists import lists
    sc = defaultdict(float)
    for i, d in enumerate(q["base"]):
        sc[d] += 1 / (10 + i + 1)
    for i, d in enumerate(lists(q)[name][:50]):
        sc[d] += w / (10 + i + 1)
    return sorted(sc, key=lambda d: -sc[d])


SETTINGS = ([(c, pw, s) for c in (0.01, 0.1, 1.0) for pw in (False, True) for s in (None, 1, 2, 3)]
            + [(n, "gbm", s) for n in (50, 200) for s in (None, 2)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("col")
    ap.add_argument("convs", type=int, nargs="+")
    ap.add_argument("--test", nargs="+")
    ap.add_argument("--drop", nargs="*", default=[])
    ap.add_argument("--no-own", action="store_true", help="stored vectors only (what the search could ship today)")
    ap.add_argument("--no-rrf", action="store_true")
    ap.add_argument("--only", nargs="*", help="settings as C,pairwise,slots (slots 'all')")
    a = ap.parse_args()
    qs = load(a.col, a.convs, not a.no_own)
    rows = prepare(qs, a.drop)
    print("dev questions", len(qs), "pool evidence share",
          round(sum(r[2].sum() for r in rows) / sum(len(set(q["evidence"])) for q in qs), 3))
    print("shipped top 10:", table(qs, [q["base"] for q in qs]))
    for name in () if a.no_rrf else ("own", "own_topic", "ent", "bridge", "sess", "when", "nb", "dense"):
        for w in (0.2, 0.5):
            print(f"dev RRF base + {w} x {name} (in-sample, one fixed weight):", table(qs, [rrf(q, name, w) for q in qs]))
    settings = SETTINGS
    if a.only:
        settings = [(float(c), "gbm" if pw == "gbm" else pw == "1", None if s == "all" else int(s))
                    for c, pw, s in (o.split(",") for o in a.only)]
    loco = {}
    for st in settings:
        c, pw, slots = st
        orders = [None] * len(qs)
        for held in a.convs:
            train = [r for q, r in zip(qs, rows) if q["conv"] != held]
            m = Model(c, pw).fit(train)
            for i, (q, r) in enumerate(zip(qs, rows)):
                if q["conv"] == held:
                    orders[i] = m.order(r, q["base"], slots)
        loco[st] = table(qs, orders)
        print(f"dev LOCO C {c} {'gbm' if pw == 'gbm' else 'pairwise ' if pw else 'pointwise'} {'all' if slots is None else f'last {slots}'}:",
              loco[st], flush=True)
    if a.test:
        tq = load(a.test[0], [int(x) for x in a.test[1:]], not a.no_own)
        trows = prepare(tq, a.drop)
        print("test shipped top 10:", table(tq, [q["base"] for q in tq]))
        for st in settings:
            c, pw, slots = st
            m = Model(c, pw).fit(rows)
            print(f"test C {c} {'gbm' if pw == 'gbm' else 'pairwise ' if pw else 'pointwise'} {'all' if slots is None else f'last {slots}'}:",
                  table(tq, [m.order(r, q["base"], slots) for q, r in zip(tq, trows)]), flush=True)
        m = Model(settings[0][0], settings[0][1]).fit(rows)
        names = [n for n in FEATURES if not any(n == f"rr_{d}" for d in a.drop)]
        print("weights (first setting, all of dev):", {n: round(float(w), 3) for n, w in zip(names, m.w)})


if __name__ == "__main__":
    main()
