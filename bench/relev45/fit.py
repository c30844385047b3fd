"""Round 45: one `relevance` calibration for chat logs and fact stores (ship_rule.md in bench/results/relev45).

    PYTHONPATH=src python bench/relev45/fit.py dev     DEV.json BLIND.json OUT_DIR TINY_DEV.json   # E/F/G, fit
    PYTHONPATH=src python bench/relev45/fit.py heldout TEST.json BLIND.json OUT_DIR TINY_HELD.json  # read once

DEV.json / TEST.json: LoCoMo rows from `scripts/calibrate_relevance.py --rows` (dev 0-3, test 4-9); BLIND.json:
bench/relevance2/blind_rows.py rows; TINY_*.json: bench/relev45/tiny_rows.py rows (8-memory stores). Dev = LoCoMo
dev + blind r33, r35, r37 (+ their tiny stores for G); held-out = LoCoMo test + r34, r36, r38 (+ their tiny stores).
"""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "bench" / "relevance2"), str(ROOT / "bench" / "relev43")]

from calibrate_relevance import CHOSEN, criteria, fit, matrix, probabilities  # noqa: E402
from loco import LEARNABLE  # noqa: E402
from report import blind as blind_report  # noqa: E402

from hindsight.retrieval.relevance import DEFAULT_MODEL, from_entry, model_for  # noqa: E402

DEV_ROUNDS, HELD_ROUNDS = ("r33", "r35", "r37"), ("r34", "r36", "r38")
CANDIDATES = {"E": CHOSEN, "F": LEARNABLE}


def group(row: dict) -> str:
    return row["round"] if "round" in row else f"conv{row['conv']}"


def log_loss(rows: list[dict], probs: list[list[float]]) -> float:
    p = np.clip(np.asarray([v for q in probs for v in q]), 1e-6, 1 - 1e-6)
    y = np.asarray([lab for r in rows for lab in r["labels"]])
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def out_of_fold(rows: list[dict], names: tuple[str, ...]) -> list[list[float]]:
    probs: list[list[float]] = [[] for _ in rows]
    for g in sorted({group(r) for r in rows}):
        model = fit([r for r in rows if group(r) != g], names)
        for i, r in enumerate(rows):
            if group(r) == g:
                probs[i] = [model.of(f) for f in r["features"]]
    return probs


def brief(c: dict) -> dict:
    return {k: c[k] for k in ("foreign_any_hit_at_or_above", "own_evidence_at_or_above", "ece", "brier") if k in c}


def dev(loco: list[dict], blind: list[dict], tiny: list[dict], out: Path) -> None:
    rows = loco + [r for r in blind if r["round"] in DEV_ROUNDS]
    matrix(rows, LEARNABLE)  # every input present
    report: dict = {"questions": len(rows), "groups": sorted({group(r) for r in rows})}
    main = model_for(DEFAULT_MODEL)
    kinds = {"locomo": lambda r: "conv" in r, "blind": lambda r: "round" in r}
    for name, probs in [("main", probabilities(rows, main))] + [(n, out_of_fold(rows, names))
                                                               for n, names in CANDIDATES.items()]:
        entry: dict = {"log_loss_all": round(log_loss(rows, probs), 5)}
        for kind, test in kinds.items():
            sub = [(r, p) for r, p in zip(rows, probs, strict=True) if test(r)]
            rr, pp = [r for r, _ in sub], [p for _, p in sub]
            entry[kind] = {"log_loss": round(log_loss(rr, pp), 5), **brief(criteria(rr, pp))}
        report[name] = entry
        print(name, entry, file=sys.stderr)
    chosen = min(CANDIDATES, key=lambda n: report[n]["log_loss_all"])
    report["chosen"] = chosen
    models = {chosen: {**fit(rows, CANDIDATES[chosen]).to_entry(), "trained_on": "LoCoMo dev 0-3 + blind r33, r35, r37"}}
    # G (the addendum): the chosen inputs, the same rows plus the dev rounds' tiny stores; out of fold by group
    both = rows + tiny
    probs = out_of_fold(both, CANDIDATES[chosen])
    report["G"] = {"log_loss_all": round(log_loss(both, probs), 5)}
    for kind, test in {**kinds, "tiny": lambda r: r.get("round", "").startswith("tiny_")}.items():
        sub = [(r, p) for r, p in zip(both, probs, strict=True) if test(r) and (kind == "tiny" or
                                                                              not r.get("round", "").startswith("tiny_"))]
        report["G"][kind] = {"log_loss": round(log_loss([r for r, _ in sub], [p for _, p in sub]), 5),
                             **brief(criteria([r for r, _ in sub], [p for _, p in sub]))}
    report["main_on_tiny"] = brief(criteria(tiny, probabilities(tiny, main)))
    print("G", report["G"], "main tiny", report["main_on_tiny"], file=sys.stderr)
    models["G"] = {**fit(both, CANDIDATES[chosen]).to_entry(),
                   "trained_on": "LoCoMo dev 0-3 + blind r33, r35, r37 + their 8-memory stores"}
    (out / "dev.json").write_text(json.dumps(report, indent=1))
    (out / "models.json").write_text(json.dumps(models, indent=1))


def heldout(loco: list[dict], blind: list[dict], tiny: list[dict], out: Path) -> None:
    entries = json.loads((out / "models.json").read_text())
    models = {"main": model_for(DEFAULT_MODEL), **{n: from_entry(e) for n, e in entries.items()}}
    held = [r for r in blind if r["round"] in HELD_ROUNDS]
    report: dict = {"locomo_test": {}, "blind_held": blind_report(held, models),
                    "tiny_held": {n: brief(criteria(tiny, probabilities(tiny, m))) for n, m in models.items()}}
    print("tiny held", report["tiny_held"], file=sys.stderr)
    for name, model in models.items():
        c = criteria(loco, probabilities(loco, model))
        report["locomo_test"][name] = {k: v for k, v in c.items() if k != "curve"} | {"curve": c.get("curve")}
        b = report["blind_held"][name]
        print(name, "locomo", brief(c), "blind", {k: b[k] for k in ("own_queries_with_answer_at_or_above_0.5",
              "foreign_queries_with_any_hit_at_or_above_0.5", "auc_answer_vs_non_answer")},
              b["at_0.5"].get("ece"), file=sys.stderr)
    (out / "heldout.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))


def main() -> None:
    mode, loco_path, blind_path, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    loco, blind = json.loads(loco_path.read_text()), json.loads(blind_path.read_text())
    tiny = json.loads(Path(sys.argv[5]).read_text())
    (dev if mode == "dev" else heldout)(loco, blind, tiny, out)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
