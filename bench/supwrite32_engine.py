"""supwrite32: `blind_eval.py` with the retire pick read from a weights file of one's choosing (a fold's: fitted
without the round measured), or switched off - the engine run of the held-out measure.

    PYTHONPATH=src:bench python bench/supwrite32_engine.py WEIGHTS.json|off retrieval|hygiene bench/data/blind/r30
"""
import json
import runpy
import sys
from pathlib import Path

from hindsight.write import retire_pick as rp

if __name__ == "__main__":
    weights = sys.argv[1]
    if weights == "off":
        rp.ON = False
    else:
        model = rp.model_from(json.loads(Path(weights).read_text()))
        rp.shipped = lambda: model  # type: ignore[assignment]
    sys.argv = ["blind_eval.py", *sys.argv[2:]]
    runpy.run_path(str(Path(__file__).parent / "blind_eval.py"), run_name="__main__")
