"""Round 45 offline routes: per-person topic digests that lead to turns, fused into today's order (measurement only).

    python bench/recall45/routes.py COL CONVS... [--pick FILE] [--apply FILE] [--out FILE.json] [--where]

`--where`: how many of the evidence turns today's top 10 misses each list holds (and the named speakers' turns by
the query's cosine alone, `plain`), and R@10 if today's top 10 / 20 / 50 were ordered perfectly.

COL holds round 40's rows (`bench/recall40/collect.py` over round 38's): per conversation every turn's dia id,
speaker, session, own text and stored vector; per question round 38's top 50 and the `inst` list. The baseline
is today's order: round 38's top 50 with round 40's step 6d (`recall40/fuse.run`, its pick) applied.

Route lists (a question naming a speaker of the store; kept to that speaker's turns; declared in
bench/results/recall45/ship_rule.md):
* ``topic{S}x{D}``: the speaker's turns grouped by spherical k-means over their stored vectors (k = ceil(n / S)),
  groups ranked by the query's cosine to their mean vector, the turns of the best D groups by their own cosine;
* ``knn{K}``: the speaker's turns by the mean query cosine over the turn and its K nearest turns of the speaker.
Fused by recall38's RRF (1/(10+base rank) + w/(10+list rank)); gate: every question naming a speaker, or list
questions only (`class_lexicon.asks_list`).
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "recall38"))
sys.path.insert(0, str(HERE))
from fuse import apply as apply38  # noqa: E402
from fuse import fmt, load, summary  # noqa: E402
from harness import evaluate  # noqa: E402

sys.path.insert(0, str(HERE.parents[1] / "src"))
from hindsight.retrieval.class_lexicon import asks_list  # noqa: E402

SIZES = (6, 12, 24)
LEADS = (1, 2, 3)
KS = (3, 5, 10)
WEIGHTS = (0.1, 0.2, 0.35, 0.5)
GATES = ("named", "list")
PICK40 = ("inst", "rrf", 0.5, "speaker", "list")


def kmeans(x: np.ndarray, k: int, iters: int = 20) -> np.ndarray:
    """Spherical k-means labels of unit rows `x`; deterministic farthest-point init from the first row."""
    k = max(1, min(k, len(x)))
    centres = [0]
    best = x @ x[0]
    for _ in range(1, k):
        j = int(np.argmin(best))
        centres.append(j)
        best = np.maximum(best, x @ x[j])
    c = x[centres].copy()
    labels = np.zeros(len(x), dtype=int)
    for _ in range(iters):
        new = np.argmax(x @ c.T, axis=1)
        if np.array_equal(new, labels) and _ > 0:
            break
        labels = new
        for g in range(k):
            members = x[labels == g]
            if len(members):
                m = members.sum(axis=0)
                c[g] = m / (np.linalg.norm(m) or 1.0)
    return labels


class Speaker:
    """One speaker's turns of one store: indices, vectors, topic groups by size, K nearest neighbours."""

    def __init__(self, store: dict, who: str) -> None:
        self.idx = [i for i, s in enumerate(store["speaker"]) if s == who]
        m = store["matrix"][self.idx].astype(np.float32)
        self.x = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
        self.dia = [store["dia"][i] for i in self.idx]
        self.groups: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for s in SIZES:
            labels = kmeans(self.x, math.ceil(len(self.idx) / s))
            cents = np.stack([self.x[labels == g].sum(axis=0) for g in range(labels.max() + 1)])
            cents /= np.maximum(np.linalg.norm(cents, axis=1, keepdims=True), 1e-9)
            self.groups[s] = (labels, cents)
        sims = self.x @ self.x.T
        np.fill_diagonal(sims, -np.inf)
        self.nn = np.argsort(-sims, axis=1)[:, : max(KS)]

    def topic(self, qv: np.ndarray, size: int, lead: int) -> list[tuple[str, float]]:
        labels, cents = self.groups[size]
        cos = self.x @ qv
        best = np.argsort(-(cents @ qv))[:lead]
        members = [j for j in range(len(self.idx)) if labels[j] in set(best.tolist())]
        return [(self.dia[j], float(cos[j])) for j in members]

    def knn(self, qv: np.ndarray, k: int) -> list[tuple[str, float]]:
        cos = self.x @ qv
        smooth = (cos + cos[self.nn[:, :k]].sum(axis=1)) / (k + 1)
        return [(self.dia[j], float(smooth[j])) for j in range(len(self.idx))]


def route(q: dict, speakers: dict[str, Speaker], name: str) -> list[str] | None:
    """The route list of `name` for the speakers `q` names (merged by score); None when it names none."""
    named = [speakers[n] for n in q["names"] if n in speakers]
    if not named or q["qv"] is None:
        return None
    qv = np.asarray(q["qv"], dtype=np.float32)
    qv = qv / (np.linalg.norm(qv) or 1.0)
    scored: list[tuple[str, float]] = []
    for sp in named:
        if name.startswith("topic"):
            size, lead = (int(v) for v in name[5:].split("x"))
            scored += sp.topic(qv, size, lead)
        else:
            scored += sp.knn(qv, int(name[3:]))
    return [d for d, _ in sorted(scored, key=lambda t: -t[1])][:50]


def fuse(base: list[str], lst: list[str], w: float) -> list[str]:
    score: dict[str, float] = {}
    for i, d in enumerate(base[:50]):
        score[d] = score.get(d, 0.0) + 1.0 / (10 + i + 1)
    for i, d in enumerate(lst[:50]):
        score[d] = score.get(d, 0.0) + w / (10 + i + 1)
    return sorted(score, key=lambda d: -score[d])


LISTS = [f"topic{s}x{d}" for s in SIZES for d in LEADS] + [f"knn{k}" for k in KS]
VARIANTS = [(name, w, gate) for gate in GATES for name in LISTS for w in WEIGHTS]


def prepare(col: Path, convs: list[int]) -> list[tuple[dict, dict]]:

    rows = load(col, convs)
    cache: dict[int, dict[str, Speaker]] = {}
    for q, store in rows:
        if asks_list(q["q"]):  # today's order: step 6d (round 40's pick) over round 38's top 50
            q["today"] = apply38(q, store, PICK40[:4])
        else:
            q["today"] = q["base"]
        if q["conv"] not in cache:
            cache[q["conv"]] = {s: Speaker(store, s) for s in set(store["speaker"]) if s}
        q["routes"] = {n: route(q, cache[q["conv"]], n) for n in LISTS}
        q["routes"]["plain"] = plain(q, cache[q["conv"]])
    return rows


def run(q: dict, variant: tuple) -> list[str]:
    name, w, gate = variant
    lst = q["routes"][name]
    if lst is None or (gate == "list" and not asks_list(q["q"])):
        return q["today"]
    return fuse(q["today"], lst, w)


def plain(q: dict, speakers: dict[str, Speaker]) -> list[str] | None:
    """The named speakers' turns by the query's cosine alone (the reference the route lists are read against)."""
    named = [speakers[n] for n in q["names"] if n in speakers]
    if not named or q["qv"] is None:
        return None
    qv = np.asarray(q["qv"], dtype=np.float32)
    qv = qv / (np.linalg.norm(qv) or 1.0)
    scored = [(sp.dia[j], float(c)) for sp in named for j, c in enumerate(sp.x @ qv)]
    return [d for d, _ in sorted(scored, key=lambda t: -t[1])][:50]


def oracle(rows: list) -> None:
    """R@10 if today's first `depth` were ordered perfectly (every evidence turn among them first)."""
    def best(q: dict, depth: int) -> list[str]:
        ev = [d for d in q["today"][:depth] if d in set(q["evidence"])]
        return ev + [d for d in q["today"] if d not in ev]

    for depth in (10, 20, 50):
        print(f"perfect order of today's top {depth}:", fmt(summary([(q, best(q, depth)) for q, _ in rows])))


def where(rows: list) -> None:
    """Evidence of named-speaker multi-hop / open-domain questions today's top 10 misses: in each list's top 10/20."""
    for name in ["plain", *LISTS]:
        hit10 = hit20 = miss = 0
        for q, _ in rows:
            lst = q["routes"][name]
            if lst is None or q["cat"] not in ("multi-hop", "open-domain"):
                continue
            for e in q["evidence"]:
                if e in q["today"][:10]:
                    continue
                miss += 1
                hit10 += e in lst[:10]
                hit20 += e in lst[:20]
        print(f"{name}: missed {miss}, in the list's top 10 {hit10}, top 20 {hit20}")


def main() -> None:
    col = Path(sys.argv[1])
    convs = [int(x) for x in sys.argv[2:] if x.isdigit()]
    rows = prepare(col, convs)
    print("today's top 10:", fmt(summary([(q, q["today"]) for q, _ in rows])),
          "| round 38's:", fmt(summary([(q, q["base"]) for q, _ in rows])))
    if "--where" in sys.argv:
        where(rows)
        oracle(rows)
        return
    evaluate(rows, convs, VARIANTS, lambda q, _store, v: run(q, v), lambda v: v[1], sys.argv)


if __name__ == "__main__":
    main()
