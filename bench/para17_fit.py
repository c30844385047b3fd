"""Leave-one-round-out models of the mixed-pool order over `bench/para17_eval.py` rows (issue 10, round 17).

    python bench/para17_fit.py ROWS_DIR VARIANT MODEL_DIR [--C 0.1]   # reads ROWS_DIR/VARIANT_rN.jsonl
    python bench/para17_fit.py ROWS_DIR VARIANT FILE --all              # one model on every round (to ship)

Writes MODEL_DIR/wo_rN.json for every round N, fitted on the other rounds' candidates (relevant = 1) as
`xling_rerank_fit.py --write` fits them; `para17_eval.py` with PARA17_MODEL=MODEL_DIR then reads each round with
the model that never saw it. Prints the offline hit@5 of the held-out re-ordered pools (the real path is the eval).
"""

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from hindsight.retrieval.xling_rerank import DERIVED, FEATURES, POOL, expand

ap = argparse.ArgumentParser()
ap.add_argument("rows_dir")
ap.add_argument("variant")
ap.add_argument("out")
ap.add_argument("--C", type=float, default=0.1)
ap.add_argument("--all", action="store_true")
args = ap.parse_args()
names = [*FEATURES, *DERIVED]
rounds = {p.stem.rsplit("_", 1)[1]: [json.loads(x) for x in open(p, encoding="utf-8")]
          for p in sorted(Path(args.rows_dir).glob(f"{args.variant}_r*.jsonl"))}


def xy(qs: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    xs = [row for q in qs if q["ids"] for row in expand(q["x"])]
    ys = [float(i in q["relevant"]) for q in qs if q["ids"] for i in q["ids"]]
    return np.asarray(xs, dtype=float).reshape(-1, len(names)), np.asarray(ys)


def fit(qs: list[dict], rounds_used: list[str]) -> dict:
    x, y = xy(qs)
    mean, scale = x.mean(0), x.std(0) + 1e-9
    m = LogisticRegression(C=args.C, max_iter=2000).fit((x - mean) / scale, y)
    return {"features": names, "coef": [round(float(c), 5) for c in m.coef_[0]],
            "intercept": round(float(m.intercept_[0]), 5), "mean": [round(float(v), 6) for v in mean],
            "scale": [round(float(v), 6) for v in scale], "pool": POOL, "rounds": rounds_used, "C": args.C}


def top5(q: dict, model: dict) -> set:
    if not q["ids"]:
        return set(q["returned"])
    s = [model["intercept"] + sum(c * (v - m) / sc for c, v, m, sc in zip(model["coef"], row, model["mean"],
                                                                          model["scale"])) for row in expand(q["x"])]
    return {q["ids"][i] for i in sorted(range(len(s)), key=lambda i: -s[i])[:5]}


if args.all:
    Path(args.out).write_text(json.dumps(fit([q for qs in rounds.values() for q in qs], sorted(rounds)), indent=1)
                              + "\n", encoding="utf-8")
    raise SystemExit
out = Path(args.out)
out.mkdir(parents=True, exist_ok=True)
before, after = Counter(), Counter()
for held in rounds:
    model = fit([q for r, qs in rounds.items() if r != held for q in qs], [r for r in rounds if r != held])
    (out / f"wo_{held}.json").write_text(json.dumps(model) + "\n", encoding="utf-8")
    for q in rounds[held]:
        before[q["cat"]] += q["hit"]
        after[q["cat"]] += bool(top5(q, model) & set(q["relevant"]))
print("offline held out (pool re-ordered, no currency step):",
      ", ".join(f"{c} {before[c]} -> {after[c]}" for c in sorted(before)))
