"""Round 43 tidy: what `safety/rules.py` answers on every released guard text r1 - r38 (and the b twins), one JSON
line per text, so two trees' outputs can be compared byte for byte: the rules-only guard's verdict (suspicious,
category, reasons, score), `match_rules` hits, the classifier's lexicon bits (`FEATURE_LEXICONS`) and
`touches_sensitive_topic`; the full guard's verdict (classifier on, its embedding) on every `SAMPLE`-th text - the full
guard costs ~1 s a text on the shared 2-core machine, and the embedding does not read rules.py.

    PYTHONPATH=src .venv/bin/python bench/tidy43_guard_parity.py OUT.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hindsight.safety.guard import WriteGuard
from hindsight.safety.normalize import normalize_for_screening
from hindsight.safety.rules import FEATURE_LEXICONS, match_rules, touches_sensitive_topic

ROOT = Path("bench/data/blind")  # run from the repository root
SAMPLE = 100


def main(out: str) -> None:
    rules_only, full = WriteGuard(use_classifier=False), WriteGuard()
    files = sorted(ROOT.glob("r*/guard/*.jsonl"))
    seen = 0
    with open(out, "w", encoding="utf-8") as sink:
        for path in files:
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                if not line.strip():
                    continue
                text = json.loads(line)["text"]
                normalized = normalize_for_screening(text)
                row = {"file": str(path.relative_to(ROOT)), "n": n, "rules_only": rules_only.screen(text).to_dict(),
                       "rules": [(h.rule_id, h.category) for h in match_rules(normalized)],
                       "lexicons": "".join("1" if p.search(normalized) else "0" for p in FEATURE_LEXICONS),
                       "sensitive": touches_sensitive_topic(normalized)}
                if seen % SAMPLE == 0:
                    row["full"] = full.screen(text).to_dict()
                seen += 1
                sink.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
