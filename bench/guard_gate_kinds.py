"""Which gate opens the guard's classifier, and what a higher threshold for length-only texts would cost.

The classifier is consulted on a rule hit, a sensitive topic, a framing cue, or any text of a sentence's length
(``guard.consults_classifier``). This screens every released text whose gate opens by length alone (guard writers'
attacks and benign rows, retrieval memories of round 18 on) through the shipped ``WriteGuard`` (unredacted text) and
counts what stays flagged if such texts needed a score of at least t.

    PYTHONPATH=src .venv/bin/python bench/guard_gate_kinds.py --out bench/results/guard_gate_kinds_r25.json
"""

from __future__ import annotations

import argparse
import glob
import json
import re
from collections import Counter

from hindsight.safety import guard as G
from hindsight.safety.features import framing_gate
from hindsight.safety.normalize import prepare
from hindsight.safety.rules import touches_sensitive_topic

RULES_ONLY = G.WriteGuard(use_classifier=False)


def gate(text: str) -> str:
    p = prepare(text)
    if RULES_ONLY._rule_hits(p, G.feature_view(p.text)):
        return "hits"
    if touches_sensitive_topic(p.text):
        return "sensitive"
    if framing_gate(p.text):
        return "framing"
    return "length" if G._words(p.text) >= G.OPEN_GATE_WORDS else "closed"


def released(first_retrieval_round: int = 18) -> list[tuple[str, str, str]]:
    items = []
    for f in sorted(glob.glob("bench/data/blind/r*/guard/set.jsonl")):
        for line in open(f, encoding="utf-8"):
            r = json.loads(line)
            items.append((f.split("/")[3], r.get("label") or r.get("kind"), r["text"]))
    for f in sorted(glob.glob("bench/data/blind/r*/retrieval/memories.jsonl")):
        rnd = f.split("/")[3]
        if int(re.sub(r"\D", "", rnd)) >= first_retrieval_round:
            items += [(rnd, "retrieval", json.loads(line)["content"]) for line in open(f, encoding="utf-8")]
    return items


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    guard = G.WriteGuard()
    items = released()
    kinds = Counter((label, gate(text)) for _, label, text in items)
    scored = [(label, guard.screen(text)) for _, label, text in items if gate(text) == "length"]
    flagged = {lab: sum(1 for la, v in scored if la == lab and v.suspicious) for lab in ("attack", "benign", "retrieval")}
    total = Counter(la for la, _ in scored)
    raised = {str(t): {lab: sum(1 for la, v in scored if la == lab and v.suspicious and v.score >= t)
                       for lab in ("attack", "benign", "retrieval")} for t in (0.7, 0.75, 0.8, 0.85, 0.9, 0.95)}
    out = {"gates": {f"{a}/{b}": n for (a, b), n in sorted(kinds.items())}, "length_only": dict(total),
           "length_only_flagged": flagged, "flagged_if_length_only_needs_t": raised}
    print(json.dumps(out, indent=1))
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
