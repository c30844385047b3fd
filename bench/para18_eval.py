"""`para17_eval.py` with retrieval module constants set first (issue 10, round 18).

    PARA18_SET='glossmatch.TRANSLATED_MIN_SHARED=2' python bench/para18_eval.py STORES VARIANT OUT_DIR r18 r17 ...

Each `module.NAME=value` (comma-separated) sets hindsight.retrieval.module.NAME (an int, or a float when the value
has a dot) before `para17_eval.py` runs with the same arguments (PARA17_SETTINGS and the rest as there).
"""

import importlib
import os
import runpy
from pathlib import Path

for item in filter(None, os.environ.get("PARA18_SET", "").split(",")):
    name, value = item.split("=")
    module, attr = name.rsplit(".", 1)
    setattr(importlib.import_module(f"hindsight.retrieval.{module}"), attr, float(value) if "." in value else int(value))
runpy.run_path(str(Path(__file__).with_name("para17_eval.py")), run_name="__main__")
