"""Score main's relevance model and round 43's candidates on collected rows (LoCoMo test or the blind rounds).

    PYTHONPATH=src python bench/relev43/report.py locomo ROWS_TEST.json MODELS.json OUT.json
    PYTHONPATH=src python bench/relev43/report.py blind ROWS_BLIND.json MODELS.json OUT.json

MODELS.json maps a candidate's name to a calibration entry (`RelevanceModel.to_entry`); main's is
bench/relev43/main_model.json (the calibration file at main). Every model reads the same captured inputs.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "bench" / "relevance2")]

from calibrate_relevance import criteria, probabilities, sweep  # noqa: E402
from report import blind as blind_report  # noqa: E402

from hindsight.retrieval.relevance import DEFAULT_MODEL, RelevanceModel, from_entry  # noqa: E402

HERE = Path(__file__).parent


def models(path: Path) -> dict[str, RelevanceModel]:
    main = from_entry(json.loads((HERE / "main_model.json").read_text())[DEFAULT_MODEL])
    out = {"main": main} if main else {}
    for name, entry in json.loads(path.read_text()).items():
        model = from_entry(entry)
        if model is not None:
            out[name] = model
    return out


def main() -> None:
    kind, rows_path, models_path, target = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    rows = json.loads(rows_path.read_text())
    out = {}
    for name, model in models(models_path).items():
        if kind == "locomo":
            probs = probabilities(rows, model)
            out[name] = {"at_0.5": criteria(rows, probs), "sweep": sweep(rows, probs)}
        else:
            out[name] = blind_report(rows, {name: model})[name]
        print(name, {k: v for k, v in out[name].get("at_0.5", {}).items() if k != "curve"}, file=sys.stderr)
    target.write_text(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
