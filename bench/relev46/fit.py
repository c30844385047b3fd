"""Round 46: `relevance` per store kind (ship_rule.md in bench/results/relev46). A hit written with a `session_id`
(a chat turn) keeps main's model; a hit without one (a fact) is read by a fact-store model, candidate K: every
learnable input, fitted on fact-store rows only.

    PYTHONPATH=src python bench/relev46/fit.py dev     BLIND.json TINY_A.json TINY_B.json OUT_DIR   # fit K, dev
    PYTHONPATH=src python bench/relev46/fit.py heldout HELD.json TINY_HELD.json OUT_DIR             # read once

BLIND.json: bench/relevance2/blind_rows.py rows (dev: r33 - r38); TINY_*.json: bench/relev45/tiny_rows.py rows
(dev: round 45's tiny stores of r33 - r38). Held-out: r39, r40 (stores and their tiny stores), never read before.
Every blind row is a fact store (bench/blind_store.py writes no session_id), so K reads every hit there; LoCoMo
turns all carry one, so LoCoMo's numbers are main's by construction.
"""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "bench" / "relev45")]

from fit import LEARNABLE, brief, criteria, fit, log_loss, probabilities  # noqa: E402

from hindsight.retrieval.relevance import DEFAULT_MODEL, from_entry, model_for  # noqa: E402

DEV_ROUNDS = ("r33", "r34", "r35", "r36", "r37", "r38")


def kind(row: dict) -> str:
    return "tiny" if row["round"].startswith("tiny_") else "blind"


def out_of_fold(rows: list[dict], names: tuple[str, ...]) -> list[list[float]]:
    """Each round's rows scored by a model fitted without that round and without its tiny stores (which ask the
    round's own queries; relev45's grouping kept them in, so its H numbers were optimistic)."""
    probs: list[list[float]] = [[] for _ in rows]
    for g in sorted({r["round"].removeprefix("tiny_") for r in rows}):
        model = fit([r for r in rows if r["round"].removeprefix("tiny_") != g], names)
        for i, r in enumerate(rows):
            if r["round"].removeprefix("tiny_") == g:
                probs[i] = [model.of(f) for f in r["features"]]
    return probs


def scores(rows: list[dict], probs: list[list[float]]) -> dict:
    out: dict = {"log_loss": round(log_loss(rows, probs), 5)}
    for k in ("blind", "tiny"):
        sub = [(r, p) for r, p in zip(rows, probs, strict=True) if kind(r) == k]
        if sub:
            out[k] = brief(criteria([r for r, _ in sub], [p for _, p in sub]))
            out[k]["by_round"] = {
                name: brief(criteria([r for r, _ in sub if r["round"] == name], [p for r, p in sub if r["round"] == name]))
                for name in sorted({r["round"] for r, _ in sub})}
    return out


def dev(paths: list[Path], out: Path) -> None:
    rows = [r for p in paths for r in json.loads(p.read_text())]
    rows = [r for r in rows if r["round"].removeprefix("tiny_") in DEV_ROUNDS]
    report = {"questions": len(rows), "main": scores(rows, probabilities(rows, model_for(DEFAULT_MODEL))),
              "K_out_of_fold": scores(rows, out_of_fold(rows, LEARNABLE))}
    print(json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "by_round"} if isinstance(v, dict) else v
                      for k, v in report.items()}, default=float)[:2000], file=sys.stderr)
    (out / "dev.json").write_text(json.dumps(report, indent=1, default=float))
    entry = {**fit(rows, LEARNABLE).to_entry(), "trained_on": "blind r33 - r38 + their 8-memory stores (fact stores)"}
    (out / "models.json").write_text(json.dumps({"K": entry}, indent=1))


def heldout(paths: list[Path], out: Path) -> None:
    rows = [r for p in paths for r in json.loads(p.read_text())]
    assert not {r["round"].removeprefix("tiny_") for r in rows} & set(DEV_ROUNDS)
    k = from_entry(json.loads((out / "models.json").read_text())["K"])
    report = {"questions": len(rows), "main": scores(rows, probabilities(rows, model_for(DEFAULT_MODEL))),
              "K": scores(rows, probabilities(rows, k))}
    for name in ("main", "K"):
        probs = probabilities(rows, model_for(DEFAULT_MODEL) if name == "main" else k)
        cats: dict = {}
        for r, p in zip(rows, probs, strict=True):
            if r["own"] and kind(r) == "blind":
                c = cats.setdefault(r["category"], [0, 0])
                c[0] += int(any(v >= 0.5 and lab for v, lab in zip(p, r["labels"], strict=True)))
                c[1] += 1
        report[name]["blind_by_category"] = {c: round(a / b, 4) for c, (a, b) in sorted(cats.items())}
    print(json.dumps(report, default=float)[:3000], file=sys.stderr)
    (out / "heldout.json").write_text(json.dumps(report, indent=1, default=float))


if __name__ == "__main__":
    np.seterr(all="ignore")
    args = sys.argv[2:]
    (dev if sys.argv[1] == "dev" else heldout)([Path(a) for a in args[:-1]], Path(args[-1]))
