"""Run bench/blind_eval.py with guard47's `said` and `channel is person` readings on (the lead's rule on r42).

    PYTHONPATH=src:bench .venv/bin/python bench/guard47_r42_variant.py guard bench/data/blind/r42
"""

import runpy
import sys

import hindsight.safety.said as said
import hindsight.safety.trusted as trusted

said.ON = True
trusted.CHANNEL_IS_PERSON_ON = True
sys.argv = ["blind_eval.py", *sys.argv[1:]]
runpy.run_path("bench/blind_eval.py", run_name="__main__")
