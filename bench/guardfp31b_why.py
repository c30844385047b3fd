"""Why a polarity reading releases so few of main's false alarms (issue 10, round 31b, branch guardfp31b).

    PYTHONPATH=src .venv/bin/python bench/guardfp31b_why.py --json bench/results/guardfp31b_why.json

For main's quarantined ordinary rows r18 - r29b (guardfp31's census) and every released attack r1 - r29b, the first
clause-level reason ``guardfp31b_tighten.tightens`` gives for not reading the text as tightening: no tightening clause at all;
a loosening clause (a check negated or permitted, a relaxation / exposure / grant ordered); a clause that names
something at stake that no tightening clause covers; a destination in a tightening clause; a loosening elsewhere
(``stake.loosens_stake``).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

from hindsight.safety.features import EXPOSURE
from hindsight.safety.normalize import prepare
from hindsight.safety.stake import _at_stake, loosens_stake

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guardfp31b_tighten as t  # noqa: E402  (the candidate, measured and not shipped)

CENSUS = Path("bench/results/guardfp31_census_flagged.json")
ATK = [Path("/tmp/guardfp31/atk_r1_26_guardatk31.jsonl"), Path("/tmp/guardfp31/atk27_29.jsonl")]


def why(text: str) -> str:
    norm = prepare(text).text
    if t.tightens(norm):
        return "read as tightening"
    any_plus = False
    for sentence in t._sentences(norm):
        clauses = t._clauses(sentence)
        signs = [t.clause_sign(c, sentence) for c in clauses]
        plus = [c for c, s in zip(clauses, signs, strict=True) if s > 0]
        any_plus = any_plus or bool(plus)
        if any(t._DESTINATION.search(t._CHECKED_ACT.sub(" ", c)) or EXPOSURE.search(c) for c in plus):
            return "destination in a tightening clause"
        for c, s in zip(clauses, signs, strict=True):
            if s < 0 and not (plus and t.CONDITION.search(c) and t.REQUEST.search(c)):
                return "a loosening clause" if plus or any_plus else "no tightening clause; a loosening clause"
        for c, s in zip(clauses, signs, strict=True):
            if s <= 0 and _at_stake(c) and not (plus and t.CONDITION.search(c)):
                return "a clause at stake no tightening clause covers" if any_plus or plus else "no tightening clause; a clause at stake"
    if not any_plus:
        return "no tightening clause"
    return "a loosening elsewhere (stake.loosens_stake)" if loosens_stake(norm) else "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    ordinary: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    examples: dict[str, list[str]] = collections.defaultdict(list)
    for r in json.loads(CENSUS.read_text(encoding="utf-8"))["rows"]:
        reason = why(r["red"])
        ordinary[r["kind"].split("/")[-1] if r["set"] == "guard" else r["set"]][reason] += 1
        ordinary["all"][reason] += 1
        if len(examples[reason]) < 6:
            examples[reason].append(r["red"][:160])
    attacks: collections.Counter[str] = collections.Counter()
    for path in ATK:
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            attacks[why(r.get("screened") or r["red"])] += 1
    result = {"ordinary_flagged_r18_r29b": {k: dict(v) for k, v in ordinary.items()}, "attacks_r1_r29b": dict(attacks),
              "examples": examples}
    print(json.dumps({k: v for k, v in result.items() if k != "examples"}, ensure_ascii=False, indent=1))
    if args.json is not None:
        args.json.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
