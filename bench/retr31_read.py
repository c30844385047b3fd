"""Retrieval round 31 (issue 10): a pair model of "the newer hit replaces the older one", fitted on the released
retrieval sets' writer labels (`retr31_pairs.py`), read held out over captured searches (`retr31_capture.py`).

    PYTHONPATH=src:bench python bench/retr31_read.py PAIRS.jsonl CAPTURE_DIR OUT.json r29 r28 ...

Pair level: leave-one-set-out logistic regression over every released set's near pairs (AUC, and the confusion at
each threshold). Read level: for each captured round, the model fitted without that round (and without its
sibling sets of the same round letter) reads every (older, newer) pair of active, current hits in the result depth;
an older hit at p >= t is flagged not current (ranked right below the newer one), and with `demote` every hit not
current at p >= t leaves for the end of the depth. Each round's setting is chosen on the other rounds (leave-one-
round-out, objective below); off on ties.
"""
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from blind_store import rows
from retr31_pairs import CACHE, K, features
from retr31_replay import load, pooled, score
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

FEATS = ["upd", "cos", "cross", "zh", "rank_new", "rank_old", "anchors", "cue", "new_cue", "note", "additive", "owners",
         "subject", "value", "lasting", "len_old", "len_new", "rank_all_new", "rank_all_old"]
if os.environ.get("RETR31_STORE_RANKS_ONLY"):  # what a search can read: store-wide ranks, not write-order ones
    FEATS = [f for f in FEATS if f not in ("rank_new", "rank_old")]
THRESHOLDS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]


def set_dir(name: str) -> Path:
    d = Path("bench/data/blind") / name
    return d if d.exists() else Path("bench/data/train") / name


def family(name: str) -> str:
    """r22T45 -> r22, r10b -> r10: sets of one round are held out together."""
    return name.split("T")[0].rstrip("b")


def add_ranks(ps: list[dict]) -> None:
    """Store-wide ranks: memories (besides the pair) closer to the newer one than the older is, and vice versa."""
    by = defaultdict(list)
    for p in ps:
        by[p["round"]].append(p)
    for rnd, group in by.items():
        v = np.load(CACHE / f"{rnd}.npy")
        ids = {m["id"]: i for i, m in enumerate(rows(set_dir(rnd) / "retrieval/memories.jsonl"))}
        sim = v @ v.T
        for p in group:
            i, j = ids[p["old"]], ids[p["new"]]
            c = sim[i, j]
            p["rank_all_new"] = int((sim[j] > c).sum()) - 1 - int(sim[j, i] > c)  # minus itself
            p["rank_all_old"] = int((sim[i] > c).sum()) - 1 - int(sim[i, j] > c)


def memory_vectors(sets: list[str]) -> tuple[list[str], list[tuple[str, str]], np.ndarray, np.ndarray]:  # noqa: E501
    """Every memory of the sets: (set, id) keys, vectors, and whether the writer said it replaces another."""
    keys, vs, ys = [], [], []
    for rnd in sets:
        ms = rows(set_dir(rnd) / "retrieval/memories.jsonl")
        v = np.load(CACHE / f"{rnd}.npy")
        for m, x in zip(ms, v):
            keys.append((rnd, m["id"]))
            vs.append(x)
            ys.append(int(bool(m.get("replaces"))))
    return sets, keys, np.array(vs), np.array(ys)


def updates(sets: list[str]) -> dict[tuple[str, str], float]:
    """Each memory's probability of being an update (its text's vector alone), fitted without its round family."""
    _, keys, x, y = memory_vectors(sets)
    fam = np.array([family(k[0]) for k in keys])
    out = {}
    for f in sorted(set(fam)):
        tr = fam != f
        m = LogisticRegression(C=1.0, max_iter=3000).fit(x[tr], y[tr])
        for k, q in zip([k for k, t in zip(keys, tr) if not t], m.predict_proba(x[~tr])[:, 1]):
            out[k] = float(q)
    return out


def matrix(ps: list[dict]) -> np.ndarray:
    x = np.array([[float(p[f]) for f in FEATS] for p in ps])
    x[:, FEATS.index("len_old")] = np.log1p(x[:, FEATS.index("len_old")])
    x[:, FEATS.index("len_new")] = np.log1p(x[:, FEATS.index("len_new")])
    for f in ("rank_new", "rank_old", "rank_all_new", "rank_all_old"):
        if f in FEATS:
            x[:, FEATS.index(f)] = np.log1p(np.minimum(x[:, FEATS.index(f)], 30))
    return x


def fit(ps: list[dict]) -> tuple[LogisticRegression, np.ndarray, np.ndarray]:
    x = matrix(ps)
    mu, sd = x.mean(0), x.std(0) + 1e-9
    m = LogisticRegression(C=1.0, max_iter=2000).fit((x - mu) / sd, [p["label"] for p in ps])
    return m, mu, sd


def predict(model: tuple, ps: list[dict]) -> np.ndarray:
    m, mu, sd = model
    return m.predict_proba((matrix(ps) - mu) / sd)[:, 1]


class Reader:
    """Pair features of two hits of one captured round (the set's texts, cached vectors, file-order ranks)."""

    def __init__(self, rnd: str, upd: dict[tuple[str, str], float]) -> None:
        self.rnd, self.upd = rnd, upd
        self.ms = rows(set_dir(rnd) / "retrieval/memories.jsonl")
        self.idx = {m["id"]: i for i, m in enumerate(self.ms)}
        v = np.load(CACHE / f"{rnd}.npy")
        self.sim = v @ v.T
        self.cache: dict = {}

    def pair(self, old: str, new: str) -> dict | None:
        if (old, new) in self.cache:
            return self.cache[(old, new)]
        if old not in self.idx or new not in self.idx:
            return None
        i, j = self.idx[old], self.idx[new]
        c = float(self.sim[i, j])
        rank_new = int((self.sim[j, :j] > c).sum())
        rank_old = int((self.sim[i, i + 1:] > c).sum())
        if rank_new >= K:  # the model knows pairs among the newer one's K nearest earlier memories only
            self.cache[(old, new)] = None
            return None
        p = features(self.ms[i], self.ms[j], c, rank_new, rank_old)
        p["upd"] = self.upd[(self.rnd, new)]
        p["rank_all_new"] = int((self.sim[j] > c).sum()) - 1 - int(self.sim[j, i] > c)
        p["rank_all_old"] = int((self.sim[i] > c).sum()) - 1 - int(self.sim[i, j] > c)
        self.cache[(old, new)] = p
        return p


def pair_probs(hits: list[dict], reader: Reader, model: tuple) -> dict[tuple[str, str], float]:
    """p(newer replaces older) for every (older, newer) pair of active hits in the depth (one model call)."""
    act = [h for h in hits if h["status"] == "active"]
    keys, fs = [], []
    for new in act:
        for old in act:
            if old is not new and old["t"] < new["t"]:
                f = reader.pair(old["id"], new["id"])
                if f is not None:
                    keys.append((old["id"], new["id"]))
                    fs.append(f)
    return dict(zip(keys, predict(model, fs))) if fs else {}


def reread(hits: list[dict], probs: dict[tuple[str, str], float], t: float, demote: bool) -> list[dict]:
    hits = [dict(h) for h in hits]
    by = {h["id"]: h for h in hits}
    sure: set[str] = set()
    for (o, n), q in sorted(probs.items(), key=lambda z: -z[1]):
        old, new = by[o], by[n]
        if q >= t and old["current"] and new["current"]:
            old["current"] = False
            old["outdated_by"] = n
            sure.add(o)
            i, j = hits.index(old), hits.index(new)
            if i < j:
                hits.remove(new)
                hits.insert(i, new)
    if demote:  # also an older hit another reading flagged, when the model is as sure of that pair
        for h in hits:
            if not h["current"] and h["status"] == "active" and h["outdated_by"] and h["id"] not in sure:
                if probs.get((h["id"], h["outdated_by"]), 0.0) >= t:
                    sure.add(h["id"])
        hits = [h for h in hits if h["id"] not in sure] + [h for h in hits if h["id"] in sure]
    return hits


def gain(bases: list[dict], vars_: list[dict]) -> float | None:
    """Over some rounds: None when any category loses a hit (rule 2), else stale questions fixed (strict + flag)
    minus false-flag memories added beyond them (rule 4 as a cost)."""
    b, v = pooled(bases), pooled(vars_)
    if any(v["hits"].get(k, [0])[0] < n for k, (n, _) in b["hits"].items()):
        return None
    return ((b["stale_strict"][0] - v["stale_strict"][0]) + (b["stale_flag"][0] - v["stale_flag"][0])
            - max(0, v["false_flag_memories"] - b["false_flag_memories"]))


def main() -> None:
    pairs_path, cap, out_path, rounds = sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4:]
    ps = [p for p in map(json.loads, open(pairs_path)) if not p.get("outside")]
    add_ranks(ps)
    upd = updates(sorted({p["round"] for p in ps}))
    for p in ps:
        p["upd"] = upd[(p["round"], p["new"])]
    # pair level, leave-one-family-out
    fams = sorted({family(p["round"]) for p in ps})
    pred = np.zeros(len(ps))
    for f in fams:
        tr = [p for p in ps if family(p["round"]) != f]
        te = [k for k, p in enumerate(ps) if family(p["round"]) == f]
        pred[te] = predict(fit(tr), [ps[k] for k in te])
    y = np.array([p["label"] for p in ps])
    pair_level = {"pairs": len(ps), "positives": int(y.sum()), "auc_held_out": round(float(roc_auc_score(y, pred)), 4),
                  "by_threshold": {t: {"tp": int(((pred >= t) & (y == 1)).sum()), "fp": int(((pred >= t) & (y == 0)).sum())}
                                   for t in THRESHOLDS}}
    full = fit(ps)
    pair_level["coefficients"] = dict(zip(FEATS, [round(float(c), 3) for c in full[0].coef_[0]]))
    print(json.dumps(pair_level), file=sys.stderr)
    # read level: per round, a model fitted without its family
    settings = [(t, d) for t in THRESHOLDS for d in (False, True)]
    per: dict = {}
    for rnd in rounds:
        data = load(cap, rnd)
        model = fit([p for p in ps if family(p["round"]) != family(rnd)])
        reader = Reader(rnd, upd)
        base = score(data, [q["hits"] for q in data["queries"]])
        per[rnd] = {"main": base}
        probs = [pair_probs(q["hits"], reader, model) for q in data["queries"]]
        for t, d in settings:
            per[rnd][f"{t}/{'demote' if d else 'flag'}"] = score(
                data, [reread(q["hits"], pq, t, d) for q, pq in zip(data["queries"], probs)])
        print(rnd, flush=True, file=sys.stderr)
    names = ["main"] + [f"{t}/{'demote' if d else 'flag'}" for t, d in settings]
    pool = {n: pooled([per[r][n] for r in rounds]) for n in names}
    held, chosen = [], {}
    for rnd in rounds:
        others = [r for r in rounds if r != rnd]
        best, name = 0.0, "main"
        for n in names[1:]:
            g = gain([per[r]["main"] for r in others], [per[r][n] for r in others])
            if g is not None and g > best:
                best, name = g, n
        chosen[rnd] = name
        held.append(per[rnd][name])
    out = {"pair_level": pair_level, "pooled": pool, "held_out": pooled(held), "chosen": chosen,
           "gain_pooled": {n: gain([per[r]["main"] for r in rounds], [per[r][n] for r in rounds]) for n in names[1:]},
           "rounds": per}
    Path(out_path).write_text(json.dumps(out, indent=1))
    print(json.dumps({k: out[k] for k in ("pooled", "held_out", "chosen", "gain_pooled")}, indent=0))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
