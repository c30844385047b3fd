"""supwrite32: `blind_eval.py` with the (not shipped) retire pick applied at the end of each write's hygiene check,
read from a weights file (a fold's: fitted without the round measured) - an engine check of the offline replay.

    PYTHONPATH=src:bench python bench/supwrite32_engine.py WEIGHTS.json retrieval bench/data/blind/r30

Each `HygieneChecker.judge` call of a write is collected (the candidate, its cosine, the judge's verdict) and
`supwrite32_pick.pick` re-decides the write's retirement after `check`, as the one call in `check` would.
"""
import json
import runpy
import sys
from pathlib import Path

import supwrite32_pick as rp

import hindsight.write.hygiene as hygiene

if __name__ == "__main__":
    model = rp.model_from(json.loads(Path(sys.argv[1]).read_text()))
    check, judge = hygiene.HygieneChecker.check, hygiene.HygieneChecker.judge
    seen: list[tuple] = []

    def judged(self, old, new, similarity):  # type: ignore[no-untyped-def]
        verdict = judge(self, old, new, similarity)
        seen.append((old, verdict, similarity))
        return verdict

    def checked(self, record, embedding):  # type: ignore[no-untyped-def]
        seen.clear()
        decision = check(self, record, embedding)
        cands = [(old, v, 0) for old, v, _ in seen]
        return rp.pick(record, cands, {old.id: s for old, _, s in seen}, decision, model)

    hygiene.HygieneChecker.judge = judged  # type: ignore[method-assign]
    hygiene.HygieneChecker.check = checked  # type: ignore[method-assign]
    sys.argv = ["blind_eval.py", *sys.argv[2:]]
    runpy.run_path(str(Path(__file__).parent / "blind_eval.py"), run_name="__main__")
