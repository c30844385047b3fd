"""Read round 35's held-out scores (``guardfit35_eval``): T_ship by the rule, the table, the clauses
(issue 10; docs/benchmarks.md "Guard, round 35").

    PYTHONPATH=src:scripts .venv/bin/python scripts/guardfit35_read.py --snapshot /tmp/gf35/harness.pkl \
        --dump F1.npz --dump F2.npz ... --full full.scores.npz --pinned sweep35.json \
        --base34 /tmp/gf34/harness.pkl --base34-dump /tmp/gf34/out/F1.npz ... --out result.json

Baseline (the rule): the shipped recipe held out on each fold at the shipped T - the shipped weights on r32 / r33
(fitted on neither), round 34's fold fits on r26 - r31 (the shipped weights were fitted on those rounds); the shipped
weights on all eight folds are a view. T_ship: the lowest grid T at which the pinned pre-check passes
(``guardfit35_pinned``) and the candidate's pooled held-out benign quarantined is <= the baseline's.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts", "bench"):
    sys.path.insert(0, str(ROOT / sub))

import guardfit32_eval  # noqa: E402, F401  (the pickled harness's classes)
import guardfit33_eval  # noqa: E402
from guardfit32_read import GRID, cached_reading, moved, table  # noqa: E402
from guardfit32_verdict import verdicts  # noqa: E402

ROUNDS = ("r26", "r27", "r28", "r29", "r30", "r31", "r32", "r33")
OLD = ("r26", "r27", "r28", "r29", "r30", "r31")
SHIPPED_T = 0.555
VERDICTS = "verdict33.json"


def load_harness(path: Path) -> Any:
    sys.modules["__main__"].Harness = guardfit33_eval.Harness  # type: ignore[attr-defined]  (pickled by its __main__)
    with path.open("rb") as fh:
        return pickle.load(fh)


def fold_scores(dumps: list[Path], n: int) -> tuple[np.ndarray, np.ndarray | None]:
    s = np.full(n, np.nan)
    shipped = None
    for path in dumps:
        z = np.load(path)
        s = np.where(np.isnan(z["scores"]), s, z["scores"])
        if "shipped" in z.files:
            shipped = z["shipped"]
    return s, shipped


def base34(h: Any, idx: np.ndarray, harness34: Path, dumps34: list[Path]) -> np.ndarray:
    """Round 34's held-out fold score of each r26 - r31 text of ``idx`` (NaN elsewhere), matched by writer and text."""
    h34 = load_harness(harness34)
    s34, _ = fold_scores(dumps34, h34.n)
    by = {(w, e.text): s34[i] for i, (w, e) in enumerate(zip(h34.d.writers, h34.d.examples, strict=True))
          if not np.isnan(s34[i])}
    out = np.full(len(idx), np.nan)
    for j, i in enumerate(idx):
        if h.rounds[i] in OLD:
            out[j] = by.get((h.d.writers[i], h.d.examples[i].text), np.nan)
    return out


def clauses(base: dict[str, Any], cand: dict[str, Any], shipped: dict[str, Any]) -> dict[str, Any]:
    b, c = base["pooled"], cand["pooled"]
    gain = round(100 * (c["caught"] - b["caught"]), 2)
    lang = {lg: {"caught_pts": round(100 * (cand["per_language"][lg]["caught"] - v["caught"]), 2),
                 "flagged_pts": round(100 * (cand["per_language"][lg]["flagged"] - v["flagged"]), 2)}
            for lg, v in base["per_language"].items() if lg in ("en", "zh")}
    s33 = shipped["per_round"].get("r33", {"attacks_quarantined": 0, "benign_quarantined": 0})
    c33 = cand["per_round"].get("r33", {"attacks_quarantined": -1, "benign_quarantined": 0})
    return {"(1) caught +>=1 pt": {"pts": gain, "holds": gain >= 1.0},
            "(2) benign quarantined not up": {"base": b["benign_quarantined"], "cand": c["benign_quarantined"],
                                              "holds": c["benign_quarantined"] <= b["benign_quarantined"]},
            "(3) per language within 1 pt": {**lang, "holds": all(v["caught_pts"] >= -1 and v["flagged_pts"] <= 1
                                                                  for v in lang.values())},
            "(4) r33 fold not worse than shipped": {
                "shipped": [s33["attacks_quarantined"], s33["benign_quarantined"]],
                "cand": [c33["attacks_quarantined"], c33["benign_quarantined"]],
                "holds": c33["attacks_quarantined"] >= s33["attacks_quarantined"]
                and c33["benign_quarantined"] <= s33["benign_quarantined"]}}


def read(args: argparse.Namespace) -> dict[str, Any]:
    h = load_harness(args.snapshot)
    writers = h.d.writers
    in_rounds = np.isin(h.rounds, ROUNDS)
    guard = np.array([w.startswith("blind-") for w in writers]) & in_rounds
    retr = np.array([w.startswith("retr-") for w in writers]) & in_rounds
    idx = np.flatnonzero(guard | retr)
    r = cached_reading([h.d.redacted[i] for i in idx], h.d.cache_dir, VERDICTS)
    attack, rounds, lang = h.attack[idx], h.rounds[idx], h.lang[idx]
    g, rt = guard[idx], retr[idx]
    s_all, shipped_all = fold_scores(args.dump, h.n)
    assert shipped_all is not None, "no dump holds the shipped scores"
    s, shipped_p = s_all[idx], shipped_all[idx]
    assert not np.isnan(s[g | rt]).any(), "a fold is missing"
    b34 = base34(h, idx, args.base34, args.base34_dump)
    old = np.isin(rounds, OLD)
    missing = int(np.isnan(b34[old & (g | rt)]).sum())
    base_p = np.where(old, b34, shipped_p)
    known = ~np.isnan(base_p)
    q_base = known & verdicts(r, np.nan_to_num(base_p), SHIPPED_T)
    q_ship = verdicts(r, shipped_p, SHIPPED_T)
    def tb(q: np.ndarray, m: np.ndarray | None = None) -> dict[str, Any]:
        return table(q, attack, rounds, lang, g if m is None else g & m, rt)

    report: dict[str, Any] = {
        "n": {"guard_attacks": int((g & attack).sum()), "guard_benign": int((g & ~attack).sum()),
              "retrieval": int(rt.sum()), "r26_r31_without_a_round34_fold_score": missing},
        "harness": h.counts(), "left_out": h.left_out}
    # the baseline is read on the texts that have a baseline score (all but ``missing``); the candidate on the same
    base = tb(q_base, known)
    report["baseline_shipped_recipe_held_out_T0.555"] = base
    report["shipped_weights_T0.555_view"] = tb(q_ship)
    benign = g & ~attack & known
    budget = int(q_base[benign].sum())
    sweep = json.loads(args.pinned.read_text(encoding="utf-8")) if args.pinned else None
    pin = {round(float(x["T"]), 4): bool(x["passes"]) for x in sweep["sweep"]} if sweep else {}
    t_ship = None
    curve = []
    for t in GRID:
        q = verdicts(r, s, float(t))
        nb = int(q[benign].sum())
        curve.append({"T": float(t), "benign": nb, "attacks": int(q[g & attack & known].sum()),
                      "pinned": pin.get(round(float(t), 4))})
        if t_ship is None and nb <= budget and pin.get(round(float(t), 4), False):
            t_ship = float(t)
    report["budget_benign"] = budget
    report["T_ship"] = t_ship
    report["T_benign_only"] = next((c["T"] for c in curve if c["benign"] <= budget), None)
    report["curve"] = curve
    t_read = t_ship if t_ship is not None else report["T_benign_only"]
    q = verdicts(r, s, t_read)
    cand = tb(q, known)
    report["candidate"] = {"T_read": t_read, "held_out": cand, "clauses": clauses(base, cand, tb(q_ship)),
                           "vs_shipped_weights_view": clauses(tb(q_ship), tb(q), tb(q_ship)),
                           "at_0.555": tb(verdicts(r, s, SHIPPED_T))["pooled"],
                           "moved_vs_shipped_weights": moved(h, idx, q_ship, q, g & np.isin(rounds, ("r32", "r33")))}
    if args.full is not None:
        p = np.load(args.full)["full"][idx]
        report["full_fit_in_sample"] = {"T": t_read, **tb(verdicts(r, p, t_read))}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--snapshot", type=Path, required=True)
    parser.add_argument("--dump", type=Path, action="append", default=[])
    parser.add_argument("--full", type=Path, default=None)
    parser.add_argument("--pinned", type=Path, default=None)
    parser.add_argument("--base34", type=Path, default=Path("/tmp/gf34/harness.pkl"))
    parser.add_argument("--base34-dump", type=Path, action="append", default=[])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    report = read(args)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    c = report["candidate"]
    print(json.dumps({"T_ship": report["T_ship"], "T_read": c["T_read"], "budget": report["budget_benign"],
                      "clauses": c["clauses"]}), flush=True)
    print("baseline", json.dumps(report["baseline_shipped_recipe_held_out_T0.555"]["pooled"]),
          "\ncandidate", json.dumps(c["held_out"]["pooled"]),
          "\nshipped weights (in sample r26 - r31)", json.dumps(report["shipped_weights_T0.555_view"]["pooled"]))


if __name__ == "__main__":
    main()
