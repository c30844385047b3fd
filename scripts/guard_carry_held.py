"""The correctly redacted PII-set notes the guard still holds, and what the view and the carry reading make of them.

    PYTHONPATH=src .venv/bin/python scripts/guard_carry_held.py /tmp/redact12/main/rows.jsonl > held.jsonl

Reads a `scripts/guard_carry_loro.py score` cache (scores at the shipped weights) and, for every PII-set text whose
redaction is right and that is held at the shipped carry threshold, writes one JSON line: the round's set, the
score, whether a hard rule fired, the view's features (`carried_value`, `moved_value`) with the sentence, move word
and destination that made it "moved", and this checkout's carry reading (`guard.carries_secret`, `outward`).
"""

from __future__ import annotations

import json
import sys

from hindsight.safety import view as v
from hindsight.safety.guard import CARRY_THRESHOLD, carries_secret
from hindsight.safety.normalize import prepare
from hindsight.safety.outward import sends_outward
from hindsight.safety.redact import redactor

SHIPPED = 0.75


def why_moved(text: str) -> list[dict[str, str]]:
    out = []
    for sentence in v._SENT.split(text):
        move, dest = v._MOVE.search(sentence), v._OUTWARD.search(v._SELF_OR_SAFE.sub(" ", sentence))
        if move and dest:
            out.append({"move": move.group(0), "destination": dest.group(0), "sentence": sentence.strip()[:200]})
    return out


def main() -> None:
    for line in open(sys.argv[1], encoding="utf-8"):
        r = json.loads(line)
        if r["set"] != "pii" or not r["redaction_ok"]:
            continue
        if not (r["hard"] or r["score"] >= (CARRY_THRESHOLD if r["carry"] else SHIPPED)):
            continue
        red = redactor(r["text"])[0]
        norm = prepare(red + "\n").text
        view = v.feature_view(norm)
        folded = v._fold_userinfo(norm)
        rec = {"writer": r["writer"], "kind": "pii" if r["pii"] else "lookalike", "category": r["category"],
               "score": round(r["score"], 3), "hard": r["hard"], "carried_value": view.carried_value,
               "moved_value": view.moved_value, "why_moved": why_moved(v._fold_userinfo(view.text)) if view.moved_value else [],
               "placeholder": bool(v._SECRET_PLACEHOLDER.search(folded)), "sends_outward": sends_outward(folded),
               "carry_now": carries_secret(view), "redacted": red}
        print(json.dumps(rec, ensure_ascii=False))


if __name__ == "__main__":
    main()
