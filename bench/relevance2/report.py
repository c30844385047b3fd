"""Score main's relevance model and this branch's on collected rows (LoCoMo test, the blind rounds).

    PYTHONPATH=src python bench/relevance2/report.py locomo ROWS_TEST.json  > bench/relevance2/out/test.json
    PYTHONPATH=src python bench/relevance2/report.py blind ROWS_BLIND.json  > bench/relevance2/out/blind.json

Both models read the same captured inputs (`relevance.hit_features`), so the comparison is of models alone:
main's is bench/relevance2/main_model.json (the calibration file at main), this branch's the shipped file.
"""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts")]

from calibrate_relevance import criteria, probabilities, sweep  # noqa: E402

from hindsight.retrieval.relevance import DEFAULT_MODEL, from_entry, model_for  # noqa: E402

MAIN = from_entry(json.loads((Path(__file__).parent / "main_model.json").read_text())[DEFAULT_MODEL])


def locomo(rows: list[dict]) -> dict:
    out = {}
    for label, model in (("main", MAIN), ("this branch", model_for(DEFAULT_MODEL))):
        probs = probabilities(rows, model)
        out[label] = {"at_0.5": criteria(rows, probs), "sweep": sweep(rows, probs)}
    return out


def blind(rows: list[dict], models: dict | None = None) -> dict:
    """Answers' relevance vs non-answers', per category, and foreign queries' best hit (`models`: name -> model;
    main's and the shipped one by default)."""
    out = {}
    for label, model in (models or {"main": MAIN, "this branch": model_for(DEFAULT_MODEL)}).items():
        probs = probabilities(rows, model)
        own = [(r, p) for r, p in zip(rows, probs, strict=True) if r["own"]]
        foreign = [p for r, p in zip(rows, probs, strict=True) if not r["own"]]
        answers = np.asarray([v for r, p in own for v, lab in zip(p, r["labels"], strict=True) if lab])
        others = np.asarray([v for r, p in own for v, lab in zip(p, r["labels"], strict=True) if not lab])
        per: dict = {}
        for cat in sorted({r["category"] for r, _ in own}):
            inside = [(r, p) for r, p in own if r["category"] == cat]
            per[cat] = {"queries": len(inside),
                        "answer_in_top10": _share(any(r["labels"]) for r, _ in inside),
                        "answer_at_or_above_0.5": _share(any(v >= 0.5 and lab for v, lab in zip(p, r["labels"], strict=True))
                                                         for r, p in inside),
                        "answer_median": _median([v for r, p in inside for v, lab in zip(p, r["labels"], strict=True) if lab])}
        out[label] = {
            "answers": {"hits": len(answers), "quantiles_10_25_50_75_90": _q(answers),
                        "share_at_or_above_0.5": round(float((answers >= 0.5).mean()), 4)},
            "non_answers": {"hits": len(others), "quantiles_10_25_50_75_90": _q(others),
                            "share_at_or_above_0.5": round(float((others >= 0.5).mean()), 4)},
            "auc_answer_vs_non_answer": _auc(answers, others),
            "own_queries_with_answer_at_or_above_0.5": _share(
                any(v >= 0.5 and lab for v, lab in zip(p, r["labels"], strict=True)) for r, p in own),
            "foreign_queries_with_any_hit_at_or_above_0.5": _share(any(v >= 0.5 for v in p) for p in foreign),
            "foreign_best_hit_quantiles_50_90": _q(np.asarray([max(p, default=0.0) for p in foreign]), (50, 90)),
            "per_category": per,
            "at_0.5": {k: v for k, v in criteria(rows, probs).items() if k != "curve"},
        }
    return out


def _share(flags: object) -> float:
    values = list(flags)  # type: ignore[call-overload]
    return round(sum(values) / max(1, len(values)), 4)


def _median(values: list[float]) -> float | None:
    return round(float(np.median(values)), 4) if values else None


def _q(values: np.ndarray, qs: tuple[int, ...] = (10, 25, 50, 75, 90)) -> list[float]:
    return [round(float(v), 4) for v in np.percentile(values, qs)] if len(values) else []


def _auc(pos: np.ndarray, neg: np.ndarray) -> float:
    """P(an answer hit scores above a non-answer hit), ties half."""
    allv = np.concatenate([pos, neg])
    ranks = allv.argsort().argsort().astype(float) + 1
    # average ranks over ties
    _, inv, counts = np.unique(allv, return_inverse=True, return_counts=True)
    sums = np.bincount(inv, weights=ranks)
    ranks = (sums / counts)[inv]
    return round(float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))), 4)


def main() -> None:
    kind, path = sys.argv[1], Path(sys.argv[2])
    rows = json.loads(path.read_text())
    print(json.dumps(locomo(rows) if kind == "locomo" else blind(rows), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
