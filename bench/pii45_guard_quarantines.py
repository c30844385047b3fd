"""Redaction round 45: what the guard reads in blind r40's PII rows it quarantined after redaction.

    PYTHONPATH=src .venv/bin/python bench/pii45_guard_quarantines.py OUT.json

For each "quarantined" row of bench/results/blind_r40_pii_fails.jsonl: the redacted text as stored, the guard's rule
hits, whether one is a hard rule, whether the classifier is consulted, and the verdict with its reasons.
"""
import json
import sys

from hindsight.safety.guard import WriteGuard, screen
from hindsight.safety.normalize import prepare
from hindsight.safety.redact import redact
from hindsight.safety.view import feature_view


def main() -> None:
    out = []
    for line in open("bench/results/blind_r40_pii_fails.jsonl", encoding="utf-8"):
        r = json.loads(line)
        if r["why"] != "quarantined":
            continue
        red = redact(r["text"]).text
        prepared = prepare(red)
        hits = WriteGuard._rule_hits(prepared, feature_view(prepared.text))
        verdict = screen(red)
        out.append({"category": r["category"], "stored": red, "rules": sorted(h.rule_id for h in hits),
                    "hard": WriteGuard._hard(prepared, hits), "suspicious": verdict.suspicious, "reasons": verdict.reasons})
        print(out[-1]["category"], out[-1]["reasons"], "hard" if out[-1]["hard"] else "")
    json.dump(out, open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
