"""change33 (issue 10): the gate on the change verdict under the rule declared first (bench/results/change33_rule.md):
leave-one-round-out over the released retrieval stores' retirements on write and the hygiene sets r26 - r31.

    PYTHONPATH=src:bench python bench/change33_loro.py OUT.json --hyg HYGDIR LOGROOT...
    PYTHONPATH=src:bench python bench/change33_loro.py --curve OUT.json --hyg HYGDIR LOGROOT...   # post hoc
    PYTHONPATH=src:bench python bench/change33_loro.py --embed CACHE.pkl [--curve] OUT.json --hyg HYGDIR LOGROOT...  # E

Variants: G - a reading, one of `change33_gate.VARIANTS` or off, chosen per fold on the training rounds by cost;
M - a logistic model over size-free pair readings (`features`), kept when its score < t, t on the training rounds'
out-of-fold scores (five groups of rounds). Cost 1 x kept memory retired + 3 x replaced memory (or hygiene change)
left active. The hygiene set of a round is read by that round's fold (trained without it).
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import change33_gate as cg
import numpy as np
from change33_pairs import load
from sklearn.linear_model import LogisticRegression

from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.currency import anchors
from hindsight.write.clause_split import clauses, spans
from hindsight.write.shared_attribute import shared
from hindsight.write.supersede import change_signalled, departed_in, departed_terms, shared_terms

COST_WRONG, COST_MISSED = 1.0, 3.0
GRID = [round(x, 3) for x in np.arange(0.05, 0.951, 0.025)]
C = 0.5
FEATURES = ("cov_old", "cov_new", "shared_frac", "best_cue_frac", "first_frac", "held", "shared_terms", "p_change",
            "cross", "g_same", "g_other", "g_nocue")


def features(old: str, new: str, p: float | None) -> list[float]:
    to, tn = max(1, len(anchors(old, old))), max(1, len(anchors(new, new)))
    a = len(anchors(old, new))
    cued = [s for s in spans(new) if change_signalled(s)]
    first = clauses(new)[0]
    g = cg.reading(old, new, "signalled", "span", 1)
    return [a / to, a / tn, len(shared(old, new)) / min(to, tn),
            max([len(shared(old, s)) / max(1, len(anchors(s, s))) for s in cued], default=0.0),
            len(shared(old, first)) / max(1, len(anchors(first, first))),
            float(departed_in(old, departed_terms(new)) > 0), shared_terms(old, new) / min(to, tn),
            0.5 if p is None else p, float(bias_group(old) != bias_group(new)),
            float(g == "same"), float(g == "other"), float(g == "nocue")]


class Data:
    """Every retirement of a round (store and hygiene set), its label and readings, and how to replay it."""

    def __init__(self, args: list[str], embed: Path | None = None) -> None:
        stores, hygs = load(args)
        self.names = sorted(stores)
        self.stores = stores
        self.hygs = hygs
        self.x: dict[str, np.ndarray] = {}
        self.y: dict[str, np.ndarray] = {}
        self.keys: dict[str, list] = {}
        self.texts: dict[str, list[tuple[str, str]]] = {}
        for r in self.names:
            keys, xs, ys, texts = [], [], [], []
            for k, p in enumerate(stores[r][0]):
                keys.append(("store", k))
                xs.append(features(p["old"], p["new"], p["p"]))
                ys.append(p["right"])
                texts.append((p["old"], p["new"]))
            for row in hygs.get(r, []):
                for role, mine, dup in row["writes"]:
                    for m in sorted(mine) if not dup else []:
                        keys.append(("hyg", row["i"], role, m))
                        xs.append(features(row["texts"][m], row["texts"][role], row["p"].get((role, m))))
                        ys.append(role == "new" and m == "existing" and row["label"] == "change")
                        texts.append((row["texts"][m], row["texts"][role]))
            self.keys[r], self.x[r], self.y[r], self.texts[r] = keys, np.array(xs), np.array(ys, dtype=int), texts
            print(r, len(keys), file=sys.stderr, flush=True)
        if embed is not None:  # variant E: M's readings and three cosines (`change33_embed`)
            from change33_embed import Vectors
            vectors = Vectors(embed)
            vectors.need([t for r in self.names for t in self.texts[r]])
            for r in self.names:
                extra = np.array([vectors.features(o, n) for o, n in self.texts[r]]).reshape(len(self.texts[r]), 3)
                self.x[r] = np.hstack([self.x[r], extra])

    def replay(self, r: str, keep: Callable[[int], bool]) -> dict:
        """Round r's store cells and hygiene confusion when retirement k stands unless keep(k)."""
        pairs, n = self.stores[r]
        stands = {key: not keep(k) for k, key in enumerate(self.keys[r])}
        ok = sum(1 for k, p in enumerate(pairs) if p["right"] and stands[("store", k)])
        bad = sum(1 for k, p in enumerate(pairs) if not p["right"] and stands[("store", k)])
        out = {"replaced_retired": ok, "kept_retired": bad, "replaced": n}
        conf: Counter = Counter()
        others = [0, 0]
        for row in self.hygs.get(r, []):
            main: set[str] = set()
            kept: set[str] = set()
            for role, mine, dup in row["writes"]:
                main |= mine
                kept |= {m for m in mine if dup or stands[("hyg", row["i"], role, m)]}
            outcome = row["outcome"]
            if outcome not in ("merged", "merged_elsewhere"):
                outcome = "change" if "existing" in kept else "kept"
            oks = [(o or f"other{k}" in main) and f"other{k}" not in kept for k, o in enumerate(row["others_ok"])]
            conf[f"{row['label']}->{outcome}"] += 1
            others[0] += sum(oks)
            others[1] += len(oks)
        if r in self.hygs:
            out["hygiene"] = dict(sorted(conf.items()))
            out["others_untouched"] = others
        return out


def cost(cells: dict) -> float:
    c = COST_WRONG * cells["kept_retired"] + COST_MISSED * (cells["replaced"] - cells["replaced_retired"])
    h = cells.get("hygiene", {})
    wrong = sum(v for k, v in h.items() if k.endswith("->change") and not k.startswith("change"))
    missed = sum(v for k, v in h.items() if k.startswith("change->") and k != "change->change")
    others_lost = cells.get("others_untouched", [0, 0])[1] - cells.get("others_untouched", [0, 0])[0]
    return c + COST_WRONG * (wrong + others_lost) + COST_MISSED * missed


def gate_keep(d: Data, r: str, gate: cg.Gate | None) -> Callable[[int], bool]:
    return lambda k: cg.gated(gate, *d.texts[r][k])


def choose_gate(d: Data, names: list[str]) -> cg.Gate | None:
    best: tuple[float, int] | None = None
    options: list[cg.Gate | None] = [None, *cg.VARIANTS]
    for i, g in enumerate(options):
        total = sum(cost(d.replay(r, gate_keep(d, r, g))) for r in names)
        if best is None or total < best[0]:
            best = (total, i)
    assert best is not None
    return options[best[1]]


def fit(d: Data, names: list[str]) -> tuple[LogisticRegression, np.ndarray, np.ndarray]:
    x = np.vstack([d.x[r] for r in names])
    y = np.concatenate([d.y[r] for r in names])
    mean, scale = x.mean(0), x.std(0)
    scale[scale < 1e-6] = 1.0
    return LogisticRegression(C=C, max_iter=2000).fit((x - mean) / scale, y), mean, scale


def scores(model: tuple, x: np.ndarray) -> np.ndarray:
    lr, mean, scale = model
    return lr.predict_proba((x - mean) / scale)[:, 1]


def below(s: np.ndarray, t: float) -> Callable[[int], bool]:
    """Retirement k is kept when its score is under t."""
    return lambda k: bool(s[k] < t)


def choose_t(d: Data, names: list[str]) -> float:
    groups = [names[i::5] for i in range(5) if names[i::5]]
    costs = np.zeros(len(GRID))
    for g in groups:
        model = fit(d, [n for n in names if n not in g])
        for n in g:
            s = scores(model, d.x[n])
            for k, t in enumerate(GRID):
                costs[k] += cost(d.replay(n, below(s, t)))
    return GRID[int(np.argmin(costs))]


def _add(pool: dict, cells: dict) -> None:
    for k in ("replaced_retired", "kept_retired", "replaced"):
        pool[k] = pool.get(k, 0) + cells[k]
    if "hygiene" in cells:
        pool.setdefault("hygiene", Counter()).update(cells["hygiene"])
        pool["others_untouched"] = pool.get("others_untouched", 0) + cells["others_untouched"][0]


POINTS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]


def curve(out: str, args: list[str], embed: Path | None = None) -> None:
    """Post hoc (after the rule's run, not a ship decision): every G setting over all rounds (no fit: held out and
    in sample are one), and M's fold models at fixed points, pooled held out."""
    d = Data(args, embed)
    res: dict = {}
    for g in [None, *cg.VARIANTS]:
        pool: dict = {}
        for r in d.names:
            _add(pool, d.replay(r, gate_keep(d, r, g)))
        res["G " + ("off" if g is None else g.name)] = pool
    table: dict = {t: {} for t in POINTS}
    for h in d.names:
        s = scores(fit(d, [n for n in d.names if n != h]), d.x[h])
        for t in POINTS:
            _add(table[t], d.replay(h, below(s, t)))
    for t, pool in table.items():
        res[f"M {t}"] = pool
    for k, v in res.items():
        h = v.get("hygiene", {})
        print(k, v["replaced_retired"], v["kept_retired"], h.get("change->change"), h.get("distinct->change"),
              h.get("restatement->change"), v.get("others_untouched"), file=sys.stderr)
    Path(out).write_text(json.dumps({k: {kk: (dict(sorted(vv.items())) if isinstance(vv, Counter) else vv)
                                         for kk, vv in v.items()} for k, v in res.items()}, indent=1) + "\n")


def main() -> None:
    embed = None
    if sys.argv[1] == "--embed":
        embed, sys.argv = Path(sys.argv[2]), sys.argv[:1] + sys.argv[3:]
    if sys.argv[1] == "--curve":
        curve(sys.argv[2], sys.argv[3:], embed)
        return
    out, args = sys.argv[1], sys.argv[2:]
    d = Data(args, embed)
    names = d.names
    res: dict = {"rounds": names, "hygiene_sets": sorted(d.hygs), "features": FEATURES}
    full_gate = choose_gate(d, names)
    full_model = fit(d, names)
    res["G_full"] = None if full_gate is None else full_gate.name
    per: dict = {}
    pooled: dict = {k: {} for k in ("main", "G_held_out", "G_in_sample", "M_held_out", "M_in_sample")}
    for h in names:
        train = [n for n in names if n != h]
        g = choose_gate(d, train)
        t = choose_t(d, train)
        model = fit(d, train)
        s, s_full = scores(model, d.x[h]), scores(full_model, d.x[h])
        cells = {"main": d.replay(h, lambda k: False),
                 "G_held_out": d.replay(h, gate_keep(d, h, g)),
                 "G_in_sample": d.replay(h, gate_keep(d, h, full_gate)),
                 "M_held_out": d.replay(h, below(s, t)),
                 "M_in_sample": d.replay(h, below(s_full, t))}
        per[h] = {"gate": None if g is None else g.name, "t": t, **cells}
        for k, v in cells.items():
            _add(pooled[k], v)
        print(h, per[h]["gate"], t, {k: (v["replaced_retired"], v["kept_retired"]) for k, v in cells.items()},
              file=sys.stderr, flush=True)
        res["per_round"] = per
        res["pooled"] = {k: {kk: (dict(sorted(vv.items())) if isinstance(vv, Counter) else vv) for kk, vv in v.items()}
                         for k, v in pooled.items()}
        Path(out).write_text(json.dumps(res, indent=1) + "\n")
    lr, _, _ = full_model
    names_ = FEATURES + (("cos_whole", "cos_cue_span", "cos_any_span") if embed else ())
    res["M_full_weights"] = dict(zip(names_, [round(float(w), 3) for w in lr.coef_[0]], strict=True))
    Path(out).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
