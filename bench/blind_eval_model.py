"""bench/blind_eval.py with another pair-model file (a leave-one-round-out model, to measure a released round
through the engine as held-out data):

    PYTHONPATH=src .venv/bin/python bench/blind_eval_model.py MODEL.npz hygiene bench/data/blind/r4
"""
import runpy
import sys
from pathlib import Path

import hindsight.write.pair_model as pair_model

model = pair_model.PairModel.load(Path(sys.argv[1]))
if model is None:
    sys.exit(f"{sys.argv[1]}: no pair model for these features")
pair_model.shipped_model = lambda: model  # type: ignore[assignment]
sys.argv = [str(Path(__file__).with_name("blind_eval.py")), *sys.argv[2:]]
runpy.run_path(sys.argv[0], run_name="__main__")
