"""bench/blind_eval.py with another pair-model file (a leave-one-round-out model, to measure a released round
through the engine as held-out data), or another pair-head file (scripts/train_hygiene_head.py --loro-dir):

    PYTHONPATH=src .venv/bin/python bench/blind_eval_model.py MODEL.npz hygiene bench/data/blind/r4
    PYTHONPATH=src .venv/bin/python bench/blind_eval_model.py head_without_r9.npz hygiene bench/data/blind/r9
"""
import runpy
import sys
from pathlib import Path

import hindsight.write.pair_head as pair_head
import hindsight.write.pair_model as pair_model

model = pair_model.PairModel.load(Path(sys.argv[1]))
head = pair_head.PairHead.load(Path(sys.argv[1]))
if model is None and head is None:
    sys.exit(f"{sys.argv[1]}: no pair model or head for these features")
if model is not None:
    pair_model.shipped_model = lambda: model  # type: ignore[assignment]
else:
    pair_head.shipped_head = lambda: head  # type: ignore[assignment]
sys.argv = [str(Path(__file__).with_name("blind_eval.py")), *sys.argv[2:]]
runpy.run_path(sys.argv[0], run_name="__main__")
