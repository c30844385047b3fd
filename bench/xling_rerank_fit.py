"""Leave-one-round-out fit of the cross-lingual re-ranker over `bench/xling_dump.py` rows (issue 10, round 6).

    python bench/xling_rerank_fit.py DUMP_DIR [--mini] [--write]     # DUMP_DIR/cands_rN.jsonl, one per round

For each released round held out, fits a logistic model on the other rounds' candidates (relevant = 1) and
re-ranks the held-out round's top `POOL` candidates; prints hit@5 per category before (the search's own order)
and after, per held-out round. `--write [FILE]` fits on all rounds (or --train's) and writes FILE (default src/hindsight/data/xling_rerank.json).
"""
import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from hindsight.retrieval.xling_rerank import DERIVED, FEATURES, POOL, expand

ap = argparse.ArgumentParser()
ap.add_argument("dump_dir")
ap.add_argument("--mini", action="store_true", help="add the all-MiniLM-L6-v2 cosine as a feature")
ap.add_argument("--raw", action="store_true", help="without the DERIVED columns")
ap.add_argument("--write", nargs="?", const="src/hindsight/data/xling_rerank.json", default="",
                help="fit on the --train rounds (default: all) and write the model file here")
ap.add_argument("--train", default="", help="comma-separated rounds to fit the written model on")
ap.add_argument("--C", type=float, default=0.1)
args = ap.parse_args()
rounds = {p.stem.split("_")[-1]: [json.loads(x) for x in open(p, encoding="utf-8")]
          for p in sorted(Path(args.dump_dir).glob("cands_r*.jsonl"))}
names = list(FEATURES) + (list(DERIVED) if not args.raw else []) + (["mini", "mini_missing"] if args.mini else [])


def rows_of(q: dict) -> tuple[np.ndarray, np.ndarray]:
    x = [list(row) + ([m or 0.0, 0.0 if m is not None else 1.0] if args.mini else [])
         for row, m in zip(q["x"] if args.raw else expand(q["x"]), q["mini"] or [None] * len(q["x"]))]
    y = [1.0 if i in q["relevant"] else 0.0 for i in q["ids"]]
    return np.asarray(x, dtype=float).reshape(-1, len(names)), np.asarray(y)


def fit(qs: list[dict]) -> tuple[LogisticRegression, np.ndarray, np.ndarray]:
    xs, ys = zip(*(rows_of(q) for q in qs))
    x, y = np.vstack(xs), np.concatenate(ys)
    mean, scale = x.mean(0), x.std(0) + 1e-9
    model = LogisticRegression(C=args.C, max_iter=2000).fit((x - mean) / scale, y)
    return model, mean, scale


def hits(qs: list[dict], model: tuple | None) -> dict[str, list[bool]]:
    """hit@5: before = what the search returned; after = the top 5 of the re-ordered pool (offline: the
    currency step that follows in the search is not replayed; `xling_dump.py --model` runs the real path)."""
    out = defaultdict(list)
    for q in qs:
        top = set(q["returned"][:5])
        if model is not None and q["ids"]:
            m, mean, scale = model
            x, _ = rows_of(q)
            s = m.decision_function((x - mean) / scale)
            top = {q["ids"][i] for i in sorted(range(len(q["ids"])), key=lambda i: -s[i])[:5]}
        out[q["cat"]].append(bool(top & set(q["relevant"])))
        out["all"].append(bool(top & set(q["relevant"])))
    return out


cats = ["zh_paraphrase", "en_paraphrase", "zh_to_en", "en_to_zh", "superseded", "all"]
rate = lambda v: f"{sum(v)}/{len(v)}" if v else "-"
print("held out | " + " | ".join(cats))
for held in rounds:
    train = [q for r, qs in rounds.items() if r != held for q in qs]
    before, after = hits(rounds[held], None), hits(rounds[held], fit(train))
    print(held, "before |", " | ".join(rate(before[c]) for c in cats))
    print(held, "after  |", " | ".join(rate(after[c]) for c in cats))
    pool = defaultdict(list)
    for q in rounds[held]:
        pool[q["cat"]].append(bool(set(q["ids"]) & set(q["relevant"])))
    print(held, "in pool|", " | ".join(rate(pool[c]) for c in cats[:-1]))
if args.write:
    train = args.train.split(",") if args.train else sorted(rounds)
    m, mean, scale = fit([q for r in train for q in rounds[r]])
    out = {"features": names, "coef": [round(float(c), 5) for c in m.coef_[0]],
           "intercept": round(float(m.intercept_[0]), 5), "mean": [round(float(v), 6) for v in mean],
           "scale": [round(float(v), 6) for v in scale], "pool": POOL, "rounds": train, "C": args.C}
    path = Path(args.write)
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print("wrote", path, dict(zip(names, out["coef"])))
