"""How well each candidate is calibrated for the label it was fitted on (test rows), beside the issue's checks.

    PYTHONPATH=src python bench/relev43/own_label.py ROWS_TEST.json MODELS.json OUT.json
"""

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts"), str(Path(__file__).parent)]

from calibrate_relevance import probabilities, reliability  # noqa: E402
from fit import list_labels  # noqa: E402

_spec = importlib.util.spec_from_file_location("relev43_report", Path(__file__).parent / "report.py")
assert _spec and _spec.loader
_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_report)
models = _report.models


def main() -> None:
    rows = json.loads(Path(sys.argv[1]).read_text())
    entries = json.loads(Path(sys.argv[2]).read_text())
    out = {}
    for name, model in models(Path(sys.argv[2])).items():
        key = entries[name]["label"] if name in entries else "labels"
        labels = [list_labels(r) if key == "list" else r[key] for r in rows]
        p = np.asarray([v for ps in probabilities(rows, model) for v in ps])
        y = np.asarray([v for ls in labels for v in ls])
        out[name] = {"label": key, **reliability(p, y)}
        print(name, key, {k: out[name][k] for k in ("base_rate", "brier", "log_loss", "ece")}, file=sys.stderr)
    Path(sys.argv[3]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
