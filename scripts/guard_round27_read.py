"""Round 27 guard: the ship rule's held-out clauses (4) and (5) read from the harness's score dumps (issue 10;
docs/benchmarks.md "Guard, round 27").

    PYTHONPATH=src .venv/bin/python scripts/guard_round27_read.py --out read.json \\
        shipped=C/out/shipped.npz:shipped:0.655 A=C/out/A.npz:candidate:0.6125 B=C/out/B.npz:blend:0.63

Each run is NAME=DUMP:KEY:T (a ``guard_curve.py`` / ``guard_blend.py`` ``--dump`` file, the array in it, the run's
operating point; ``rule28`` for round 28's rule: the lowest T, step 0.0025, at which the paired retrieval memories
flagged <= ``--retrieval-cap`` (the shipped guard's 111) and the unseen writers' benign flag rates average <= 0.03).
Per run, at its T: the unseen writers (r17 - r25b) pooled, r25 / r25b alone, and the released
retrieval memories flagged - paired with the unseen folds (r15 - r25), r25's 300 alone, and the list of r25's flagged
memories with their scores. A text a run did not score (NaN: in-sample for it) is left out of that run's counts and
the count says how many it read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_curve as gc  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402

PAIRED_RETRIEVAL = tuple(w for g in lf.RETRIEVAL_GROUPS[4:] for w in g)  # the retrieval groups of the r17 - r25 folds
NEW_FOLD = ("blind-r25", "blind-r25b")


def rates_at(scores: np.ndarray, is_attack: np.ndarray, mask: np.ndarray, t: float) -> dict[str, float]:
    m = mask & ~np.isnan(scores)
    return gm.rates(scores[m], is_attack[m], t) if m.any() else {}


def retrieval_at(scores: np.ndarray, writers: np.ndarray, names: tuple[str, ...], t: float) -> dict[str, int]:
    m = np.isin(writers, names) & ~np.isnan(scores)
    return {"flagged": int(np.sum(scores[m] >= t)), "read": int(m.sum())}


def rule28_threshold(scores: np.ndarray, writers: np.ndarray, is_attack: np.ndarray, cap: int,
                     budget: float = 0.03) -> float:
    """Round 28's operating point: both counts only fall as T rises, so the lowest T meeting both is the larger of
    the per-writer benign point (``pick_threshold_per_writer``) and the lowest T with retrieval flagged <= ``cap``."""
    g = np.isin(writers, gc.UNSEEN) & ~np.isnan(scores)
    t_benign = lf.pick_threshold_per_writer(scores[g], is_attack[g], writers[g], budget)
    r = np.isin(writers, PAIRED_RETRIEVAL) & ~np.isnan(scores)
    t_retr = next((float(round(t, 4)) for t in np.arange(gm.MIN_THRESHOLD, 0.9995, 0.0025)
                   if np.sum(scores[r] >= t) <= cap), 0.9995)
    return max(t_benign, t_retr)


def read(runs: list[tuple[str, np.ndarray, float]], writers: np.ndarray, is_attack: np.ndarray,
         texts: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    unseen = np.isin(writers, gc.UNSEEN)
    for name, s, t in runs:
        r25 = np.flatnonzero((writers == "retr-r25") & ~np.isnan(s) & (s >= t))
        out[name] = {
            "T": t,
            "unseen_r17_r25b": rates_at(s, is_attack, unseen, t),
            "unseen_r17_r24b": rates_at(s, is_attack, unseen & ~np.isin(writers, NEW_FOLD), t),
            **{w: rates_at(s, is_attack, writers == w, t) for w in NEW_FOLD},
            "retrieval_r15_r25": retrieval_at(s, writers, PAIRED_RETRIEVAL, t),
            "retrieval_r25": retrieval_at(s, writers, ("retr-r25",), t),
            "r25_flagged": [(round(float(s[i]), 3), texts[i][:100]) for i in r25[np.argsort(-s[r25])]],
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="NAME=DUMP.npz:KEY:T")
    parser.add_argument("--plain-stride", type=int, default=4)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--retrieval-cap", type=int, default=111, help="rule28: the shipped guard's retrieval count")
    args = parser.parse_args()
    examples = lf.selected_examples(args.plain_stride, False, True)  # guard_curve.Data's texts, in its order
    writers = np.array([e.writer for e in examples])
    is_attack = np.array([gm.label_index(e) > 0 for e in examples])
    runs = []
    for spec in args.runs:
        name, rest = spec.split("=", 1)
        path, key, t = rest.rsplit(":", 2)
        s = np.asarray(np.load(path)[key], dtype=float)
        if len(s) != len(writers):
            raise ValueError(f"{path}: {len(s)} scores for {len(writers)} texts")
        runs.append((name, s, rule28_threshold(s, writers, is_attack, args.retrieval_cap) if t == "rule28"
                      else float(t)))
    out = read(runs, writers, is_attack, [e.text for e in examples])
    for name, rep in out.items():
        print(name, json.dumps({k: v for k, v in rep.items() if k != "r25_flagged"}), flush=True)  # type: ignore[union-attr]
    if args.out:
        args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
