"""The guard's verdict on every text of released guard sets, for a byte-identical check of two trees (issue 14,
write cost round 37: `safety/guard.py` split by job).

    PYTHONPATH=src .venv/bin/python bench/guard_verdicts37.py OUT.json bench/data/blind/r35/guard/set.jsonl ...
    PYTHONPATH=src .venv/bin/python bench/guard_verdicts37.py --cheap OUT.json bench/data/blind/*/guard/set.jsonl

Each text is redacted as the write path redacts it (`redact.redactor`) and screened by the default `WriteGuard`
(the shipped classifier, its own encoder: no vector handed in); written as JSON: the set, the row, the redactions'
count and the verdict (suspicious, category, reasons, score as `repr`). `--cheap`: no encoder - what the moved code
reads of each redacted text (the rule votes, whether a hard rule fired, whether the classifier is consulted, a long
text's scored windows), for every text of many sets.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hindsight.safety.guard import WriteGuard, consults_classifier, long_text_windows
from hindsight.safety.long_text import is_long
from hindsight.safety.normalize import prepare
from hindsight.safety.redact import redactor
from hindsight.safety.view import feature_view


def cheap(text: str) -> dict[str, object]:
    prepared = prepare(text)
    hits = WriteGuard._rule_hits(prepared, feature_view(prepared.text))
    return {"hits": [h.rule_id for h in hits], "hard": WriteGuard._hard(prepared, hits),
            "consults": consults_classifier(prepared.text, hits),
            "windows": long_text_windows(text) if is_long(prepared.text) else None}


def main() -> None:
    quick = sys.argv[1] == "--cheap"
    out_path, sets = Path(sys.argv[2 if quick else 1]), sys.argv[3 if quick else 2:]
    guard = WriteGuard()
    out = []
    for path in sets:
        for i, line in enumerate(Path(path).read_text().splitlines()):
            text = json.loads(line)["text"]
            redacted, found = redactor(text)
            if quick:
                out.append({"set": path, "row": i, "redactions": len(found), **cheap(redacted)})
                continue
            v = guard.screen(redacted)
            out.append({"set": path, "row": i, "redactions": len(found), "suspicious": v.suspicious,
                        "category": v.category, "reasons": v.reasons, "score": repr(v.score)})
    out_path.write_text(json.dumps(out, ensure_ascii=False, indent=0))
    print(len(out), "texts,", sum(bool(o.get("suspicious") or o.get("hard")) for o in out), "held" if not quick else "hard")


if __name__ == "__main__":
    main()
