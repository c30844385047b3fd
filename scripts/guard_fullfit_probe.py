"""The candidate's full fit alone, with another bag size (guard round 24's capacity probe; no held-out run).

    PYTHONPATH=src .venv/bin/python scripts/guard_fullfit_probe.py --cache-dir C --bag 2 --threshold 0.5425 --save W.npz

``guard_curve.py candidate``'s full fit (every writer but the held-out ops notes, long texts on their windows,
``--members`` seeds averaged) with ``--bag`` MLPs per seed. It has no held-out scores, so no operating point of its
own: ``--threshold`` is written into the file for reading scores (``scripts/guard_pinned_check.py``), never to ship.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_curve as gc  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
from train_guard import CONFIGS  # noqa: E402

from hindsight.safety.classifier import GuardClassifier  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--bag", type=int, default=2)
    parser.add_argument("--members", type=int, default=3)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threshold", type=float, required=True)
    parser.add_argument("--save", type=Path, required=True)
    args = parser.parse_args()
    t0 = time.time()
    d = gc.Data(args.cache_dir, 4, "onnx")
    cfg = replace(CONFIGS[0], bag=args.bag)
    rows, f = d.rows.take_texts(~lf.held_ops_mask(d.examples), for_fit=True)
    fits = gc.fit_members(f, d.y[d.rows.owner][rows], cfg, args.seed, gc.row_weight(d.rows, rows, None), args.members)
    GuardClassifier.average(fits, args.threshold).save(args.save)
    print(f"{cfg.label()} x {args.members} seeds: {args.save} ({time.time() - t0:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
