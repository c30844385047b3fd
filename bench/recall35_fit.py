"""A learned order of the fused pool's top, leave-one-round-out over the released blind rounds (issue 10, round 35).

    PYTHONPATH=src:bench python bench/recall35_fit.py OUT.json DIR [DIR ...]

DIR holds `xling32_sim.py --cands 30` rows (main_ROUND.jsonl: each question's top 30 fused candidates as the
mixed-pool step sees them, empty where the step does not run). Variants (declared in `results/recall35_rule.md`):
G30 (the primary: a histogram gradient-boosting classifier on every column `xling_rerank` computes, re-ordering the
top 30), G20 (the same on the top 20), L20 / L30 (logistic C 0.1 on the shipped model's columns). Each round is
re-ordered by the variant fitted on the other rounds (held out) and by the one fitted on every round (in sample);
offline hit@5 = a relevant memory in the top 5 of the re-ordered pool; questions without candidates keep the
dump's hit. Superseded-as-current (offline): a stale memory in the top 5 above every relevant one.
"""

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import rerank23_fit as fit
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression

from hindsight.retrieval.xling_rerank import expand, features_of

CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")
DEEP = 30


def booster() -> HistGradientBoostingClassifier:
    return HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=40,
                                          l2_regularization=1.0, random_state=0)


def matrix(q: dict) -> np.ndarray:
    rows = [features_of(q["text"], q["group"], c, k) for k, c in enumerate(q["cands"][:DEEP], start=1)]
    return np.asarray(expand(rows), dtype=float).reshape(-1, len(fit.COLUMNS))


def load(dirs: list[Path]) -> dict[str, list[dict]]:
    data: dict[str, list[dict]] = {}
    for folder in dirs:
        for p in sorted(folder.glob("main_r*.jsonl")):
            rnd = p.stem[len("main_"):]
            qs = [json.loads(line) for line in open(p, encoding="utf-8")]
            src = [json.loads(line) for line in open(f"bench/data/blind/{rnd}/retrieval/queries.jsonl", encoding="utf-8")
                   if line.strip()]
            for q in qs:
                q["stale"] = src[q["line"]].get("stale") or []
                q["m"] = matrix(q) if q["cands"] else np.zeros((0, len(fit.COLUMNS)))
                q["y"] = np.asarray([float(c["id"] in q["relevant"]) for c in q["cands"][:DEEP]])
            data[rnd] = qs
    return data


class Variant:
    def __init__(self, kind: str, pool: int, cols: list[int]) -> None:
        self.kind, self.pool, self.cols = kind, pool, cols

    def fit(self, qs: list[dict]):  # type: ignore[no-untyped-def]
        qs = [q for q in qs if q["cands"]]
        x = np.vstack([q["m"][: self.pool, self.cols] for q in qs])
        y = np.concatenate([q["y"][: self.pool] for q in qs])
        if self.kind == "G":
            return booster().fit(x, y)
        mean, scale = x.mean(0), x.std(0) + 1e-9
        m = LogisticRegression(C=0.1, max_iter=3000).fit((x - mean) / scale, y)
        return (m, mean, scale)

    def top5(self, model, q: dict) -> list[str]:  # type: ignore[no-untyped-def]
        x = q["m"][: self.pool, self.cols]
        if self.kind == "G":
            s = model.predict_proba(x)[:, 1]
        else:
            m, mean, scale = model
            s = m.decision_function((x - mean) / scale)
        ids = [c["id"] for c in q["cands"]]
        return [ids[i] for i in np.argsort(-s, kind="stable")[:5]]


def stale_current(top: list[str], q: dict) -> bool:
    if not q["stale"]:
        return False
    rel = [top.index(x) for x in q["relevant"] if x in top]
    best = min(rel, default=99)
    return any(x in top and top.index(x) < best for x in set(q["stale"]) - set(q["relevant"]))


def score(q: dict, top: list[str] | None) -> tuple[bool, bool]:
    """(hit, stale as current) of a question: `top` None keeps the dump's own result."""
    got = q["returned"] if top is None else top
    hit = q["hit"] if top is None else bool(set(top) & set(q["relevant"]))
    return hit, stale_current(got, q)


def main() -> None:
    out = Path(sys.argv[1])
    data = load([Path(d) for d in sys.argv[2:]])
    rounds = sorted(data, key=lambda r: int(r[1:]))
    shipped = json.loads(fit.xling_rerank.MODEL_FILE.read_text(encoding="utf-8"))
    ship_cols = [fit.COLUMNS.index(n) for n in shipped["features"]]
    every = list(range(len(fit.COLUMNS)))
    variants = {"G30": Variant("G", 30, every), "L20": Variant("L", 20, ship_cols),
                "L30": Variant("L", 30, ship_cols), "G20": Variant("G", 20, every)}
    res: dict = {"rounds": rounds, "per_round": {r: {} for r in rounds}, "questions": {}}

    def tally(name: str, rnd: str, tops: list[list[str] | None]) -> None:
        hits, stale, n = Counter(), 0, Counter()
        for q, top in zip(data[rnd], tops, strict=True):
            h, s = score(q, top)
            hits[q["cat"]] += h
            n[q["cat"]] += 1
            stale += s
            res["questions"].setdefault(f"{rnd}:{q['line']}", {"cat": q["cat"]})[name] = h
        res["per_round"][rnd][name] = {**{c: hits[c] for c in CATS}, "stale_current": stale, "n": dict(n)}

    for rnd in rounds:
        tally("dump", rnd, [None] * len(data[rnd]))
        ship = []
        for q in data[rnd]:
            if not q["cands"]:
                ship.append(None)
                continue
            x = q["m"][:20, ship_cols]
            s = shipped["intercept"] + ((x - np.asarray(shipped["mean"])) / np.asarray(shipped["scale"])) @ np.asarray(
                shipped["coef"])
            ship.append([q["cands"][i]["id"] for i in np.argsort(-s, kind="stable")[:5]])
        tally("shipped_offline", rnd, ship)
    write(out, res, rounds)
    for name, v in variants.items():
        full = v.fit([q for r in rounds for q in data[r]])
        for rnd in rounds:
            tally(f"{name}_in", rnd, [v.top5(full, q) if q["cands"] else None for q in data[rnd]])
            model = v.fit([q for r in rounds if r != rnd for q in data[r]])
            tally(f"{name}_out", rnd, [v.top5(model, q) if q["cands"] else None for q in data[rnd]])
        print(name, flush=True)
        write(out, res, rounds)


def write(out: Path, res: dict, rounds: list[str]) -> None:
    """Pool the per-round tallies so far and write OUT (after each variant: a late variant can be stopped)."""
    pooled: dict = {}
    for name in res["per_round"][rounds[0]]:
        tot: Counter = Counter()
        for rnd in rounds:
            row = res["per_round"][rnd][name]
            tot.update({c: row[c] for c in CATS})
            tot["stale_current"] += row["stale_current"]
            tot.update({f"n_{c}": row["n"].get(c, 0) for c in CATS})
        pooled[name] = dict(tot)
    res["pooled"] = pooled
    out.write_text(json.dumps(res, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    for name, tot in pooled.items():
        cells = "  ".join(f"{c[:6]} {tot[c]}/{tot['n_' + c]} ({tot[c] / tot['n_' + c]:.3f})" for c in CATS)
        print(f"{name:18s} {cells}  stale {tot['stale_current']}", flush=True)

if __name__ == "__main__":
    main()
