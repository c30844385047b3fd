"""Readings of ``scripts/guard_curve.py --dump`` scores on subsets of the held-out writers (guard round 23).

    PYTHONPATH=src .venv/bin/python scripts/guard_curve_subsets.py C/shipped.npz C/candidate.npz --out subsets.json

For each dumped run: the pooled benign-0.03 threshold over the held-out guard writers (``EVAL_GROUPS``) and the
per-writer one (``guard_lowo_fast.pick_threshold_per_writer``), then caught / flagged at those and at 0.655 on all
held-out writers, on the unseen r17 - r20b (guardfit22's eight), on r17 - r21b, on r21 / r21b alone, on r17 - r22b
(round 24's twelve) and on r22 / r22b alone. The dumps
must come from the same examples (``guard_lowo_fast.selected_examples(4, retrieval=True)``, the curve's order).
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dumps", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    examples = lf.selected_examples(4, False, True)
    writers = np.array([e.writer for e in examples])
    attack = np.array([e.is_attack for e in examples])
    guard = np.isin(writers, [w for g in gc.EVAL_GROUPS for w in g])
    subsets = {"held_out": guard, "unseen_r17_r20b": np.isin(writers, gc.UNSEEN[:8]),
               "unseen_r17_r21b": np.isin(writers, gc.UNSEEN[:10]), "r21_r21b": np.isin(writers, ["blind-r21", "blind-r21b"]),
               "unseen_r17_r22b": np.isin(writers, gc.UNSEEN), "r22_r22b": np.isin(writers, ["blind-r22", "blind-r22b"])}
    out: dict[str, object] = {}
    for path in args.dumps:
        dump = np.load(path)
        for run in dump.files:
            s = dump[run]
            g = guard & ~np.isnan(s)
            t = gm.pick_threshold(s[g], attack[g], 0.03)
            tw = lf.pick_threshold_per_writer(s[g], attack[g], writers[g], 0.03)
            row: dict[str, object] = {"budget_T": t, "per_writer_T": tw}
            for name, m in subsets.items():
                row[name] = {"at_budget_T": gm.rates(s[m], attack[m], t), "at_0.655": gm.rates(s[m], attack[m], 0.655),
                             "at_per_writer_T": gm.rates(s[m], attack[m], tw)}
            out[f"{path.name}:{run}"] = row
            print(run, json.dumps(row), flush=True)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
