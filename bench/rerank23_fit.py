"""Leave-one-round-out refits of the mixed-pool order over `bench/rerank23_eval.py` dumps (issue 10, round 23).

    python bench/rerank23_fit.py DIR VARIANT SET[,SET...] [--C 0.1] [--write MODEL_DIR] [--all FILE]
        [--pairwise]   # a linear RankNet: each relevant candidate above each other one of its question
        [--split]      # every column twice, for a Chinese question and for an English one

Reads DIR/VARIANT_ROUND.jsonl (the candidates `xling_rerank.reorder` saw, per question) and computes each feature
set's columns from them with the code's own `features_of` / `expand`. SET: `main` (the shipped model's columns),
`tr` (main + the dictionary channel's rank, `translated_rrank` and its Chinese-question split), `all` (every
column the code computes). For each released round (a round without `T`), a model is fitted on every other round's
candidates - the training stores (`r21T20`, `r21T21`) always train, never score - and the round's pools are
re-ordered offline (top 5 of the re-ordered 20; the later steps of the path, the dense slot and currency, are not
replayed: the real path is `rerank23_eval.py` with XLING_MODEL=MODEL_DIR). Prints per category: the dump's own hits
(the model that ran), the shipped model replayed offline, and each set held out. `--write` saves the first set's
wo_ROUND.json models; `--all` one model of the first set on every round (to ship).
"""

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from hindsight.retrieval import xling_rerank
from hindsight.retrieval.xling_rerank import DERIVED, FEATURES, POOL, expand, features_of

COLUMNS = [*FEATURES, *DERIVED]
CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")


def sets() -> dict[str, list[str]]:
    shipped = json.loads(xling_rerank.MODEL_FILE.read_text(encoding="utf-8"))["features"]
    main = [c for c in shipped if c in COLUMNS and not c.startswith("translated")]
    tr = [*main, "translated_rrank", "translated_rrank_zh"]
    return {"main": main, "tr": tr, "rd": [*tr, "rendered_rrank", "rendered_rrank_zh"], "all": COLUMNS}


SPLIT = False


def matrix(q: dict) -> np.ndarray:
    rows = [features_of(q["text"], q["group"], c, k) for k, c in enumerate(q["cands"][:POOL], start=1)]
    return np.asarray(expand(rows), dtype=float).reshape(-1, len(COLUMNS))


def view(q: dict, cols: list[int], split: bool | None = None) -> np.ndarray:
    """The question's rows over `cols`; with SPLIT every column twice, for a Chinese question and an English one."""
    m = q["m"][:, cols]
    if not (SPLIT if split is None else split):
        return m
    zh = q["m"][:, [COLUMNS.index("zh_query")]]
    return np.hstack([m * zh, m * (1 - zh)])


PAIRWISE = False


def labels(q: dict) -> np.ndarray:
    return np.asarray([float(c["id"] in q["relevant"]) for c in q["cands"][:POOL]])


def pairs(z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each relevant candidate's standardised row minus each other candidate's, weighed so a question counts once."""
    good, bad = z[y == 1], z[y == 0]
    if not len(good) or not len(bad):
        return np.zeros((0, z.shape[1]))
    diff = (good[:, None, :] - bad[None, :, :]).reshape(-1, z.shape[1])
    return diff


def fit(qs: list[dict], cols: list[int], names: list[str], rounds: list[str], c: float) -> dict:
    x = np.vstack([view(q, cols) for q in qs])
    y = np.concatenate([labels(q) for q in qs])
    mean, scale = x.mean(0), x.std(0) + 1e-9
    if PAIRWISE:  # order the candidates of one question: a linear RankNet, relevant above each other candidate
        diffs = [pairs((view(q, cols) - mean) / scale, labels(q)) for q in qs]
        w = np.concatenate([np.full(len(d), 1.0 / len(d)) for d in diffs if len(d)])
        d = np.vstack([d for d in diffs if len(d)])
        m = LogisticRegression(C=c, max_iter=3000, fit_intercept=False).fit(
            np.vstack([d, -d]), np.r_[np.ones(len(d)), np.zeros(len(d))], sample_weight=np.r_[w, w] * len(diffs))
        intercept = 0.0
    else:
        m = LogisticRegression(C=c, max_iter=3000).fit((x - mean) / scale, y)
        intercept = float(m.intercept_[0])
    return {"features": names, "coef": [round(float(v), 5) for v in m.coef_[0]],
            "intercept": round(intercept, 5), "mean": [round(float(v), 6) for v in mean],
            "scale": [max(round(float(v), 6), 1e-6) for v in scale], "pool": POOL, "rounds": rounds, "C": c,
            "fit": "pairwise" if PAIRWISE else "pointwise"}


def offline_hit(q: dict, model: dict, cols: list[int], split: bool | None = None) -> bool:
    if not q["cands"]:
        return q["hit"]
    x = view(q, cols, split)
    s = model["intercept"] + ((x - np.asarray(model["mean"])) / np.asarray(model["scale"])) @ np.asarray(model["coef"])
    top = [q["cands"][i]["id"] for i in np.argsort(-s, kind="stable")[:5]]
    return bool(set(top) & set(q["relevant"]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("variant")
    ap.add_argument("sets")
    ap.add_argument("--C", type=float, default=0.1)
    ap.add_argument("--write", default=None)
    ap.add_argument("--all", default=None)
    ap.add_argument("--pairwise", action="store_true")
    ap.add_argument("--split", action="store_true")
    args = ap.parse_args()
    global PAIRWISE
    PAIRWISE = args.pairwise
    global SPLIT
    SPLIT = args.split
    data: dict[str, list[dict]] = {}
    for p in sorted(Path(args.dir).glob(f"{args.variant}_r*.jsonl")):
        rnd = p.stem[len(args.variant) + 1:]
        data[rnd] = [json.loads(line) for line in open(p, encoding="utf-8")]
        for q in data[rnd]:
            q["m"] = matrix(q) if q["cands"] else np.zeros((0, len(COLUMNS)))
    released = sorted((r for r in data if "T" not in r), key=lambda r: int(r[1:]))
    every = sets()
    chosen = args.sets.split(",")
    shipped = json.loads(xling_rerank.MODEL_FILE.read_text(encoding="utf-8"))
    ship_cols = [COLUMNS.index(n) for n in shipped["features"]]
    table: dict[str, Counter] = {"dump": Counter(), "shipped offline": Counter()}
    size: Counter = Counter()
    per_round: dict[str, dict[str, Counter]] = {}
    for rnd in released:
        per_round[rnd] = {"dump": Counter()}
        for q in data[rnd]:
            size[q["cat"]] += 1
            table["dump"][q["cat"]] += q["hit"]
            per_round[rnd]["dump"][q["cat"]] += q["hit"]
            table["shipped offline"][q["cat"]] += offline_hit(q, shipped, ship_cols, False)
    for name in chosen:
        names = every[name]
        cols = [COLUMNS.index(n) for n in names]
        key = f"{name} held out"
        table[key] = Counter()
        for rnd in released:
            others = [r for r in data if r != rnd]
            model = fit([q for r in others for q in data[r] if q["cands"]], cols, names, others, args.C)
            if args.write and name == chosen[0]:
                Path(args.write).mkdir(parents=True, exist_ok=True)
                (Path(args.write) / f"wo_{rnd}.json").write_text(json.dumps(model) + "\n", encoding="utf-8")
            per_round[rnd][key] = Counter()
            for q in data[rnd]:
                h = offline_hit(q, model, cols)
                table[key][q["cat"]] += h
                per_round[rnd][key][q["cat"]] += h
        if args.write and name == chosen[0]:
            for rnd in (r for r in data if "T" in r):  # a training store is never held out: the all-rounds model
                model = fit([q for r in data for q in data[r] if q["cands"]], cols, names, sorted(data), args.C)
                (Path(args.write) / f"wo_{rnd}.json").write_text(json.dumps(model) + "\n", encoding="utf-8")
    print(f"C={args.C} rounds={released} training-only={[r for r in data if 'T' in r]}")
    print("| variant | " + " | ".join(CATS) + " | all |")
    for key, c in table.items():
        print(f"| {key} | " + " | ".join(f"{c[k]} / {size[k]}" for k in CATS) + f" | {sum(c.values())} |")
    for rnd in released:
        print(rnd, "  ".join(f"{k}: {sum(v.values())}" for k, v in per_round[rnd].items()))
    if args.all:
        names = every[chosen[0]]
        cols = [COLUMNS.index(n) for n in names]
        model = fit([q for r in data for q in data[r] if q["cands"]], cols, names, sorted(data), args.C)
        Path(args.all).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
