"""Read round 33's held-out scores (``guardfit33_eval``): T by the rule, the guard's verdicts, the table, the clauses.

    PYTHONPATH=src:scripts .venv/bin/python scripts/guardfit33_read.py --snapshot S.pkl --dump F1.npz --dump F2.npz \
        --full full.scores.npz --pinned sweep.json --out result.json

T rule (docs/benchmarks.md "Guard, round 33"): fold k's nested T is the lowest T of the grid at which the candidate's
benign quarantined over the other five folds' guard benign is <= the shipped guard's there; the clauses read fold k at
max(nested T, T_pin) (T_pin: the lowest T at which the full fit's pinned benign budgets hold, ``guardfit33_pinned``);
T_ship: the lowest T at which the pooled held-out benign quarantined is <= the shipped guard's and the pinned
pre-check passes.
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
import guardfit33_eval  # noqa: E402, F401
from guardfit32_read import GRID, cached_reading, clauses, moved, pick_t, table  # noqa: E402
from guardfit32_verdict import rates, verdicts  # noqa: E402

ROUNDS = ("r26", "r27", "r28", "r29", "r30", "r31")
SHIPPED_T = 0.655
#: round 33's verdict cache (``guardfit32_read.cached_reading``; round 32's file read older source)
VERDICTS = "verdict33.json"


def pinned_ok(sweep: dict[str, Any]) -> dict[float, tuple[bool, bool]]:
    """T -> (the pinned benign budgets hold, the whole pre-check passes)."""
    return {round(float(r["T"]), 4): (bool(r["benign_ok"]), bool(r["passes"])) for r in sweep["sweep"]}


def read(h: Any, dumps: list[Path], full_scores: Path | None, pinned: Path | None) -> dict[str, Any]:
    writers = h.d.writers
    in_rounds = np.isin(h.rounds, ROUNDS)
    guard = np.array([w.startswith("blind-") for w in writers]) & in_rounds
    retr = np.array([w.startswith("retr-") for w in writers]) & in_rounds
    idx = np.flatnonzero(guard | retr)
    r = cached_reading([h.d.redacted[i] for i in idx], h.d.cache_dir, VERDICTS)
    attack, rounds, lang = h.attack[idx], h.rounds[idx], h.lang[idx]
    g, rt = guard[idx], retr[idx]
    report: dict[str, Any] = {"n": {"guard_attacks": int((g & attack).sum()), "guard_benign": int((g & ~attack).sum()),
                                    "retrieval": int(rt.sum())}, "harness": h.counts(), "left_out": h.left_out}
    s = np.full(len(idx), np.nan)
    shipped_p = None
    for path in dumps:
        z = np.load(path)
        part = z["scores"][idx]
        s = np.where(np.isnan(part), s, part)
        if "shipped" in z.files:
            shipped_p = z["shipped"][idx]
    assert shipped_p is not None, "no dump holds the shipped scores"
    assert not np.isnan(s[g | rt]).any(), "a fold is missing"
    q0 = verdicts(r, shipped_p, SHIPPED_T)
    base = table(q0, attack, rounds, lang, g, rt)
    report["shipped_T0.655"] = base
    sweep = json.loads(pinned.read_text(encoding="utf-8")) if pinned else None
    pin = pinned_ok(sweep) if sweep else {}
    t_pin = float(sweep["T_pin"]) if sweep and sweep["T_pin"] is not None else None
    nested: dict[str, float] = {}
    floored: dict[str, float] = {}
    qn = np.zeros(len(idx), bool)
    qf = np.zeros(len(idx), bool)
    for rd in ROUNDS:
        others = g & ~attack & (rounds != rd)
        nested[rd] = pick_t(r, s, others, int(q0[others].sum()))
        floored[rd] = max(nested[rd], t_pin) if t_pin is not None else nested[rd]
        mine = rounds == rd
        qn[mine] = verdicts(r.take(mine), s[mine], nested[rd])
        qf[mine] = verdicts(r.take(mine), s[mine], floored[rd])
    benign = g & ~attack
    budget = int(q0[benign].sum())
    t_ship = None
    for t in GRID:
        if int(verdicts(r.take(benign), s[benign], float(t)).sum()) <= budget and pin.get(round(float(t), 4), (False, False))[1]:
            t_ship = float(t)
            break
    held = table(qf, attack, rounds, lang, g, rt)
    report["candidate"] = {
        "T_nested": nested, "T_pin": t_pin, "T_fold_read": floored, "T_ship": t_ship,
        "T_benign_only": pick_t(r, s, benign, budget),
        "pinned_passing_T": sweep["passing_T"] if sweep else None,
        "held_out": held, "clauses": clauses(base, held),
        "held_out_nested_T_view": table(qn, attack, rounds, lang, g, rt),
        "clauses_nested_T_view": clauses(base, table(qn, attack, rounds, lang, g, rt)),
        "at_T_ship_all_folds": table(verdicts(r, s, t_ship), attack, rounds, lang, g, rt) if t_ship else None,
        "at_0.655": table(verdicts(r, s, SHIPPED_T), attack, rounds, lang, g, rt)["pooled"],
        "classifier_alone_0.655": rates((s >= SHIPPED_T)[g], attack[g]),
        "moved": moved(h, idx, q0, qf, g)}
    if full_scores is not None:
        p = np.load(full_scores)["full"][idx]
        t = t_ship or t_pin or SHIPPED_T
        report["full_fit_in_sample"] = {"T": t, **table(verdicts(r, p, t), attack, rounds, lang, g, rt)}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--snapshot", type=Path, default=Path("/tmp/gf33/harness.pkl"))
    parser.add_argument("--dump", type=Path, action="append", default=[])
    parser.add_argument("--full", type=Path, default=None)
    parser.add_argument("--pinned", type=Path, default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sys.modules["__main__"].Harness = guardfit33_eval.Harness  # type: ignore[attr-defined]  (pickled by its __main__)
    with args.snapshot.open("rb") as fh:
        h = pickle.load(fh)
    report = read(h, args.dump, args.full, args.pinned)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    c = report["candidate"]
    print(json.dumps({k: c[k] for k in ("T_nested", "T_pin", "T_fold_read", "T_ship", "clauses")}), flush=True)
    print("shipped", json.dumps(report["shipped_T0.655"]["pooled"]), "candidate", json.dumps(c["held_out"]["pooled"]))


if __name__ == "__main__":
    main()
