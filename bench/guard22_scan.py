"""Every released text screened as the runtime screens it, with the pieces a reading needs (round 22).

    PYTHONPATH=src nice -n 10 .venv/bin/python bench/guard22_scan.py --cache-dir /tmp/guard22 --out /tmp/guard22/scan.jsonl

Like ``scripts/guard_parts_eval.py`` (every text of ``guard_lowo_fast.selected_examples`` with the PII sets, the
retrieval memories and ``tests/data/guard_benign_fixed.json``, redacted, screened by ``WriteGuard.screen`` with the
ONNX vector the write path hands it), but each row also keeps the whole text's classifier score, every marked part's
score and the redacted text, so ``bench/guard22_readings.py`` can apply a threshold reading offline (readings read the
text; the scores do not change with them). ``guard_lowo_fast`` puts this checkout's ``src`` first on the path, so
``flag`` / ``reasons`` are this checkout's verdict whatever ``PYTHONPATH`` says (and a part is scored only when the
whole did not flag); main's verdicts come from ``bench/guard22_main_screen.py``. ``--only``: the texts where a reading
fires (the other texts' thresholds are main's by construction).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXED = ROOT / "tests" / "data" / "guard_benign_fixed.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard22"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--only", type=Path, default=None,
                        help="screen only the texts of this JSON-lines file (a 'text' per line): the rows a reading can move")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "scripts"))
    sys.path.insert(1, str(ROOT / "bench"))
    import guard_lowo_fast as lf
    import guard_model as gm
    import numpy as np

    import hindsight.safety.guard as guard_module
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.normalize import prepare

    examples = lf.selected_examples(4, pii=True, retrieval=True)
    rows = [(e.writer, e.is_attack, e.text, e.kind or "") for e in examples]
    rows += [("fixed", False, str(item["content"]), "fixed") for item in json.loads(FIXED.read_text(encoding="utf-8"))]
    if args.only:
        wanted = {json.loads(x)["text"] for x in args.only.read_text(encoding="utf-8").splitlines() if x.strip()}
        rows = [r for r in rows if r[2] in wanted]
    redacted, _, _, _ = gm._prepared_cached([r[2] for r in rows], args.cache_dir)
    vectors = lf.runtime_vectors(redacted, args.cache_dir, "onnx")
    guard = WriteGuard()
    clf = guard.classifier
    assert clf is not None
    calls: list[tuple[str, float]] = []
    real = clf.attack_score

    def attack_score(vector: np.ndarray, text: str) -> tuple[float, str]:
        score, label = real(vector, text)
        calls.append((text, float(score)))
        return score, label

    clf.attack_score = attack_score  # type: ignore[method-assign]
    vec_now: list[np.ndarray] = []
    guard_module.embed_for_screening = lambda windows: list(vec_now)  # type: ignore[assignment]
    with args.out.open("w", encoding="utf-8", buffering=1) as out:
        for (writer, attack, text, kind), red, vec in zip(rows, redacted, vectors, strict=True):
            calls.clear()
            vec_now[:] = [vec]
            v = guard.screen(red, embedding=vec)
            prepared = prepare(red)
            whole = [s for t, s in calls if t == prepared.text]
            parts = [[t, round(s, 4)] for t, s in calls if t != prepared.text]
            out.write(json.dumps({"writer": writer, "attack": attack, "kind": kind, "flag": v.suspicious,
                                  "reasons": v.reasons, "whole": round(max(whole), 4) if whole else None,
                                  "parts": parts, "hidden": list(dict.fromkeys(prepared.hidden)),
                                  "text": text, "red": red}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
